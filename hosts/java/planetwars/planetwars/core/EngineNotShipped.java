// arbiter (MIT): the course's engine package, planetwars.core, is not shipped; this class only
// makes the package exist, so that a strategy's unused `import planetwars.core.*;` compiles.
package planetwars.core;

/** Nothing: arbiter plays the game itself (src/games/planetwars/). */
public final class EngineNotShipped {
    private EngineNotShipped() {}
}
