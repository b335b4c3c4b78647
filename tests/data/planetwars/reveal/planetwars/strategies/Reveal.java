// A test strategy for arbiter (MIT): shows the order of its planets and of each planet's edges
// as orders of 0 people (refused, but kept in the game's record in the order given), then sends
// half of each of its planets with 4 people or more to the first neighbour it does not own.
package planetwars.strategies;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import planetwars.publicapi.IEdge;
import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IStrategy;
import planetwars.publicapi.IVisiblePlanet;
import planetwars.publicapi.Owner;

public class Reveal implements IStrategy {
    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        Map<Integer, IPlanet> byId = new HashMap<>();
        for (IPlanet p : planets) {
            byId.put(p.getId(), p);
        }
        for (IPlanet p : planets) {
            for (IEdge e : p.getEdges()) {
                events.add(ops.transferPeople(p, byId.get(e.getDestinationPlanetId()), 0));
            }
        }
        for (IPlanet p : planets) {
            if (!(p instanceof IVisiblePlanet)) {
                continue;
            }
            IVisiblePlanet mine = (IVisiblePlanet) p;
            if (mine.getOwner() != Owner.SELF || mine.getPopulation() < 4) {
                continue;
            }
            for (IEdge e : mine.getEdges()) {
                IPlanet other = byId.get(e.getDestinationPlanetId());
                if (other instanceof IVisiblePlanet && ((IVisiblePlanet) other).getOwner() != Owner.SELF) {
                    events.add(ops.transferPeople(mine, other, mine.getPopulation() / 2));
                    break;
                }
            }
        }
    }

    @Override
    public String getName() {
        return "Reveal";
    }

    @Override
    public boolean compete() {
        return true;
    }
}
