//! The chess assignment drawn for the HTML pages: the 8x8 board with each piece as its letter
//! on a disc (White's light, Black's dark), rank 8 at the top as `print_board` prints it. A
//! case is a call, not a position, so the board drawn for a case is the one it gives the
//! function (`is_move_valid(move, board, True)`), or for `main()` the position its script of
//! moves reaches; a position file of `arbiter moves` is drawn too.

use super::analyst::load;
use super::board::{Board, Pos, is_white, parse_move};
use super::case_file::CaseFile;
use super::pyvalue::{Py, parse_value};
use super::referee::ChessA1Referee;
use super::rules;
use crate::harness::analyst::PositionInput;
use crate::harness::referee::{Drawing, Grid, GridStyle, Stone};
use crate::side::Side;

impl Drawing for ChessA1Referee {
    fn grid(&self, board: &[u8], side: Option<Side>) -> Result<Grid, String> {
        if let Ok(case) = CaseFile::parse(board, "the case") {
            let (board, white, what) = case_position(&case);
            let to_move = white.map(|w| if w { Side::White } else { Side::Black }).or(side);
            return Ok(grid(&board, to_move, &what));
        }
        let input = PositionInput { bytes: board, origin: "the board", side, allow_invalid: true };
        let (board, white) = load(&input).map_err(|e| e.to_string())?;
        let to_move = side.map(|_| if white { Side::White } else { Side::Black });
        Ok(grid(&board, to_move, ""))
    }

    fn move_cells(&self, _board: &[u8], _side: Side, notation: &str) -> Vec<(usize, usize)> {
        // A move as the functions return it, `((6, 4), (4, 4))`, or as typed, `e2 e4`.
        let mv = parse_value(notation.trim())
            .ok()
            .and_then(|v| v.as_move())
            .or_else(|| parse_move(notation.trim()));
        let position = parse_value(notation.trim()).ok().and_then(|v| v.as_pos());
        let cells: Vec<Pos> = match (mv, position) {
            (Some((from, to)), _) => vec![from, to],
            (None, Some(p)) => vec![p],
            (None, None) => Vec::new(),
        };
        cells.into_iter().filter(|p| p.on_board()).map(|p| (p.col as usize, p.row as usize)).collect()
    }
}

/// The board a case shows, whether White is to move (when the call says), and a few words on
/// where the board comes from.
fn case_position(case: &CaseFile) -> (Board, Option<bool>, String) {
    let white = case.args.iter().find_map(|a| if let Py::Bool(b) = a { Some(*b) } else { None });
    if let Some(board) = case.args.iter().find_map(Py::as_board) {
        return (board, white, format!("the board given to {}()", case.function));
    }
    if case.function == "main" {
        // The valid moves of the script, played in turn from the start.
        let (mut board, mut white, mut played) = (Board::initial(), true, 0);
        for line in &case.inputs {
            if let Some(mv) = parse_move(line).filter(|mv| rules::legal_moves(&board, white).contains(mv)) {
                board = board.moved(mv);
                white = !white;
                played += 1;
            }
        }
        let what = format!(
            "the position after the script's {played} valid move{}",
            if played == 1 { "" } else { "s" }
        );
        return (board, Some(white), what);
    }
    (
        Board::initial(),
        white,
        format!("{}() is given no board: its squares on the start position", case.function),
    )
}

/// The board as a grid: row 0 (rank 8) at the top.
fn grid(board: &Board, side: Option<Side>, what: &str) -> Grid {
    let cells = board
        .0
        .iter()
        .flat_map(|row| row.iter())
        .map(|&ch| {
            (ch != b'.').then(|| {
                let side = if is_white(ch) { Side::White } else { Side::Black };
                Stone {
                    side: Some(side),
                    glyph: (ch as char).to_ascii_uppercase().to_string(),
                    title: format!("{side} {}", piece_name(ch)),
                }
            })
        })
        .collect();
    let mut caption = what.to_string();
    if let Some(side) = side {
        let mover = if side == Side::White { "White" } else { "Black" };
        caption = if caption.is_empty() {
            format!("{mover} to move")
        } else {
            format!("{caption}; {mover} to move")
        };
    }
    Grid {
        columns: "abcdefgh".chars().map(String::from).collect(),
        rows: (1..=8).rev().map(|r| r.to_string()).collect(),
        cells,
        style: GridStyle::Squares,
        caption,
    }
}

fn piece_name(ch: u8) -> &'static str {
    match ch.to_ascii_uppercase() {
        b'K' => "king",
        b'Q' => "queen",
        b'R' => "rook",
        b'B' => "bishop",
        b'N' => "knight",
        _ => "pawn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_drawn_with_the_board_it_passes_and_main_with_its_scripts_position() {
        let referee = ChessA1Referee::default();
        let call = "call: can_move(('rnb.k.nr', 'p.qp....', '..p...pb', '.p..pp..', '.P...P..', 'P.PPP...', '....K.PP', 'RNB..BNR'), True)\n";
        let g = referee.grid(call.as_bytes(), None).unwrap();
        assert_eq!(g.cells.len(), 64);
        assert_eq!(g.at(0, 0).map(|s| (s.side, s.glyph.as_str())), Some((Some(Side::Black), "R")));
        assert_eq!(g.at(4, 6).map(|s| (s.side, s.glyph.as_str())), Some((Some(Side::White), "K")));
        assert!(g.caption.contains("can_move") && g.caption.ends_with("White to move"), "{}", g.caption);
        let main = "call: main()\ninput: f2 f3\ninput: h\ninput: e7 e5\ninput: g2 g4\ninput: d8 h4\n";
        let g = referee.grid(main.as_bytes(), None).unwrap();
        // The black queen on h4 (row 4 from the top, column h), nothing left on d8.
        assert_eq!(g.at(7, 4).map(|s| s.glyph.as_str()), Some("Q"));
        assert!(g.at(3, 0).is_none());
        assert!(g.caption.contains("4 valid moves"), "{}", g.caption);
        assert_eq!(referee.move_cells(b"", Side::White, "((0, 7), (3, 1))"), vec![(7, 0), (1, 3)]);
        assert_eq!(referee.move_cells(b"", Side::White, "e2 e4"), vec![(4, 6), (4, 4)]);
    }
}
