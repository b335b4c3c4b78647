//! A grading case as a file: one call of a required function, written as Python, or `main()`
//! with the lines typed on its standard input (CSSE7030's `attempt_promotion` reads lines too). `#` lines are comments (what the case tests).
//!
//! ```text
//! # a pinned bishop may not leave the line
//! call: is_move_valid(((6, 4), (5, 3)), ('....r...', ..., '....K...'), True)
//! ```
//!
//! ```text
//! call: main()
//! input: e2 e4
//! input: q
//! input: y
//! ```

use super::pyvalue::{Py, parse_call, render_call};

/// A case read from its file.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseFile {
    /// What the case tests, from its comment lines.
    pub note: Vec<String>,
    /// The function called.
    pub function: String,
    /// Its arguments (none for `main`).
    pub args: Vec<Py>,
    /// For `main()`: the lines typed, without their newlines.
    pub inputs: Vec<String>,
}

impl CaseFile {
    /// Reads a case file; errors name `origin` and the line.
    pub fn parse(bytes: &[u8], origin: &str) -> Result<CaseFile, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{origin}: not UTF-8 text: {e}"))?;
        let mut note = Vec::new();
        let mut call = None;
        let mut inputs = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim_end_matches('\r');
            if let Some(comment) = line.strip_prefix('#') {
                note.push(comment.trim().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix("call:") {
                if call.is_some() {
                    return Err(format!("{origin}:{n}: a case makes one call"));
                }
                call = Some(parse_call(rest).map_err(|e| format!("{origin}:{n}: {e}"))?);
            } else if let Some(rest) = line.strip_prefix("input:") {
                // One space after the colon; the rest of the line is typed as it is.
                inputs.push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
            } else {
                return Err(format!(
                    "{origin}:{n}: expected `call: ...`, `input: ...` or a `#` comment, found `{line}`"
                ));
            }
        }
        let (function, args) = call.ok_or_else(|| format!("{origin}: no `call:` line"))?;
        if function == "main" && !args.is_empty() {
            return Err(format!("{origin}: main() takes no arguments"));
        }
        if function != "main" && function != "attempt_promotion" && !inputs.is_empty() {
            return Err(format!("{origin}: only main() and attempt_promotion() read `input:` lines"));
        }
        Ok(CaseFile { note, function, args, inputs })
    }

    /// The file's text, as [`CaseFile::parse`] reads it.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.note {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("call: {}\n", self.call()));
        for line in &self.inputs {
            out.push_str(&format!("input: {line}\n"));
        }
        out
    }

    /// The call as Python.
    pub fn call(&self) -> String {
        render_call(&self.function, &self.args)
    }

    /// `main()`'s standard input.
    pub fn stdin(&self) -> String {
        self.inputs.iter().map(|l| format!("{l}\n")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_files_round_trip() {
        let text = "# a note\ncall: square_to_position('e2')\n";
        let case = CaseFile::parse(text.as_bytes(), "c.txt").unwrap();
        assert_eq!(case.render(), text);
        let main = "call: main()\ninput: e2 e4\ninput: \ninput: q\ninput: y\n";
        let case = CaseFile::parse(main.as_bytes(), "m.txt").unwrap();
        assert_eq!(case.inputs, ["e2 e4", "", "q", "y"]);
        assert_eq!(case.render(), main);
        assert_eq!(case.stdin(), "e2 e4\n\nq\ny\n");
        assert!(CaseFile::parse(b"call: f(\n", "x").unwrap_err().starts_with("x:1:"));
    }
}
