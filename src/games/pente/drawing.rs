//! Pente drawn for the HTML pages: the 19x19 board with its stones on the crossings, rows
//! numbered 19 at the top to 1 at the bottom and columns `A`..`T` without `I`, as the
//! assignment's input.txt lays them out, and the captures each side has made.

use super::Color;
use super::point::{AXES, COLUMNS, Point, SIZE};
use super::position::Position;
use super::referee::PenteReferee;
use super::text::Strictness;
use crate::harness::referee::{Drawing, Grid, GridStyle, Stone};
use crate::side::Side;

impl Drawing for PenteReferee {
    fn grid(&self, board: &[u8], side: Option<Side>) -> Result<Grid, String> {
        // The file names the side to move; it is what the caption shows.
        let position = Position::parse(board, "the board", Strictness::Lenient).map_err(|e| e.to_string())?;
        let mut grid = grid(&position);
        if side.is_none() {
            // Nobody is to move (the viewer's last position, after the end): the captures only.
            grid.caption = captures(&position);
        }
        Ok(grid)
    }

    fn move_cells(&self, _board: &[u8], _side: Side, notation: &str) -> Vec<(usize, usize)> {
        // Leniently, so that a point named in lower case or with spaces is still marked.
        notation.trim().to_ascii_uppercase().parse::<Point>().map(|p| vec![cell(p)]).unwrap_or_default()
    }

    fn winning_cells(&self, _before: &[u8], after: &[u8], winner: Side) -> Vec<(usize, usize)> {
        let Ok(position) = Position::parse(after, "the board", Strictness::Lenient) else {
            return Vec::new();
        };
        let color = if winner == Side::White { Color::White } else { Color::Black };
        five(&position, color).into_iter().map(cell).collect()
    }
}

/// A point's cell in the grid: row 19 at the top.
fn cell(p: Point) -> (usize, usize) {
    (p.column(), SIZE - p.row())
}

/// The stones of the first run of five or more of `color`'s stones in a line, if there is one.
fn five(position: &Position, color: Color) -> Vec<Point> {
    for p in position.board.stones(color) {
        for axis in AXES {
            // Only from the run's first stone, so that each run is found once.
            if position.board.holds(p.step(axis, -1), color) {
                continue;
            }
            let run: Vec<Point> = (0..SIZE as i8)
                .map_while(|k| p.step(axis, k).filter(|q| position.board.get(*q) == Some(color)))
                .collect();
            if run.len() >= 5 {
                return run;
            }
        }
    }
    Vec::new()
}

/// The capture counts, as the caption shows them.
fn captures(position: &Position) -> String {
    format!(
        "captured pieces: White {}, Black {}",
        position.captured_by(Color::White),
        position.captured_by(Color::Black)
    )
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
        caption: format!("{} to move; {}", position.to_move, captures(position)),
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
