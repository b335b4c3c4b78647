//! Options one submission of a class may need that the others do not: a bot that writes its
//! answer into its input file (`same-file`), one that can only open an output file that exists
//! (`create-output`), one that needs more time (`timeout`). Without them an odd submission would
//! need a run of its own, and a gradebook merged from two runs.
//!
//! They come from two places, the later winning:
//! 1. `arbiter.toml` in the submission's folder, written by the student:
//!    ```toml
//!    same-file = true      # or same_file
//!    create-output = false
//!    timeout = 20          # seconds; at most the grader's --timeout-cap
//!    ```
//!    A timeout above the grader's cap is held to the cap, with a note. A file that cannot be
//!    read refuses the submission, naming the line and column, so the student can fix it.
//! 2. The grader's `--overrides FILE.csv`, one option per line with the header
//!    `submission,option,value` (`alice,timeout,30`), trusted as the grader's own, so not capped.
//!
//! What a submission was graded with is recorded in its `grade.json` and its gradebook note, and
//! is part of the settings a rerun compares: a submission whose options changed is graded again.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::files;
use super::untrusted::{Folder, Refused};

/// The file in a submission folder that sets its options.
pub const OPTIONS_FILE: &str = "arbiter.toml";

/// Options a submission sets, each with where it came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubmissionOptions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_file: Option<Set<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_output: Option<Set<bool>>,
    /// Seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Set<f64>>,
    /// What was changed on the way (a timeout held to the cap).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub notes: Vec<String>,
}

/// One option's value and where it was set: `arbiter.toml`, `overrides.csv line 3`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Set<T> {
    pub value: T,
    pub from: String,
}

/// `arbiter.toml` as written: every key optional, nothing else allowed (a misspelt key is an
/// error rather than an option silently ignored).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct OptionsFile {
    #[serde(alias = "same_file")]
    same_file: Option<bool>,
    #[serde(alias = "create_output")]
    create_output: Option<bool>,
    timeout: Option<f64>,
}

/// The grader's overrides: submission name -> (option, value, line) in file order.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Where they were read from, for notes.
    source: String,
    by_submission: BTreeMap<String, Vec<(Key, String, usize)>>,
}

/// An option a submission may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    SameFile,
    CreateOutput,
    Timeout,
}

impl Key {
    fn parse(name: &str) -> Option<Key> {
        match name.trim().replace('_', "-").to_ascii_lowercase().as_str() {
            "same-file" => Some(Key::SameFile),
            "create-output" => Some(Key::CreateOutput),
            "timeout" => Some(Key::Timeout),
            _ => None,
        }
    }
}

/// The longest timeout anyone may set, in seconds (as `--timeout` allows).
const MAX_TIMEOUT: f64 = 3600.0;

