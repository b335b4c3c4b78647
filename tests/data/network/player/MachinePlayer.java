/* A trivial MachinePlayer with the assignment's constructors, to check that arbiter's own
 * player.Player and player.Move compile with a student's class unchanged. It always quits. */

package player;

public class MachinePlayer extends Player {

  private final int color;
  private final int searchDepth;

  public MachinePlayer(int color) {
    this(color, 2);
  }

  public MachinePlayer(int color, int searchDepth) {
    this.color = color;
    this.searchDepth = searchDepth;
    myName = "trivial";
  }

  public Move chooseMove() {
    return new Move();
  }

  public boolean opponentMove(Move m) {
    return m.moveKind == Move.ADD || m.moveKind == Move.STEP;
  }

  public boolean forceMove(Move m) {
    return m.moveKind != Move.QUIT;
  }

  /** Prints the course's text of a few moves, for checking against arbiter's. */
  public static void main(String[] args) {
    System.out.println(new Move(3, 4));
    System.out.println(new Move(3, 4, 5, 6));
    System.out.println(new Move());
    System.out.println(new MachinePlayer(0).myName + " " + new MachinePlayer(1, 3).searchDepth);
  }
}
