// A test strategy for arbiter (MIT): takes the neighbours it can take, sends the people of
// planets with no target towards the nearest frontier (a breadth-first search of its planets),
// and keeps a guard at home against what it sees coming.
package planetwars.strategies;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import planetwars.publicapi.IEdge;
import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IShuttle;
import planetwars.publicapi.IStrategy;
import planetwars.publicapi.IVisiblePlanet;
import planetwars.publicapi.Owner;

public class Expander implements IStrategy {
    @Override
    public void takeTurn(List<IPlanet> planets, IPlanetOperations ops, Queue<IEvent> events) {
        Map<Integer, IPlanet> byId = new HashMap<>();
        List<IVisiblePlanet> mine = new ArrayList<>();
        List<IVisiblePlanet> targets = new ArrayList<>();
        for (IPlanet p : planets) {
            byId.put(p.getId(), p);
            if (p instanceof IVisiblePlanet) {
                IVisiblePlanet v = (IVisiblePlanet) p;
                (v.getOwner() == Owner.SELF ? mine : targets).add(v);
            }
        }
        // People each planet can spare: what it holds less what it sees coming against it.
        Map<Integer, Long> spare = new HashMap<>();
        for (IVisiblePlanet p : mine) {
            spare.put(p.getId(), p.getPopulation() / 2 - hostile(p));
        }
        // The cheapest targets first; each taken by the planets next to it together.
        targets.sort((a, b) -> Long.compare(need(a), need(b)));
        for (IVisiblePlanet target : targets) {
            long need = need(target);
            List<IVisiblePlanet> attackers = new ArrayList<>();
            long total = 0;
            for (IEdge e : target.getEdges()) {
                IPlanet n = byId.get(e.getDestinationPlanetId());
                if (n instanceof IVisiblePlanet && ((IVisiblePlanet) n).getOwner() == Owner.SELF
                        && spare.get(n.getId()) > 0) {
                    attackers.add((IVisiblePlanet) n);
                    total += spare.get(n.getId());
                    if (target.getOwner() == Owner.OPPONENT) {
                        need += target.getPopulation() * target.getHabitability() / 100 * e.getLength();
                    }
                }
            }
            if (total < need || attackers.isEmpty()) {
                continue;
            }
            for (IVisiblePlanet from : attackers) {
                long left = spare.get(from.getId());
                long send = Math.min(need, left);
                if (send <= 0) {
                    continue;
                }
                events.offer(ops.transferPeople(from, target, send));
                spare.put(from.getId(), left - send);
                need -= send;
                if (need <= 0) {
                    break;
                }
            }
        }
        // Planets behind the front send what they spare towards it.
        for (IVisiblePlanet from : mine) {
            long left = spare.get(from.getId());
            if (left > 0 && from.getPopulation() * 10 >= from.getSize() * 8 && !frontier(from, byId)) {
                IPlanet step = towardsFrontier(from, byId);
                if (step != null) {
                    events.offer(ops.transferPeople(from, step, left));
                }
            }
        }
    }

    private static long hostile(IVisiblePlanet p) {
        long threat = 0;
        for (IShuttle s : p.getIncomingShuttles()) {
            if (s.getOwner() == Owner.OPPONENT) {
                threat += s.getNumberPeople();
            }
        }
        return threat;
    }

    /**
     * People needed to take a planet: more than its defenders' 110% and what the opponent sends
     * there, less what is already on the way.
     */
    private static long need(IVisiblePlanet target) {
        long defenders = target.getOwner() == Owner.NEUTRAL ? 0 : target.getPopulation();
        long mine = 0;
        for (IShuttle s : target.getIncomingShuttles()) {
            if (s.getOwner() == Owner.SELF) {
                mine += s.getNumberPeople();
            }
        }
        return Math.max(1, (defenders + hostile(target)) * 11 / 10 + 2 - mine);
    }

    private static boolean frontier(IPlanet p, Map<Integer, IPlanet> byId) {
        for (IEdge e : p.getEdges()) {
            IPlanet n = byId.get(e.getDestinationPlanetId());
            if (!(n instanceof IVisiblePlanet) || ((IVisiblePlanet) n).getOwner() != Owner.SELF) {
                return true;
            }
        }
        return false;
    }

    /** The first step from `start` on a shortest path (in edges) through own planets to a frontier. */
    private static IPlanet towardsFrontier(IPlanet start, Map<Integer, IPlanet> byId) {
        Map<Integer, Integer> firstStep = new HashMap<>();
        Queue<IPlanet> queue = new ArrayDeque<>();
        queue.add(start);
        firstStep.put(start.getId(), -1);
        while (!queue.isEmpty()) {
            IPlanet p = queue.poll();
            if (p != start && frontier(p, byId)) {
                return byId.get(firstStep.get(p.getId()));
            }
            for (IEdge e : p.getEdges()) {
                IPlanet n = byId.get(e.getDestinationPlanetId());
                if (n instanceof IVisiblePlanet && ((IVisiblePlanet) n).getOwner() == Owner.SELF
                        && !firstStep.containsKey(n.getId())) {
                    firstStep.put(n.getId(), p == start ? n.getId() : firstStep.get(p.getId()));
                    queue.add(n);
                }
            }
        }
        return null;
    }

    @Override
    public String getName() {
        return "Expander";
    }

    @Override
    public boolean compete() {
        return false;
    }
}
