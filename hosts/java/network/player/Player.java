/*
 * Player.java -- written for arbiter from the Network assignment's published interface
 * (UC Berkeley CS61B, Project 2). Same package, class, field and method signatures as the
 * course's file, so a student's MachinePlayer compiles against it unchanged.
 *
 * MIT License. Copyright (c) the arbiter authors. Permission is hereby granted, free of charge,
 * to any person obtaining a copy of this software and associated documentation files, to deal
 * in the software without restriction, subject to the conditions of the MIT License, which must
 * be included with all copies or substantial portions of the software. The software is provided
 * "as is", without warranty of any kind.
 */

package player;

/**
 * What every Network player offers the game: a human at a keyboard, a random player, or a
 * student's MachinePlayer. Subclasses keep their own copy of the board and update it on each of
 * the three calls below.
 */
public abstract class Player {

  /** The player's name, as the game shows it. */
  public String myName;

  /**
   * Picks a move for this player, records it on this player's own board as this player's move,
   * and returns it.
   *
   * @return the move chosen.
   */
  public abstract Move chooseMove();

  /**
   * Tells this player what the opponent played. A legal move is recorded on this player's board
   * as the opponent's and true is returned; an illegal move leaves this player's state as it was
   * and false is returned.
   *
   * @param m the opponent's move.
   * @return whether m was legal (and recorded).
   */
  public abstract boolean opponentMove(Move m);

  /**
   * Makes this player play m, as when a grader sets up a position. A legal move is recorded on
   * this player's board as its own and true is returned; an illegal move leaves this player's
   * state as it was and false is returned.
   *
   * @param m the move to play.
   * @return whether m was legal (and recorded).
   */
  public abstract boolean forceMove(Move m);
}
