// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

/** A connection leaving one planet for a neighbouring one. */
public interface IEdge {
    /** The planet the edge leaves: the planet whose {@link IPlanet#getEdges()} holds it. */
    int getSourcePlanetId();

    /** The neighbouring planet the edge reaches. */
    int getDestinationPlanetId();

    /** The number of turns a shuttle takes along this edge (at least 1). */
    int getLength();
}
