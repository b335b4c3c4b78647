//! Reading and writing input.txt (output.txt's point is read in `move_text.rs`).
//!
//! input.txt is 22 lines: `WHITE` or `BLACK`; the seconds left, a strictly positive number;
//! `W,B`, the pieces captured by White and by Black; then the 19 board lines, row 19 first, each
//! 19 characters from `w`, `b` and `.`. output.txt is one point such as `9N`.
//!
//! Anything else is a [`ParseError`] naming the origin (a file name), the line and column (both
//! from 1, columns counted in bytes) and what was expected there. [`Strictness::Lenient`] accepts
//! `\r\n` line ends and a missing final line end, and spaces around a move;
//! [`Strictness::Strict`] demands the exact form a grader writes: `\n` after every line, and a
//! move written as `9N` or `9N\n` and nothing else.

use super::board::Board;
use super::color::Color;
use super::point::{Point, SIZE};
use super::position::Position;
use crate::harness::board_file::{Errors, Lines, describe_rest, one_empty_extra_line};
pub use crate::harness::board_file::{ParseError, Strictness};
use crate::harness::diagnostics::describe_byte;

/// The number of lines of input.txt.
const INPUT_LINES: usize = 3 + SIZE;

/// What line `n` (from 1) of input.txt holds, for messages.
fn input_line_role(n: usize) -> String {
    match n {
        1 => "the colour to play (`WHITE` or `BLACK`)".to_string(),
        2 => "the seconds left".to_string(),
        3 => "the captured pieces `W,B`".to_string(),
        _ => format!("board line {} of 19 (row {})", n - 3, SIZE + 4 - n),
    }
}

impl Position {
    /// Reads input.txt's bytes, labelling errors with `origin` (a file name).
    pub fn parse(bytes: &[u8], origin: &str, strictness: Strictness) -> Result<Position, ParseError> {
        let err = Errors { origin };
        if bytes.is_empty() {
            let message = "the file is empty; expected 22 lines: the colour to play, the seconds left, the \
                           captured pieces and 19 board lines"
                .to_string();
            return Err(err.at(1, 1, message, None));
        }
        let split = Lines::split(bytes);
        let mut lines = Vec::with_capacity(INPUT_LINES);
        for (i, &raw) in split.lines.iter().enumerate() {
            let n = i + 1;
            if n > INPUT_LINES {
                let message = if one_empty_extra_line(&split.lines, INPUT_LINES) {
                    "expected the file to end after the 19th board line, found an empty 23rd line".to_string()
                } else {
                    format!(
                        "expected the file to end after the 19th board line (line 22), found {} lines",
                        split.lines.len()
                    )
                };
                return Err(err.at(n, 1, message, Some(raw)));
            }
            let content = strictness.content(raw);
            lines.push(content);
        }
        if lines.len() < INPUT_LINES {
            let n = lines.len() + 1;
            let message = format!("expected {}, found the end of the file", input_line_role(n));
            return Err(err.at(n, 1, message, None));
        }
        let to_move = parse_color(lines[0], &err, strictness)?;
        let seconds_left = parse_seconds(lines[1], &err, strictness)?;
        let captured = parse_captured(lines[2], &err, strictness)?;
        let board = parse_board_lines(&lines[3..], 4, &err, strictness)?;
        if strictness == Strictness::Strict && !split.ends_with_newline {
            let last = lines[INPUT_LINES - 1];
            let message =
                "expected a line feed (\\n) after the last board line: strict reading demands that \
                           every line ends in \\n"
                    .to_string();
            return Err(err.at(INPUT_LINES, last.len() + 1, message, Some(last)));
        }
        Ok(Position { to_move, seconds_left, captured, board })
    }

    /// Reads input.txt text that comes from inside the program (tests, built-in positions).
    pub fn from_text(text: &str) -> Result<Position, ParseError> {
        Position::parse(text.as_bytes(), "<text>", Strictness::Lenient)
    }

