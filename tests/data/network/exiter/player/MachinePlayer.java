package player;

/** A test player that ends the Java process when asked for a move. */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) { myName = "exiter"; }
  public Move chooseMove() { System.exit(3); return null; }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
