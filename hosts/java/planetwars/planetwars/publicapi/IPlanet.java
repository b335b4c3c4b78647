// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

import java.util.Set;

/**
 * A planet as every player knows it: its id and its edges. A planet the player owns or that
 * neighbours one of its planets is also an {@link IVisiblePlanet}, with the details.
 */
public interface IPlanet {
    /** The planet's id, the same from one turn to the next (0 to the number of planets - 1). */
    int getId();

    /** The edges from this planet: each edge's source is this planet, its destination a neighbour. */
    Set<IEdge> getEdges();
}
