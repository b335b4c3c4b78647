//! Calibration: the optional program a submission brings to measure the machine, run once
//! before its bot plays, whose file the bot then finds in its folder on every run.
//!
//! CSCI561's Pente: "you are allowed to also provide a second program called calibrate.xxx ...
//! we will run your calibrate program once (and only once) before we run your agent ... save
//! this into a single file called calibration.txt in the current directory. When your agent
//! runs ... it could then read calibration.txt in addition to reading input.txt".

use std::time::Duration;

use super::files::{self, Cap};
use super::referee::Calibration;
use super::runner::{self, BotCommand, Limits, Outcome};

/// The most a calibration file may hold.
pub const CALIBRATION: Cap = Cap { bytes: 1 << 20, what: "a calibration file" };

/// What a calibration run left.
#[derive(Clone, Debug)]
pub struct Calibrated {
    /// The file's content.
    pub bytes: Vec<u8>,
    /// The run's CPU seconds.
    pub cpu_seconds: f64,
}

/// Runs `program` once in a folder of its own (sandboxed by `limits`, with the calibration's
/// CPU time instead of a move's) and returns the file it left, or why there is none: the run
/// failed, or it left no file.
pub fn run_calibration(
    program: &BotCommand,
    calibration: &Calibration,
    limits: &Limits,
) -> Result<Calibrated, String> {
    let dir = tempfile::Builder::new()
        .prefix("arbiter-calibrate-")
        .tempdir()
        .map_err(|e| format!("cannot make a folder to calibrate in: {e}"))?;
    let mut limits = limits.clone();
    limits.timeout = Duration::from_secs_f64(calibration.seconds);
    let report = runner::run(program, &[], dir.path(), &limits);
    let cpu_seconds = report.cpu_time.map_or(0.0, |d| d.as_secs_f64());
    match &report.outcome {
        Outcome::Exited(0) => {}
        _ => {
            let said = String::from_utf8_lossy(&report.stderr);
            let tail: String = said
                .lines()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join(" | ");
            return Err(format!(
                "`{}` {}{}",
                calibration.program,
                report.describe(),
                if tail.is_empty() { String::new() } else { format!(": {tail}") }
            ));
        }
    }
    let bytes = files::read_capped(&dir.path().join(calibration.file), CALIBRATION)
        .map_err(|e| format!("`{}` ran but left no usable {}: {e}", calibration.program, calibration.file))?;
    Ok(Calibrated { bytes, cpu_seconds })
}
