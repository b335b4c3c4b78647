// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

import java.util.List;
import java.util.Queue;

/** A player of PlanetWars: the class a student submits implements this. */
public interface IStrategy {
    /**
     * Plays one turn: look at the planets and add events to the queue.
     *
     * @param planets          every planet of the map; those the player sees in detail are
     *                         {@link IVisiblePlanet}s
     * @param planetOperations makes the events
     * @param eventsToExecute  the events to carry out, in order, when the turn ends
     */
    void takeTurn(List<IPlanet> planets, IPlanetOperations planetOperations, Queue<IEvent> eventsToExecute);

    /** The name scoreboards show. */
    String getName();

    /** Whether the strategy takes part in the class tournament. */
    boolean compete();
}
