// arbiter's rendering of CSCI 1933 PlanetWars' public API (signatures as the course's, written
// for arbiter; MIT). See docs/PROTOCOL.md, "PlanetWars".
package planetwars.publicapi;

/**
 * Something a strategy asks the engine to do: made by
 * {@link IPlanetOperations#transferPeople(IPlanet, IPlanet, long)} and put in the queue that
 * {@link IStrategy#takeTurn} receives. Events of other classes are ignored.
 */
public interface IEvent {
}
