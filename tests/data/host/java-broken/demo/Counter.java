package demo;

public class Counter {
    public int inc() { return missing; }
}
