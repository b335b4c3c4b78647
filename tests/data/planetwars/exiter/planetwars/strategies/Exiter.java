// A test strategy for arbiter (MIT): exits the JVM on its third turn.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class Exiter implements IStrategy {
    private int turns;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        turns++;
        if (turns > 2) {
            System.exit(3);
        }
    }

    @Override
    public String getName() {
        return "Exiter";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
