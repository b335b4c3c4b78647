// arbiter's Java host: loads a student's classes and answers arbiter's requests, one JSON line
// each, on stdin/stdout (docs/PROTOCOL.md). It enforces nothing: arbiter times each call and
// kills the JVM when a limit is broken. MIT licence. Part of arbiter.
package arbiter.host;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Usage: java -cp HOST_CLASSES arbiter.host.Host ADAPTER_CLASS SUBMISSION_CLASSES_DIR[:JAR...] */
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
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(new byte[0]));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));

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
        protocol.println(Json.write(hello));

        boolean loaded = false;
        String line;
        while ((line = in.readLine()) != null) {
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
                if (op.equals("reset") || !loaded) {
                    // A class loader whose parent is the platform's: the submission sees none of
                    // the host's classes, and a new one forgets every static field.
                    adapter.reset(new URLClassLoader(classes, ClassLoader.getPlatformClassLoader()));
                    loaded = true;
                }
                reply.put("ok", op.equals("reset") ? null : adapter.call(op, args));
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
            String out = captured.toString(StandardCharsets.UTF_8);
            captured.reset();
            reply.put("stdout", out.length() > MAX_STDOUT ? out.substring(0, MAX_STDOUT) : out);
            protocol.println(Json.write(reply));
        }
        System.exit(0);
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
}
