//! Making untrusted text safe to print on a terminal.
//!
//! A bot's stderr, stdout and output file end up in reports read on a terminal. Left raw, a
//! bot could write `ESC [2K` and a carriage return to erase the line it is on and print a fake
//! "score 100%" in its place, ring the bell, switch the terminal's character set, or reorder a
//! line with Unicode bidirectional overrides. [`escape_controls`] shows every such character as
//! a visible escape instead, and keeps line feeds and tabs, which are layout and harmless.
//! [`escape_markup`] makes text safe inside HTML and XML, the web pages' and JUnit's.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is.
fn is_unsafe(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        // C0 controls (ESC, CR, BEL, backspace, ...), DEL and the C1 controls (U+009B is a
        // one-character CSI on some terminals).
        c if c.is_control() => true,
        // Bidirectional marks, embeddings, overrides and isolates: they reorder what follows.
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        // Line and paragraph separators: some terminals and editors break lines at them.
        '\u{2028}' | '\u{2029}' => true,
        _ => false,
    }
}

/// `text` with every control character except `\n` and `\t`, every Unicode bidirectional
/// control and the Unicode line separators written as visible escapes: `\r`, `\x1b`, `\x7f`,
/// `\u{9b}`, `\u{202e}`. Backslashes are left as they are, so the result is for reading, not
/// for unescaping. Borrows when there is nothing to escape.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !is_unsafe(c) => out.push(c),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// `text` with the characters markup gives meaning to as entities: `& < > "`, and `'` as
/// `apostrophe` (HTML's `&#39;`, XML's `&apos;`); `other` gives what every other character
/// becomes (itself, or a stand-in for one the format cannot hold).
pub fn escape_markup(text: &str, apostrophe: &str, other: impl Fn(char) -> char) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str(apostrophe),
            c => out.push(other(c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn plain_text_line_feeds_and_tabs_pass_unchanged() {
        let text = "grade 6: 50/50\n\tstderr: Ma1xa7 é ✓ \\x1b";
        assert!(matches!(escape_controls(text), std::borrow::Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn a_fake_score_line_is_shown_not_obeyed() {
        assert_eq!(escape_controls("oops\x1b[2K\rscore 100%\x07"), "oops\\x1b[2K\\rscore 100%\\x07");
    }

    #[test]
    fn every_c0_control_del_and_c1_control_is_escaped() {
        assert_eq!(escape_controls("\0\x08\x0b\x0c\x1f\x7f"), "\\x00\\x08\\x0b\\x0c\\x1f\\x7f");
        assert_eq!(escape_controls("\u{80}\u{9b}[31m\u{9f}"), "\\u{80}\\u{9b}[31m\\u{9f}");
        for c in
            (0u32..0x20).chain(0x7f..0xa0).filter_map(char::from_u32).filter(|c| !matches!(c, '\n' | '\t'))
        {
            let escaped = escape_controls(&c.to_string()).into_owned();
            assert!(escaped.starts_with('\\') && escaped.chars().all(|c| !c.is_control()), "{c:?}");
        }
    }

    #[test]
    fn bidirectional_controls_and_line_separators_are_escaped() {
        assert_eq!(escape_controls("score \u{202e}001"), "score \\u{202e}001");
        let all = "\u{61c}\u{200e}\u{200f}\u{202a}\u{202b}\u{202c}\u{202d}\u{2066}\u{2067}\u{2068}\u{2069}\u{2028}\u{2029}";
        assert_eq!(
            escape_controls(all),
            "\\u{61c}\\u{200e}\\u{200f}\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{2066}\\u{2067}\\u{2068}\\u{2069}\\u{2028}\\u{2029}"
        );
    }
}
