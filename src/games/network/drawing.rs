//! Network drawn for the HTML pages: the 8x8 board as the assignment draws it, column `x` 0..7
//! left to right and row `y` 0..7 top to bottom (square `xy`), the dead corners grey, each chip
//! a white or black disc; a won game's last position marks the winner's network.

use super::Position;
use super::color::Color;
use super::moves::Move;
use super::oracle::Oracle;
use super::referee::NetworkReferee;
use super::square::{SIZE, Square};
use super::text::parse_move;
use crate::harness::referee::{Drawing, Grid, GridStyle, Stone};
use crate::side::Side;

impl Drawing for NetworkReferee {
    fn grid(&self, board: &[u8], side: Option<Side>) -> Result<Grid, String> {
        Ok(grid(&read(board)?, side.is_some()))
    }

    fn move_cells(&self, _board: &[u8], _side: Side, notation: &str) -> Vec<(usize, usize)> {
        match parse_move(notation.trim().as_bytes(), "the move") {
            Ok(Move::Add { to }) => vec![cell(to)],
            Ok(Move::Step { to, from }) => vec![cell(from), cell(to)],
            _ => Vec::new(),
        }
    }

    fn winning_cells(&self, _before: &[u8], after: &[u8], winner: Side) -> Vec<(usize, usize)> {
        let Ok(position) = read(after) else { return Vec::new() };
        let oracle = Oracle::new(&position, &self.rules);
        oracle
            .network(Color::from_side(winner))
            .map(|n| n.iter().map(|&s| cell(s)).collect())
            .unwrap_or_default()
    }
}

/// A board file (a case file's position part too) as a position.
fn read(board: &[u8]) -> Result<Position, String> {
    // A case file goes on after the nine lines of its position (`game:`, `offer:`).
    let text = String::from_utf8_lossy(board);
    let head: String = text.split_inclusive('\n').take(9).collect();
    Position::parse(head.as_bytes(), "the board").map_err(|e| e.render())
}

/// A square's cell: column `x`, row `y` from the top.
fn cell(s: Square) -> (usize, usize) {
    (usize::from(s.x()), usize::from(s.y()))
}

/// The position as a grid; `to_move`: say who moves in the caption.
fn grid(position: &Position, to_move: bool) -> Grid {
    let mut cells = Vec::with_capacity(Square::COUNT);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let square = Square::at(x, y);
            cells.push(if square.is_corner() {
                Some(Stone { side: None, glyph: String::new(), title: "dead corner".to_string() })
            } else {
                position.board.get(square).map(|c| Stone {
                    side: Some(c.side()),
                    glyph: String::new(),
                    title: format!("{} chip", c.side()),
                })
            });
        }
    }
    let chips = format!(
        "chips in hand: White {}, Black {}",
        position.in_hand(Color::White),
        position.in_hand(Color::Black)
    );
    Grid {
        columns: (0..SIZE).map(|x| x.to_string()).collect(),
        rows: (0..SIZE).map(|y| y.to_string()).collect(),
        cells,
        style: GridStyle::Squares,
        caption: if to_move { format!("{} to move; {chips}", position.to_move.side()) } else { chips },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_drawn_where_the_assignment_names_them() {
        let referee = NetworkReferee::default();
        let board = "#......#\n........\n........\n........\n...w....\n....b...\n........\n#......#\nwhite\n";
        let g = referee.grid(board.as_bytes(), Some(Side::White)).unwrap();
        assert_eq!(g.at(3, 4).and_then(|s| s.side), Some(Side::White), "square 34");
        assert_eq!(g.at(4, 5).and_then(|s| s.side), Some(Side::Black), "square 45");
        assert_eq!(g.at(0, 0).map(|s| s.side), Some(None), "a dead corner");
        assert!(g.svg(&[]).contains(r#"data-square="34" data-piece="w""#));
        assert_eq!(referee.move_cells(b"", Side::White, "step 16 55"), vec![(5, 5), (1, 6)]);
    }
}
