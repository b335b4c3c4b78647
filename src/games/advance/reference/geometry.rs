//! The shapes of the pieces' moves, as (files right, ranks up) steps.

use crate::advance::notation::Action;
use crate::advance::piece::{Kind, Piece};
use crate::advance::square::Square;
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

/// Whether `to` lies in the shape of `kind`'s `action` from `from`, whatever stands on the board:
/// the squares the rule could ever reach, before blockers and targets are looked at.
pub fn in_shape(kind: Kind, action: Action, side: Side, from: Square, to: Square) -> bool {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    let among = |steps: &[(i8, i8)]| steps.contains(&(df, dr));
    match kind {
        Kind::Zombie => {
            let dirs = forward(side);
            match action {
                Action::Leap => dirs.iter().any(|&(f, r)| (2 * f, 2 * r) == (df, dr)),
                _ => among(&dirs),
            }
        }
        Kind::Builder | Kind::Jester | Kind::General => among(&ADJACENT),
        Kind::Miner => (df == 0) != (dr == 0),
        Kind::Sentinel => among(&KNIGHT),
        Kind::Catapult => match action {
            Action::Shoot => among(&CATAPULT),
            _ => among(&ORTHOGONAL),
        },
        Kind::Dragon => (df, dr) != (0, 0) && (df == 0 || dr == 0 || df.abs() == dr.abs()),
    }
}

/// Whether `to` lies in the shape of one of `piece`'s captures from `from`. A piece strikes only
/// squares in these shapes, so a danger test need not ask any other piece for its reach.
pub fn in_strike_shape(piece: Piece, from: Square, to: Square) -> bool {
    let shape = |action| in_shape(piece.kind, action, piece.side, from, to);
    match piece.kind {
        Kind::Jester => false,
        Kind::Zombie => shape(Action::Capture) || shape(Action::Leap),
        Kind::Catapult => shape(Action::Shoot),
        _ => shape(Action::Capture),
    }
}
