package demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** A hostile test submission: state kept in the JVM across cases, threads left behind. */
public class Counter {
    /** A system property: what an earlier case set (null when nothing), then set. */
    public String prop() {
        String was = System.getProperty("arbiter.leak");
        System.setProperty("arbiter.leak", "set by an earlier case");
        return was;
    }

    /** The default locale as this case found it, then changed. */
    public String locale() {
        String was = Locale.getDefault().toString();
        Locale.setDefault(Locale.JAPAN);
        return was;
    }

    /** A file in the working folder: what an earlier case left there (null when nothing). */
    public String file() throws Exception {
        Path note = Path.of("note.txt");
        String was = Files.exists(note) ? Files.readString(note) : null;
        Files.writeString(note, "left by an earlier case");
        return was;
    }

    /** A thread that waits for ever, left alive. */
    public int idle() {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // ends
            }
        }, "hostile-idle");
        t.setDaemon(true);
        t.start();
        return 1;
    }

    /** How many threads an earlier case left alive. */
    public int threads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("hostile-")) {
                n++;
            }
        }
        return n;
    }

    /** A thread that computes after the call returns. */
    public int spin() {
        Thread t = new Thread(() -> {
            long x = 0;
            while (true) {
                x++;
            }
        }, "hostile-spin");
        t.setDaemon(true);
        t.start();
        return 1;
    }

    /** Work done by a thread it starts and waits for: about 0.4 s of CPU time. */
    public long worker() throws Exception {
        long[] out = new long[1];
        Thread t = new Thread(() -> {
            java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
            long x = 0;
            while (bean.getCurrentThreadCpuTime() < 400_000_000L) {
                for (int i = 0; i < 100_000; i++) {
                    x += i ^ x;
                }
            }
            out[0] = x;
        }, "hostile-worker");
        t.start();
        t.join();
        return out[0] == 42 ? 1 : 0;
    }
}
