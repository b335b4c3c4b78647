//! The board: 81 cells, and what can be read off it without knowing how pieces move.

use std::ops::Index;

use super::piece::{Cell, Kind, Piece};
use super::square::Square;
use crate::side::Side;

/// The contents of every square. Whose turn it is lives elsewhere (see `Position`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; Square::COUNT],
}

impl Board {
    /// A board with nothing on it.
    pub fn empty() -> Board {
        Board { cells: [Cell::Empty; Square::COUNT] }
    }

    /// The initial position of a game.
    pub fn initial() -> Board {
        const INITIAL: &str = "mjdsgscjm\nbzzzzzzzb\n.........\n.........\n.........\n\
                               .........\n.........\nBZZZZZZZB\nMJCSGSDJM\n";
        Board::from_text(INITIAL).expect("the initial position is well-formed")
    }

    /// What stands on `sq`.
    pub fn get(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    /// Put `cell` on `sq`.
    pub fn set(&mut self, sq: Square, cell: Cell) {
        self.cells[sq.index()] = cell;
    }

    /// The piece on `sq`, if any.
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        self.get(sq).piece()
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece(sq).map(|p| (sq, p)))
    }

    /// The squares of `side`'s Generals (exactly one in a well-formed position).
    pub fn generals(&self, side: Side) -> Vec<Square> {
        let general = Piece::new(side, Kind::General);
        self.pieces().filter(|&(_, p)| p == general).map(|(sq, _)| sq).collect()
    }

    /// Material of `side`: the sum of its pieces' values.
    pub fn material(&self, side: Side) -> i32 {
        self.pieces().filter(|(_, p)| p.side == side).map(|(_, p)| p.kind.value()).sum()
    }

    /// Advantage of `side`: its material minus the opponent's.
    pub fn advantage(&self, side: Side) -> i32 {
        self.material(side) - self.material(side.opponent())
    }

    /// Number of squares holding a piece or a wall.
    pub fn occupied_count(&self) -> usize {
        self.cells.iter().filter(|c| !c.is_empty()).count()
    }

    /// The board file text: 9 lines, each ending in `\n`, rank 9 first.
    pub fn to_text(&self) -> String {
        let mut text = self.lines().join("\n");
        text.push('\n');
        text
    }

    /// The 9 lines joined by `\n`, without a final line end (the form JSON output uses).
    pub fn joined(&self) -> String {
        self.lines().join("\n")
    }

    /// The 9 lines of the board file, rank 9 first.
    pub fn lines(&self) -> Vec<String> {
        (1..=9)
            .map(|line| {
                (1..=9)
                    .map(|col| {
                        let sq = Square::from_text_position(line, col).expect("on the board");
                        self.get(sq).to_char()
                    })
                    .collect()
            })
            .collect()
    }

    /// The same board mirrored left-right (file a <-> file i).
    pub fn mirror_files(&self) -> Board {
        let mut out = Board::empty();
        for sq in Square::all() {
            out.set(sq.mirror_files(), self.get(sq));
        }
        out
    }

    /// The board turned upside down with every piece changing side: the position as the other
    /// player sees it. Forward directions flip with the colours, so the rules treat both alike.
    pub fn swap_sides(&self) -> Board {
        let mut out = Board::empty();
        for sq in Square::all() {
            let cell = match self.get(sq) {
                Cell::Piece(p) => Cell::Piece(Piece::new(p.side.opponent(), p.kind)),
                other => other,
            };
            out.set(sq.mirror_ranks(), cell);
        }
        out
    }
}

impl Index<Square> for Board {
    type Output = Cell;

    fn index(&self, sq: Square) -> &Cell {
        &self.cells[sq.index()]
    }
}

crate::board_text_fmt!(Board);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position_has_equal_material_and_generals_on_e_file() {
        let b = Board::initial();
        assert_eq!(b.material(Side::White), 7 + 2 * 2 + 2 * 3 + 2 * 4 + 2 * 5 + 6 + 7);
        assert_eq!(b.advantage(Side::Black), 0);
        assert_eq!(b.generals(Side::White), vec!["e1".parse().unwrap()]);
        assert_eq!(b.generals(Side::Black), vec!["e9".parse().unwrap()]);
    }

    #[test]
    fn text_round_trips() {
        let b = Board::initial();
        assert_eq!(Board::from_text(&b.to_text()).unwrap(), b);
        assert_eq!(b.joined().lines().count(), 9);
        assert!(!b.joined().ends_with('\n'));
    }

    #[test]
    fn swapping_sides_of_the_initial_position_gives_it_back_mirrored() {
        // The initial set-up is not left-right symmetric (Catapult and Dragon trade files), so the
        // colour swap equals the left-right mirror of the original.
        let b = Board::initial();
        assert_eq!(b.swap_sides(), b.mirror_files());
        assert_eq!(b.swap_sides().swap_sides(), b);
    }
}
