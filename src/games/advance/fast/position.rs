//! The fast engine's position: one set of squares per kind and per side, the walls, and a
//! mailbox for "what stands here?", plus the side to move. It is `Copy` (under 300 bytes), so
//! perft makes a move by copying the parent and changing the copy: nothing to undo.

use super::bitboard::Bb;
use crate::Side;
use crate::advance::board::Board;
use crate::advance::notation::{Action, Move};
use crate::advance::piece::{Cell, Kind, Piece};
use crate::advance::square::Square;

/// Mailbox code of an empty square.
const EMPTY: u8 = 0;
/// Mailbox code of a wall; a piece is `2 + 8 * side + kind`.
const WALL: u8 = 1;

/// A position of the fast engine: a board and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Squares of each kind, both sides together (index: `Kind as usize`).
    kinds: [Bb; 8],
    /// Squares of each side's pieces (index: `Side::index`).
    sides: [Bb; 2],
    walls: Bb,
    cells: [u8; 81],
    turn: Side,
}

#[inline(always)]
fn code(side: Side, kind: Kind) -> u8 {
    2 + 8 * side as u8 + kind as u8
}

/// The kind index (`Kind as usize`) of a piece's mailbox code.
#[inline(always)]
fn kind_index(code: u8) -> usize {
    ((code - 2) & 7) as usize
}

impl Pos {
    /// The position with `board` and `turn` to move.
    pub fn from_board(board: &Board, turn: Side) -> Pos {
        let mut pos =
            Pos { kinds: [Bb::EMPTY; 8], sides: [Bb::EMPTY; 2], walls: Bb::EMPTY, cells: [EMPTY; 81], turn };
        for sq in Square::all() {
            let i = sq.index();
            match board.get(sq) {
                Cell::Empty => {}
                Cell::Wall => {
                    pos.walls |= Bb::square(i);
                    pos.cells[i] = WALL;
                }
                Cell::Piece(p) => {
                    pos.kinds[p.kind as usize] |= Bb::square(i);
                    pos.sides[p.side.index()] |= Bb::square(i);
                    pos.cells[i] = code(p.side, p.kind);
                }
            }
        }
        pos
    }

    /// The board of this position.
    pub fn to_board(&self) -> Board {
        let mut board = Board::empty();
        for sq in Square::all() {
            board.set(sq, self.cell(sq.index()));
        }
        board
    }

    /// What stands on the square with index `sq`.
    pub fn cell(&self, sq: usize) -> Cell {
        match self.cells[sq] {
            EMPTY => Cell::Empty,
            WALL => Cell::Wall,
            c => {
                let side = if c >= 10 { Side::Black } else { Side::White };
                Cell::Piece(Piece::new(side, Kind::ALL[kind_index(c)]))
            }
        }
    }

    /// The kind of the piece on `sq`, if a piece stands there.
    #[inline(always)]
    pub fn kind_at(&self, sq: usize) -> Option<Kind> {
        let c = self.cells[sq];
        (c >= 2).then(|| Kind::ALL[kind_index(c)])
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Squares of `side`'s pieces.
    #[inline(always)]
    pub fn side(&self, side: Side) -> Bb {
        self.sides[side.index()]
    }

    /// Squares of `kind` pieces of either side.
    #[inline(always)]
    pub fn kind(&self, kind: Kind) -> Bb {
        self.kinds[kind as usize]
    }

    /// Squares of `side`'s `kind` pieces.
    #[inline(always)]
    pub fn pieces(&self, side: Side, kind: Kind) -> Bb {
        self.kinds[kind as usize] & self.sides[side.index()]
    }

    /// Squares holding a wall.
    #[inline(always)]
    pub fn walls(&self) -> Bb {
        self.walls
    }

    /// Squares holding a piece or a wall.
    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.sides[0] | self.sides[1] | self.walls
    }

    /// Material of `side`: the sum of its pieces' values.
    pub fn material(&self, side: Side) -> i32 {
        Kind::ALL.iter().map(|&k| k.value() * self.pieces(side, k).count() as i32).sum()
    }

    /// `side`'s material here minus its material in `before`. Only the kinds whose squares
    /// changed are counted (a move changes one or two), which makes it much cheaper than two
    /// calls of [`Pos::material`] where counting bits is done without a popcount instruction;
    /// the common squares cancel out, so the answer is exactly their difference.
    #[inline]
    pub fn material_change(&self, before: &Pos, side: Side) -> i32 {
        let (now_side, was_side) = (self.sides[side.index()], before.sides[side.index()]);
        let mut change = 0;
        for &kind in Kind::ALL.iter() {
            let now = self.kinds[kind as usize] & now_side;
            let was = before.kinds[kind as usize] & was_side;
            let changed = now ^ was;
            if changed.any() {
                change += kind.value() * ((now & changed).count() as i32 - (was & changed).count() as i32);
            }
        }
        change
    }

    /// Plays `mv` on this position (it must be one of the mover's moves by its piece's rules)
    /// and passes the turn.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        let us = self.turn;
        let them = us.opponent();
        let (from, to) = (mv.from.index(), mv.to.index());
        let (f, t) = (Bb::square(from), Bb::square(to));
        let kind = mv.kind as usize;
        match mv.action {
            Action::Move => self.relocate(us, kind, from, to),
            Action::Capture | Action::Leap => {
                self.remove(them, to);
                self.relocate(us, kind, from, to);
            }
            Action::Build => {
                self.walls |= t;
                self.cells[to] = WALL;
            }
            Action::Swap => {
                let other = kind_index(self.cells[to]);
                self.kinds[kind] ^= f | t;
                self.kinds[other] ^= f | t;
                self.cells.swap(from, to);
            }
            Action::Convert => {
                let converted = Kind::ALL[kind_index(self.cells[to])];
                self.sides[them.index()] ^= t;
                self.sides[us.index()] ^= t;
                self.cells[to] = code(us, converted);
            }
            Action::Shoot => self.remove(them, to),
        }
        self.turn = them;
    }

    #[inline(always)]
    fn relocate(&mut self, side: Side, kind: usize, from: usize, to: usize) {
        let both = Bb::square(from) | Bb::square(to);
        self.kinds[kind] ^= both;
        self.sides[side.index()] ^= both;
        self.cells[to] = self.cells[from];
        self.cells[from] = EMPTY;
    }

    /// Empties `sq`, which holds a wall or a piece of `side`.
    #[inline(always)]
    fn remove(&mut self, side: Side, sq: usize) {
        let bit = Bb::square(sq);
        match self.cells[sq] {
            WALL => self.walls ^= bit,
            c => {
                self.kinds[kind_index(c)] ^= bit;
                self.sides[side.index()] ^= bit;
            }
        }
        self.cells[sq] = EMPTY;
    }
}

impl std::fmt::Debug for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to move\n{}", self.turn, self.to_board())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_round_trip() {
        let board = Board::initial();
        let pos = Pos::from_board(&board, Side::Black);
        assert_eq!(pos.to_board(), board);
        assert_eq!(pos.turn(), Side::Black);
        assert_eq!(pos.material(Side::White), board.material(Side::White));
        assert_eq!(pos.occupied().count(), 36);
    }
}