impl SubmissionOptions {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        self.same_file.is_none() && self.create_output.is_none() && self.timeout.is_none()
    }

    /// Reads `arbiter.toml` in `folder`, if there is one, holding its timeout to `cap` seconds.
    /// An error says what is wrong, with the line and column.
    pub fn from_folder(folder: &Path, cap: f64) -> Result<SubmissionOptions, String> {
        // The student's file, read by the rule for a submission's files: a link is followed only
        // inside the folder (a parse error quotes the file, so it must be theirs).
        let read = Folder::open(folder).and_then(|f| f.read(Path::new(OPTIONS_FILE), files::PROFILE));
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(Refused::Missing { .. } | Refused::NotAFile { what: "a folder", .. }) => {
                return Ok(SubmissionOptions::default());
            }
            Err(why) => return Err(why.to_string()),
        };
        let text = String::from_utf8(bytes).map_err(|_| format!("{OPTIONS_FILE} is not UTF-8 text"))?;
        let file: OptionsFile = toml::from_str(&text).map_err(|e| {
            let at = e.span().map(|span| line_column(&text, span.start)).unwrap_or_default();
            format!("{OPTIONS_FILE}{at}: {}", e.message())
        })?;
        let from = || OPTIONS_FILE.to_string();
        let mut options = SubmissionOptions {
            same_file: file.same_file.map(|value| Set { value, from: from() }),
            create_output: file.create_output.map(|value| Set { value, from: from() }),
            timeout: None,
            notes: Vec::new(),
        };
        if let Some(seconds) = file.timeout {
            if !(seconds.is_finite() && seconds > 0.0) {
                return Err(format!(
                    "{OPTIONS_FILE}: timeout = {seconds}: expected a number of seconds above 0"
                ));
            }
            let value = if seconds > cap {
                options.notes.push(format!(
                    "{OPTIONS_FILE} asks for a timeout of {seconds} s; the grader allows at most {cap} s"
                ));
                cap
            } else {
                seconds
            };
            options.timeout = Some(Set { value, from: from() });
        }
        options.check()?;
        Ok(options)
    }

    /// These options with the grader's overrides for `submission` laid over them.
    pub fn with_overrides(
        mut self,
        overrides: &Overrides,
        submission: &str,
    ) -> Result<SubmissionOptions, String> {
        for (key, value, line) in overrides.by_submission.get(submission).into_iter().flatten() {
            let from = format!("{} line {line}", overrides.source);
            let flag = || parse_flag(value).ok_or_else(|| format!("{from}: `{value}` is not true or false"));
            match key {
                Key::SameFile => self.same_file = Some(Set { value: flag()?, from }),
                Key::CreateOutput => self.create_output = Some(Set { value: flag()?, from }),
                Key::Timeout => {
                    let seconds: f64 = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= MAX_TIMEOUT)
                        .ok_or_else(|| {
                            format!("{from}: timeout `{value}` is not a number of seconds from 0 to 3600")
                        })?;
                    self.timeout = Some(Set { value: seconds, from });
                }
            }
        }
        self.check()?;
        Ok(self)
    }

    /// Options that cannot go together.
    fn check(&self) -> Result<(), String> {
        if let (Some(a), Some(b)) = (&self.same_file, &self.create_output)
            && a.value
            && b.value
        {
            return Err(format!(
                "same-file ({}) and create-output ({}) cannot both be set: with one file for input and output there is no output file to create",
                a.from, b.from
            ));
        }
        Ok(())
    }

    /// The options in a few words for a gradebook note: "same-file (arbiter.toml), timeout 30 s
    /// (overrides.csv line 2)".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.same_file {
            parts.push(format!("same-file {} ({})", s.value, s.from));
        }
        if let Some(s) = &self.create_output {
            parts.push(format!("create-output {} ({})", s.value, s.from));
        }
        if let Some(s) = &self.timeout {
            parts.push(format!("timeout {} s ({})", s.value, s.from));
        }
        parts.extend(self.notes.iter().cloned());
        parts.join(", ")
    }
}

impl Overrides {
    /// Reads an overrides CSV file: the header `submission,option,value`, then one option per
    /// line. Errors name the file and line.
    pub fn read(path: &Path) -> Result<Overrides, String> {
        let source =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_path(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .iter()
            .map(|h| h.to_ascii_lowercase())
            .collect();
        if header != ["submission", "option", "value"] {
            return Err(format!(
                "{} line 1: the header must be `submission,option,value`, not `{}`",
                path.display(),
                header.join(",")
            ));
        }
        let mut by_submission: BTreeMap<String, Vec<(Key, String, usize)>> = BTreeMap::new();
        for record in reader.records() {
            let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
            let line = record.position().map_or(0, |p| p.line() as usize);
            let (Some(name), Some(option), Some(value)) = (record.get(0), record.get(1), record.get(2))
            else {
                return Err(format!("{} line {line}: expected submission,option,value", path.display()));
            };
            let key = Key::parse(option).ok_or_else(|| {
                format!(
                    "{} line {line}: unknown option `{option}` (the options are same-file, create-output, timeout)",
                    path.display()
                )
            })?;
            by_submission.entry(name.to_string()).or_default().push((key, value.to_string(), line));
        }
        Ok(Overrides { source, by_submission })
    }

    /// The submissions named in the file that are not in `known` (a misspelt name would
    /// otherwise be ignored without a word).
    pub fn unknown<'a>(&'a self, known: &[&str]) -> Vec<&'a str> {
        self.by_submission.keys().map(String::as_str).filter(|n| !known.contains(n)).collect()
    }
}

