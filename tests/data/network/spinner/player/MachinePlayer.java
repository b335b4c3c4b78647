package player;

/** A test player whose search never ends. */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) { myName = "spinner"; }
  public Move chooseMove() { long n = 0; while (n >= 0) { n = (n * 31 + 7) & 0xffff; } return new Move(); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
