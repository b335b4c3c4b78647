//! What a bot writes is shown, never obeyed: control characters and bidirectional overrides in
//! its stderr, stdout or name reach the terminal as visible escapes.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{arbiter, example_path, sh_bot};

/// The characters a terminal would act on, or that reorder text.
fn assert_no_raw_controls(text: &str) {
    for c in ['\x1b', '\r', '\x07', '\x08', '\u{9b}', '\u{202e}'] {
        assert!(!text.contains(c), "raw {c:?} in:\n{text}");
    }
}

/// A shell-script bot in `dir`; returns the bot command.
fn corpus(dir: &Path) -> PathBuf {
    let case = dir.join("corpus/grade4/white/worked-example.txt");
    fs::create_dir_all(case.parent().unwrap()).unwrap();
    fs::copy(example_path(4), &case).unwrap();
    dir.join("corpus")
}

#[test]
fn a_bot_cannot_fake_a_score_line_in_the_verify_report() {
    let dir = tempfile::tempdir().unwrap();
    let bot =
        sh_bot(dir.path(), "bot.sh", r"printf 'oops\033[2K\rscore 100%%\342\200\256\302\233\n' >&2; exit 1");
    let corpus = corpus(dir.path()).display().to_string();
    let run = arbiter(&["verify", &corpus, "--bot", &bot, "-q"], "");
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains(r"  stderr:   oops\x1b[2K\rscore 100%\u{202e}\u{9b}"),
        "the stderr line is shown escaped:\n{}",
        run.stdout
    );
    assert_no_raw_controls(&run.stdout);
    // The one real score line is the report's own (one case is not the course's corpus, so it
    // gives pass counts); the bot's fake one is not at the start of a line.
    let scores: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("score ") || l.starts_with("not a course score"))
        .collect();
    assert_eq!(scores, vec!["not a course score: 0 of 1 cases passed"]);
}

#[test]
fn what_a_bot_says_to_bad_input_is_escaped_in_the_robustness_table() {
    let dir = tempfile::tempdir().unwrap();
    let bot = sh_bot(dir.path(), "bot.sh", r"printf '\033]0;owned\007\rall checks passed\n'; exit 2");
    let run = arbiter(&["verify", "--robustness", "--bot", &bot], "");
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stdout.contains(r"      said: \x1b]0;owned\x07\rall checks passed"), "{}", run.stdout);
    assert_no_raw_controls(&run.stdout);
}

#[test]
fn errors_quoting_an_argument_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = corpus(dir.path()).display().to_string();
    let run = arbiter(&["verify", &corpus, "--bot", "/no/such\x1b[2K\rbot"], "");
    run.assert_refused(r"/no/such\x1b[2K\rbot");
    assert_no_raw_controls(&run.stderr);
}
