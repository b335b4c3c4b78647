//! Paths in reports, written relative to the submission and the corpus.
//!
//! A report goes to a student (Gradescope shows it; a JUnit file ends up in CI logs), and the
//! grader's absolute paths mean nothing there: `/autograder/source/corpus/grade6/white/01.txt`
//! is not on the student's machine, and a home folder is nobody else's business. So every
//! report rewrites, in all the text it shows:
//! - a case's path as relative to the corpus (`grade6/white/01.txt`);
//! - a path under the submission folder (`--relative-to`, by default the current folder) as
//!   relative to it (`python3 /autograder/submission/bot.py` becomes `python3 bot.py`);
//! - arbiter's own executable as `arbiter`.
//!
//! The rewriting is textual, on word boundaries: `/a/b` is rewritten in `/a/b/c` and `/a/b`,
//! never in `/a/bc`.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// How a report rewrites absolute paths: a list of (absolute prefix, replacement), longest
/// prefix first, applied to every string a report shows.
#[derive(Clone, Debug, Default)]
pub struct RelativePaths {
    /// The corpus folder, as given and as an absolute path.
    corpus: Vec<PathBuf>,
    /// (prefix, replacement), longest prefix first.
    rules: Vec<(String, String)>,
}

impl RelativePaths {
    /// Rewrites paths under `corpus` relative to it, paths under `base` (the submission
    /// folder) relative to it, and `exe` (arbiter's own path) as `arbiter`.
    pub fn new(corpus: &Path, base: &Path, exe: Option<&Path>) -> RelativePaths {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let mut corpus_forms = vec![corpus.to_path_buf(), absolute(corpus)];
        // The same folder reached through a symbolic link (say /tmp on macOS) has another
        // spelling; bots and the oracle may show either.
        if let Ok(real) = corpus.canonicalize() {
            corpus_forms.push(real);
        }
        let mut rules = Vec::new();
        for c in corpus_forms.iter().filter(|c| c.is_absolute()) {
            rules.push((format!("{}/", c.display()), String::new()));
        }
        if let Some(exe) = exe {
            rules.push((exe.display().to_string(), "arbiter".to_string()));
        }
        let mut bases = vec![absolute(base)];
        if let Ok(real) = base.canonicalize() {
            bases.push(real);
        }
        for b in &bases {
            // The root folder as base would make every absolute path relative, and wrongly.
            if b.parent().is_some() {
                rules.push((format!("{}/", b.display()), String::new()));
                rules.push((b.display().to_string(), ".".to_string()));
            }
        }
        rules.sort_by_key(|r| std::cmp::Reverse(r.0.len()));
        rules.dedup();
        RelativePaths { corpus: corpus_forms, rules }
    }

    /// A case's file as a path relative to the corpus, when it is in the corpus.
    pub fn case_path(&self, path: &str) -> String {
        let p = Path::new(path);
        for c in &self.corpus {
            if let Ok(rel) = p.strip_prefix(c) {
                return rel.display().to_string();
            }
        }
        self.text(path).into_owned()
    }

    /// The corpus folder as a report names it: relative to the submission folder when inside
    /// it, else as given when that was relative, else just its name.
    pub fn corpus_label(&self, given: &Path) -> String {
        let rewritten = self.text(&given.display().to_string()).into_owned();
        if !Path::new(&rewritten).is_absolute() {
            return rewritten;
        }
        given.file_name().map_or_else(|| "corpus".to_string(), |n| n.to_string_lossy().into_owned())
    }

    /// `text` with every absolute path this knows rewritten.
    pub fn text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut out = Cow::Borrowed(text);
        for (prefix, replacement) in &self.rules {
            if prefix.is_empty() || !out.contains(prefix.as_str()) {
                continue;
            }
            out = Cow::Owned(replace_whole(&out, prefix, replacement));
        }
        out
    }

    /// Rewrites every string in a JSON value, and each case's `path` relative to the corpus.
    pub fn json(&self, value: &mut Value) {
        match value {
            Value::String(s) => {
                if let Cow::Owned(new) = self.text(s) {
                    *s = new;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.json(v)),
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match v {
                        Value::String(s) if key == "path" => *s = self.case_path(s),
                        _ => self.json(v),
                    }
                }
            }
            _ => {}
        }
    }
}

/// Replaces `prefix` in `text` where it is a whole path: not followed by a character that
/// would continue the last name in it (a rule for `/a/b` must leave `/a/bc` alone).
fn replace_whole(text: &str, prefix: &str, replacement: &str) -> String {
    let continues = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '~' | '+');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        let whole = prefix.ends_with('/') || !after.chars().next().is_some_and(continues);
        out.push_str(&rest[..at]);
        out.push_str(if whole { replacement } else { prefix });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> RelativePaths {
        RelativePaths::new(
            Path::new("/grader/course/corpus"),
            Path::new("/grader/submission"),
            Some(Path::new("/usr/local/bin/arbiter-1")),
        )
    }

    #[test]
    fn corpus_submission_and_arbiter_paths_become_relative() {
        let p = paths();
        assert_eq!(p.case_path("/grader/course/corpus/grade6/white/01.txt"), "grade6/white/01.txt");
        assert_eq!(p.text("python3 /grader/submission/bot.py --fast"), "python3 bot.py --fast");
        assert_eq!(p.text("cd /grader/submission && x"), "cd . && x");
        assert_eq!(p.text("/usr/local/bin/arbiter-1 check a b"), "arbiter check a b");
        // A longer name that merely starts like the folder is another folder.
        assert_eq!(p.text("/grader/submission2/bot.py"), "/grader/submission2/bot.py");
        assert_eq!(p.corpus_label(Path::new("/grader/course/corpus")), "corpus");
        assert_eq!(p.corpus_label(Path::new("/grader/submission/tests")), "tests");
    }

    #[test]
    fn json_strings_and_case_paths_are_rewritten_everywhere() {
        let mut v = serde_json::json!({
            "bot": "sh /grader/submission/bot.sh",
            "cases": [{"path": "/grader/course/corpus/grade4/white/x.txt", "reason": "see /grader/submission/log"}],
        });
        paths().json(&mut v);
        assert_eq!(v["bot"], "sh bot.sh");
        assert_eq!(v["cases"][0]["path"], "grade4/white/x.txt");
        assert_eq!(v["cases"][0]["reason"], "see log");
    }

    #[test]
    fn the_root_folder_as_base_rewrites_nothing() {
        let p = RelativePaths::new(Path::new("corpus"), Path::new("/"), None);
        assert_eq!(p.text("/usr/bin/python3 /x/bot.py"), "/usr/bin/python3 /x/bot.py");
    }
}
