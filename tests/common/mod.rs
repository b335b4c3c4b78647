//! Helpers shared by the integration tests: hand-drawn boards and random positions, running the
//! `arbiter` binary (with its JSON output), shell-script bots, and, in modules of their own,
//! grading and verifying through the binary.
#![allow(dead_code)]

pub mod bots;
pub mod burners;
pub mod grading;
pub mod junit;
pub mod planetwars;
pub mod strategy;
pub mod verifying;

use arbiter::Side;
use arbiter::advance::reference::legal_moves;
use arbiter::advance::{Board, Move};
use arbiter::harness::host::tools;

/// A board drawn in a test: 9 lines of 9 characters (leading spaces on each line are ignored so
/// boards can be indented in the source).
pub fn board(drawing: &str) -> Board {
    let lines: Vec<&str> = drawing.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    Board::from_text(&lines.join("\n")).unwrap_or_else(|e| panic!("bad test board: {e}"))
}

/// The legal moves of `side` in notation, sorted.
pub fn notations(board: &Board, side: Side) -> Vec<String> {
    let mut list: Vec<String> = legal_moves(board, side).iter().map(Move::to_string).collect();
    list.sort();
    list
}

/// True when `notation` is among `side`'s legal moves.
pub fn is_legal(board: &Board, side: Side, notation: &str) -> bool {
    notations(board, side).iter().any(|n| n == notation)
}

/// The legal moves of `side` that start on `from`, in notation, sorted.
pub fn moves_from(board: &Board, side: Side, from: &str) -> Vec<String> {
    notations(board, side).into_iter().filter(|n| &n[1..3] == from).collect()
}

/// Sorted owned strings, for comparing with `moves_from`.
pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// What running the `arbiter` binary produced.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `arbiter` binary with `args`, feeding `stdin` to it.
pub fn arbiter(args: &[&str], stdin: &str) -> Run {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the `arbiter` binary with `args`, feeding `stdin` to it, and asserts that it succeeded
/// (exit status 0), showing the arguments and both outputs when it did not.
#[track_caller]
pub fn arbiter_ok(args: &[&str], stdin: &str) -> Run {
    let run = arbiter(args, stdin);
    assert_eq!(run.status, 0, "{args:?}: {}\n{}", run.stdout, run.stderr);
    run
}

impl Run {
    /// Asserts that arbiter refused the command (exit status 2) saying `says` on stderr.
    pub fn assert_refused(&self, says: &str) {
        assert_eq!(self.status, 2, "refused? {}{}", self.stdout, self.stderr);
        assert!(self.stderr.contains(says), "expected {says:?} in: {}", self.stderr);
    }

    /// The standard output read as JSON; panics showing both outputs when it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", self.stdout, self.stderr))
    }
}

/// Runs the `arbiter` binary with `args` (no input) and reads its standard output as JSON: the
/// exit status and the value.
pub fn arbiter_json(args: &[&str]) -> (i32, serde_json::Value) {
    let run = arbiter(args, "");
    (run.status, run.json())
}

/// A shell-script bot `dir/name` (the folder made if missing) that runs `body`. Returns the
/// command that runs it (`sh DIR/NAME`).
pub fn sh_bot(dir: &std::path::Path, name: &str, body: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

/// A shell-script bot in `dir`: `dir/bot.sh` runs `body` with `$engine` naming a private copy of
/// arbiter there (the sandbox hides arbiter's own executable from bots). Returns the command
/// that runs it (`sh .../bot.sh`).
pub fn script_bot(dir: &std::path::Path, body: &str) -> String {
    let engine = dir.join("engine");
    std::fs::copy(env!("CARGO_BIN_EXE_arbiter"), &engine).unwrap();
    sh_bot(dir, "bot.sh", &format!("engine='{}'\n{body}", engine.display()))
}

/// Writes `text` to `path` and makes it executable (mode 0755), as a submission's `run` script.
pub fn write_script(path: &std::path::Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The names of the tests in a Gradescope `results.json`, in order.
pub fn test_names(results: &serde_json::Value) -> Vec<&str> {
    results["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect()
}

/// A JSON file read and parsed; panics naming the file when it cannot be.
pub fn read_json(path: impl AsRef<std::path::Path>) -> serde_json::Value {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}: {text}", path.display()))
}

/// The path of a file under the repository's `corpus/examples`.
pub fn example_path(grade: u8) -> String {
    format!("{}/corpus/examples/grade{grade}/white/worked-example.txt", env!("CARGO_MANIFEST_DIR"))
}

/// The board of the assignment's worked example for `grade` (white to move).
pub fn example_board(grade: u8) -> Board {
    Board::from_text(&std::fs::read_to_string(example_path(grade)).unwrap()).unwrap()
}

/// Whether every tool in `needed` (`java`, `javac`, `python3`) is installed; when one is not,
/// prints `SKIPPED: <test>: ...` with the package `.ci/run` installs it from, and the caller
/// returns instead of passing silently.
pub fn have_tools(needed: &[&str], test: &str) -> bool {
    let Some(missing) = needed.iter().find(|t| tools::find(t).is_none()) else { return true };
    let package = match *missing {
        "java" | "javac" => "default-jdk-headless",
        other => other,
    };
    println!("SKIPPED: {test}: `{missing}` is not installed (apt-get install {package})");
    false
}

/// How much slower than an idle machine wall time runs now: the machine's runnable tasks per
/// processor over the last minute, at least 1. A wall-time bound that catches a stall on an
/// idle machine is multiplied by this, so that it does not fail an honest run on a machine
/// other work keeps busy (CI's may be).
#[allow(dead_code)]
pub fn slowdown() -> f64 {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().and_then(|w| w.parse::<f64>().ok()))
        .unwrap_or(0.0);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    (load / cpus).max(1.0)
}