    /// input.txt for this position: 22 lines, each ending in `\n`. The seconds are written so
    /// that reading them back gives the same number (`100.0`, `0.25`).
    pub fn to_input_text(&self) -> String {
        format!(
            "{}\n{:?}\n{},{}\n{}",
            self.to_move.input_word(),
            self.seconds_left,
            self.captured[0],
            self.captured[1],
            self.board.to_text()
        )
    }
}

impl Board {
    /// Reads the 19 board lines alone (row 19 first), as tests draw boards. Line ends as for
    /// input.txt.
    pub fn parse(bytes: &[u8], origin: &str, strictness: Strictness) -> Result<Board, ParseError> {
        let err = Errors { origin };
        let split = Lines::split(bytes);
        let mut lines: Vec<&[u8]> = Vec::with_capacity(SIZE);
        for (i, &raw) in split.lines.iter().enumerate() {
            if i == SIZE {
                let message =
                    format!("expected the board to end after 19 lines, found {}", split.lines.len());
                return Err(err.at(i + 1, 1, message, Some(raw)));
            }
            lines.push(strictness.content(raw));
        }
        if bytes.is_empty() || lines.len() < SIZE {
            let found = if bytes.is_empty() { 0 } else { lines.len() };
            let message = format!("expected 19 board lines, found {found}");
            return Err(err.at(found + 1, 1, message, None));
        }
        let board = parse_board_lines(&lines, 1, &err, strictness)?;
        if strictness == Strictness::Strict && !split.ends_with_newline {
            let message = "expected a line feed (\\n) after the last board line".to_string();
            return Err(err.at(SIZE, SIZE + 1, message, Some(lines[SIZE - 1])));
        }
        Ok(board)
    }

    /// Reads 19 board lines that come from inside the program (tests, built-in boards).
    pub fn from_text(text: &str) -> Result<Board, ParseError> {
        Board::parse(text.as_bytes(), "<text>", Strictness::Lenient)
    }
}

/// A hint added to messages about a `\r` that strict reading refuses.
fn strict_hint(line: &[u8], at: usize, strictness: Strictness) -> &'static str {
    if strictness == Strictness::Strict && line.get(at) == Some(&b'\r') {
        " (strict reading accepts only `\\n` line ends)"
    } else {
        ""
    }
}

fn parse_color(line: &[u8], err: &Errors, strictness: Strictness) -> Result<Color, ParseError> {
    for color in Color::BOTH {
        let word = color.input_word().as_bytes();
        if line == word {
            return Ok(color);
        }
        if line.starts_with(word) {
            let message = format!(
                "expected the line to end after `{}`, found {}{}",
                color.input_word(),
                describe_byte(line, word.len()),
                strict_hint(line, word.len(), strictness)
            );
            return Err(err.at(1, word.len() + 1, message, Some(line)));
        }
    }
    let found = if line.is_empty() { "an empty line".to_string() } else { describe_rest(line, 0, false) };
    let upper = line.to_ascii_uppercase();
    let hint =
        if upper == b"WHITE" || upper == b"BLACK" { " (the colour is written in upper case)" } else { "" };
    let message = format!("expected the colour to play, `WHITE` or `BLACK`, found {found}{hint}");
    Err(err.at(1, 1, message, Some(line)))
}

