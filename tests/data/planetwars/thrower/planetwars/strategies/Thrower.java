// A test strategy for arbiter (MIT): throws from its third turn.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class Thrower implements IStrategy {
    private int turns;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        turns++;
        if (turns > 2) {
            throw new IllegalStateException("no planet to attack on turn " + turns);
        }
    }

    @Override
    public String getName() {
        return "Thrower";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
