//! What every game's board-file reader shares: the error that names `file:line:column`, the
//! lines of a file with their line ends, how much to forgive, and reading a board argument (a
//! file or standard input) under the size cap. Each game keeps only its own grammar.

use std::fmt;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use super::diagnostics::{caret_snippet, describe_byte};
use super::files;

/// How forgiving a reader is about the form of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strictness {
    /// `\n` or `\r\n` line ends, the final one optional (the form a rules page gives); a game
    /// may allow more, such as spaces around a move.
    #[default]
    Lenient,
    /// The exact form a grader writes: every line ends in `\n`, and nothing else is allowed.
    Strict,
}

impl Strictness {
    /// Line `raw` without the `\r` of a `\r\n` line end when reading leniently; strict reading
    /// keeps the `\r`, so that it is reported where it stands.
    pub fn content(self, raw: &[u8]) -> &[u8] {
        match self {
            Strictness::Lenient => strip_cr(raw),
            Strictness::Strict => raw,
        }
    }
}

/// Text that could not be read: where the first problem is and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file name, or `<stdin>`, or another label of where the text came from.
    pub origin: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in bytes.
    pub column: usize,
    /// What was wrong, as "expected ..., found ...".
    pub message: String,
    /// The offending line (lossily decoded), for showing a caret under the column.
    pub line_text: Option<String>,
}

impl ParseError {
    /// An error at `line` and `column` of `origin`; `text` is the offending line, if any.
    pub fn at(origin: &str, line: usize, column: usize, message: String, text: Option<&[u8]>) -> ParseError {
        ParseError {
            origin: origin.to_string(),
            line,
            column,
            message,
            line_text: text.map(|t| String::from_utf8_lossy(t).into_owned()),
        }
    }

    /// The error followed by the offending line and a caret under the column, compiler style.
    pub fn render(&self) -> String {
        let mut out = self.to_string();
        if let Some(text) = &self.line_text {
            out.push_str(&caret_snippet(self.line, self.column, text));
        }
        out
    }
}

/// `origin:line:column: message`.
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.origin, self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Makes errors for one origin, so that a reader names its file once.
#[derive(Clone, Copy, Debug)]
pub struct Errors<'a> {
    /// The file name, or another label of where the text came from.
    pub origin: &'a str,
}

impl Errors<'_> {
    /// An error at `line` and `column`; `text` is the offending line, if any.
    pub fn at(&self, line: usize, column: usize, message: String, text: Option<&[u8]>) -> ParseError {
        ParseError::at(self.origin, line, column, message, text)
    }
}

/// A file split into lines at `\n`, remembering whether the last one ended in `\n` (a final
/// line end adds no empty line). Each line keeps its `\r`, if any.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    /// The lines, without their `\n`.
    pub lines: Vec<&'a [u8]>,
    /// Whether the file's last byte is `\n`.
    pub ends_with_newline: bool,
}

impl<'a> Lines<'a> {
    /// Splits `bytes` into lines.
    pub fn split(bytes: &'a [u8]) -> Lines<'a> {
        let ends_with_newline = bytes.ends_with(b"\n");
        let body = if ends_with_newline { &bytes[..bytes.len() - 1] } else { bytes };
        Lines { lines: body.split(|&b| b == b'\n').collect(), ends_with_newline }
    }
}

/// `raw` without one trailing `\r`.
pub fn strip_cr(raw: &[u8]) -> &[u8] {
    raw.strip_suffix(b"\r").unwrap_or(raw)
}

/// Whether `lines` has exactly one line past `expected` and it is empty but for `\r`s: an
/// editor's extra line end, which messages name as such.
pub fn one_empty_extra_line(lines: &[&[u8]], expected: usize) -> bool {
    lines.len() == expected + 1 && lines[expected].iter().all(|&b| b == b'\r')
}

/// What the bytes from `at` to the end of `line` read as in a message: "the end of the line",
/// `` `abc` `` when they are all printable ASCII (spaces too, if `spaces_are_text`), or else
/// the byte at `at`.
pub fn describe_rest(line: &[u8], at: usize, spaces_are_text: bool) -> String {
    let rest = &line[at..];
    if rest.is_empty() {
        "the end of the line".to_string()
    } else if rest.iter().all(|&b| b.is_ascii_graphic() || (spaces_are_text && b == b' ')) {
        format!("`{}`", String::from_utf8_lossy(rest))
    } else {
        describe_byte(line, at)
    }
}

/// Where byte `at` of `bytes` stands: its line and column (from 1) and the text of its line.
pub fn locate(bytes: &[u8], at: usize) -> (usize, usize, &[u8]) {
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line_end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    (line, at - line_start + 1, &bytes[line_start..line_end])
}

/// Reads the bytes of a board argument, a file path or `-` for standard input, under the board
/// file's size cap. Returns the bytes and the label that errors should use.
pub fn read_source(path: &Path) -> Result<(Vec<u8>, String)> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        files::read_up_to(std::io::stdin(), files::BOARD.bytes, &mut bytes)
            .context("cannot read the board from standard input")?;
        if bytes.len() as u64 > files::BOARD.bytes {
            bail!("standard input holds more than the {} bytes allowed for a board file", files::BOARD.bytes);
        }
        Ok((bytes, "<stdin>".to_string()))
    } else {
        let bytes = files::read_capped(path, files::BOARD).map_err(|e| match e {
            files::ReadError::Io { cause: source, .. } => {
                anyhow!("cannot read board file {}: {source}", path.display())
            }
            too_large => too_large.into(),
        })?;
        Ok((bytes, path.display().to_string()))
    }
}

/// `Display` for a board type as its file text (its `to_text()`), and `Debug` as the same on a
/// line of its own, so that a failed `assert_eq!` draws both boards.
///
/// ```ignore
/// arbiter::board_text_fmt!(Board);
/// ```
#[macro_export]
macro_rules! board_text_fmt {
    ($board:ty) => {
        impl ::std::fmt::Debug for $board {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, "\n{}", self.to_text())
            }
        }

        impl ::std::fmt::Display for $board {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.to_text())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_carriage_returns_and_drop_one_final_line_end() {
        let split = Lines::split(b"ab\r\ncd\n");
        assert_eq!(split.lines, [&b"ab\r"[..], &b"cd"[..]]);
        assert!(split.ends_with_newline);
        assert_eq!(Strictness::Lenient.content(split.lines[0]), b"ab");
        assert_eq!(Strictness::Strict.content(split.lines[0]), b"ab\r");
        let bare = Lines::split(b"ab\n\n");
        assert_eq!(bare.lines.len(), 2);
        assert!(one_empty_extra_line(&bare.lines, 1));
        assert!(!one_empty_extra_line(&bare.lines, 2));
    }

    #[test]
    fn errors_name_file_line_and_column_and_show_a_caret() {
        let e = Errors { origin: "in.txt" }.at(2, 3, "expected `x`".into(), Some(b"abc"));
        assert_eq!(e.to_string(), "in.txt:2:3: expected `x`");
        assert_eq!(e.render(), "in.txt:2:3: expected `x`\n  |\n2 | abc\n  |   ^");
    }

    #[test]
    fn the_rest_of_a_line_and_a_byte_are_placed() {
        assert_eq!(describe_rest(b"a b", 0, false), "`a`");
        assert_eq!(describe_rest(b"a b", 0, true), "`a b`");
        assert_eq!(describe_rest(b"ab", 2, true), "the end of the line");
        assert_eq!(locate(b"9N\n10K", 4), (2, 2, &b"10K"[..]));
    }
}
