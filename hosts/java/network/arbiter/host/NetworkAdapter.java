/*
 * arbiter's adapter for CS61B's Network: turns the host protocol's requests into calls on the
 * student's player.MachinePlayer, and the Move objects it returns into the course's notation.
 * Written for arbiter (MIT). See docs/PROTOCOL.md, "Network".
 */
package arbiter.host;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * Requests: load {class} (a MachinePlayer in another package than player, as CS61B's tournament
 * builds name it), new {color, depth?}, force {move}, opponent {move}, choose {}.
 */
public final class NetworkAdapter implements Adapter {
    private ClassLoader loader;
    private Object player;
    /** The player's class: player.MachinePlayer unless load names another. */
    private String playerClass = "player.MachinePlayer";

    @Override
    public void reset(ClassLoader loader) {
        this.loader = loader;
        this.player = null;
    }

    @Override
    public Object call(String op, Map<String, Object> args) throws Throwable {
        switch (op) {
            case "load":
                if (!(args.get("class") instanceof String)) {
                    throw Adapter.Failure.protocol("load needs a class name");
                }
                playerClass = (String) args.get("class");
                return null;
            case "new":
                player = create(args);
                return null;
            case "force":
                return decide("forceMove", args);
            case "opponent":
                return decide("opponentMove", args);
            case "choose": {
                Object move = method("chooseMove").invoke(player());
                return move == null ? null : text(move);
            }
            default:
                throw Adapter.Failure.protocol("unknown op " + op);
        }
    }

    /** new MachinePlayer(color, depth), or new MachinePlayer(color) when no depth is given. */
    private Object create(Map<String, Object> args) throws Throwable {
        Object color = args.get("color");
        int c;
        if ("white".equals(color)) {
            c = 1;
        } else if ("black".equals(color)) {
            c = 0;
        } else {
            throw Adapter.Failure.protocol("color must be \"black\" or \"white\", not " + color);
        }
        Class<?> cls = loader.loadClass(playerClass);
        Object depth = args.get("depth");
        try {
            if (depth instanceof Number) {
                Constructor<?> two = cls.getConstructor(int.class, int.class);
                return two.newInstance(c, ((Number) depth).intValue());
            }
            return cls.getConstructor(int.class).newInstance(c);
        } catch (NoSuchMethodException e) {
            throw Adapter.Failure.load(playerClass + " has no public constructor MachinePlayer(int"
                    + (depth instanceof Number ? ", int)" : ")"));
        }
    }

    private Object decide(String name, Map<String, Object> args) throws Throwable {
        Object given = args.get("move");
        if (!(given instanceof String)) {
            throw Adapter.Failure.protocol(name + " needs a move string");
        }
        Class<?> moveClass = loader.loadClass("player.Move");
        Object move = parse((String) given, moveClass);
        return method(name, moveClass).invoke(player(), move);
    }

    private Object player() throws Adapter.Failure {
        if (player == null) {
            throw Adapter.Failure.protocol("no player yet: send `new` first");
        }
        return player;
    }

    private Method method(String name, Class<?>... parameters) throws Adapter.Failure {
        Method m;
        try {
            m = player().getClass().getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw Adapter.Failure.load(playerClass + " has no public method " + name);
        }
        m.setAccessible(true);
        return m;
    }

    /** `add XY`, `step NEWXY OLDXY` (the order of Move's fields) or `quit`, as a player.Move. */
    private static Object parse(String text, Class<?> moveClass) throws Throwable {
        String[] w = text.trim().split("\\s+");
        if (w.length == 1 && w[0].equals("quit")) {
            return moveClass.getConstructor().newInstance();
        }
        if (w.length == 2 && w[0].equals("add") && square(w[1])) {
            return moveClass.getConstructor(int.class, int.class)
                    .newInstance(digit(w[1], 0), digit(w[1], 1));
        }
        if (w.length == 3 && w[0].equals("step") && square(w[1]) && square(w[2])) {
            return moveClass.getConstructor(int.class, int.class, int.class, int.class)
                    .newInstance(digit(w[1], 0), digit(w[1], 1), digit(w[2], 0), digit(w[2], 1));
        }
        throw Adapter.Failure.protocol("not a move: " + text);
    }

    private static boolean square(String s) {
        return s.length() == 2 && Character.isDigit(s.charAt(0)) && Character.isDigit(s.charAt(1));
    }

    private static int digit(String s, int i) {
        return s.charAt(i) - '0';
    }

    /** A player.Move in the course's notation, whatever its fields hold (arbiter judges them). */
    private static String text(Object move) throws Throwable {
        Class<?> c = move.getClass();
        int kind = c.getField("moveKind").getInt(move);
        int x1 = c.getField("x1").getInt(move);
        int y1 = c.getField("y1").getInt(move);
        int x2 = c.getField("x2").getInt(move);
        int y2 = c.getField("y2").getInt(move);
        switch (kind) {
            case 0:
                return "quit";
            case 1:
                return "add " + x1 + y1;
            case 2:
                return "step " + x1 + y1 + " " + x2 + y2;
            default:
                return "moveKind " + kind + " (" + x1 + y1 + " " + x2 + y2 + ")";
        }
    }
}
