// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

/** Whose a planet or shuttle is, from the viewer's side. */
public enum Owner {
    /** The viewer's. */
    SELF,
    /** The other player's. */
    OPPONENT,
    /** Nobody's. */
    NEUTRAL,
}
