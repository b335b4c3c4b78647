package player;

/**
 * A hostile test player (issue 30): each call returns at once, but a thread it starts in its
 * constructor computes all the time, between calls and after the last one. It takes every move
 * it is told.
 */
public class MachinePlayer extends Player {
  static volatile long work;

  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) {
    myName = "background";
    Thread helper = new Thread(() -> {
      while (true) {
        work++;
      }
    }, "helper");
    helper.setDaemon(true);
    helper.start();
  }
  public Move chooseMove() { return new Move(1, 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
