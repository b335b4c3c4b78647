//! `verify --robustness`: how a bot copes with the bad inputs the assignment lists, and with
//! `name`.
//!
//! The checks follow the game's protocol: `BOT side IN OUT` bots (Advance) get bad arguments,
//! bad files and `name`; bots that read a fixed file (Pente) get bad or missing files.
//!
//! Each check runs the bot once in a fresh folder. A bad input is handled when the bot ends by
//! itself (no timeout, no death by signal, which is how an unhandled exception ends), says
//! something (on stdout or stderr), and writes no output board. An uncaught exception is not
//! handling the input, however the bot ends: a traceback on stderr (Python, Java, Rust, C++,
//! .NET), or an exit status of 129 to 159, which is how a shell reports a death by signal
//! (134: SIGABRT, the end of an uncaught C++ exception), counts as a failure. The `name` check wants a name
//! of 1 to 32 printable ASCII characters on stdout and exit status 0.

use std::ffi::OsString;
use std::path::Path;

use super::referee::{Protocol, RobustnessBoards};
use super::runner::{self, BotCommand, Limits, Outcome};

/// The result of one check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Check {
    /// What was tried, e.g. "wrong first argument".
    pub name: String,
    /// The command-line arguments given to the bot.
    pub args: Vec<String>,
    pub passed: bool,
    /// How the process ended.
    pub process: String,
    /// The first line the bot printed (stderr first, then stdout).
    pub message: String,
    /// Whether the bot wrote the output file.
    pub wrote_output: bool,
    /// Why the check failed, or a remark when it passed.
    pub note: String,
}

/// One bad input: its name, the files to lay out, and the arguments.
struct Trial {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    args: Vec<&'static str>,
}

/// Runs every check against `command`, as the game's protocol runs bots.
pub fn run_checks(
    command: &BotCommand,
    protocol: &Protocol,
    boards: &RobustnessBoards,
    limits: &Limits,
) -> Vec<Check> {
    match protocol {
        Protocol::SideInOut => side_in_out_checks(command, boards, limits),
        Protocol::FixedFiles { input, output, .. } => {
            fixed_files_checks(command, input, output, boards, limits)
        }
        // A hosted bot reads no file to be fed badly; its games have no robustness boards, so
        // `verify --robustness` refuses them before this point.
        Protocol::Hosted(_) => Vec::new(),
    }
}

/// The checks for a bot that takes no arguments and reads `input` in its folder (Pente): the
/// bad files, and no file at all. Such bots have no `name` command.
fn fixed_files_checks(
    command: &BotCommand,
    input: &'static str,
    output: &'static str,
    boards: &RobustnessBoards,
    limits: &Limits,
) -> Vec<Check> {
    let trials = [
        Trial { name: "missing input file", files: vec![], args: vec![] },
        Trial {
            name: "invalid characters",
            files: vec![(input, boards.invalid_chars.clone())],
            args: vec![],
        },
        Trial { name: "wrong size", files: vec![(input, boards.wrong_size.clone())], args: vec![] },
        Trial { name: "no legal move", files: vec![(input, boards.no_moves.0.clone())], args: vec![] },
    ];
    trials.iter().map(|t| run_trial(command, t, output, limits)).collect()
}

/// The checks for `BOT side IN OUT` (Advance): bad arguments, bad files, and `name`.
fn side_in_out_checks(command: &BotCommand, boards: &RobustnessBoards, limits: &Limits) -> Vec<Check> {
    let (valid, side) = &boards.valid;
    let side = side.name();
    let (stuck, stuck_side) = &boards.no_moves;
    let trials = vec![
        Trial {
            name: "wrong first argument",
            files: vec![("input.txt", valid.clone())],
            args: vec!["purple", "input.txt", "output.txt"],
        },
        Trial {
            name: "too few arguments (2)",
            files: vec![("input.txt", valid.clone())],
            args: vec![side, "input.txt"],
        },
        Trial { name: "too few arguments (1)", files: vec![], args: vec![side] },
        Trial { name: "no arguments", files: vec![], args: vec![] },
        Trial { name: "missing input file", files: vec![], args: vec![side, "missing.txt", "output.txt"] },
        Trial {
            name: "invalid characters",
            files: vec![("input.txt", boards.invalid_chars.clone())],
            args: vec![side, "input.txt", "output.txt"],
        },
        Trial {
            name: "wrong size",
            files: vec![("input.txt", boards.wrong_size.clone())],
            args: vec![side, "input.txt", "output.txt"],
        },
        Trial {
            name: "no legal move",
            files: vec![("input.txt", stuck.clone())],
            args: vec![stuck_side.name(), "input.txt", "output.txt"],
        },
        Trial {
            name: "unwritable output path",
            files: vec![("input.txt", valid.clone())],
            args: vec![side, "input.txt", "no-such-folder/output.txt"],
        },
    ];
    let mut checks: Vec<Check> = trials.iter().map(|t| run_trial(command, t, "output.txt", limits)).collect();
    checks.push(name_check(command, limits));
    checks
}

fn run_in_fresh_folder(
    command: &BotCommand,
    files: &[(&str, Vec<u8>)],
    args: &[&str],
    limits: &Limits,
) -> (runner::RunReport, tempfile::TempDir) {
    let dir = tempfile::Builder::new().prefix("arbiter-robust-").tempdir().expect("a temporary folder");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("the temporary folder is writable");
    }
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    (runner::run(command, &args, dir.path(), limits), dir)
}

