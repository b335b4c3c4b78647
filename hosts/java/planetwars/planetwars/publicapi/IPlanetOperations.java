// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

import java.util.List;
import java.util.Queue;

/** What a strategy may ask of the engine during its turn. */
public interface IPlanetOperations {
    /**
     * An event sending {@code numPeople} people from {@code from} to {@code to}. It takes effect
     * only once added to the queue given to {@link IStrategy#takeTurn(List, IPlanetOperations, Queue)};
     * an illegal transfer (not from the player's planet, not to a neighbour, more people than
     * the planet holds, fewer than one) is refused by the engine then.
     */
    IEvent transferPeople(IPlanet from, IPlanet to, long numPeople);
}
