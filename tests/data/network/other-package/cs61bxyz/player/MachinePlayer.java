package cs61bxyz.player;

import player.Move;
import player.Player;

/**
 * A test player in a login's package, as CS61B's tournament builds name it (the course's
 * referee loads it as cs61bxyz.player.MachinePlayer): takes every move it is told, and always
 * wants square 11.
 */
public class MachinePlayer extends Player {
  public MachinePlayer(int color) { this(color, 1); }
  public MachinePlayer(int color, int depth) { myName = "elsewhere"; }
  public Move chooseMove() { return new Move(1, 1); }
  public boolean opponentMove(Move m) { return true; }
  public boolean forceMove(Move m) { return true; }
}
