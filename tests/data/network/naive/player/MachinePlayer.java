package player;

/** A test player: takes every move it is told, and always wants square 11. */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) { myName = "naive"; }
  public Move chooseMove() { return new Move(1, 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
