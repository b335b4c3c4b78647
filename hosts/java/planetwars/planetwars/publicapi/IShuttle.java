// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

/** People in flight from one planet to a neighbour. */
public interface IShuttle {
    /** The people on board. */
    long getNumberPeople();

    /** Whose shuttle it is, from the viewer's side. */
    Owner getOwner();

    /** The planet it left. */
    int getSourcePlanetId();

    /** The planet it is bound for. */
    int getDestinationPlanetId();

    /** Units of time until it lands. */
    int getTurnsToArrival();
}