fn parse_seconds(line: &[u8], err: &Errors, strictness: Strictness) -> Result<f64, ParseError> {
    const NUMERAL: &[u8] = b"0123456789.eE+-";
    if line.is_empty() {
        let message =
            "expected the seconds left, a strictly positive number like `100.0`, found an empty line";
        return Err(err.at(2, 1, message.to_string(), Some(line)));
    }
    if let Some(at) = line.iter().position(|b| !NUMERAL.contains(b)) {
        let message = format!(
            "expected the seconds left, a strictly positive number like `100.0`, found {}{}",
            describe_byte(line, at),
            strict_hint(line, at, strictness)
        );
        return Err(err.at(2, at + 1, message, Some(line)));
    }
    let text = std::str::from_utf8(line).expect("checked ASCII");
    let value: f64 = text.parse().map_err(|_| {
        let message = format!("expected the seconds left, a number like `100.0` or `0.5`, found `{text}`");
        err.at(2, 1, message, Some(line))
    })?;
    if !value.is_finite() || value <= 0.0 {
        let message = format!("expected the seconds left to be strictly positive and finite, found `{text}`");
        return Err(err.at(2, 1, message, Some(line)));
    }
    Ok(value)
}

fn parse_captured(line: &[u8], err: &Errors, strictness: Strictness) -> Result<[u32; 2], ParseError> {
    let mut at = 0;
    let mut counts = [0u32; 2];
    for (i, color) in Color::BOTH.into_iter().enumerate() {
        if i == 1 {
            if line.get(at) != Some(&b',') {
                let found =
                    if at < line.len() { describe_byte(line, at) } else { "the end of the line".into() };
                let message = format!(
                    "expected a comma between the pieces captured by White and by Black, found {found}{}",
                    strict_hint(line, at, strictness)
                );
                return Err(err.at(3, at + 1, message, Some(line)));
            }
            at += 1;
        }
        let start = at;
        while line.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let what = format!("the number of pieces captured by {color}");
        if at == start {
            let found =
                if start < line.len() { describe_byte(line, start) } else { "the end of the line".into() };
            let message =
                format!("expected {what} (digits), found {found}{}", strict_hint(line, start, strictness));
            return Err(err.at(3, start + 1, message, Some(line)));
        }
        let digits = std::str::from_utf8(&line[start..at]).expect("digits");
        let Ok(count) = digits.parse::<u32>() else {
            let message = format!("expected {what}, a 32-bit number, found `{digits}`, which is too large");
            return Err(err.at(3, start + 1, message, Some(line)));
        };
        if count % 2 == 1 {
            let message = format!("expected {what} to be even (pieces are captured in pairs), found {count}");
            return Err(err.at(3, start + 1, message, Some(line)));
        }
        counts[i] = count;
    }
    if at < line.len() {
        let message = format!(
            "expected the line to end after the pieces captured by Black, found {}{}",
            describe_byte(line, at),
            strict_hint(line, at, strictness)
        );
        return Err(err.at(3, at + 1, message, Some(line)));
    }
    Ok(counts)
}

