//! How each piece moves, one function per piece, in the words of the rules page.
//!
//! A piece's [`Reach`] lists what it could do from its square without asking whether the move
//! would leave its own General in danger: actions onto empty squares or friendly pieces
//! (`quiet`), and the occupied squares it could take by the shape of its move (`strikes`).
//! Whether a strike is a capture depends on what stands there ([`may_take`]), and the same
//! strikes decide whether a General is in danger (see `danger.rs`), so the two can never
//! disagree.

use super::geometry::{ADJACENT, CATAPULT, KNIGHT, ORTHOGONAL, forward};
use crate::advance::board::Board;
use crate::advance::notation::Action;
use crate::advance::piece::{Cell, Kind, Piece};
use crate::advance::square::Square;

/// What one piece can reach from its square.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Reach {
    /// Moves to empty squares, builds, swaps and conversions: each allowed by the piece's rule.
    pub quiet: Vec<(Action, Square)>,
    /// Occupied squares the piece could take, if what stands there may be taken.
    pub strikes: Vec<(Action, Square)>,
}

/// The reach of `piece` standing on `from`.
pub fn reach(board: &Board, from: Square, piece: Piece) -> Reach {
    let mut r = Reach::default();
    match piece.kind {
        Kind::Zombie => zombie(board, from, piece, &mut r),
        Kind::Builder => builder(board, from, &mut r),
        Kind::Jester => jester(board, from, piece, &mut r),
        Kind::Miner => slider(board, from, &ORTHOGONAL, 1, &mut r),
        Kind::Sentinel => stepper(board, from, &KNIGHT, &mut r),
        Kind::Catapult => catapult(board, from, &mut r),
        Kind::Dragon => slider(board, from, &ADJACENT, 2, &mut r),
        Kind::General => stepper(board, from, &ADJACENT, &mut r),
    }
    r
}

/// Zombie: to any of the 3 forward squares if empty, or capturing there. Leap: in those
/// directions, take a piece exactly 2 squares away if the square between is empty.
fn zombie(board: &Board, from: Square, piece: Piece, r: &mut Reach) {
    for (df, dr) in forward(piece.side) {
        let Some(near) = from.offset(df, dr) else {
            continue;
        };
        if move_or_capture(board, near, r)
            && let Some(far) = from.offset(2 * df, 2 * dr).filter(|&far| !board[far].is_empty())
        {
            r.strikes.push((Action::Leap, far));
        }
    }
}

/// Builder: moves or captures on the 8 adjacent squares, or builds a wall on an adjacent empty
/// square without moving.
fn builder(board: &Board, from: Square, r: &mut Reach) {
    for to in neighbours(from, &ADJACENT) {
        if move_or_capture(board, to, r) {
            r.quiet.push((Action::Build, to));
        }
    }
}

/// Jester: moves to an adjacent empty square; swaps with an adjacent friendly piece that is not
/// a Jester (the General included); converts an adjacent enemy piece that is not a General.
/// It never captures, so it strikes nothing.
fn jester(board: &Board, from: Square, piece: Piece, r: &mut Reach) {
    for to in neighbours(from, &ADJACENT) {
        match board[to] {
            Cell::Empty => r.quiet.push((Action::Move, to)),
            Cell::Wall => {}
            Cell::Piece(other) if other.side == piece.side => {
                if other.kind != Kind::Jester {
                    r.quiet.push((Action::Swap, to));
                }
            }
            Cell::Piece(other) => {
                if other.kind != Kind::General {
                    r.quiet.push((Action::Convert, to));
                }
            }
        }
    }
}

/// Miner (orthogonal, `min_strike` 1) and Dragon (8 directions, `min_strike` 2): slide over
/// empty squares, stopping on any of them, or strike the first occupied square if it is at
/// least `min_strike` squares away. The Dragon never takes an adjacent piece.
fn slider(board: &Board, from: Square, directions: &[(i8, i8)], min_strike: i8, r: &mut Reach) {
    for &(df, dr) in directions {
        let mut steps = 1;
        while let Some(to) = from.offset(df * steps, dr * steps) {
            if board[to].is_empty() {
                r.quiet.push((Action::Move, to));
            } else {
                if steps >= min_strike {
                    r.strikes.push((Action::Capture, to));
                }
                break;
            }
            steps += 1;
        }
    }
}

/// Sentinel (the 8 knight jumps, over anything) and General (the 8 adjacent squares): moves to
/// an empty target or captures there.
fn stepper(board: &Board, from: Square, steps: &[(i8, i8)], r: &mut Reach) {
    for to in neighbours(from, steps) {
        move_or_capture(board, to, r);
    }
}

/// The step most pieces take: a move to `to` when it is empty, else a strike there. Whether it
/// was empty.
fn move_or_capture(board: &Board, to: Square, r: &mut Reach) -> bool {
    let empty = board[to].is_empty();
    if empty {
        r.quiet.push((Action::Move, to));
    } else {
        r.strikes.push((Action::Capture, to));
    }
    empty
}

/// Catapult: moves 1 square orthogonally to an empty square, never capturing by moving; shoots,
/// without moving, a piece exactly 3 squares away orthogonally or (2,2) away diagonally,
/// whatever stands between.
fn catapult(board: &Board, from: Square, r: &mut Reach) {
    for to in neighbours(from, &ORTHOGONAL) {
        if board[to].is_empty() {
            r.quiet.push((Action::Move, to));
        }
    }
    for to in neighbours(from, &CATAPULT) {
        if !board[to].is_empty() {
            r.strikes.push((Action::Shoot, to));
        }
    }
}

/// The squares at the given steps from `from` that are on the board.
fn neighbours(from: Square, steps: &[(i8, i8)]) -> impl Iterator<Item = Square> + '_ {
    steps.iter().filter_map(move |&(df, dr)| from.offset(df, dr))
}

/// A piece is protected when a friendly Sentinel stands on one of its 4 orthogonal neighbours.
/// (A Sentinel does not protect itself; walls belong to nobody and are never protected.)
pub fn is_protected(board: &Board, sq: Square) -> bool {
    let Some(piece) = board.piece(sq) else {
        return false;
    };
    protecting_sentinel(board, sq, piece).is_some()
}

/// A Sentinel of `piece`'s side orthogonally next to `sq`, if there is one.
pub fn protecting_sentinel(board: &Board, sq: Square, piece: Piece) -> Option<Square> {
    let sentinel = Piece::new(piece.side, Kind::Sentinel);
    neighbours(sq, &ORTHOGONAL).find(|&n| board.piece(n) == Some(sentinel))
}

/// Whether `mover` may take what stands on `target` with a strike: an enemy piece that is not a
/// General and not protected, or a wall if the mover is a Miner.
pub fn may_take(board: &Board, mover: Piece, target: Square) -> bool {
    match board[target] {
        Cell::Empty => false,
        Cell::Wall => mover.kind == Kind::Miner,
        Cell::Piece(p) => p.side != mover.side && p.kind != Kind::General && !is_protected(board, target),
    }
}
