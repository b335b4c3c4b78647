//! Squares of the 9x9 board and their names (`a1` bottom-left .. `i9` top-right).

use std::fmt;
use std::str::FromStr;

/// Number of files (columns) and ranks (rows).
pub const SIZE: i8 = 9;

/// A square of the board. Its index is `rank * 9 + file`, both counted from 0, so `a1` is 0
/// and `i9` is 80. Rank 1 is the bottom line of a board file (white's home side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// How many squares the board has.
    pub const COUNT: usize = 81;

    /// The square with the given index (0..81).
    ///
    /// # Panics
    /// If the index is 81 or more: callers hold indices that came from a `Square`.
    pub fn from_index(index: usize) -> Square {
        assert!(index < Self::COUNT, "square index {index} is off the board");
        Square(index as u8)
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    pub fn at(file: i8, rank: i8) -> Option<Square> {
        if (0..SIZE).contains(&file) && (0..SIZE).contains(&rank) {
            Some(Square((rank * SIZE + file) as u8))
        } else {
            None
        }
    }

    /// The square shown at `line` and `column` (both from 1) of a board file.
    pub fn from_text_position(line: usize, column: usize) -> Option<Square> {
        let file = i8::try_from(column).ok()? - 1;
        let rank = SIZE - i8::try_from(line).ok()?;
        Square::at(file, rank)
    }

    /// The line and column (both from 1) where this square is written in a board file.
    pub fn text_position(self) -> (usize, usize) {
        ((SIZE - self.rank()) as usize, self.file() as usize + 1)
    }

    /// Index 0..81, for arrays indexed by square.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 for `a` .. 8 for `i`.
    pub fn file(self) -> i8 {
        (self.0 % 9) as i8
    }

    /// Rank, 0 for rank 1 .. 8 for rank 9.
    pub fn rank(self) -> i8 {
        (self.0 / 9) as i8
    }

    /// The square `df` files right and `dr` ranks up, if it is on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// Every square, a1 first, then along rank 1, then up the board.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// Chebyshev (king-move) distance between two squares.
    pub fn distance(self, other: Square) -> i8 {
        (self.file() - other.file()).abs().max((self.rank() - other.rank()).abs())
    }

    /// The square mirrored left-right (a <-> i).
    pub fn mirror_files(self) -> Square {
        Square::at(SIZE - 1 - self.file(), self.rank()).expect("mirror stays on the board")
    }

    /// The square mirrored top-bottom (rank 1 <-> rank 9).
    pub fn mirror_ranks(self) -> Square {
        Square::at(self.file(), SIZE - 1 - self.rank()).expect("mirror stays on the board")
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = String;

    fn from_str(s: &str) -> Result<Square, String> {
        let bytes = s.as_bytes();
        let bad = || format!("`{s}` is not a square: expected a file a-i and a rank 1-9, like `e1`");
        if bytes.len() != 2 {
            return Err(bad());
        }
        let file = bytes[0].wrapping_sub(b'a') as i8;
        let rank = bytes[1].wrapping_sub(b'1') as i8;
        Square::at(file, rank).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_chess_convention() {
        assert_eq!(Square::from_index(0).to_string(), "a1");
        assert_eq!(Square::from_index(80).to_string(), "i9");
        assert_eq!("e1".parse::<Square>().unwrap(), Square::at(4, 0).unwrap());
        assert!("j1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn text_positions_put_rank_nine_on_line_one() {
        assert_eq!(Square::from_text_position(1, 1).unwrap().to_string(), "a9");
        assert_eq!(Square::from_text_position(9, 9).unwrap().to_string(), "i1");
        for sq in Square::all() {
            let (line, col) = sq.text_position();
            assert_eq!(Square::from_text_position(line, col), Some(sq));
        }
    }

    #[test]
    fn offsets_stop_at_the_edge() {
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(0, -1), None);
        assert_eq!(a1.offset(8, 8).unwrap().to_string(), "i9");
        assert_eq!(a1.offset(9, 0), None);
    }
}