/// `true`/`false` and their usual spellings in a spreadsheet.
fn parse_flag(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "on" => Some(true),
        "false" | "no" | "0" | "off" => Some(false),
        _ => None,
    }
}

/// " line L, column C" of a byte offset in `text` (1-based).
fn line_column(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(" line {line}, column {column}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_with(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(OPTIONS_FILE), text).unwrap();
        dir
    }

    #[test]
    fn a_submission_file_sets_options_and_its_timeout_is_capped() {
        let dir = folder_with("same_file = true\ntimeout = 30 # seconds\n");
        let o = SubmissionOptions::from_folder(dir.path(), 20.0).unwrap();
        assert_eq!(o.same_file, Some(Set { value: true, from: OPTIONS_FILE.into() }));
        assert_eq!(o.timeout.as_ref().map(|t| t.value), Some(20.0));
        assert!(o.describe().contains("the grader allows at most 20 s"), "{}", o.describe());
        let none = tempfile::tempdir().unwrap();
        assert!(SubmissionOptions::from_folder(none.path(), 10.0).unwrap().is_empty());
    }

    #[test]
    fn a_bad_submission_file_is_refused_with_line_and_column() {
        let err = SubmissionOptions::from_folder(folder_with("same-file = true\nspeed = 3\n").path(), 10.0)
            .unwrap_err();
        assert!(err.starts_with("arbiter.toml line 2, column 1:"), "{err}");
        assert!(err.contains("speed"), "{err}");
        let err =
            SubmissionOptions::from_folder(folder_with("timeout = \"ten\"\n").path(), 10.0).unwrap_err();
        assert!(err.starts_with("arbiter.toml line 1, column 11:"), "{err}");
        let err = SubmissionOptions::from_folder(
            folder_with("same-file = true\ncreate-output = true\n").path(),
            10.0,
        )
        .unwrap_err();
        assert!(err.contains("cannot both be set"), "{err}");
    }

    /// A file linked from outside would have its keys quoted by the parse error: it is refused
    /// unread, by name and target. A link to a sibling is the student's own file.
    #[test]
    fn a_submission_file_linked_from_outside_is_not_read() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.toml"), "graders_token = 1\n").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.toml"), dir.path().join(OPTIONS_FILE))
            .unwrap();
        let err = SubmissionOptions::from_folder(dir.path(), 10.0).unwrap_err();
        assert!(err.starts_with("arbiter.toml is a symbolic link to "), "{err}");
        assert!(!err.contains("graders_token"), "{err}");
        let sibling = folder_with("");
        std::fs::remove_file(sibling.path().join(OPTIONS_FILE)).unwrap();
        std::fs::write(sibling.path().join("mine.toml"), "same-file = true\n").unwrap();
        std::os::unix::fs::symlink("mine.toml", sibling.path().join(OPTIONS_FILE)).unwrap();
        let o = SubmissionOptions::from_folder(sibling.path(), 10.0).unwrap();
        assert_eq!(o.same_file.map(|s| s.value), Some(true));
    }

    #[test]
    fn overrides_win_over_the_file_and_name_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("overrides.csv");
        std::fs::write(
            &csv,
            "submission,option,value\nann,timeout,45\nann,same_file,no\nben,create-output,yes\n",
        )
        .unwrap();
        let overrides = Overrides::read(&csv).unwrap();
        assert_eq!(overrides.unknown(&["ann"]), vec!["ben"]);
        let file = folder_with("same-file = true\n");
        let o = SubmissionOptions::from_folder(file.path(), 10.0)
            .unwrap()
            .with_overrides(&overrides, "ann")
            .unwrap();
        assert_eq!(o.timeout, Some(Set { value: 45.0, from: "overrides.csv line 2".into() }));
        assert_eq!(o.same_file, Some(Set { value: false, from: "overrides.csv line 3".into() }));
        std::fs::write(&csv, "submission,option,value\nann,speed,3\n").unwrap();
        let err = Overrides::read(&csv).unwrap_err();
        assert!(err.contains("line 2: unknown option `speed`"), "{err}");
        std::fs::write(&csv, "name,value\n").unwrap();
        assert!(Overrides::read(&csv).unwrap_err().contains("line 1: the header"));
    }
}
