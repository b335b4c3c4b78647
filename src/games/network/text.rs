//! Position files and moves as text.
//!
//! A position file is nine lines: eight board lines, row `y = 0` (the top) first, each eight
//! characters for columns `x = 0..7`: `.` an empty square, `b` a black chip, `w` a white chip,
//! and `#` or `.` on the four dead corners; then the player to move, `black` or `white`. Lines
//! end in `\n` or `\r\n`; the last line end is optional, and so is one empty line after the
//! side. Square `xy` is character `x + 1` of line `y + 1`. White to move after White's `add 34`
//! and Black's `add 45`:
//!
//! ```text
//! #......#
//! ........
//! ........
//! ........
//! ...w....
//! ....b...
//! ........
//! #......#
//! white
//! ```
//!
//! Moves are read by [`parse_move`]. Every error names the origin, the line and the column
//! (from 1, in bytes) and what was expected there.

use super::board::Board;
use super::color::Color;
use super::moves::Move;
use super::position::Position;
use super::square::{SIZE, Square};
pub use crate::harness::board_file::ParseError;
use crate::harness::board_file::{Lines, strip_cr};
use crate::harness::diagnostics::describe_byte;

/// The lines of `bytes` without their `\n` or `\r\n`; a final line end adds no empty line.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    Lines::split(bytes).lines.into_iter().map(strip_cr).collect()
}

/// What the bytes from `at` to the end of `line` read as in a message (spaces read as text).
fn describe_rest(line: &[u8], at: usize) -> String {
    crate::harness::board_file::describe_rest(line, at, true)
}

/// How many lines a position file has: eight board lines and the side.
const FILE_LINES: usize = SIZE as usize + 1;

impl Position {
    /// Reads a position file's bytes, labelling errors with `origin` (a file name).
    pub fn parse(bytes: &[u8], origin: &str) -> Result<Position, ParseError> {
        let err = |line, column, message: String, text: Option<&[u8]>| {
            ParseError::at(origin, line, column, message, text)
        };
        if bytes.is_empty() {
            return Err(err(
                1,
                1,
                "the file is empty; expected 8 board lines (`.` `b` `w`, `#` on corners) and the side to \
                 move (`black` or `white`)"
                    .to_string(),
                None,
            ));
        }
        let mut lines = split_lines(bytes);
        // One empty line after the side is tolerated (an editor's extra line end).
        if lines.len() == FILE_LINES + 1 && lines[FILE_LINES].is_empty() {
            lines.pop();
        }
        let mut board = Board::empty();
        for y in 0..SIZE {
            let n = y as usize + 1;
            let Some(&line) = lines.get(y as usize) else {
                return Err(err(
                    n,
                    1,
                    format!("expected board line {n} of 8 (row {y}), found the end of the file"),
                    None,
                ));
            };
            for x in 0..SIZE {
                let col = x as usize + 1;
                let Some(&c) = line.get(x as usize) else {
                    return Err(err(
                        n,
                        col,
                        format!(
                            "expected 8 squares on board line {n} (row {y}), found {}; each row is 8 \
                             characters from `.` `b` `w` (and `#` on a corner)",
                            x
                        ),
                        Some(line),
                    ));
                };
                let sq = Square::at(x, y);
                let chip = match c {
                    b'.' => None,
                    b'#' if sq.is_corner() => None,
                    b'#' => {
                        return Err(err(
                            n,
                            col,
                            format!(
                                "`#` marks a dead corner, but {sq} is not a corner; use `.` for an empty square"
                            ),
                            Some(line),
                        ));
                    }
                    b'b' | b'w' if sq.is_corner() => {
                        return Err(err(
                            n,
                            col,
                            format!("{sq} is a dead corner, where no chip may stand; expected `#` or `.`"),
                            Some(line),
                        ));
                    }
                    b'b' => Some(Color::Black),
                    b'w' => Some(Color::White),
                    _ => {
                        return Err(err(
                            n,
                            col,
                            format!(
                                "expected `.`, `b` or `w` for square {sq}, found {}",
                                describe_byte(line, x as usize)
                            ),
                            Some(line),
                        ));
                    }
                };
                board.set(sq, chip);
            }
            if line.len() > SIZE as usize {
                return Err(err(
                    n,
                    SIZE as usize + 1,
                    format!(
                        "expected board line {n} (row {y}) to end after 8 squares, found {}",
                        describe_rest(line, SIZE as usize)
                    ),
                    Some(line),
                ));
            }
        }
        let n = FILE_LINES;
        let Some(&side) = lines.get(n - 1) else {
            return Err(err(
                n,
                1,
                "expected the side to move, `black` or `white`, found the end of the file".into(),
                None,
            ));
        };
        let to_move = match side {
            b"black" => Color::Black,
            b"white" => Color::White,
            other if other.eq_ignore_ascii_case(b"black") || other.eq_ignore_ascii_case(b"white") => {
                let word = String::from_utf8_lossy(other).to_ascii_lowercase();
                return Err(err(n, 1, format!("expected the side in lower case, `{word}`"), Some(side)));
            }
            _ => {
                return Err(err(
                    n,
                    1,
                    format!(
                        "expected the side to move, `black` or `white`, found {}",
                        describe_rest(side, 0)
                    ),
                    Some(side),
                ));
            }
        };
        if lines.len() > FILE_LINES {
            return Err(err(
                n + 1,
                1,
                format!(
                    "expected the file to end after the side to move (line 9), found {} lines",
                    lines.len()
                ),
                Some(lines[n]),
            ));
        }
        Ok(Position { board, to_move })
    }

