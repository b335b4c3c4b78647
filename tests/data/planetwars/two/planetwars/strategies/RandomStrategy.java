// A test file for arbiter (MIT): stands for the course's example strategy that students keep
// beside their own; arbiter passes over it when the submission has another strategy.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class RandomStrategy implements IStrategy {
    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        throw new UnsupportedOperationException("the example is never the one graded");
    }

    @Override
    public String getName() {
        return "Random";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
