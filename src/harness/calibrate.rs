//! Calibration: the optional program a submission brings to measure the machine, run once
//! before its bot plays, whose file the bot then finds in its folder on every run.
//!
//! CSCI561's Pente: "you are allowed to also provide a second program called calibrate.xxx ...
//! we will run your calibrate program once (and only once) before we run your agent ... save
//! this into a single file called calibration.txt in the current directory. When your agent
//! runs ... it could then read calibration.txt in addition to reading input.txt".

use std::time::Duration;

use super::files::Cap;
use super::referee::Calibration;
use super::runner::{self, BotCommand, Limits, Outcome};
use super::untrusted;

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
    // Left by a program in the sandbox, in a folder it could fill as it liked: read as that
    // file alone, never through a link (which would hand the bot any file the grader can read),
    // never a FIFO, never a hard link to a file elsewhere.
    let bytes = untrusted::read_left(&dir.path().join(calibration.file), CALIBRATION)
        .map_err(|e| format!("`{}` ran but left no usable {}: {e}", calibration.program, calibration.file))?;
    Ok(Calibrated { bytes, cpu_seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a calibrate program that is the shell line `script` (without the sandbox: the file
    /// it leaves is read the same way in every mode).
    fn calibrate(script: &str) -> Result<Calibrated, String> {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("calibrate");
        std::fs::write(&program, format!("#!/bin/sh\n{script}\n")).unwrap();
        let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        std::fs::set_permissions(&program, executable).unwrap();
        let command = BotCommand::parse_in("./calibrate", dir.path()).unwrap();
        let calibration = Calibration { program: "calibrate", file: "calibration.txt", seconds: 5.0 };
        run_calibration(&command, &calibration, &Limits::default())
    }

    #[test]
    fn the_file_left_is_given_and_a_link_or_fifo_in_its_place_is_not_followed() {
        assert_eq!(calibrate("echo 42 > calibration.txt").unwrap().bytes, b"42\n");
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "the grader's secret").unwrap();
        let linked = calibrate(&format!("ln -s {} calibration.txt", secret.path().display())).unwrap_err();
        assert!(linked.contains("calibration.txt is a symbolic link"), "{linked}");
        assert!(!linked.contains("secret\""), "{linked}");
        let fifo = calibrate("mkfifo calibration.txt").unwrap_err();
        assert!(fifo.contains("calibration.txt is a FIFO, not a regular file"), "{fifo}");
        // A hard link: refused where it can be made (the same file system), a failed run
        // where it cannot; never the secret.
        let hard = calibrate(&format!("ln {} calibration.txt", secret.path().display())).unwrap_err();
        assert!(hard.contains("is a hard link") || hard.contains("exited"), "{hard}");
    }
}