    /// Reads position text from inside the program (tests, built-in positions).
    pub fn from_text(text: &str) -> Result<Position, ParseError> {
        Position::parse(text.as_bytes(), "<text>")
    }

    /// The position file for this position: nine lines, each ending in `\n`, corners as `#`.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(FILE_LINES * 9);
        for y in 0..SIZE {
            for x in 0..SIZE {
                let sq = Square::at(x, y);
                out.push(match self.board.get(sq) {
                    Some(c) => c.letter(),
                    None if sq.is_corner() => '#',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out.push_str(self.to_move.word());
        out.push('\n');
        out
    }
}

/// One word of a move and where it starts (byte offset in the line).
struct Word<'a> {
    text: &'a [u8],
    at: usize,
}

/// The words of `line`, split at spaces and tabs.
fn words(line: &[u8]) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' || line[i] == b'\t' {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && line[i] != b' ' && line[i] != b'\t' {
            i += 1;
        }
        out.push(Word { text: &line[start..i], at: start });
    }
    out
}

/// Reads one move: `add 34`, `step 34 56` (to 34, from 56: the course's field order),
/// `quit`, or the course's `toString` forms `[add to 34]`, `[step from 56 to 34]`, `[quit]`.
/// Keywords are read in any case; spaces and one line end around the move are allowed.
pub fn parse_move(bytes: &[u8], origin: &str) -> Result<Move, ParseError> {
    let lines = split_lines(bytes);
    let line = lines.first().copied().unwrap_or_default();
    let err = |column: usize, message: String| ParseError::at(origin, 1, column, message, Some(line));
    if lines.len() > 1 {
        let message = "expected one move on one line, found a second line".to_string();
        return Err(ParseError::at(origin, 2, 1, message, Some(lines[1])));
    }
    let (bracketed, inner, offset) =
        match (line.iter().position(|&b| b == b'['), line.iter().rposition(|&b| b == b']')) {
            (Some(open), Some(close)) if open < close => {
                if let Some(extra) = line[close + 1..].iter().position(|b| !b.is_ascii_whitespace()) {
                    let at = close + 1 + extra;
                    return Err(err(
                        at + 1,
                        format!("expected the end of the move after `]`, found {}", describe_rest(line, at)),
                    ));
                }
                (true, &line[open + 1..close], open + 1)
            }
            _ => (false, line, 0),
        };
    let ws = words(inner);
    let Some(first) = ws.first() else {
        return Err(err(1, "expected a move (`add 34`, `step 34 56` or `quit`), found nothing".to_string()));
    };
    let keyword = String::from_utf8_lossy(first.text).to_ascii_lowercase();
    let square_at = |w: &Word| -> Result<Square, ParseError> {
        let text = String::from_utf8_lossy(w.text);
        text.parse::<Square>().map_err(|m| err(offset + w.at + 1, m))
    };
    let expect_words = |n: usize, shape: &str| -> Result<(), ParseError> {
        if ws.len() < n {
            let end = ws.last().map_or(0, |w| w.at + w.text.len());
            return Err(err(offset + end + 1, format!("expected {shape}, found the end of the move")));
        }
        if let Some(extra) = ws.get(n) {
            return Err(err(
                offset + extra.at + 1,
                format!(
                    "expected the move to end after {shape}, found `{}`",
                    String::from_utf8_lossy(extra.text)
                ),
            ));
        }
        Ok(())
    };
    let is = |w: &Word, word: &str| w.text.eq_ignore_ascii_case(word.as_bytes());
    match (keyword.as_str(), bracketed) {
        ("quit", _) => {
            expect_words(1, "`quit`")?;
            Ok(Move::Quit)
        }
        ("add", false) => {
            expect_words(2, "`add` and a square")?;
            Ok(Move::Add { to: square_at(&ws[1])? })
        }
        ("step", false) => {
            expect_words(3, "`step`, the new square and the old square")?;
            Ok(Move::Step { to: square_at(&ws[1])?, from: square_at(&ws[2])? })
        }
        ("add", true) => {
            expect_words(3, "`add to` and a square")?;
            if !is(&ws[1], "to") {
                return Err(err(offset + ws[1].at + 1, "expected `to` after `[add`".to_string()));
            }
            Ok(Move::Add { to: square_at(&ws[2])? })
        }
        ("step", true) => {
            expect_words(5, "`step from` a square `to` a square")?;
            if !is(&ws[1], "from") {
                return Err(err(offset + ws[1].at + 1, "expected `from` after `[step`".to_string()));
            }
            if !is(&ws[3], "to") {
                return Err(err(offset + ws[3].at + 1, "expected `to` after the old square".to_string()));
            }
            Ok(Move::Step { from: square_at(&ws[2])?, to: square_at(&ws[4])? })
        }
        _ => Err(err(
            offset + first.at + 1,
            format!(
                "expected `add`, `step` or `quit`, found {}",
                describe_rest(&inner[..first.at + first.text.len()], first.at)
            ),
        )),
    }
}

