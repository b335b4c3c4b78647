// arbiter's Java host: loads a student's classes and answers arbiter's requests, one JSON line
// each, on stdin/stdout (docs/PROTOCOL.md). It enforces nothing and is trusted with nothing:
// arbiter times each call from outside the JVM (the student's threads, not the JVM's
// compilers and collector) and kills the JVM when a limit is broken. MIT licence. Part of
// arbiter.
package arbiter.host;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;

/**
 * Usage: java -cp HOST_CLASSES arbiter.host.Host ADAPTER_CLASS SUBMISSION_CLASSES_DIR.
 */
public final class Host {
    private static final int PROTOCOL = 1;
    private static final int MAX_TRACE = 20;
    private static final int MAX_STDOUT = 64 * 1024;

    private Host() {}

    public static void main(String[] argv) throws Exception {
        if (argv.length != 2) {
            System.err.println("usage: arbiter.host.Host ADAPTER_CLASS SUBMISSION_CLASSES_DIR");
            System.exit(2);
        }
        // The protocol owns the real stdin and stdout; the student's code reads nothing and its
        // prints are captured per call.
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8), 1 << 16);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Settings.streams(new ByteArrayInputStream(new byte[0]), new PrintStream(captured, true, StandardCharsets.UTF_8));
        Settings baseline = Settings.now();

        // The submission's classes: a folder, or several entries (a strategy's jar after the
        // course's API) joined by the path separator, searched in that order.
        List<URL> entries = new ArrayList<>();
        for (String entry : argv[1].split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Paths.get(entry).toUri().toURL());
            }
        }
        URL[] classes = entries.toArray(new URL[0]);
        Adapter adapter = (Adapter) Class.forName(argv[0]).getDeclaredConstructor().newInstance();

        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("hello", "arbiter-host");
        hello.put("protocol", PROTOCOL);
        hello.put("host", "java " + System.getProperty("java.version"));
        hello.put("features", List.of("end"));
        protocol.println(Json.write(hello));

        // The CPU time of the thread that runs the student's calls, reported with each answer
        // (`cpu_ns`). arbiter charges and limits by its own reading from outside the JVM; this
        // figure is for the report only (docs/PROTOCOL.md, "CPU time").
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean timed = cpu.isCurrentThreadCpuTimeSupported();
        SubmissionLoader loader = null;
        String line;
        while ((line = in.readLine()) != null) {
            long cpuBefore = timed ? cpu.getCurrentThreadCpuTime() : 0;
            Map<String, Object> reply = new LinkedHashMap<>();
            Object id = null;
            try {
                Object parsed;
                try {
                    parsed = Json.parse(line);
                } catch (IllegalArgumentException e) {
                    throw Adapter.Failure.protocol("not a JSON request: " + e.getMessage());
                }
                if (!(parsed instanceof Map)) {
                    throw Adapter.Failure.protocol("a request must be a JSON object");
                }
                Map<?, ?> request = (Map<?, ?>) parsed;
                id = request.get("id");
                reply.put("id", id);
                String op = String.valueOf(request.get("op"));
                @SuppressWarnings("unchecked")
                Map<String, Object> args = request.get("args") instanceof Map
                        ? (Map<String, Object>) request.get("args") : new LinkedHashMap<>();
                if (op.equals("quit")) {
                    reply.put("ok", null);
                    protocol.println(Json.write(reply));
                    System.exit(0);
                }
                if (op.equals("end")) {
                    // The case or game is over: what the submission left in this JVM. Anything
                    // at all, and arbiter starts a fresh JVM for the next one.
                    adapter.forget();
                    Map<String, Object> left = new LinkedHashMap<>();
                    List<Object> running = new ArrayList<>();
                    left.put("left", leftovers(loader, baseline, running));
                    left.put("running", running);
                    loader = null;
                    reply.put("ok", left);
                } else {
                    if (op.equals("reset") || loader == null) {
                        // The settings the student may have changed, back as they were (arbiter
                        // also asked with `end`, and replaces a JVM that answered anything).
                        baseline.restore();
                        clearFolder();
                        // A fresh loader over the submission's classes: a new one forgets every
                        // static field. Its parent holds arbiter's host and the course's API,
                        // loaded (and compiled by the JIT) once for every game.
                        loader = new SubmissionLoader(classes);
                        adapter.reset(loader);
                    }
                    reply.put("ok", op.equals("reset") ? null : adapter.call(op, args));
                }
            } catch (Throwable t) {
                reply.put("id", id);
                reply.remove("ok");
                Map<String, Object> error = describe(t);
                Object partial = adapter.partial();
                if (partial != null) {
                    error.put("partial", partial);
                }
                reply.put("error", error);
            }
            String out = captured.size() == 0 ? "" : captured.toString(StandardCharsets.UTF_8);
            captured.reset();
            reply.put("stdout", out.length() > MAX_STDOUT ? out.substring(0, MAX_STDOUT) : out);
            if (timed) {
                reply.put("cpu_ns", cpu.getCurrentThreadCpuTime() - cpuBefore);
            }
            protocol.println(Json.write(reply));
        }
        System.exit(0);
    }

    /**
     * What the last case or game left: threads it started that are still alive (those still
     * computing also in {@code running}), JVM-wide settings it changed. Objects of classes with a finalizer are finalized first, so that no
     * code of theirs runs in a later case.
     */
    private static List<Object> leftovers(SubmissionLoader loader, Settings baseline, List<Object> running) {
        List<Object> left = new ArrayList<>();
        if (loader != null && loader.hasFinalizers()) {
            System.gc();
            System.runFinalization();
        }
        for (Thread t : threads()) {
            if (!baseline.threads.containsKey(t) && t.isAlive()) {
                if (t.getState() == Thread.State.RUNNABLE) {
                    running.add(t.getName());
                }
                left.add("thread " + t.getName() + " is still " + t.getState().toString().toLowerCase(Locale.ROOT));
            }
        }
        left.addAll(baseline.changes());
        if (!clearFolder()) {
            left.add("files it wrote in its folder could not be removed");
        }
        return left;
    }

    /**
     * Empties the host's working folder, where the submission may write: no file of one case's
     * is there for the next. Says whether everything went.
     */
    static boolean clearFolder() {
        boolean ok = true;
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(Paths.get("").toAbsolutePath())) {
            for (Path entry : entries) {
                ok &= delete(entry);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return ok;
    }

    private static boolean delete(Path path) {
        boolean ok = true;
        if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
                for (Path entry : entries) {
                    ok &= delete(entry);
                }
            } catch (IOException | RuntimeException e) {
                ok = false;
            }
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            ok = false;
        }
        return ok;
    }

    /** Every live thread of the JVM. */
    static List<Thread> threads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 16];
        int n = root.enumerate(all, true);
        List<Thread> out = new ArrayList<>(n);
        Collections.addAll(out, java.util.Arrays.copyOf(all, n));
        return out;
    }

    private static Map<String, Object> describe(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) {
            t = t.getCause();
        }
        String kind = "exception";
        if (t instanceof Adapter.Failure) {
            kind = ((Adapter.Failure) t).kind;
        } else if (t instanceof LinkageError || t instanceof ClassNotFoundException
                || t instanceof NoSuchMethodException || t instanceof InstantiationException) {
            kind = "load";
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("kind", kind);
        e.put("type", t instanceof Adapter.Failure ? "" : t.getClass().getName());
        e.put("message", t.getMessage() == null ? "" : t.getMessage());
        List<Object> trace = new ArrayList<>();
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().startsWith("arbiter.host.") || f.getClassName().startsWith("java.")
                    || f.getClassName().startsWith("jdk.") || f.getClassName().startsWith("sun.")) {
                continue;
            }
            if (trace.size() == MAX_TRACE) {
                break;
            }
            trace.add(f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")");
        }
        e.put("trace", trace);
        return e;
    }

    /** The submission's classes, for one case or game; it remembers which it defined. */
    static final class SubmissionLoader extends URLClassLoader {
        private final List<Class<?>> defined = new ArrayList<>();

        SubmissionLoader(URL[] classes) {
            super(classes, ClassLoader.getSystemClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Class<?> c = super.findClass(name);
            synchronized (defined) {
                defined.add(c);
            }
            return c;
        }

        /** Whether a class it defined declares {@code finalize()}. */
        boolean hasFinalizers() {
            synchronized (defined) {
                for (Class<?> c : defined) {
                    try {
                        c.getDeclaredMethod("finalize");
                        return true;
                    } catch (NoSuchMethodException | LinkageError | SecurityException e) {
                        // none here
                    }
                }
            }
            return false;
        }
    }

    /**
     * The JVM-wide settings a case could change and a later case read: the system properties,
     * the standard streams, the default locale and time zone, the security manager, the default
     * handler of uncaught exceptions, and the host's own thread (its name, priority, context
     * class loader, handler). And the threads there were before any student code ran.
     */
    static final class Settings {
        private static InputStream in;
        private static PrintStream out;

        final Properties properties;
        final InputStream stdin;
        final PrintStream stdout;
        final PrintStream stderr;
        final Locale locale;
        final Locale display;
        final Locale format;
        final TimeZone zone;
        final Thread.UncaughtExceptionHandler handler;
        final Thread main;
        final String mainName;
        final int mainPriority;
        final ClassLoader mainLoader;
        final Thread.UncaughtExceptionHandler mainHandler;
        final Map<Thread, Boolean> threads = new IdentityHashMap<>();

        /** The streams the student's code gets: an empty stdin, a stdout captured per call. */
        static void streams(InputStream stdin, PrintStream stdout) {
            in = stdin;
            out = stdout;
            System.setIn(stdin);
            System.setOut(stdout);
        }

        private Settings() {
            // The time zone first: its first reading sets the property user.timezone.
            zone = TimeZone.getDefault();
            locale = Locale.getDefault();
            display = Locale.getDefault(Locale.Category.DISPLAY);
            format = Locale.getDefault(Locale.Category.FORMAT);
            properties = (Properties) System.getProperties().clone();
            stdin = in;
            stdout = out;
            stderr = System.err;
            handler = Thread.getDefaultUncaughtExceptionHandler();
            main = Thread.currentThread();
            mainName = main.getName();
            mainPriority = main.getPriority();
            mainLoader = main.getContextClassLoader();
            mainHandler = main.getUncaughtExceptionHandler();
            for (Thread t : threads()) {
                threads.put(t, Boolean.TRUE);
            }
        }

        static Settings now() {
            return new Settings();
        }

        /** What differs from now: one line each. */
        @SuppressWarnings("removal")
        List<String> changes() {
            List<String> changed = new ArrayList<>();
            Properties now = System.getProperties();
            if (!properties.equals(now)) {
                Set<Object> keys = new java.util.TreeSet<>((a, b) -> String.valueOf(a).compareTo(String.valueOf(b)));
                keys.addAll(properties.keySet());
                keys.addAll(now.keySet());
                for (Object k : keys) {
                    if (!java.util.Objects.equals(properties.get(k), now.get(k))) {
                        changed.add("system property " + k + " was changed");
                    }
                }
                if (changed.isEmpty()) {
                    changed.add("the system properties were replaced");
                }
            }
            if (System.in != stdin || System.out != stdout || System.err != stderr) {
                changed.add("a standard stream (System.in, out or err) was replaced");
            }
            if (!locale.equals(Locale.getDefault()) || !display.equals(Locale.getDefault(Locale.Category.DISPLAY))
                    || !format.equals(Locale.getDefault(Locale.Category.FORMAT))) {
                changed.add("the default locale was changed");
            }
            if (!zone.equals(TimeZone.getDefault())) {
                changed.add("the default time zone was changed");
            }
            if (System.getSecurityManager() != null) {
                changed.add("a security manager was installed");
            }
            if (Thread.getDefaultUncaughtExceptionHandler() != handler) {
                changed.add("the default uncaught exception handler was changed");
            }
            if (!main.getName().equals(mainName) || main.getPriority() != mainPriority
                    || main.getContextClassLoader() != mainLoader || main.getUncaughtExceptionHandler() != mainHandler) {
                changed.add("the calling thread's name, priority, class loader or handler was changed");
            }
            return changed;
        }

        /** Puts every setting back as it was. */
        void restore() {
            if (!properties.equals(System.getProperties())) {
                System.setProperties((Properties) properties.clone());
            }
            if (System.in != stdin) {
                System.setIn(stdin);
            }
            if (System.out != stdout) {
                System.setOut(stdout);
            }
            if (System.err != stderr) {
                System.setErr(stderr);
            }
            if (!locale.equals(Locale.getDefault()) || !display.equals(Locale.getDefault(Locale.Category.DISPLAY))
                    || !format.equals(Locale.getDefault(Locale.Category.FORMAT))) {
                Locale.setDefault(locale);
                Locale.setDefault(Locale.Category.DISPLAY, display);
                Locale.setDefault(Locale.Category.FORMAT, format);
            }
            if (!zone.equals(TimeZone.getDefault())) {
                TimeZone.setDefault(zone);
            }
            if (Thread.getDefaultUncaughtExceptionHandler() != handler) {
                Thread.setDefaultUncaughtExceptionHandler(handler);
            }
            if (!main.getName().equals(mainName)) {
                main.setName(mainName);
            }
            if (main.getPriority() != mainPriority) {
                main.setPriority(mainPriority);
            }
            if (main.getContextClassLoader() != mainLoader) {
                main.setContextClassLoader(mainLoader);
            }
            if (main.getUncaughtExceptionHandler() != mainHandler) {
                main.setUncaughtExceptionHandler(mainHandler);
            }
            Thread.interrupted();
        }
    }
}
