package demo;

/** A test submission: a counter whose static total must not survive a reset. */
public class Counter {
    static int total;
    int n;

    public int inc() {
        System.out.println("inc " + total);
        total++;
        return ++n;
    }

    public int boom() {
        return 1 / 0;
    }
}
