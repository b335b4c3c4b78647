// arbiter's Java host: the part a game supplies. MIT licence. Part of arbiter.
package arbiter.host;

import java.util.Map;

/** How the host talks to one game's submissions (see docs/PROTOCOL.md). */
public interface Adapter {
    /**
     * Called with a fresh class loader over the submission's classes, at start and on every
     * {@code reset}: forget every object made with the previous one.
     */
    void reset(ClassLoader loader) throws Throwable;

    /** The case or game is over ({@code end}): drop every object of the submission's. */
    default void forget() {}

    /**
     * Answers one request. Returns a JSON value: null, Boolean, Number, String, List or Map.
     * Throws {@link Failure} for a load or protocol error; anything else the submission threw
     * (unwrapped from reflection) is reported as an exception.
     */
    Object call(String op, Map<String, Object> args) throws Throwable;

    /**
     * After a call threw: what the submission had done before it threw, as a JSON value, or
     * null. PlanetWars gives the orders queued before the exception (its course's engine
     * carries them out).
     */
    default Object partial() {
        return null;
    }

    /** A load or protocol error, as opposed to an exception thrown by the submission. */
    final class Failure extends Exception {
        final String kind;

        public Failure(String kind, String message) {
            super(message);
            this.kind = kind;
        }

        /** The submission could not be loaded (a class or constructor is missing). */
        public static Failure load(String message) {
            return new Failure("load", message);
        }

        /** The request was not understood. */
        public static Failure protocol(String message) {
            return new Failure("protocol", message);
        }
    }
}