/// [`parse_move`] on text from inside the program.
pub fn move_from_text(text: &str) -> Result<Move, ParseError> {
    parse_move(text.as_bytes(), "<move>")
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str =
        "#......#\n........\n........\n........\n...w....\n..b.....\n........\n#......#\nblack\n";

    #[test]
    fn a_position_file_round_trips_and_squares_are_column_then_row() {
        let pos = Position::from_text(FILE).unwrap();
        assert_eq!(pos.to_move, Color::Black);
        assert_eq!(pos.board.get("34".parse().unwrap()), Some(Color::White));
        assert_eq!(pos.board.get("25".parse().unwrap()), Some(Color::Black));
        assert_eq!(pos.to_text(), FILE);
        // Corners may be `.`, lines may end in \r\n, the last line end may be missing.
        let loose = FILE.replace('#', ".").replace('\n', "\r\n");
        assert_eq!(Position::from_text(loose.trim_end()).unwrap(), pos);
    }

    #[test]
    fn position_errors_name_line_and_column() {
        let bad = FILE.replacen("...w....", "...x....", 1);
        let e = Position::from_text(&bad).unwrap_err();
        assert_eq!((e.line, e.column), (5, 4));
        assert_eq!(e.message, "expected `.`, `b` or `w` for square 34, found `x`");
        let e = Position::from_text(&FILE.replacen("#......#", "b......#", 1)).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("dead corner"), "{}", e.message);
        let e = Position::from_text(&FILE.replacen("........", ".......", 1)).unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        let e = Position::from_text(&FILE.replace("black", "Black")).unwrap_err();
        assert_eq!((e.line, e.column), (9, 1));
        assert!(e.message.contains("lower case"));
        let e = Position::from_text(&FILE[..20]).unwrap_err();
        assert_eq!(e.line, 3);
        let e = Position::from_text(&format!("{FILE}extra\n")).unwrap_err();
        assert_eq!(e.line, 10);
        let e = Position::from_text(&FILE.replacen("..b.....", "..b.....  ", 1)).unwrap_err();
        assert_eq!((e.line, e.column), (6, 9));
        let e = Position::from_text(&FILE.replacen("........", "..#.....", 1)).unwrap_err();
        assert!(e.render().contains("\n2 | ..#.....\n  |   ^"), "{}", e.render());
    }

    #[test]
    fn moves_in_arbiter_and_course_forms() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(move_from_text("add 34").unwrap(), Move::Add { to: sq("34") });
        assert_eq!(move_from_text("  step 34 56\n").unwrap(), Move::Step { to: sq("34"), from: sq("56") });
        assert_eq!(
            move_from_text("[step from 56 to 34]").unwrap(),
            Move::Step { to: sq("34"), from: sq("56") }
        );
        assert_eq!(move_from_text("[add to 34]").unwrap(), Move::Add { to: sq("34") });
        assert_eq!(move_from_text("QUIT").unwrap(), Move::Quit);
        assert_eq!(move_from_text("[quit]").unwrap(), Move::Quit);
    }

    #[test]
    fn move_errors_name_the_column() {
        let e = move_from_text("add 84").unwrap_err();
        assert_eq!(e.column, 5);
        assert!(e.message.contains("off the board"));
        let e = move_from_text("step 34").unwrap_err();
        assert_eq!(e.column, 8);
        let e = move_from_text("add 34 56").unwrap_err();
        assert_eq!(e.column, 8);
        let e = move_from_text("jump 34").unwrap_err();
        assert_eq!((e.column, e.message.as_str()), (1, "expected `add`, `step` or `quit`, found `jump`"));
        let e = move_from_text("[step from 56 at 34]").unwrap_err();
        assert_eq!(e.column, 15);
        let e = move_from_text("").unwrap_err();
        assert_eq!(e.column, 1);
        let e = move_from_text("add 34\nadd 35").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
