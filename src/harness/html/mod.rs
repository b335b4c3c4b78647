//! Self-contained HTML pages of arbiter's results (`--html`): inline CSS and SVG, at most a
//! little plain JavaScript, nothing fetched at view time. Every string that may have come from
//! a bot (its name, what it wrote, a file name it chose) goes through [`escape`]: a student's
//! stdout must not become markup on the grader's screen.

pub mod case;
pub mod class;
pub mod fuzz;
pub mod plot;
pub mod tournament;
pub mod verify;
pub mod viewer;

use std::path::Path;

use crate::harness::escape::{escape_controls, escape_markup};

/// `text` safe inside HTML text and attribute values: `& < > " '` as entities, and control and
/// bidirectional characters as visible escapes.
pub fn escape(text: &str) -> String {
    escape_markup(&escape_controls(text), "&#39;", |c| c)
}

/// The style every page shares.
const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 80em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; } h3 { font-size: 1em; }
table { border-collapse: collapse; margin: 0.5em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.pass { color: #1e7b34; } .fail { color: #b00020; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.pair figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: 0.3em; }
.case { border-top: 1px solid #ddd; padding-top: 0.6em; margin-top: 0.8em; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; white-space: pre-wrap; }
svg.board text.label { font-size: 11px; text-anchor: middle; fill: #555; }
svg.board text.glyph { font: bold 15px sans-serif; text-anchor: middle; }
svg.board text.caption { font-size: 12px; fill: #333; }
.bar { fill: #4a7ab5; }
.moves { max-height: 30em; overflow-y: auto; position: relative; padding-left: 3em; }
.moves .mv { cursor: pointer; padding: 0 0.2em; }
.moves .mv.current { background: #f2c94c; }
tr.unreached td { color: #888; }
pre.diff .expected { color: #1e7b34; } pre.diff .actual { color: #b00020; font-weight: 600; }
button { font-size: 1em; margin-right: 0.3em; }
#slider { width: 100%; max-width: 40em; display: block; margin: 0.4em 0; }
svg.scene text { font-family: sans-serif; }
";

/// A whole page: `title` (plain text, escaped here) and `body` (markup, already escaped).
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        escape(title)
    )
}

/// Writes a page, creating its folder; the error names the file.
pub fn write(path: &Path, html: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    crate::harness::files::write_atomic(path, html.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A name safe as a file name: letters, digits, `-`, `_` and `.`, anything else as `_`, never
/// empty and never starting with a dot.
pub fn file_name(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    let s = s.trim_start_matches('.').to_string();
    if s.is_empty() { "_".to_string() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup_and_no_controls() {
        let evil = "<script>alert('x')</script>\"&\u{1b}[2K\u{202e}";
        let e = escape(evil);
        assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
        assert!(!e.contains('\u{1b}') && !e.contains('\u{202e}'));
        assert!(e.starts_with("&lt;script&gt;alert(&#39;x&#39;)"));
    }

    #[test]
    fn file_names_are_plain() {
        assert_eq!(file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_name(""), "_");
        assert_eq!(file_name("alice-1.zip"), "alice-1.zip");
    }
}
