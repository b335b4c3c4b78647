//! The shapes of the pieces' moves, as (files right, ranks up) steps.

use crate::side::Side;

/// The 4 orthogonal directions: up, right, down, left.
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The 8 directions to the adjacent squares, orthogonal first.
pub const ADJACENT: [(i8, i8); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The Sentinel's 8 knight jumps (2 one way, 1 the other).
pub const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The Catapult's 8 targets: 3 away orthogonally and (2,2) away diagonally.
pub const CATAPULT: [(i8, i8); 8] = [(0, 3), (3, 0), (0, -3), (-3, 0), (2, 2), (2, -2), (-2, -2), (-2, 2)];

/// Forward-left, forward and forward-right for `side`: up the board for white, down for black.
pub fn forward(side: Side) -> [(i8, i8); 3] {
    let up = match side {
        Side::White => 1,
        Side::Black => -1,
    };
    [(-1, up), (0, up), (1, up)]
}