/// The first non-empty line of stderr, else of stdout.
fn first_line(report: &runner::RunReport) -> String {
    [&report.stderr, &report.stdout]
        .iter()
        .flat_map(|bytes| {
            String::from_utf8_lossy(bytes)
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .next()
        .unwrap_or_default()
}

fn run_trial(command: &BotCommand, trial: &Trial, output: &str, limits: &Limits) -> Check {
    let (report, dir) = run_in_fresh_folder(command, &trial.files, &trial.args, limits);
    let wrote_output = output_written(dir.path(), output);
    let message = first_line(&report);
    let exception = match &report.outcome {
        Outcome::Exited(code) => uncaught(*code, &report.stderr),
        _ => None,
    };
    let problem = match &report.outcome {
        Outcome::TimedOut => Some("it did not end: a bad input should stop the bot at once".to_string()),
        Outcome::Signaled(_, name) => Some(format!("it died by {name}: an unhandled error, not a message")),
        Outcome::FailedToStart(why) => Some(format!("it could not be started: {why}")),
        Outcome::OverLimit(what) => Some(format!("it was killed for using {what}")),
        Outcome::StatusUnknown(why) => Some(format!("its exit status is unknown: {why}")),
        Outcome::GraderError(why) => {
            Some(format!("the grader could not run it (not the bot's doing): {why}"))
        }
        Outcome::Exited(_) if exception.is_some() => exception,
        Outcome::Exited(_) if wrote_output => Some(format!("it wrote {output} although the input was bad")),
        Outcome::Exited(_) if message.is_empty() => Some("it printed no error message".to_string()),
        Outcome::Exited(_) => None,
    };
    let note = match (&problem, &report.outcome) {
        (Some(p), _) => p.clone(),
        (None, Outcome::Exited(0)) => {
            "handled, though with exit status 0; a non-zero status would tell scripts it failed".to_string()
        }
        (None, _) => "handled".to_string(),
    };
    Check {
        name: trial.name.to_string(),
        args: trial.args.iter().map(|a| a.to_string()).collect(),
        passed: problem.is_none(),
        process: report.describe(),
        message,
        wrote_output,
        note,
    }
}

/// What the stderr or exit status of a bot that exited says about an uncaught exception.
fn uncaught(code: i32, stderr: &[u8]) -> Option<String> {
    const TRACES: [(&str, &str); 6] = [
        ("Traceback (most recent call last)", "a Python traceback"),
        ("Exception in thread \"", "a Java stack trace"),
        ("panicked at", "a Rust panic"),
        ("terminate called after throwing", "an uncaught C++ exception"),
        ("Unhandled exception.", "an unhandled .NET exception"),
        ("Unhandled Exception:", "an unhandled .NET exception"),
    ];
    let text = String::from_utf8_lossy(stderr);
    if let Some((_, what)) = TRACES.iter().find(|(marker, _)| text.contains(marker)) {
        return Some(format!("it ended with {what} on stderr: an uncaught exception, not a handled error"));
    }
    // 128 + N is how a shell (or a runtime's wrapper) reports a death by signal N.
    (129..=159).contains(&code).then(|| {
        format!(
            "it exited with status {code}, a death by signal {} passed on by a shell: an unhandled error, not a message",
            code - 128
        )
    })
}

/// Whether any file named `output` appeared in the folder (or in a sub-folder).
fn output_written(dir: &Path, output: &str) -> bool {
    walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok).any(|e| e.file_name() == output)
}

fn name_check(command: &BotCommand, limits: &Limits) -> Check {
    let (report, _dir) = run_in_fresh_folder(command, &[], &["name"], limits);
    let stdout = String::from_utf8_lossy(&report.stdout).into_owned();
    let name = stdout.strip_suffix('\n').map(|s| s.strip_suffix('\r').unwrap_or(s)).unwrap_or(&stdout);
    let problem = if report.outcome != Outcome::Exited(0) {
        Some(format!("it {} instead of exiting with status 0", report.describe()))
    } else if name.is_empty() {
        Some("it printed no name".to_string())
    } else if name.contains('\n') {
        Some("it printed more than one line".to_string())
    } else if name.chars().count() > 32 {
        Some(format!("the name has {} characters; at most 32 are allowed", name.chars().count()))
    } else {
        name.chars()
            .find(|c| !(' '..='~').contains(c))
            .map(|c| format!("the name holds {c:?}, which is not printable ASCII"))
    };
    Check {
        name: "name".to_string(),
        args: vec!["name".to_string()],
        passed: problem.is_none(),
        process: report.describe(),
        message: name.to_string(),
        wrote_output: false,
        note: problem.unwrap_or_else(|| format!("the bot is called \"{name}\"")),
    }
}

#[cfg(test)]
mod tests {
    use super::uncaught;

    #[test]
    fn tracebacks_and_abort_statuses_are_uncaught_exceptions() {
        let python = b"Traceback (most recent call last):\n  File \"bot.py\", line 3\nValueError: x\n";
        assert!(uncaught(1, python).is_some_and(|w| w.contains("Python traceback")));
        assert!(uncaught(134, b"").is_some_and(|w| w.contains("signal 6")));
        assert!(uncaught(1, b"error: wrong size\n").is_none(), "a message and status 1 is handling it");
        assert!(uncaught(2, b"").is_none());
        assert!(uncaught(255, b"").is_none());
    }
}
