//! Network end to end: a student's `player.MachinePlayer` compiled with arbiter's API, driven by
//! calls in the sandbox, and judged on the bundled corpus's cases and in games. The players are
//! in `tests/data/network/`; tests print `SKIPPED: <why>` without a JDK.

mod common;

use std::path::PathBuf;

use common::verifying::{self, verdicts, verify_json};
use common::{arbiter, arbiter_ok, have_tools};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A small corpus: one case of each kind from the bundled one.
fn small_corpus() -> tempfile::TempDir {
    let cases = [
        "accept/white/001",
        "reject/black/002-cluster",
        "legal/white/003",
        "win/white/001",
        "block/black/001",
    ];
    verifying::small_corpus("network", &cases)
}

/// The verdicts of the player in `tests/data/network/<bot>` on a small corpus of its own.
fn verify(bot: &str) -> Vec<(String, String, String)> {
    let corpus = small_corpus();
    let bot = root().join("tests/data/network").join(bot).display().to_string();
    let corpus = corpus.path().join("corpus").display().to_string();
    verdicts(&verify_json("network", &corpus, &bot, &["--timeout", "1"]))
}

fn verdict<'a>(cases: &'a [(String, String, String)], name: &str) -> (&'a str, &'a str) {
    let (_, verdict, reason) = cases.iter().find(|c| c.0 == name).unwrap_or_else(|| panic!("no case {name}"));
    (verdict, reason)
}

/// The reason of case `name`, whose verdict must be a crash.
fn crash_reason<'a>(cases: &'a [(String, String, String)], name: &str) -> &'a str {
    let (v, why) = verdict(cases, name);
    assert_eq!(v, "crash", "{name}: {why}");
    why
}

#[test]
fn a_player_that_takes_every_move_passes_accept_and_fails_reject_with_the_rule() {
    if !have_tools(&["java", "javac"], "network naive player") {
        return;
    }
    let cases = verify("naive");
    assert_eq!(verdict(&cases, "accept/white/001").0, "pass");
    let (v, why) = verdict(&cases, "reject/black/002-cluster");
    assert_eq!(v, "wrong-answer");
    assert!(why.contains("returned true, but") && why.contains("(cluster)"), "{why}");
    // Its chooseMove always adds on 11: never what a win case wants.
    assert_ne!(verdict(&cases, "win/white/001").0, "pass");
}

#[test]
fn a_throw_a_loop_and_an_exit_each_get_their_verdict_and_the_cases_after_still_run() {
    if !have_tools(&["java", "javac"], "network failing players") {
        return;
    }
    let thrower = verify("thrower");
    let why = crash_reason(&thrower, "win/white/001");
    assert!(
        why.contains("NullPointerException") && why.contains("MachinePlayer.search(MachinePlayer.java:8)"),
        "{why}"
    );
    let spinner = verify("spinner");
    assert_eq!(verdict(&spinner, "win/white/001").0, "timeout");
    let exiter = verify("exiter");
    let why = crash_reason(&exiter, "block/black/001");
    assert!(why.contains("status 3"), "{why}");
    // The forceMove cases after a death run in a fresh host.
    for cases in [&thrower, &spinner, &exiter] {
        assert_eq!(verdict(cases, "accept/white/001").0, "pass");
    }
}

#[test]
fn a_player_in_another_package_is_hosted_by_its_full_name_and_one_in_none_is_refused_with_its_name() {
    if !have_tools(&["java", "javac"], "network players outside the player package") {
        return;
    }
    let corpus = small_corpus();
    // cs61bxyz.player.MachinePlayer, as CS61B's tournament builds name a login's player.
    let cases = verify("other-package");
    assert_eq!(verdict(&cases, "accept/white/001").0, "pass");
    let (v, why) = verdict(&cases, "reject/black/002-cluster");
    assert_eq!(v, "wrong-answer", "{why}");
    // No package line: refused, naming the file and the line it needs.
    let bot = root().join("tests/data/network/no-package").display().to_string();
    let run = arbiter(
        &["--game", "network", "verify", &corpus.path().join("corpus").display().to_string(), "--bot", &bot],
        "",
    );
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("MachinePlayer is in no package (MachinePlayer.java)")
            && said.contains("package player;"),
        "{said}"
    );
    assert!(!said.contains("has no player/MachinePlayer.java"), "{said}");
}

#[test]
fn a_hosted_player_that_plays_an_illegal_move_forfeits_the_game() {
    if !have_tools(&["java", "javac"], "network match") {
        return;
    }
    let bot = root().join("tests/data/network/naive").display().to_string();
    let run = arbiter(
        &[
            "--game",
            "network",
            "match",
            "--bot",
            &bot,
            "--bot",
            "builtin:random",
            "--games",
            "2",
            "--timeout",
            "2",
        ],
        "",
    );
    assert!(run.stdout.contains("A wins 0, B wins 2"), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("add 11 is not a legal move (occupied)"), "{}", run.stdout);
}

#[test]
fn the_bundled_corpus_matches_its_golden_answers_and_regenerates_the_same() {
    arbiter_ok(
        &["--game", "network", "golden", "--check", &root().join("corpus/network").display().to_string()],
        "",
    );
    let out = tempfile::tempdir().unwrap();
    arbiter_ok(
        &[
            "--game",
            "network",
            "generate",
            "--count",
            "60",
            "--seed",
            "1",
            "--out",
            &out.path().display().to_string(),
            "-q",
        ],
        "",
    );
    for entry in walkdir::WalkDir::new(root().join("corpus/network")).into_iter().flatten() {
        if entry.path().extension().is_some_and(|x| x == "txt") {
            let rel = entry.path().strip_prefix(root().join("corpus/network")).unwrap();
            let again = std::fs::read(out.path().join(rel)).unwrap_or_default();
            assert_eq!(std::fs::read(entry.path()).unwrap(), again, "{} differs", rel.display());
        }
    }
}

/// Issue 30: a player that leaves a system property, the default locale and a thread in its
/// JVM, and throws when it meets any of them, meets none in a later case (each case starts with
/// its classes loaded afresh, and a JVM left with anything is not used again).
#[test]
fn state_a_player_leaves_in_its_jvm_reaches_no_later_case() {
    if !have_tools(&["java", "javac"], "network leaky player") {
        return;
    }
    let cases = verify("leaky");
    assert_eq!(cases.len(), 5);
    for (name, verdict, reason) in &cases {
        assert!(!reason.contains("earlier case"), "{name}: {verdict}: {reason}");
    }
    assert_eq!(verdict(&cases, "accept/white/001").0, "pass");
    assert_eq!(verdict(&cases, "reject/black/002-cluster").0, "wrong-answer");
}

/// Issue 30: a thread that computes after the player's calls returned is a verdict of its own
/// in every case, whatever the calls returned.
#[test]
fn a_thread_still_computing_after_the_calls_is_a_crash() {
    if !have_tools(&["java", "javac"], "network background thread") {
        return;
    }
    let cases = verify("background");
    let why = crash_reason(&cases, "accept/white/001");
    assert!(
        why.contains("still running when its calls were over")
            || why.contains("while no call was in progress"),
        "{why}"
    );
}
