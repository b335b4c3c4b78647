package player;

/** A test player whose search throws. */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) { myName = "thrower"; }
  public Move chooseMove() { return search(null); }
  private Move search(int[] scores) { return new Move(scores[0], 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
