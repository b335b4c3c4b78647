// A test strategy for arbiter (MIT): loops for ever from its third turn.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class Looper implements IStrategy {
    private int turns;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        turns++;
        long n = 0;
        while (turns > 2) {
            n++;
        }
    }

    @Override
    public String getName() {
        return "Looper";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
