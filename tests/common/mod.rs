//! Helpers shared by the integration tests: hand-drawn boards and random positions.
#![allow(dead_code)]

pub mod strategy;

use arbiter::Side;
use arbiter::advance::reference::legal_moves;
use arbiter::advance::{Board, Move};

/// A board drawn in a test: 9 lines of 9 characters (leading spaces on each line are ignored so
/// boards can be indented in the source).
pub fn board(drawing: &str) -> Board {
    let lines: Vec<&str> = drawing.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    Board::from_text(&lines.join("\n")).unwrap_or_else(|e| panic!("bad test board: {e}"))
}

/// The legal moves of `side` in notation, sorted.
pub fn notations(board: &Board, side: Side) -> Vec<String> {
    let mut list: Vec<String> = legal_moves(board, side).iter().map(Move::to_string).collect();
    list.sort();
    list
}

/// True when `notation` is among `side`'s legal moves.
pub fn is_legal(board: &Board, side: Side, notation: &str) -> bool {
    notations(board, side).iter().any(|n| n == notation)
}
