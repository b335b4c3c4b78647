//! A board planted piece by piece, for the position sources that build a pattern on purpose
//! ([`super::edges`]: a rule's edge; [`super::temptations`]: a forbidden move within a bug's
//! reach): pieces go only on empty squares, and a pattern is finished with both Generals and a
//! few random pieces and walls, so that failures start small and shrink to the pattern.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use super::piece::{Cell, Kind, Piece};
use super::square::Square;
use crate::side::Side;

/// The kinds other than the General.
pub const KINDS: [Kind; 7] =
    [Kind::Zombie, Kind::Builder, Kind::Jester, Kind::Miner, Kind::Sentinel, Kind::Catapult, Kind::Dragon];

/// The eight steps to a neighbouring square.
pub const EIGHT: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// The four steps along a rank or file.
pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// A board being planted: puts pieces only on empty squares and fails otherwise.
pub struct Planter {
    /// The board so far.
    pub board: Board,
}

impl Planter {
    /// Puts `cell` on `sq`; `None` when there is no such square or it is taken.
    pub fn put(&mut self, sq: Option<Square>, cell: Cell) -> Option<Square> {
        let sq = sq?;
        if !self.board[sq].is_empty() {
            return None;
        }
        self.board.set(sq, cell);
        Some(sq)
    }

    /// A random empty square, if there is one.
    pub fn empty_square(&self, rng: &mut ChaCha8Rng) -> Option<Square> {
        self.empty_where(rng, |_| true)
    }

    /// A random empty square among those `keep` accepts.
    pub fn empty_where(&self, rng: &mut ChaCha8Rng, keep: impl Fn(Square) -> bool) -> Option<Square> {
        let found: Vec<Square> = Square::all().filter(|&s| self.board[s].is_empty() && keep(s)).collect();
        found.choose(rng).copied()
    }

    /// The pattern finished: the Generals not yet placed, then a little of everything (up to
    /// `most` pieces of `side`'s, of the opponent's and walls, each count drawn in that order).
    pub fn finish(mut self, rng: &mut ChaCha8Rng, side: Side, most: [i32; 3]) -> Option<Board> {
        for s in Side::BOTH {
            if self.board.generals(s).is_empty() {
                let sq = self.empty_square(rng)?;
                self.put(Some(sq), piece(s, Kind::General))?;
            }
        }
        let counts = most.map(|n| rng.gen_range(0..=n));
        for (count, owner) in counts.into_iter().zip([Some(side), Some(side.opponent()), None]) {
            for _ in 0..count {
                let sq = self.empty_square(rng)?;
                self.put(Some(sq), owner.map_or(Cell::Wall, |s| piece(s, pick(rng, &KINDS))));
            }
        }
        Some(self.board)
    }
}

/// `side`'s piece of `kind`.
pub fn piece(side: Side, kind: Kind) -> Cell {
    Cell::Piece(Piece::new(side, kind))
}

/// Any square.
pub fn random_square(rng: &mut ChaCha8Rng) -> Square {
    Square::from_index(rng.gen_range(0..Square::COUNT))
}

/// One of `items`, which must not be empty.
pub fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> T {
    *items.choose(rng).expect("a non-empty list")
}
