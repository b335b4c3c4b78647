// A hostile test strategy for arbiter (MIT): each turn returns at once, but a thread it started
// on its first turn computes all the time in between. That time is the strategy's: charged to
// its turns, and a verdict of its own.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;

public class Spinner implements IStrategy {
    private static volatile long work;
    private Thread helper;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        if (helper == null) {
            helper = new Thread(() -> {
                while (true) {
                    work++;
                }
            }, "helper");
            helper.setDaemon(true);
            helper.start();
        }
    }

    @Override
    public String getName() {
        return "Spinner";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
