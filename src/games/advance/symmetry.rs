//! The rules' symmetries: a board mirrored left-right, or turned upside down with every piece
//! changing side (and the other side to move), is the same position, so its answers are the
//! mirrored answers. Test cases come with such twins, to catch bots that recognise the official
//! cases instead of playing them.

use super::board::Board;
use super::notation::Move;
use crate::side::Side;

/// A symmetry of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Twin {
    /// Left-right mirror (file a <-> file i), same side to move.
    Mirror,
    /// Colours swapped and the board turned upside down (rank 1 <-> rank 9), the other side to move.
    Swap,
}

impl Twin {
    /// Both symmetries.
    pub const ALL: [Twin; 2] = [Twin::Mirror, Twin::Swap];

    /// `mirror` or `swap`, for case names.
    pub fn name(self) -> &'static str {
        match self {
            Twin::Mirror => "mirror",
            Twin::Swap => "swap",
        }
    }

    /// The twin of a board with `side` to move.
    pub fn board(self, board: &Board, side: Side) -> (Board, Side) {
        match self {
            Twin::Mirror => (board.mirror_files(), side),
            Twin::Swap => (board.swap_sides(), side.opponent()),
        }
    }

    /// The twin of a move.
    pub fn apply_to_move(self, mv: Move) -> Move {
        match self {
            Twin::Mirror => Move { from: mv.from.mirror_files(), to: mv.to.mirror_files(), ..mv },
            Twin::Swap => Move { from: mv.from.mirror_ranks(), to: mv.to.mirror_ranks(), ..mv },
        }
    }
}
