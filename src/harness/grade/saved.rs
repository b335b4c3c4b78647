//! `grade.json`, the gradebook row written last, and reading it back: a submission whose row
//! and complete `report.json` were written with the same settings and options is not graded
//! again.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::harness::files::{self, write_atomic};
use crate::harness::gradebook::Row;
use crate::harness::machine::Load;
use crate::harness::submission_options::SubmissionOptions;

/// The gradebook row of a submission, written last: its presence marks the grading complete.
pub const ROW_FILE: &str = "grade.json";
/// The JSON report of a submission, as `verify --json` prints it.
pub const JSON_REPORT: &str = "report.json";

/// What a complete earlier grading of the submission left: its row, when `grade.json` is there
/// with the same settings and submission options and `report.json` says the run was complete.
pub fn earlier_grading(
    folder: &Path,
    settings: &serde_json::Value,
    options: &SubmissionOptions,
) -> Result<Row, String> {
    let text = files::read_capped_text(&folder.join(ROW_FILE), files::PROFILE).map_err(|e| e.to_string())?;
    let saved: SavedRow = serde_json::from_str(&text).map_err(|e| format!("{ROW_FILE}: {e}"))?;
    if &saved.settings != settings {
        return Err("it was graded with other settings".to_string());
    }
    if &saved.options != options {
        return Err("it was graded with other options of its own".to_string());
    }
    let report =
        files::read_capped_text(&folder.join(JSON_REPORT), files::GOLDEN).map_err(|e| e.to_string())?;
    let report: serde_json::Value =
        serde_json::from_str(&report).map_err(|e| format!("{JSON_REPORT}: {e}"))?;
    if report["complete"] != serde_json::Value::Bool(true) {
        return Err(format!("its {JSON_REPORT} is incomplete: the run was interrupted"));
    }
    Ok(saved.row)
}

/// Makes the submission's report folder and removes its old row first: until the new one is
/// written the submission counts as not done.
pub(super) fn forget_earlier(folder: &Path) -> Result<(), String> {
    std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    match std::fs::remove_file(folder.join(ROW_FILE)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot remove {}: {e}", folder.join(ROW_FILE).display()))
        }
        _ => Ok(()),
    }
}

/// Writes `grade.json` into `folder`: the last file of a grading.
pub(super) fn write_saved(folder: &Path, saved: &SavedRow) -> Result<(), String> {
    write_atomic(&folder.join(ROW_FILE), &pretty(&serde_json::to_value(saved).unwrap_or_default()))
        .map_err(|e| format!("cannot write {}: {e}", folder.join(ROW_FILE).display()))
}

/// `value` as pretty JSON, ending with a newline.
pub(super) fn pretty(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(value).unwrap_or_default();
    text.push(b'\n');
    text
}

/// `grade.json`: a gradebook row and what it was graded with, all plain JSON (no absolute
/// path: the reports folder can be moved, or shown).
#[derive(Serialize, Deserialize)]
pub struct SavedRow {
    /// The settings shared by the class (see [`super::Setup::settings`]).
    pub settings: serde_json::Value,
    /// The submission's own options (`arbiter.toml`, `--overrides`).
    #[serde(default)]
    pub options: SubmissionOptions,
    /// The share of the class it was graded in (`2/4`), if the class was split.
    #[serde(default)]
    pub shard: Option<String>,
    /// How busy the machine was while it was graded.
    pub machine: Option<Load>,
    pub row: Row,
}

/// Reads every complete `grade.json` in the submission folders of a reports folder.
pub fn saved_rows(reports: &Path) -> Result<Vec<SavedRow>, String> {
    let entries =
        std::fs::read_dir(reports).map_err(|e| format!("cannot read {}: {e}", reports.display()))?;
    let mut rows = Vec::new();
    for entry in entries.flatten() {
        let file = entry.path().join(ROW_FILE);
        if !file.is_file() {
            continue;
        }
        let text = files::read_capped_text(&file, files::PROFILE).map_err(|e| e.to_string())?;
        let saved: SavedRow = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        rows.push(saved);
    }
    Ok(rows)
}
