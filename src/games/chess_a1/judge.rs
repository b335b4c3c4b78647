//! Judging what a call returned and printed against the oracle, with failures a student can
//! act on: the call as Python, the expected and returned values, and for printed text the first
//! differing line side by side, whitespace made visible, with the input that led there.

use super::transcript::Step;

/// Text with its whitespace visible: `·` for a space, `→` for a tab, `⏎` at a line's end.
pub fn visible(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '\n' => out.push('⏎'),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The first line where `actual` differs from `expected`, as a report: its number, a few lines
/// of context, the two lines side by side with whitespace visible, and (when `steps` are
/// given) the input typed just before it. `None` when the texts are equal.
pub fn first_difference(expected: &str, actual: &str, steps: &[Step]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let exp: Vec<&str> = expected.split_inclusive('\n').collect();
    let act: Vec<&str> = actual.split_inclusive('\n').collect();
    let line = (0..exp.len().max(act.len())).find(|&i| exp.get(i) != act.get(i)).unwrap_or(0);
    // The first differing character decides which input led there (a line can start before
    // the input is read: the prompt, then what the input made the program print).
    let offset = expected.bytes().zip(actual.bytes()).take_while(|(a, b)| a == b).count();
    let mut out = format!("first difference at line {} of the output", line + 1);
    if !steps.is_empty() {
        // The step whose text holds the first differing character (or, at the end, the last).
        let mut start = 0;
        let mut at = steps.len() - 1;
        for (i, s) in steps.iter().enumerate() {
            if offset < start + s.printed.len() {
                at = i;
                break;
            }
            start += s.printed.len();
        }
        let typed: Vec<String> = steps[1..=at].iter().filter_map(|s| s.input.clone()).collect();
        match steps[at].input.as_deref() {
            None => out.push_str(", before any input was read"),
            Some(input) => out.push_str(&format!(
                ", after input {} `{}` (inputs so far: {})",
                typed.len(),
                visible(input),
                typed.iter().map(|t| format!("`{}`", visible(t))).collect::<Vec<_>>().join(", ")
            )),
        }
    }
    out.push_str(":\n");
    for i in line.saturating_sub(2)..line {
        if let Some(l) = exp.get(i) {
            out.push_str(&format!("    {:>4} | {}\n", i + 1, visible(l)));
        }
    }
    let show = |l: Option<&&str>| l.map_or("(nothing: the output ends here)".to_string(), |l| visible(l));
    out.push_str(&format!("  expected {:>4} | {}\n", line + 1, show(exp.get(line))));
    out.push_str(&format!("  actual   {:>4} | {}\n", line + 1, show(act.get(line))));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_line_is_shown_with_its_input() {
        let steps = vec![
            Step { input: None, printed: "board\n\nWhite's move: ".into() },
            Step { input: Some("e2e4".into()), printed: "Invalid move\n\nboard\n".into() },
        ];
        let expected: String = steps.iter().map(|s| s.printed.as_str()).collect();
        let actual = expected.replace("Invalid move", "Invalid move!");
        let d = first_difference(&expected, &actual, &steps).unwrap();
        assert!(d.contains("line 3"), "{d}");
        assert!(d.contains("after input 1 `e2e4`"), "{d}");
        assert!(d.contains("expected    3 | White's·move:·Invalid·move⏎"), "{d}");
        assert!(d.contains("actual      3 | White's·move:·Invalid·move!⏎"), "{d}");
        assert_eq!(first_difference("a\n", "a\n", &[]), None);
        let short = first_difference("a\nb\n", "a\n", &[]).unwrap();
        assert!(short.contains("(nothing: the output ends here)"), "{short}");
    }
}
