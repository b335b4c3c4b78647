//! A set of squares as the low 81 bits of a `u128`: bit `i` is the square with index `i`
//! (`rank * 9 + file`), so a1 is bit 0 and i9 is bit 80.
//!
//! `u128` keeps every operation a plain integer operation (the compiler splits it into two
//! 64-bit halves), and the order of the bits is the order of [`Square`], so iterating a set
//! from its lowest bit lists squares in the order moves are sorted in.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::advance::square::Square;

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb(pub u128);

impl Bb {
    /// No square.
    pub const EMPTY: Bb = Bb(0);
    /// Every square of the board.
    pub const ALL: Bb = Bb((1u128 << 81) - 1);
    /// The a-file, for shifts that must not wrap from one rank to the next.
    pub const FILE_A: Bb = Bb(file_mask(0));
    /// The i-file.
    pub const FILE_I: Bb = Bb(file_mask(8));

    /// The set holding only the square with index `index`.
    #[inline(always)]
    pub const fn square(index: usize) -> Bb {
        Bb(1u128 << index)
    }

    /// True when the set holds no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds a square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when the set holds the square with index `index`.
    #[inline(always)]
    pub const fn has(self, index: usize) -> bool {
        (self.0 >> index) & 1 != 0
    }

    /// True when the set holds exactly one square (cheaper than counting to one).
    #[inline(always)]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Index of the lowest square (the set must not be empty).
    #[inline(always)]
    pub const fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// Index of the highest square (the set must not be empty).
    #[inline(always)]
    pub const fn highest(self) -> usize {
        127 - self.0.leading_zeros() as usize
    }

    /// The set without the square with index `index`.
    #[inline(always)]
    pub const fn without(self, index: usize) -> Bb {
        Bb(self.0 & !(1u128 << index))
    }

    /// The squares one rank up (towards rank 9).
    #[inline(always)]
    pub const fn north(self) -> Bb {
        Bb((self.0 << 9) & Bb::ALL.0)
    }

    /// The squares one rank down.
    #[inline(always)]
    pub const fn south(self) -> Bb {
        Bb(self.0 >> 9)
    }

    /// The squares one file right; nothing wraps from the i-file onto the next rank.
    #[inline(always)]
    pub const fn east(self) -> Bb {
        Bb((self.0 & !Bb::FILE_I.0) << 1)
    }

    /// The squares one file left.
    #[inline(always)]
    pub const fn west(self) -> Bb {
        Bb((self.0 & !Bb::FILE_A.0) >> 1)
    }

    /// The 4 orthogonal neighbours of every square of the set (not the squares themselves).
    #[inline(always)]
    pub const fn orthogonal_neighbours(self) -> Bb {
        Bb(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }

    /// The squares of the set, lowest first.
    #[inline(always)]
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the square indices of a [`Bb`], lowest first.
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bb {
    fn from(sq: Square) -> Bb {
        Bb::square(sq.index())
    }
}

const fn file_mask(file: usize) -> u128 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 9 {
        mask |= 1u128 << (rank * 9 + file);
        rank += 1;
    }
    mask
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bb {
            type Output = Bb;
            #[inline(always)]
            fn $method(self, rhs: Bb) -> Bb {
                Bb(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bb {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bb) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bb {
    type Output = Bb;

    /// The squares of the board not in the set (the unused high bits stay clear).
    #[inline(always)]
    fn not(self) -> Bb {
        Bb(!self.0 & Bb::ALL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap_around_the_edges() {
        let i1 = Bb::square(8);
        assert_eq!(i1.east(), Bb::EMPTY);
        assert_eq!(i1.north(), Bb::square(17));
        let a2 = Bb::square(9);
        assert_eq!(a2.west(), Bb::EMPTY);
        assert_eq!(a2.south(), Bb::square(0));
        assert_eq!(Bb::square(80).north(), Bb::EMPTY);
        assert_eq!(Bb::ALL.count(), 81);
        assert_eq!((!Bb::EMPTY), Bb::ALL);
    }

    #[test]
    fn squares_come_out_lowest_first() {
        let set = Bb::square(3) | Bb::square(70) | Bb::square(64);
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![3, 64, 70]);
        assert_eq!(set.lowest(), 3);
        assert_eq!(set.highest(), 70);
        assert!(Bb::square(5).is_single());
        assert!(!set.is_single() && !Bb::EMPTY.is_single());
    }
}
