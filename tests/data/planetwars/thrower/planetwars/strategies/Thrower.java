// A test strategy for arbiter (MIT): from its third turn, queues one person from each of its
// planets to a neighbour, then throws.
package planetwars.strategies;

import java.util.List;
import java.util.Queue;

import planetwars.publicapi.IEdge;
import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;
import planetwars.publicapi.IVisiblePlanet;
import planetwars.publicapi.Owner;

public class Thrower implements IStrategy {
    private int turns;

    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        turns++;
        if (turns > 2) {
            for (IPlanet p : planets) {
                if (p instanceof IVisiblePlanet && ((IVisiblePlanet) p).getOwner() == Owner.SELF
                        && ((IVisiblePlanet) p).getPopulation() > 1) {
                    for (IEdge e : p.getEdges()) {
                        IPlanet to = planets.get(e.getDestinationPlanetId());
                        events.offer(ops.transferPeople(p, to, 1));
                        break;
                    }
                }
            }
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
