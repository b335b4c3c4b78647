// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

import java.util.List;

/** A planet the player owns or that neighbours one it owns: seen with its details. */
public interface IVisiblePlanet extends IPlanet {
    /** The growth rate in percent: the population grows by this share each unit of time. */
    int getHabitability();

    /** The most people the planet supports. */
    long getSize();

    /** The people on it now. */
    long getPopulation();

    /** Whose it is, from the viewer's side. */
    Owner getOwner();

    /** Whether a player started the game on it. */
    boolean isHomeworld();

    /** The shuttles bound for it. */
    List<IShuttle> getIncomingShuttles();
}
