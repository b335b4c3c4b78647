//! Reading output.txt: one point such as `9N`, row then column. Errors name the origin, the
//! line and the column (from 1, in bytes) and what was expected there, as input.txt's do.

use super::point::{COLUMNS, Point, SIZE};
use crate::harness::board_file::{Errors, ParseError, Strictness, locate};
use crate::harness::diagnostics::describe_byte;

/// Reads output.txt's bytes: one point such as `9N`. Lenient reading allows whitespace (spaces,
/// tabs, `\r`, `\n`) before and after it; strict reading allows only `9N` or `9N\n`.
pub fn parse_move(bytes: &[u8], origin: &str, strictness: Strictness) -> Result<Point, ParseError> {
    let err = Errors { origin };
    let fail = |at: usize, message: String| {
        let (line, column, text) = locate(bytes, at);
        err.at(line, column, message, Some(text))
    };
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let start = match strictness {
        Strictness::Lenient => bytes.iter().position(|b| !is_space(b)).unwrap_or(bytes.len()),
        Strictness::Strict => 0,
    };
    if start == bytes.len() {
        let found = if bytes.is_empty() { "an empty file" } else { "only whitespace" };
        return Err(fail(start, format!("expected a point like `9N` (row, then column), found {found}")));
    }
    let hint = |at: usize| {
        if strictness == Strictness::Strict && is_space(&bytes[at]) {
            " (strict reading accepts exactly the point, optionally followed by one `\\n`)"
        } else {
            ""
        }
    };

    // The row: 1..19, no leading zero.
    let mut at = start;
    while bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    let digits = &bytes[start..at];
    if digits.is_empty() {
        let b = bytes[start];
        let message = if COLUMNS.as_bytes().contains(&b.to_ascii_uppercase()) || b == b'I' || b == b'i' {
            format!(
                "expected a row number 1..19 first (a point is written row then column, like `9N`), found {}",
                describe_byte(bytes, start)
            )
        } else {
            format!(
                "expected a point like `9N` (a row number 1..19 first), found {}{}",
                describe_byte(bytes, start),
                hint(start)
            )
        };
        return Err(fail(start, message));
    }
    let row_text = std::str::from_utf8(digits).expect("digits");
    if digits[0] == b'0' {
        return Err(fail(
            start,
            format!("expected a row number 1..19 without a leading zero, found `{row_text}`"),
        ));
    }
    let row: usize = row_text.parse().unwrap_or(usize::MAX);
    if row > SIZE {
        return Err(fail(start, format!("expected a row number 1..19, found `{row_text}`")));
    }

    // The column: A..T without I, upper case.
    let Some(&letter) = bytes.get(at) else {
        return Err(fail(
            at,
            format!(
                "expected a column letter A..T (no I) after the row `{row_text}`, found the end of the file"
            ),
        ));
    };
    let column = match COLUMNS.as_bytes().iter().position(|&c| c == letter) {
        Some(column) => column,
        None => {
            let message = if letter == b'I' {
                "expected a column letter A..T, found `I`: the columns skip I (H is followed by J)"
                    .to_string()
            } else if COLUMNS.as_bytes().contains(&letter.to_ascii_uppercase()) || letter == b'i' {
                format!("expected an upper-case column letter A..T (no I), found `{}`", letter as char)
            } else {
                format!(
                    "expected a column letter A..T (no I), found {}{}",
                    describe_byte(bytes, at),
                    hint(at)
                )
            };
            return Err(fail(at, message));
        }
    };
    let point = Point::new(row, column).expect("row and column checked");
    at += 1;

    // After the point.
    let rest = &bytes[at..];
    let ok = match strictness {
        Strictness::Lenient => rest.iter().all(is_space),
        Strictness::Strict => rest.is_empty() || rest == b"\n",
    };
    if !ok {
        let bad = match strictness {
            Strictness::Lenient => at + rest.iter().position(|b| !is_space(b)).expect("not all space"),
            Strictness::Strict if rest.first() == Some(&b'\n') => at + 1,
            Strictness::Strict => at,
        };
        let message = format!(
            "expected nothing more after the point `{point}`, found {}{}",
            describe_byte(bytes, bad),
            hint(bad)
        );
        return Err(fail(bad, message));
    }
    Ok(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(e: &ParseError) -> (usize, usize) {
        (e.line, e.column)
    }

    fn mv(text: &str, strictness: Strictness) -> Result<Point, ParseError> {
        parse_move(text.as_bytes(), "output.txt", strictness)
    }

    #[test]
    fn moves_in_lenient_and_strict_form() {
        let p: Point = "9N".parse().unwrap();
        for good in ["9N", "9N\n", "  9N \r\n", "\n\t9N\n\n"] {
            assert_eq!(mv(good, Strictness::Lenient), Ok(p), "{good:?}");
        }
        for good in ["9N", "9N\n"] {
            assert_eq!(mv(good, Strictness::Strict), Ok(p), "{good:?}");
        }
        for (bad, place) in [("9N\r\n", (1, 3)), (" 9N", (1, 1)), ("9N\n\n", (2, 1)), ("9N ", (1, 3))] {
            let e = mv(bad, Strictness::Strict).unwrap_err();
            assert_eq!(at(&e), place, "{bad:?}: {e}");
        }
        assert_eq!(mv("19T", Strictness::Strict).unwrap().to_string(), "19T");
    }

    #[test]
    fn move_errors_name_line_and_column() {
        let cases = [
            ("", (1, 1), "empty file"),
            (" \n ", (2, 2), "only whitespace"),
            ("N9", (1, 1), "row number 1..19 first"),
            ("\n  9n", (2, 4), "upper-case"),
            ("9I", (1, 2), "skip I"),
            ("9U", (1, 2), "found `U`"),
            ("09N", (1, 1), "leading zero"),
            ("20A", (1, 1), "found `20`"),
            ("9", (1, 2), "found the end of the file"),
            ("9N 10K", (1, 4), "found `1`"),
            ("9N\n10K\n", (2, 1), "nothing more"),
            ("9,N", (1, 2), "found `,`"),
        ];
        for (text, place, words) in cases {
            let e = mv(text, Strictness::Lenient).unwrap_err();
            assert_eq!(at(&e), place, "{text:?}: {e}");
            assert!(e.message.contains(words), "{text:?}: {}", e.message);
            assert!(e.to_string().starts_with(&format!("output.txt:{}:{}: ", place.0, place.1)));
        }
    }
}
