//! Danger: whether a General could be taken if Generals could be taken.

use super::geometry::in_strike_shape;
use super::reach::{protecting_sentinel, reach};
use crate::advance::board::Board;
use crate::advance::piece::{Kind, Piece};
use crate::advance::square::Square;
use crate::side::Side;

/// The enemy pieces that put the General on `general` in danger: every enemy piece whose
/// strikes include the General's square. Empty when a friendly Sentinel stands orthogonally next
/// to the General, because such a General is never in danger. Jesters strike nothing, so they
/// never appear here.
pub fn attackers_of(board: &Board, general: Square) -> Vec<(Square, Piece)> {
    let Some(g) = board.piece(general) else {
        return Vec::new();
    };
    if protecting_sentinel(board, general, g).is_some() {
        return Vec::new();
    }
    board
        .pieces()
        .filter(|&(from, p)| p.side != g.side && in_strike_shape(p, from, general))
        .filter(|&(from, p)| reach(board, from, p).strikes.iter().any(|&(_, to)| to == general))
        .collect()
}

/// True when a General of `side` is in danger. (A well-formed position has exactly one; with
/// none there is nothing to endanger.)
pub fn in_danger(board: &Board, side: Side) -> bool {
    board.generals(side).into_iter().any(|g| !attackers_of(board, g).is_empty())
}

/// Every (General, attacker) pair for `side`, for explanations.
pub fn dangers(board: &Board, side: Side) -> Vec<(Square, Square, Piece)> {
    board
        .generals(side)
        .into_iter()
        .flat_map(|g| attackers_of(board, g).into_iter().map(move |(sq, p)| (g, sq, p)))
        .collect()
}

/// "the Dragon on f4", for messages about danger.
pub fn describe_attacker(sq: Square, piece: Piece) -> String {
    debug_assert_ne!(piece.kind, Kind::Jester);
    format!("the {} on {sq}", piece.kind.name())
}
