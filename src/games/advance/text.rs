//! Reading and checking board files.
//!
//! A board file is 9 lines of 9 characters from [`Cell::CHARS`]. Lines end in `\n` or `\r\n`;
//! the last line end is optional. Anything else is an error naming the line and column, and
//! what was expected there. `Strictness::Strict` is the stricter form a grader may demand of a
//! bot's output: exactly 9 lines, each ending in `\n`.

use super::board::Board;
use super::piece::Cell;
use super::square::Square;
use crate::harness::board_file::{Errors, Lines, one_empty_extra_line};
pub use crate::harness::board_file::{ParseError as BoardError, Strictness};
use crate::harness::diagnostics::describe_byte;

impl Board {
    /// Reads a board file's text, labelling errors with `origin` (a file name or `<stdin>`).
    pub fn parse(bytes: &[u8], origin: &str, strictness: Strictness) -> Result<Board, BoardError> {
        let err = Errors { origin };
        if bytes.is_empty() {
            return Err(err.at(1, 1, "the file is empty; expected 9 lines of 9 characters".into(), None));
        }
        let split = Lines::split(bytes);
        let (ends_with_newline, raw_lines) = (split.ends_with_newline, split.lines);

        let mut board = Board::empty();
        for (i, raw) in raw_lines.iter().enumerate().take(9) {
            let line = i + 1;
            let content = strictness.content(raw);
            for (j, &b) in content.iter().enumerate() {
                let column = j + 1;
                let hint = if b == b'\r' && strictness == Strictness::Strict {
                    " (--strict accepts only `\\n` line ends)"
                } else {
                    ""
                };
                if column > 9 {
                    let message = format!(
                        "expected the line to end after 9 characters, found {} (the line has {} characters){hint}",
                        describe_byte(content, j),
                        content.len()
                    );
                    return Err(err.at(line, column, message, Some(content)));
                }
                let cell = b.is_ascii().then(|| Cell::from_char(b as char)).flatten();
                let Some(cell) = cell else {
                    let message = format!(
                        "expected one of `{}`, found {}{hint}",
                        Cell::CHARS,
                        describe_byte(content, j)
                    );
                    return Err(err.at(line, column, message, Some(content)));
                };
                board.set(Square::from_text_position(line, column).expect("on the board"), cell);
            }
            if content.len() < 9 {
                let message = format!(
                    "expected 9 characters on the line, found {}{}",
                    content.len(),
                    if content.is_empty() { " (an empty line)" } else { "" }
                );
                return Err(err.at(line, content.len() + 1, message, Some(content)));
            }
        }
        if raw_lines.len() < 9 {
            let message = format!("expected 9 lines, found {}", raw_lines.len());
            return Err(err.at(raw_lines.len() + 1, 1, message, None));
        }
        if raw_lines.len() > 9 {
            let extra = raw_lines[9];
            let message = if one_empty_extra_line(&raw_lines, 9) {
                "expected the file to end after 9 lines, found an empty 10th line".to_string()
            } else {
                format!("expected the file to end after 9 lines, found {} lines", raw_lines.len())
            };
            return Err(err.at(10, 1, message, Some(extra)));
        }
        if strictness == Strictness::Strict && !ends_with_newline {
            let message = "expected a line feed (\\n) after the 9th character: --strict demands that every \
                           line ends in \\n"
                .to_string();
            return Err(err.at(9, 10, message, Some(raw_lines[8])));
        }
        Ok(board)
    }

    /// Reads board text that comes from inside the program (tests, built-in positions).
    pub fn from_text(text: &str) -> Result<Board, BoardError> {
        Board::parse(text.as_bytes(), "<text>", Strictness::Lenient)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "........g\n.........\n.........\n.........\n.........\n.....d...\n.....Z...\n........#\n.......#G";

    fn err(text: &[u8]) -> BoardError {
        Board::parse(text, "t.txt", Strictness::Lenient).unwrap_err()
    }

    #[test]
    fn accepts_lf_crlf_and_missing_final_newline() {
        let lf = Board::from_text(GOOD).unwrap();
        let with_final = format!("{GOOD}\n");
        let crlf = GOOD.replace('\n', "\r\n") + "\r\n";
        assert_eq!(Board::from_text(&with_final).unwrap(), lf);
        assert_eq!(Board::from_text(&crlf).unwrap(), lf);
        assert_eq!(lf.get("h1".parse().unwrap()).to_char(), '#');
        assert_eq!(lf.get("i9".parse().unwrap()).to_char(), 'g');
    }

    #[test]
    fn bad_character_names_line_and_column() {
        let text = GOOD.replacen(".....d...", ".....d.x.", 1);
        let e = err(text.as_bytes());
        assert_eq!((e.line, e.column), (6, 8));
        assert!(e.message.contains("found `x`"), "{}", e.message);
        assert_eq!(e.to_string(), format!("t.txt:6:8: {}", e.message));
        assert!(e.render().contains("       ^"), "{}", e.render());
    }

    #[test]
    fn short_and_long_lines() {
        let short = GOOD.replacen(".....Z...", ".....Z..", 1);
        let e = err(short.as_bytes());
        assert_eq!((e.line, e.column), (7, 9));
        assert!(e.message.contains("found 8"), "{}", e.message);
        let long = GOOD.replacen(".....Z...", ".....Z....", 1);
        let e = err(long.as_bytes());
        assert_eq!((e.line, e.column), (7, 10));
    }

    #[test]
    fn wrong_line_counts() {
        let eight: Vec<&str> = GOOD.lines().take(8).collect();
        let e = err(eight.join("\n").as_bytes());
        assert_eq!((e.line, e.column), (9, 1));
        assert!(e.message.contains("expected 9 lines, found 8"));
        let e = err(format!("{GOOD}\n\n").as_bytes());
        assert_eq!(e.line, 10);
        assert!(e.message.contains("empty 10th line"), "{}", e.message);
        let e = err(format!("{GOOD}\n.........\n").as_bytes());
        assert!(e.message.contains("found 10 lines"), "{}", e.message);
        let e = err(b"");
        assert!(e.message.contains("empty"));
    }

    #[test]
    fn non_ascii_and_lone_carriage_return() {
        let text = GOOD.replacen("........#", "....é...#", 1);
        let e = err(text.as_bytes());
        assert_eq!((e.line, e.column), (8, 5));
        assert!(e.message.contains("U+00E9"), "{}", e.message);
        let text = GOOD.replacen("........#", "....\r...#", 1);
        let e = err(text.as_bytes());
        assert!(e.message.contains("carriage return"), "{}", e.message);
        let e = err(&[0xff, b'\n']);
        assert!(e.message.contains("0xFF"), "{}", e.message);
        let e = err(format!("\u{feff}{GOOD}").as_bytes());
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("byte-order mark"), "{}", e.message);
    }

    #[test]
    fn strict_demands_lf_on_every_line() {
        let strict = |t: &str| Board::parse(t.as_bytes(), "o", Strictness::Strict);
        assert!(strict(&format!("{GOOD}\n")).is_ok());
        let e = strict(GOOD).unwrap_err();
        assert_eq!((e.line, e.column), (9, 10));
        let e = strict(&(GOOD.replace('\n', "\r\n") + "\r\n")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 10));
    }
}