/// Reads 19 board lines; `first` is the file line number of the first of them.
fn parse_board_lines(
    lines: &[&[u8]],
    first: usize,
    err: &Errors,
    strictness: Strictness,
) -> Result<Board, ParseError> {
    let mut board = Board::empty();
    for (i, &line) in lines.iter().enumerate() {
        let n = first + i;
        for (j, &b) in line.iter().enumerate() {
            let hint = strict_hint(line, j, strictness);
            if j == SIZE {
                let message = format!(
                    "expected the board line to end after 19 characters, found {} (the line has {} characters){hint}",
                    describe_byte(line, j),
                    line.len()
                );
                return Err(err.at(n, j + 1, message, Some(line)));
            }
            let stone = match b {
                b'.' => None,
                _ => match Color::from_stone_char(b as char) {
                    Some(color) => Some(color),
                    None => {
                        let message =
                            format!("expected `w`, `b` or `.`, found {}{hint}", describe_byte(line, j));
                        return Err(err.at(n, j + 1, message, Some(line)));
                    }
                },
            };
            board.set(Point::from_board_text(i + 1, j + 1).expect("on the board"), stone);
        }
        if line.len() < SIZE {
            let empty = if line.is_empty() { " (an empty line)" } else { "" };
            let message = format!("expected 19 characters on the board line, found {}{empty}", line.len());
            return Err(err.at(n, line.len() + 1, message, Some(line)));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The assignment's sample input: White on 10K, 10N and 12K; Black on 11L and 10M.
    pub(crate) const SAMPLE: &str = "BLACK\n100.0\n0,0\n\
        ...................\n...................\n...................\n...................\n\
        ...................\n...................\n...................\n.........w.........\n\
        ..........b........\n.........w.bw......\n...................\n...................\n\
        ...................\n...................\n...................\n...................\n\
        ...................\n...................\n...................\n";

    fn err(text: &str) -> ParseError {
        Position::parse(text.as_bytes(), "input.txt", Strictness::Lenient).unwrap_err()
    }

    fn at(e: &ParseError) -> (usize, usize) {
        (e.line, e.column)
    }

    /// SAMPLE with line `n` (from 1) replaced.
    fn with_line(n: usize, line: &str) -> String {
        let mut lines: Vec<&str> = SAMPLE.lines().collect();
        lines[n - 1] = line;
        lines.join("\n") + "\n"
    }

    #[test]
    fn reads_the_assignment_sample() {
        let pos = Position::from_text(SAMPLE).unwrap();
        assert_eq!(pos.to_move, Color::Black);
        assert_eq!(pos.seconds_left, 100.0);
        assert_eq!(pos.captured, [0, 0]);
        let white: Vec<String> = pos.board.stones(Color::White).map(|p| p.to_string()).collect();
        let black: Vec<String> = pos.board.stones(Color::Black).map(|p| p.to_string()).collect();
        assert_eq!(white, ["10K", "10N", "12K"]);
        assert_eq!(black, ["10M", "11L"]);
        assert_eq!(pos.to_input_text(), SAMPLE);
    }

    #[test]
    fn accepts_crlf_and_a_missing_final_newline_unless_strict() {
        let lf = Position::from_text(SAMPLE).unwrap();
        let crlf = SAMPLE.replace('\n', "\r\n");
        let bare = SAMPLE.trim_end();
        assert_eq!(Position::from_text(&crlf).unwrap(), lf);
        assert_eq!(Position::from_text(bare).unwrap(), lf);
        let strict = |t: &str| Position::parse(t.as_bytes(), "in", Strictness::Strict);
        assert_eq!(strict(SAMPLE).unwrap(), lf);
        let e = strict(&crlf).unwrap_err();
        assert_eq!(at(&e), (1, 6));
        assert!(e.message.contains("strict"), "{}", e.message);
        let e = strict(bare).unwrap_err();
        assert_eq!(at(&e), (22, 20));
    }

    #[test]
    fn the_colour_line() {
        let e = err(&with_line(1, "white"));
        assert_eq!(at(&e), (1, 1));
        assert!(e.message.contains("upper case"), "{}", e.message);
        let e = err(&with_line(1, "WHITE "));
        assert_eq!(at(&e), (1, 6));
        assert!(e.message.contains("found a space"), "{}", e.message);
        let e = err(&with_line(1, "RED"));
        assert_eq!(
            e.to_string(),
            "input.txt:1:1: expected the colour to play, `WHITE` or `BLACK`, found `RED`"
        );
        let e = err(&with_line(1, ""));
        assert!(e.message.contains("empty line"), "{}", e.message);
    }

    #[test]
    fn the_seconds_line() {
        for good in ["100", "0.01", "5.2", "1e3", ".5"] {
            assert!(Position::from_text(&with_line(2, good)).is_ok(), "{good}");
        }
        let e = err(&with_line(2, "100.0s"));
        assert_eq!(at(&e), (2, 6));
        for bad in ["0", "0.0", "-1", "1e999"] {
            let e = err(&with_line(2, bad));
            assert_eq!(at(&e), (2, 1), "{bad}");
            assert!(e.message.contains("strictly positive"), "{bad}: {}", e.message);
        }
        let e = err(&with_line(2, "inf"));
        assert_eq!(at(&e), (2, 1));
        let e = err(&with_line(2, "1.2.3"));
        assert!(e.message.contains("`1.2.3`"), "{}", e.message);
        assert!(err(&with_line(2, "")).message.contains("empty line"));
    }

    #[test]
    fn the_captures_line() {
        let pos = Position::from_text(&with_line(3, "4,10")).unwrap();
        assert_eq!(pos.captured, [4, 10]);
        let cases = [
            ("", (3, 1), "captured by White (digits), found the end of the line"),
            ("2", (3, 2), "expected a comma"),
            ("2;4", (3, 2), "found `;`"),
            ("2,", (3, 3), "captured by Black (digits), found the end of the line"),
            ("2, 4", (3, 3), "found a space"),
            ("2,4,", (3, 4), "expected the line to end"),
            ("3,4", (3, 1), "even"),
            ("2,5", (3, 3), "even"),
            ("-2,4", (3, 1), "found `-`"),
            ("2,4294967296", (3, 3), "too large"),
        ];
        for (line, place, words) in cases {
            let e = err(&with_line(3, line));
            assert_eq!(at(&e), place, "{line:?}: {e}");
            assert!(e.message.contains(words), "{line:?}: {}", e.message);
        }
        let big = Position::from_text(&with_line(3, "4294967294,0")).unwrap();
        assert_eq!(big.captured, [u32::MAX - 1, 0]);
    }

    #[test]
    fn the_board_lines() {
        let e = err(&with_line(12, ".........w.bW......"));
        assert_eq!(at(&e), (12, 13));
        assert_eq!(e.message, "expected `w`, `b` or `.`, found `W`");
        assert!(e.render().ends_with(&format!("{}^", " ".repeat(12))), "{}", e.render());
        let e = err(&with_line(5, ".................."));
        assert_eq!(at(&e), (5, 19));
        assert!(e.message.contains("found 18"), "{}", e.message);
        let e = err(&with_line(22, "...................."));
        assert_eq!(at(&e), (22, 20));
        let e = err(&with_line(7, ""));
        assert!(e.message.contains("empty line"), "{}", e.message);
    }

    #[test]
    fn wrong_line_counts() {
        let short: Vec<&str> = SAMPLE.lines().take(21).collect();
        let e = err(&short.join("\n"));
        assert_eq!(at(&e), (22, 1));
        assert_eq!(e.message, "expected board line 19 of 19 (row 1), found the end of the file");
        let e = err("WHITE\n");
        assert_eq!(at(&e), (2, 1));
        assert!(e.message.contains("seconds left"), "{}", e.message);
        let e = err(&format!("{SAMPLE}\n"));
        assert_eq!(at(&e), (23, 1));
        assert!(e.message.contains("empty 23rd line"), "{}", e.message);
        let e = err(&format!("{SAMPLE}...................\n"));
        assert!(e.message.contains("found 23 lines"), "{}", e.message);
        assert!(err("").message.contains("empty"));
    }

    #[test]
    fn non_ascii_bytes_are_named() {
        let e =
            Position::parse(format!("\u{feff}{SAMPLE}").as_bytes(), "in", Strictness::Lenient).unwrap_err();
        assert_eq!(at(&e), (1, 1));
        assert!(e.message.contains("byte-order mark"), "{}", e.message);
        let e = err(&with_line(4, "........é.........."));
        assert_eq!(at(&e), (4, 9));
        assert!(e.message.contains("U+00E9"), "{}", e.message);
    }

    #[test]
    fn input_text_round_trips_odd_seconds() {
        let mut pos = Position::from_text(SAMPLE).unwrap();
        for seconds in [0.01, 5.2, 1e-7, 123456.789, 300.0] {
            pos.seconds_left = seconds;
            assert_eq!(Position::from_text(&pos.to_input_text()).unwrap(), pos);
        }
    }
}
