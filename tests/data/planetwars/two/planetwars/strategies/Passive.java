// A test strategy for arbiter (MIT): gives no order (beside a copy of the course example).
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class Passive implements IStrategy {
    private int turns;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        turns++;
        // Gives no order.
    }

    @Override
    public String getName() {
        return "Passive";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
