//! Advance drawn for the HTML pages: the 9x9 board with each piece as its letter on a disc
//! (white pieces light, black dark), walls as grey blocks, and the material of each side.

use super::board::Board;
use super::piece::Cell;
use super::referee::AdvanceReferee;
use super::text::Strictness;
use crate::harness::referee::{Drawing, Grid, GridStyle, Stone};
use crate::side::Side;

impl<E: super::engine::Engine + Clone + 'static> Drawing for AdvanceReferee<E> {
    fn grid(&self, board: &[u8], side: Option<Side>) -> Result<Grid, String> {
        let board = Board::parse(board, "the board", Strictness::Lenient).map_err(|e| e.to_string())?;
        Ok(grid(&board, side))
    }

    fn name_move(&self, board: &[u8], side: Side, notation: &str) -> String {
        let kind = Board::parse(board, "the board", Strictness::Lenient)
            .ok()
            .zip(notation.parse().ok())
            .map(|(b, mv)| super::cases::move_kind(&b, side, mv));
        crate::harness::referee::named(notation, kind.as_ref())
    }

    fn winning_cells(&self, before: &[u8], after: &[u8], winner: Side) -> Vec<(usize, usize)> {
        // The square where the loser's General stood before the last move and stands no more,
        // else (no legal move left) where it stands.
        let (Ok(before), Ok(after)) = (self.grid(before, None), self.grid(after, None)) else {
            return Vec::new();
        };
        let general = |g: &Grid, c: usize, r: usize| {
            g.at(c, r).is_some_and(|s| s.side == Some(winner.opponent()) && s.glyph == "G")
        };
        let (w, h) = (before.columns.len(), before.rows.len());
        let squares = || (0..h).flat_map(move |r| (0..w).map(move |c| (c, r)));
        let captured: Vec<(usize, usize)> =
            squares().filter(|&(c, r)| general(&before, c, r) && !general(&after, c, r)).collect();
        if !captured.is_empty() {
            return captured;
        }
        // Not captured: the General left without a move.
        squares().filter(|&(c, r)| general(&after, c, r)).collect()
    }
}

/// The board as a grid: rank 9 at the top, as the board file has it.
pub fn grid(board: &Board, side: Option<Side>) -> Grid {
    let cells = board
        .lines()
        .iter()
        .flat_map(|line| line.chars().map(Cell::from_char).collect::<Vec<_>>())
        .map(|cell| match cell? {
            Cell::Empty => None,
            Cell::Wall => Some(Stone { side: None, glyph: "#".to_string(), title: "wall".to_string() }),
            Cell::Piece(p) => {
                Some(Stone { side: Some(p.side), glyph: p.kind.letter().to_string(), title: p.describe() })
            }
        })
        .collect();
    let material =
        format!("material: white {}, black {}", board.material(Side::White), board.material(Side::Black));
    Grid {
        columns: "abcdefghi".chars().map(String::from).collect(),
        rows: (1..=9).rev().map(|r| r.to_string()).collect(),
        cells,
        style: GridStyle::Squares,
        caption: match side {
            Some(Side::White) => format!("White to move; {material}"),
            Some(Side::Black) => format!("Black to move; {material}"),
            None => material,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_initial_board_has_its_pieces_where_the_file_has_them() {
        let g = grid(&Board::initial(), Some(Side::White));
        let text = Board::initial().lines();
        // Top-left is a8's row above: rank 9, file a.
        let top_left = text[0].chars().next().and_then(Cell::from_char).and_then(Cell::piece);
        assert_eq!(
            g.at(0, 0).map(|s| (s.side, s.glyph.clone())),
            top_left.map(|p| (Some(p.side), p.kind.letter().to_string()))
        );
        assert_eq!(g.cells.len(), 81);
        assert_eq!(g.cells.iter().flatten().count(), Board::initial().pieces().count());
        assert!(g.caption.starts_with("White to move"), "{}", g.caption);
    }
}
