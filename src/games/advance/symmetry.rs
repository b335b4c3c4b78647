//! The rules' symmetries: a board mirrored left-right, or turned upside down with every piece
//! changing side (and the other side to move), is the same position, so its answers are the
//! mirrored answers. Test cases come with such twins, to catch bots that recognise the official
//! cases instead of playing them.

use super::board::Board;
use super::engine::Engine;
use super::notation::Move;
use super::referee::AdvanceReferee;
use super::text::Strictness;
use crate::harness::referee::Symmetry;
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

impl<E: Engine + Clone + 'static> Symmetry for AdvanceReferee<E> {
    fn twins(&self, input: &[u8], side: Side) -> Vec<(String, Vec<u8>, Side)> {
        let Ok(board) = Board::parse(input, "input", Strictness::Lenient) else { return Vec::new() };
        Twin::ALL
            .iter()
            .map(|twin| {
                let (b, s) = twin.board(&board, side);
                (twin.name().to_string(), b.to_text().into_bytes(), s)
            })
            .collect()
    }
}
