//! Files from outside (corpus boards, golden answers, game records, bot outputs, profiles) are
//! read with a size cap, and profiles are checked, before anything is graded with them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{arbiter, example_path};

/// A file of `size` bytes that takes no room on disk (a hole), so tests of huge files are quick.
fn sparse(path: &Path, size: u64) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::File::create(path).unwrap().set_len(size).unwrap();
}

/// A corpus with one worked example per grade under `dir/corpus`.
fn corpus(dir: &Path) -> PathBuf {
    let corpus = dir.join("corpus");
    for grade in 4..=7 {
        let case = corpus.join(format!("grade{grade}/white/worked-example.txt"));
        fs::create_dir_all(case.parent().unwrap()).unwrap();
        fs::copy(example_path(grade), &case).unwrap();
    }
    corpus
}

/// What arbiter says of a file `path` of `size` bytes, over the `cap` allowed for `what`.
fn too_big(path: &Path, size: u64, cap: u64, what: &str) -> String {
    format!("{} is {size} bytes, more than the {cap} allowed for {what}", path.display())
}

fn text(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn an_oversized_corpus_board_is_refused_by_name_and_size_before_any_bot_runs() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path());
    let big = corpus.join("grade5/white/huge.txt");
    sparse(&big, 70_000);
    let marker = dir.path().join("bot-ran");
    let bot = format!("sh -c 'touch {}' bot", marker.display());
    let run = arbiter(&["verify", &text(&corpus), "--bot", &bot, "-q"], "");
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains(&too_big(&big, 70000, 65536, "a board file")), "{}", run.stderr);
    assert!(!marker.exists(), "the bot ran although the corpus was refused");
}

#[test]
fn an_oversized_golden_file_is_refused_by_verify_and_golden() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path());
    let golden = dir.path().join("golden/grade6/white/worked-example.json");
    sparse(&golden, 17 << 20);
    let message = too_big(&golden, 17825792, 16777216, "a golden answer file");
    let run = arbiter(&["verify", &text(&corpus), "--bot", "builtin:grade7", "-q"], "");
    run.assert_refused(&message);
    let run = arbiter(&["golden", "--check", &text(&corpus)], "");
    run.assert_refused(&message);
}

#[test]
fn oversized_boards_are_refused_wherever_a_board_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    sparse(&big, 1 << 20);
    let message = too_big(&big, 1048576, 65536, "a board file");
    let example = example_path(4);
    for args in [
        vec!["show", &text(&big), "--side", "white"],
        vec!["check", &example, &text(&big), "--side", "white"],
        vec!["match", "--bot", "builtin:random", "--bot", "builtin:random", "--start", &text(&big)],
        vec!["bot", "--grade", "7", "white", &text(&big), "/dev/null"],
    ] {
        let run = arbiter(&args, "");
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stderr.trim(), format!("error: {message}"), "{args:?}");
    }
    // Standard input is read only up to the cap too.
    let run = arbiter(&["show", "-", "--side", "white"], &".".repeat(70_000));
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr.trim(),
        "error: standard input holds more than the 65536 bytes allowed for a board file"
    );
}

#[test]
fn an_oversized_game_record_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game-001.txt");
    sparse(&record, 20 << 20);
    let run = arbiter(&["replay", &text(&record)], "");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr.trim(),
        format!("error: {}", too_big(&record, 20971520, 16777216, "a game record"))
    );
}

/// Runs verify on the worked examples with the profile `json`; returns the exit status and stderr.
fn verify_with_profile(json: &str) -> (i32, String, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path());
    let profile = dir.path().join("profile.json");
    fs::write(&profile, json).unwrap();
    let run = arbiter(
        &["verify", &text(&corpus), "--bot", "builtin:grade7", "--profile", &text(&profile), "-q"],
        "",
    );
    (run.status, run.stderr, profile, dir)
}

#[test]
fn a_profile_that_could_give_a_score_outside_0_to_100_is_refused() {
    let (status, stderr, profile, _dir) = verify_with_profile(
        r#"{"name": "generous", "gated": true, "stages": [
            {"grade": 4, "tests": 1, "base": 0, "per_pass": 50},
            {"grade": 5, "tests": 1, "base": 60, "per_pass": 60}],
            "games": {"games": 10, "opponent": "builtin:grade7", "base": -5, "per_win": 1, "wins_above": 0, "max": 100}}"#,
    );
    assert_eq!(status, 2);
    assert_eq!(
        stderr.trim(),
        format!(
            "error: {}: not a valid marking profile: stages[1]: base + per_pass * tests is 60 + 60 * 1 = 120, \
             more than 100; games.base is -5; it must be a number from 0 to 100",
            profile.display()
        )
    );
    let (status, stderr, profile, _dir) = verify_with_profile(
        r#"{"name": "twice", "gated": true, "stages": [
            {"grade": 4, "tests": 1, "base": 0, "per_pass": 50},
            {"grade": 4, "tests": 1, "base": 50, "per_pass": 50}], "games": null}"#,
    );
    assert_eq!(status, 2);
    assert_eq!(
        stderr.trim(),
        format!(
            "error: {}: not a valid marking profile: stages[1].grade 4 is already the grade of stages[0]",
            profile.display()
        )
    );
    // A number too large for a double is not a number at all.
    let (status, stderr, _, _dir) = verify_with_profile(
        r#"{"name": "huge", "stages": [{"grade": 4, "tests": 1, "base": 1e999, "per_pass": 0}], "games": null}"#,
    );
    assert_eq!(status, 2);
    assert!(stderr.contains("not a marking profile: number out of range"), "{stderr}");
}

#[test]
fn an_oversized_profile_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("profile.json");
    sparse(&profile, 2 << 20);
    let run = arbiter(
        &["match", "--bot", "builtin:random", "--bot", "builtin:random", "--profile", &text(&profile)],
        "",
    );
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr.trim(),
        format!("error: {}", too_big(&profile, 2097152, 1048576, "a marking profile"))
    );
}
