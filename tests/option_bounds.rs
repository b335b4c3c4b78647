//! Every numeric option is held to a range: a value outside it is a usage error (exit status 2)
//! that names the option, the value and the range, before any work starts.

mod common;

use std::time::{Duration, Instant};

use common::{arbiter, arbiter_ok, example_path};

/// Runs arbiter with `args` and checks it refuses `value` for `option` with `range` in the
/// message, quickly and with exit status 2.
fn refused(args: &[&str], option: &str, value: &str, range: &str) {
    let start = Instant::now();
    let run = arbiter(args, "");
    let took = start.elapsed();
    assert_eq!(run.status, 2, "{args:?}: {}{}", run.stdout, run.stderr);
    let message = run.stderr.lines().next().unwrap_or_default();
    assert!(message.starts_with(&format!("error: invalid value '{value}' for '{option}")), "{message}");
    assert!(message.ends_with(range), "{args:?}: {message}");
    assert!(run.stdout.is_empty(), "no work was done: {}", run.stdout);
    assert!(took < Duration::from_secs(10), "refused only after {took:?}");
}

fn verify_with(extra: &[&str]) -> Vec<String> {
    let corpus = format!("{}/corpus/examples", env!("CARGO_MANIFEST_DIR"));
    let mut args: Vec<String> =
        ["verify", &corpus, "--bot", "builtin:grade7", "--quiet"].iter().map(|s| s.to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn check_verify(extra: &[&str], option: &str, value: &str, range: &str) {
    let args = verify_with(extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(&args, option, value, range);
}

#[test]
fn a_timeout_must_be_positive_finite_and_at_most_an_hour() {
    let range = "expected a number of seconds greater than 0 and at most 3600";
    check_verify(&["--timeout", "1e20"], "--timeout", "1e20", range);
    check_verify(&["--timeout", "0"], "--timeout", "0", range);
    check_verify(&["--timeout", "NaN"], "--timeout", "NaN", range);
    check_verify(&["--timeout=-3"], "--timeout", "-3", range);
    check_verify(&["--timeout", "3601"], "--timeout", "3601", range);
}

#[test]
fn jobs_run_from_1_to_256() {
    let range = "expected a whole number from 1 to 256";
    check_verify(&["--jobs", "100000"], "--jobs", "100000", range);
    check_verify(&["--jobs", "0"], "--jobs", "0", range);
    check_verify(&["--jobs=-1"], "--jobs", "-1", range);
    refused(
        &["match", "--bot", "builtin:random", "--bot", "builtin:random", "--jobs", "100000"],
        "--jobs",
        "100000",
        range,
    );
    refused(&["fuzz", "--engines", "--jobs", "0"], "--jobs", "0", range);
}

#[test]
fn bot_limits_have_upper_bounds() {
    check_verify(
        &["--capture-bytes", "99999999999"],
        "--capture-bytes",
        "99999999999",
        "expected a whole number from 1 to 16777216",
    );
    check_verify(
        &["--capture-bytes", "0"],
        "--capture-bytes",
        "0",
        "expected a whole number from 1 to 16777216",
    );
    check_verify(
        &["--memory-mb", "65537"],
        "--memory-mb",
        "65537",
        "expected a whole number from 0 to 65536",
    );
    check_verify(
        &["--max-procs", "1000000"],
        "--max-procs",
        "1000000",
        "expected a whole number from 0 to 32768",
    );
    check_verify(
        &["--max-file-kb", "18446744073709551615"],
        "--max-file-kb",
        "18446744073709551615",
        "expected a whole number from 0 to 1048576",
    );
    check_verify(
        &["--details", "99999999"],
        "--details",
        "99999999",
        "expected a whole number from 0 to 10000",
    );
}

#[test]
fn counts_and_depths_that_would_run_for_hours_are_refused() {
    refused(
        &["match", "--bot", "builtin:random", "--bot", "builtin:random", "--games", "0"],
        "--games",
        "0",
        "expected a whole number from 1 to 10000",
    );
    refused(
        &["fuzz", "--engines", "--cases", "1e9"],
        "--cases",
        "1e9",
        "expected a whole number from 1 to 100000",
    );
    refused(
        &["fuzz", "--bot", "builtin:random", "--max-shrink-runs", "10001"],
        "--max-shrink-runs",
        "10001",
        "expected a whole number from 0 to 10000",
    );
    refused(
        &["perft", &example_path(4), "--side", "white", "--depth", "12"],
        "--depth",
        "12",
        "expected a whole number from 0 to 6",
    );
    refused(&["bench", "--depth", "9"], "--depth", "9", "expected a whole number from 1 to 5");
    refused(
        &["bench", "--min-time", "1e20"],
        "--min-time",
        "1e20",
        "expected a number of seconds at least 0 and at most 600",
    );
    let out = tempfile::tempdir().unwrap();
    let out = out.path().display().to_string();
    for (option, value, range) in [
        ("--count", "1000000", "expected a whole number from 1 to 10000"),
        ("--pool-factor", "0", "expected a whole number from 1 to 100"),
        ("--max-candidates", "999999999999", "expected a whole number from 1 to 100000000"),
        ("--rare-budget", "999999999999", "expected a whole number from 0 to 100000000"),
    ] {
        refused(&["generate", "--grade", "4", "--out", &out, option, value], option, value, range);
    }
}

#[test]
fn values_at_the_bounds_are_accepted() {
    let args = verify_with(&[
        "--timeout",
        "3600",
        "--jobs",
        "256",
        "--capture-bytes",
        "16777216",
        "--memory-mb",
        "0",
        "--details",
        "10000",
        "--json",
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = arbiter_ok(&args, "");
    let report: serde_json::Value = run.json();
    assert_eq!(report["cases"].as_array().unwrap().len(), 4);
    let run = arbiter(&["perft", &example_path(4), "--side", "white", "--depth", "0"], "");
    assert_eq!((run.status, run.stdout.trim()), (0, "1"));
}
