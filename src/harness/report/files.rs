//! The report files a run writes (`--gradescope`, `--junit`, `--json-out`, and `grade`'s
//! `report.txt`), each replaced atomically so that a reader never finds half a file.

use std::path::PathBuf;

use super::{VerifyReport, gradescope, human, json, junit};
use crate::harness::files::write_atomic;

/// Where to write each report file, if anywhere.
#[derive(Clone, Debug, Default)]
pub struct ReportFiles {
    /// Gradescope's `results.json`.
    pub gradescope: Option<PathBuf>,
    /// JUnit XML.
    pub junit: Option<PathBuf>,
    /// The JSON report (as `--json` prints it).
    pub json: Option<PathBuf>,
    /// The text report (as `verify` prints it, without colour), with this many failures in full.
    pub text: Option<(PathBuf, usize)>,
}

/// Report files rendered and ready to write: each path with its bytes.
pub struct Rendered(Vec<(PathBuf, Vec<u8>)>);

impl ReportFiles {
    /// Whether no file was asked for.
    pub fn is_empty(&self) -> bool {
        self.gradescope.is_none() && self.junit.is_none() && self.json.is_none() && self.text.is_none()
    }

    /// Every file's content for `report`. Rendering is kept apart from writing so that it can
    /// be done while the results are locked, and the slow part (flushing to disk) after.
    pub fn render(&self, report: &VerifyReport) -> Rendered {
        let pretty = |value: serde_json::Value| {
            // A `Value` always serialises: its keys are strings.
            let mut text = serde_json::to_vec_pretty(&value).expect("a JSON value serialises");
            text.push(b'\n');
            text
        };
        let mut out = Vec::new();
        if let Some(path) = &self.gradescope {
            out.push((path.clone(), pretty(gradescope::render(report))));
        }
        if let Some(path) = &self.junit {
            out.push((path.clone(), junit::render(report).into_bytes()));
        }
        if let Some(path) = &self.json {
            out.push((path.clone(), pretty(json::render(report))));
        }
        if let Some((path, details)) = &self.text {
            out.push((path.clone(), human::render(report, *details).into_bytes()));
        }
        Rendered(out)
    }

    /// Renders and writes every file for `report`.
    pub fn write(&self, report: &VerifyReport) -> Result<(), String> {
        self.render(report).write()
    }
}

impl Rendered {
    /// Writes each file atomically (see [`write_atomic`]); stops at the first that fails.
    pub fn write(&self) -> Result<(), String> {
        for (path, bytes) in &self.0 {
            write_atomic(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}
