//! Pente drawn for the HTML pages: the 19x19 board with its stones on the crossings, rows
//! numbered 19 at the top to 1 at the bottom and columns `A`..`T` without `I`, as the
//! assignment's input.txt lays them out, and the captures each side has made.

use super::Color;
use super::point::{COLUMNS, SIZE};
use super::position::Position;
use super::referee::PenteReferee;
use super::text::Strictness;
use crate::harness::referee::{Drawing, Grid, GridStyle, Stone};
use crate::side::Side;

impl Drawing for PenteReferee {
    fn grid(&self, board: &[u8], _side: Option<Side>) -> Result<Grid, String> {
        // The file names the side to move; it is what the caption shows.
        let position = Position::parse(board, "the board", Strictness::Lenient).map_err(|e| e.to_string())?;
        Ok(grid(&position))
    }
}

/// The position as a grid.
pub fn grid(position: &Position) -> Grid {
    let cells = position
        .board
        .lines()
        .iter()
        .flat_map(|line| {
            line.chars()
                .map(|c| {
                    let side = match c {
                        'w' => Side::White,
                        'b' => Side::Black,
                        _ => return None,
                    };
                    Some(Stone { side: Some(side), glyph: String::new(), title: format!("{side} stone") })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    Grid {
        columns: COLUMNS.chars().map(String::from).collect(),
        rows: (1..=SIZE).rev().map(|r| r.to_string()).collect(),
        cells,
        style: GridStyle::Crossings,
        caption: format!(
            "{} to move; captured pieces: White {}, Black {}",
            position.to_move,
            position.captured_by(Color::White),
            position.captured_by(Color::Black)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::Board;

    #[test]
    fn stones_and_captures_are_drawn() {
        let board = Board::from_points("10K", "10L 11K").expect("valid points");
        let mut position = Position::new(Color::Black, board);
        position.captured = [2, 4];
        let g = grid(&position);
        assert_eq!(g.cells.len(), 361);
        // 10K: row 10 is the tenth line from the top, K the tenth column (I is skipped).
        assert_eq!(g.at(9, 9).and_then(|s| s.side), Some(Side::White));
        assert_eq!(g.at(10, 9).and_then(|s| s.side), Some(Side::Black));
        assert_eq!(g.at(9, 8).and_then(|s| s.side), Some(Side::Black));
        assert_eq!(g.cells.iter().flatten().count(), 3);
        assert!(g.caption.contains("White 2, Black 4"), "{}", g.caption);
        let svg = g.svg(&[]);
        assert!(svg.contains(r#"data-square="K10" data-piece="w""#));
    }
}
