/*
 * arbiter's adapter for CSCI 1933's PlanetWars: finds the submission's class implementing
 * planetwars.publicapi.IStrategy, makes one per game, and plays its turns through
 * arbiter.host.planetwars.Bridge, loaded with the course's API above the submission's classes.
 * Written for arbiter (MIT). See docs/PROTOCOL.md, "PlanetWars".
 */
package arbiter.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import arbiter.host.planetwars.Bridge;

/** Requests: load {class | candidates | jar}, new {player}, turn {view}. */
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

    /**
     * The class named by {"class": ...}, else the one implementing IStrategy among
     * {"candidates": [...]}, or among the classes of the jar {"jar": PATH} that name it.
     */
    private String choose(Map<String, Object> args) throws Throwable {
        Object named = args.get("class");
        if (named instanceof String) {
            return (String) named;
        }
        Object candidates = args.get("candidates");
        if (args.get("jar") instanceof String) {
            List<Object> inJar = jarCandidates((String) args.get("jar"));
            // The course loads a strategy jar's planetwars.strategies.Strategy (Assets.loadPlayer).
            if (inJar.contains(COURSE_JAR_CLASS)) {
                return COURSE_JAR_CLASS;
            }
            candidates = inJar;
        }
        if (!(candidates instanceof List)) {
            throw Adapter.Failure.protocol("load needs {\"class\": NAME}, {\"candidates\": [NAMES]} or {\"jar\": PATH}");
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

    /** The class the course's engine loads from a strategy jar. */
    private static final String COURSE_JAR_CLASS = "planetwars.strategies.Strategy";

    /** Packages of the course's own code in a course jar (its engine, its API): never the strategy. */
    private static final String[] COURSE_PACKAGES = {"planetwars/core/", "planetwars/publicapi/"};

    /**
     * The classes of a jar whose class file names IStrategy (a class implementing it does), less
     * the course's engine and API that the course's jars carry along (arbiter's API is first on
     * the class path, so the jar's copy is never loaded).
     */
    private static List<Object> jarCandidates(String path) throws Throwable {
        byte[] name = "planetwars/publicapi/IStrategy".getBytes(StandardCharsets.UTF_8);
        List<Object> found = new ArrayList<>();
        try (JarFile jar = new JarFile(path, false)) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                String file = entry.getName();
                if (!file.endsWith(".class") || file.startsWith("META-INF/") || file.contains("-")) {
                    continue;
                }
                boolean course = false;
                for (String p : COURSE_PACKAGES) {
                    course |= file.startsWith(p);
                }
                if (course || entry.getSize() > (1 << 22)) {
                    continue;
                }
                try (InputStream in = jar.getInputStream(entry)) {
                    if (contains(readAll(in), name)) {
                        found.add(file.substring(0, file.length() - ".class".length()).replace('/', '.'));
                    }
                }
            }
        } catch (IOException e) {
            throw Adapter.Failure.load("cannot read the jar: " + e.getMessage());
        }
        return found;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            out.write(buffer, 0, n);
            if (out.size() > (1 << 22)) {
                break;
            }
        }
        return out.toByteArray();
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
