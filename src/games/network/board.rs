//! The chips on the board, one bitboard per colour, and the cluster rule ("no more than two
//! chips in a connected group").

use super::color::Color;
use super::lines::NEIGHBOURS;
use super::square::Square;

/// Which squares hold which colour's chips. Any combination is representable; the rules say
/// which ones a game can reach.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Board {
    /// The chips of each colour, indexed by [`Color::index`], bit [`Square::index`].
    chips: [u64; 2],
}

impl Board {
    /// No chip anywhere.
    pub const fn empty() -> Board {
        Board { chips: [0, 0] }
    }

    /// The board whose chips are `black` and `white` (bitboards; squares in both count as
    /// Black's).
    pub const fn from_bits(black: u64, white: u64) -> Board {
        Board { chips: [black, white & !black] }
    }

    /// `color`'s chips as a bitboard.
    pub const fn chips(&self, color: Color) -> u64 {
        self.chips[color as usize]
    }

    /// Every chip, of either colour.
    pub const fn occupied(&self) -> u64 {
        self.chips[0] | self.chips[1]
    }

    /// The colour of the chip on `sq`, if any.
    pub fn get(&self, sq: Square) -> Option<Color> {
        Color::BOTH.into_iter().find(|&c| self.chips(c) & sq.bit() != 0)
    }

    /// Puts `chip` on `sq` (or empties it).
    pub fn set(&mut self, sq: Square, chip: Option<Color>) {
        for c in Color::BOTH {
            self.chips[c.index()] &= !sq.bit();
        }
        if let Some(c) = chip {
            self.chips[c.index()] |= sq.bit();
        }
    }

    /// How many chips `color` has on the board.
    pub fn count(&self, color: Color) -> u32 {
        self.chips(color).count_ones()
    }

    /// The squares of `color`'s chips, in listing order.
    pub fn squares(&self, color: Color) -> impl Iterator<Item = Square> {
        Square::in_bits(self.chips(color))
    }

    /// Whether a `color` chip on the empty square `sq` would be in a group of three or more
    /// `color` chips touching orthogonally or diagonally: it would touch two of them, or touch
    /// one that touches another.
    pub fn would_cluster(&self, color: Color, sq: Square) -> bool {
        let mine = self.chips(color) & !sq.bit();
        let touching = mine & NEIGHBOURS[sq.index()];
        match touching.count_ones() {
            0 => false,
            1 => mine & NEIGHBOURS[touching.trailing_zeros() as usize] != 0,
            _ => true,
        }
    }

    /// `color`'s chips that belong to a group of three or more (a connected group of three or
    /// more always has a chip touching two others; that chip and both neighbours are listed).
    pub fn clustered(&self, color: Color) -> u64 {
        let mine = self.chips(color);
        let mut out = 0;
        for sq in Square::in_bits(mine) {
            let touching = mine & NEIGHBOURS[sq.index()];
            if touching.count_ones() >= 2 {
                out |= touching | sq.bit();
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::square::tests::sq;

    #[test]
    fn a_third_chip_touching_a_pair_is_a_cluster() {
        let mut board = Board::empty();
        board.set(sq("22"), Some(Color::Black));
        board.set(sq("23"), Some(Color::Black));
        // Touches 23, which touches 22.
        assert!(board.would_cluster(Color::Black, sq("24")));
        // Touches neither.
        assert!(!board.would_cluster(Color::Black, sq("25")));
        // White chips do not count.
        assert!(!board.would_cluster(Color::White, sq("24")));
        // A chip touching a lone chip makes a pair, which is allowed.
        board.set(sq("55"), Some(Color::Black));
        assert!(!board.would_cluster(Color::Black, sq("66")));
        // Touching two separate chips joins them into three.
        assert!(!board.would_cluster(Color::Black, sq("44")));
        board.set(sq("42"), Some(Color::Black));
        assert!(board.would_cluster(Color::Black, sq("33")));
        assert_eq!(board.clustered(Color::Black), 0);
    }
}
