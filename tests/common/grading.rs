//! Grading through the `arbiter` binary, as the grading tests do: a profile written to a file,
//! and `grade --json` of one submission into a reports folder.

use std::path::Path;

use super::{Run, arbiter};

/// Writes `json` as `dir/profile.json`; returns its path.
pub fn write_profile(dir: &Path, json: &str) -> String {
    let path = dir.join("profile.json");
    std::fs::write(&path, json).unwrap();
    path.display().to_string()
}

/// `arbiter --game GAME grade --reports REPORTS --json -q OPTIONS... SUBMISSION`.
pub fn grade(game: &str, reports: &Path, options: &[&str], submission: &str) -> Run {
    let reports = reports.display().to_string();
    let mut args = vec!["--game", game, "grade", "--reports", &reports, "--json", "-q"];
    args.extend_from_slice(options);
    args.push(submission);
    arbiter(&args, "")
}
