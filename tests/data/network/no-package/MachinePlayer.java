import player.Move;
import player.Player;

/** A test player that forgot its package line: the course's referee cannot load it. */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { myName = "nowhere"; }
  public Move chooseMove() { return new Move(1, 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
