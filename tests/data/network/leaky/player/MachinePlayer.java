package player;

/**
 * A hostile test player (issue 30): it looks for what an earlier case left in its JVM (a
 * system property, a thread, the default locale), throws if it finds any, then leaves all three
 * behind. Otherwise it takes every move it is told, as the naive player does.
 */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) {
    myName = "leaky";
    if (System.getProperty("leaky.seen") != null) {
      throw new IllegalStateException("a system property left by an earlier case");
    }
    if (java.util.Locale.getDefault().equals(java.util.Locale.JAPAN)) {
      throw new IllegalStateException("a locale left by an earlier case");
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("leaky-idle")) {
        throw new IllegalStateException("a thread left by an earlier case");
      }
    }
    System.setProperty("leaky.seen", "yes");
    java.util.Locale.setDefault(java.util.Locale.JAPAN);
    Thread idle = new Thread(() -> {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // ends
      }
    }, "leaky-idle");
    idle.setDaemon(true);
    idle.start();
  }
  public Move chooseMove() { return new Move(1, 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
