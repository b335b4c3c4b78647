//! The parts of a `file:line:column` error that every game's file readers share: how an
//! unexpected byte reads in a message, and the offending line with a caret under the column.

/// How the byte at `at` of `bytes` reads in a message: `` `x` ``, "a tab", "the control
/// character 0x07", "`é` (U+00E9, not ASCII)", or a byte-order mark named as such.
pub fn describe_byte(bytes: &[u8], at: usize) -> String {
    let b = bytes[at];
    match b {
        b'\r' => "a carriage return (\\r)".to_string(),
        b'\n' => "a line feed (\\n)".to_string(),
        b'\t' => "a tab".to_string(),
        b' ' => "a space".to_string(),
        0x21..=0x7e => format!("`{}`", b as char),
        0x00..=0x7f => format!("the control character 0x{b:02X}"),
        _ => {
            // Decode one UTF-8 character if the bytes form one; otherwise name the raw byte.
            let end = (at + 4).min(bytes.len());
            let decoded = (at + 1..=end).find_map(|e| std::str::from_utf8(&bytes[at..e]).ok());
            match decoded.and_then(|s| s.chars().next()) {
                // Editors on Windows often start files with one; say so, since it is invisible.
                Some('\u{feff}') => "a UTF-8 byte-order mark (U+FEFF); save the file without one".to_string(),
                Some(c) => format!("`{c}` (U+{:04X}, not ASCII)", c as u32),
                None => format!("the byte 0x{b:02X} (not valid UTF-8)"),
            }
        }
    }
}

/// Line `line`'s text with a caret under `column` (both from 1), compiler style, to follow an
/// error message. Control characters show as `?` so the caret lines up.
pub fn caret_snippet(line: usize, column: usize, text: &str) -> String {
    let gutter = line.to_string();
    let pad = " ".repeat(gutter.len());
    let shown: String = text.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    let caret = " ".repeat(column.saturating_sub(1));
    format!("\n{pad} |\n{gutter} | {shown}\n{pad} | {caret}^")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_named_so_a_person_can_find_them() {
        assert_eq!(describe_byte(b"a\tb", 1), "a tab");
        assert_eq!(describe_byte(b"x", 0), "`x`");
        assert_eq!(
            describe_byte("\u{feff}G".as_bytes(), 0),
            "a UTF-8 byte-order mark (U+FEFF); save the file without one"
        );
        assert_eq!(describe_byte("é".as_bytes(), 0), "`é` (U+00E9, not ASCII)");
        assert_eq!(describe_byte(&[0xff], 0), "the byte 0xFF (not valid UTF-8)");
    }

    #[test]
    fn the_caret_stands_under_the_column_even_after_control_characters() {
        assert_eq!(caret_snippet(12, 3, "a\tbc"), "\n   |\n12 | a?bc\n   |   ^");
    }
}
