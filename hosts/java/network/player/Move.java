/*
 * Move.java -- written for arbiter from the Network assignment's published interface
 * (UC Berkeley CS61B, Project 2). Same package, class, constants, fields, constructors and
 * toString text as the course's file, so a student's MachinePlayer compiles against it
 * unchanged and prints moves as the course's game does.
 *
 * MIT License. Copyright (c) the arbiter authors. Permission is hereby granted, free of charge,
 * to any person obtaining a copy of this software and associated documentation files, to deal
 * in the software without restriction, subject to the conditions of the MIT License, which must
 * be included with all copies or substantial portions of the software. The software is provided
 * "as is", without warranty of any kind.
 */

package player;

/**
 * One move of Network, as plain public data (no invariants). Coordinates are x (the column,
 * 0 at the left) and y (the row, 0 at the top), each 0 to 7.
 *
 * For an ADD, (x1, y1) is where the new chip goes and x2, y2 are not used. For a STEP,
 * (x1, y1) is the chip's NEW square and (x2, y2) its OLD square. For a QUIT no coordinate is
 * used.
 */
public class Move {

  /** moveKind of a move that gives the game up. */
  public final static int QUIT = 0;
  /** moveKind of a move that puts a new chip on the board. */
  public final static int ADD = 1;
  /** moveKind of a move that moves a chip already on the board. */
  public final static int STEP = 2;

  /** QUIT, ADD or STEP. */
  public int moveKind;

  /** Column of the new square (ADD, STEP). */
  public int x1;
  /** Row of the new square (ADD, STEP). */
  public int y1;
  /** Column of the old square (STEP only). */
  public int x2;
  /** Row of the old square (STEP only). */
  public int y2;

  /**
   * A step move: the chip on (xx2, yy2) goes to (xx1, yy1).
   *
   * @param xx1 column of the new square.
   * @param yy1 row of the new square.
   * @param xx2 column of the old square.
   * @param yy2 row of the old square.
   */
  public Move(int xx1, int yy1, int xx2, int yy2) {
    moveKind = STEP;
    x1 = xx1;
    y1 = yy1;
    x2 = xx2;
    y2 = yy2;
  }

  /**
   * An add move: a new chip goes to (x, y).
   *
   * @param x column of the square.
   * @param y row of the square.
   */
  public Move(int x, int y) {
    moveKind = ADD;
    x1 = x;
    y1 = y;
  }

  /** A quit move. */
  public Move() {
    moveKind = QUIT;
  }

  /**
   * The move as the course's game prints it: "[quit]", "[add to 34]" or
   * "[step from 56 to 34]" (old square first, then new square; each as its x digit then y digit).
   *
   * @return the text.
   */
  public String toString() {
    if (moveKind == QUIT) {
      return "[quit]";
    }
    if (moveKind == ADD) {
      return "[add to " + x1 + "" + y1 + "]";
    }
    return "[step from " + x2 + "" + y2 + " to " + x1 + "" + y1 + "]";
  }
}
