/*
 * arbiter's adapter for CSCI 1933's PlanetWars: finds the submission's class implementing
 * planetwars.publicapi.IStrategy, makes one per game, and plays its turns through
 * arbiter.host.planetwars.Bridge, which is compiled with the submission so that it shares the
 * student's API classes. Written for arbiter (MIT). See docs/PROTOCOL.md, "PlanetWars".
 */
package arbiter.host;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/** Requests: load {class | candidates}, new {player}, turn {view}. */
public final class PlanetwarsAdapter implements Adapter {
    private static final String BRIDGE = "arbiter.host.planetwars.Bridge";

    private String strategyClass;
    private Method pick;
    private Method create;
    private Method describe;
    private Method turn;
    private Method partial;
    private Object strategy;
    private String lastOp;

    @Override
    public void reset(ClassLoader loader) throws Throwable {
        Class<?> bridge;
        try {
            bridge = loader.loadClass(BRIDGE);
        } catch (ClassNotFoundException e) {
            throw Adapter.Failure.load("arbiter's PlanetWars bridge is missing from the compiled submission");
        }
        pick = bridge.getMethod("pick", List.class);
        create = bridge.getMethod("create", String.class);
        describe = bridge.getMethod("describe", Object.class);
        turn = bridge.getMethod("turn", Object.class, Map.class);
        partial = bridge.getMethod("partial");
        strategy = null;
    }

    @Override
    public Object partial() {
        try {
            return partial == null || !"turn".equals(lastOp) ? null : partial.invoke(null);
        } catch (ReflectiveOperationException e) {
            return null;
        }
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
                    strategy = create.invoke(null, strategyClass);
                } catch (InvocationTargetException e) {
                    throw loadFailure(e);
                }
                return describe.invoke(null, strategy);
            }
            case "turn":
                if (strategy == null) {
                    throw Adapter.Failure.protocol("no strategy yet: send `new` first");
                }
                return turn.invoke(null, strategy, args);
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
            return (String) pick.invoke(null, candidates);
        } catch (InvocationTargetException e) {
            throw loadFailure(e);
        }
    }

    /** The bridge's own refusals (no such class, no constructor) are load errors; the rest is the student's. */
    private static Throwable loadFailure(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IllegalStateException && cause.getStackTrace().length > 0
                && cause.getStackTrace()[0].getClassName().equals(BRIDGE)) {
            return Adapter.Failure.load(cause.getMessage());
        }
        return cause == null ? e : cause;
    }
}
