/*
 * arbiter's adapter for CSCI 1933's PlanetWars: finds the submission's class implementing
 * planetwars.publicapi.IStrategy, makes one per game, and plays its turns through
 * arbiter.host.planetwars.Bridge, loaded with the course's API above the submission's classes.
 * Written for arbiter (MIT). See docs/PROTOCOL.md, "PlanetWars".
 */
package arbiter.host;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;

import arbiter.host.planetwars.Bridge;

/** Requests: load {class | candidates}, new {player}, turn {view}. */
public final class PlanetwarsAdapter implements Adapter {
    private static final String BRIDGE = Bridge.class.getName();

    private ClassLoader loader;
    private String strategyClass;
    private Object strategy;
    private String lastOp;

    @Override
    public void reset(ClassLoader loader) {
        this.loader = loader;
        Bridge.forget();
        strategy = null;
    }

    @Override
    public void forget() {
        loader = null;
        strategy = null;
        Bridge.forget();
    }

    @Override
    public Object partial() {
        return "turn".equals(lastOp) ? Bridge.partial() : null;
    }

    @Override
    public Object call(String op, Map<String, Object> args) throws Throwable {
        lastOp = op;
        switch (op) {
            case "load":
                strategyClass = choose(args);
                return null;
            case "new": {
                if (strategyClass == null) {
                    strategyClass = choose(args);
                }
                try {
                    strategy = Bridge.create(strategyClass, loader);
                } catch (IllegalStateException | InvocationTargetException e) {
                    throw loadFailure(e);
                }
                return Bridge.describe(strategy);
            }
            case "turn":
                if (strategy == null) {
                    throw Adapter.Failure.protocol("no strategy yet: send `new` first");
                }
                return Bridge.turn(strategy, args);
            default:
                throw Adapter.Failure.protocol("unknown op " + op);
        }
    }

    /** The class named by {"class": ...}, else the one implementing IStrategy among {"candidates": [...]}. */
    private String choose(Map<String, Object> args) throws Throwable {
        Object named = args.get("class");
        if (named instanceof String) {
            return (String) named;
        }
        Object candidates = args.get("candidates");
        if (!(candidates instanceof List)) {
            throw Adapter.Failure.protocol("load needs {\"class\": NAME} or {\"candidates\": [NAMES]}");
        }
        try {
            @SuppressWarnings("unchecked")
            List<Object> names = (List<Object>) candidates;
            return Bridge.pick(names, loader);
        } catch (IllegalStateException e) {
            throw loadFailure(e);
        }
    }

    /** The bridge's own refusals (no such class, no constructor) are load errors; the rest is the student's. */
    private static Throwable loadFailure(Exception e) {
        Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
        if (cause instanceof IllegalStateException && cause.getStackTrace().length > 0
                && cause.getStackTrace()[0].getClassName().equals(BRIDGE)) {
            return Adapter.Failure.load(cause.getMessage());
        }
        return cause == null ? e : cause;
    }
}
