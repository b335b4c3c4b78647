//! Pente through the harness: `--game pente` with its categories, its bot protocol (no
//! arguments, input.txt to output.txt, playdata.txt kept between a bot's turns), its profile,
//! and games that end by its own rules.

mod common;

use std::fs;
use std::path::Path;

use common::arbiter;
use serde_json::Value;

fn json(args: &[&str]) -> (i32, Value) {
    let run = arbiter(args, "");
    let value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run.status, value)
}

/// A shell-script bot in its own folder, with a private copy of arbiter as its engine (the
/// sandbox hides arbiter's own executable from bots).
fn bot(dir: &Path, body: &str) -> String {
    let engine = dir.join("engine");
    fs::copy(env!("CARGO_BIN_EXE_arbiter"), &engine).unwrap();
    let path = dir.join("bot.sh");
    fs::write(&path, format!("#!/bin/sh\nengine='{}'\n{body}\n", engine.display())).unwrap();
    format!("sh {}", path.display())
}

/// `match --json -q` between two Pente bots.
fn pente_match(a: &str, b: &str, games: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--game", "pente", "match", "--bot", a, "--bot", b, "--games", games, "--json", "-q"];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn the_bundled_pente_cases_are_judged_by_category() {
    let (status, r) =
        json(&["--game", "pente", "verify", "corpus/pente", "--bot", "builtin:minimax", "--json", "-q"]);
    assert_eq!(status, 1, "minimax does not maximise captures, so the capture stage fails");
    assert_eq!(r["profile"], "pente-cases");
    let stages: Vec<(String, u64, u64)> = r["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["grade"].as_str().unwrap().to_string(),
                s["passed"].as_u64().unwrap(),
                s["total"].as_u64().unwrap(),
            )
        })
        .collect();
    let names: Vec<&str> = stages.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["opening", "legal", "win", "block", "capture"]);
    // Every stage before capture passes in full: minimax takes wins and stops fives.
    for (name, passed, total) in &stages[..4] {
        assert_eq!(passed, total, "{name}");
    }
    assert_eq!(r["stopped_at"], "capture");
    let case = r["cases"].as_array().unwrap().iter().find(|c| c["grade"] == "win").unwrap();
    assert_eq!(case["verdict"], "pass");
    // The reproduce line runs the bot; the check line judges its output with arbiter.
    let check = case["check"].as_str().unwrap();
    assert!(
        check.contains("--game pente --side white --category win")
            || check.contains("--game pente --side black --category win"),
        "{check}"
    );
}

#[test]
fn a_pente_bot_gets_no_arguments_and_is_judged_on_its_point() {
    let dir = tempfile::tempdir().unwrap();
    // Always answers the centre, and says how it was called.
    let command = bot(dir.path(), "echo \"args=$# input=$(head -n 1 input.txt)\" >&2\necho 10K > output.txt");
    let (_, r) =
        json(&["--game", "pente", "verify", "corpus/pente/opening", "--bot", &command, "--json", "-q"]);
    let cases = r["cases"].as_array().unwrap();
    let first = cases.iter().find(|c| c["name"] == "opening/white/first-stone").unwrap();
    assert_eq!(first["verdict"], "pass", "{first}");
    assert_eq!(first["stderr_tail"], "args=0 input=WHITE");
    let second = cases.iter().find(|c| c["name"] == "opening/white/second-stone").unwrap();
    assert_eq!(second["verdict"], "illegal-move");
    assert_eq!(second["rule"], "occupied");
    assert!(second["reason"].as_str().unwrap().starts_with("10K is not a legal move"), "{second}");
}

/// A Pente failure shows the board with the bot's point marked (and the expected points, when
/// few), and a quiet position's hundreds of right answers are a handful and a count.
#[test]
fn a_pente_failure_draws_the_board_and_lists_a_handful_of_expected_points() {
    let dir = tempfile::tempdir().unwrap();
    let command = bot(dir.path(), "echo 10K > output.txt");
    let run = arbiter(
        &[
            "--game",
            "pente",
            "verify",
            "corpus/pente/legal",
            "--bot",
            &command,
            "-q",
            "--details",
            "1",
            "--color",
            "never",
        ],
        "",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.contains("1. illegal-move (occupied; stone place): "), "{text}");
    assert!(text.contains("   A B C D E F G H J K L M N O P Q R S T\n"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("10  ") && l.contains(" * ")),
        "the bot's point is marked: {text}"
    );
    assert!(text.contains("* 10K: the bot's move, on a "), "{text}");
    let expected = text.lines().find(|l| l.starts_with("  expected: ")).unwrap();
    assert!(expected.starts_with("  expected: any of 3"), "{expected}");
    assert!(expected.ends_with(" ..."), "{expected}");
    assert!(expected.split_whitespace().count() < 20, "{expected}");
}

#[test]
fn playdata_is_kept_between_a_bots_turns_and_games_end_by_pentes_rules() {
    let dir = tempfile::tempdir().unwrap();
    // Counts its turns in playdata.txt and gives up (exit 3, no output) on its fourth.
    let command = bot(
        dir.path(),
        "n=$(cat playdata.txt 2>/dev/null || echo 0); n=$((n + 1)); echo $n > playdata.txt\n\
         if [ $n -ge 4 ]; then echo \"turn $n: giving up\" >&2; exit 3; fi\n\
         exec \"$engine\" --game pente bot --builtin random-adjacent --seed $n",
    );
    let (_, m) = pente_match(&command, "builtin:random-adjacent", "1", &[]);
    let game = &m["games"][0];
    assert_eq!(game["ending"], "crash", "{game}");
    // A is White: its fourth turn is ply 7, after 6 moves; without playdata it would never stop.
    assert_eq!(game["moves"].as_array().unwrap().len(), 6, "{game}");
    assert!(game["detail"].as_str().unwrap().contains("exited with status 3"), "{game}");

    let (_, m) = pente_match("builtin:minimax", "builtin:random-adjacent", "2", &[]);
    for game in m["games"].as_array().unwrap() {
        assert!(["five", "captures", "full-board"].contains(&game["ending"].as_str().unwrap()), "{game}");
    }
}

#[test]
fn commands_that_know_advance_only_say_so() {
    let run = arbiter(&["--game", "pente", "coverage", "corpus/pente"], "");
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("`coverage` and `bench` know Advance only"), "{}", run.stderr);
}

/// `generate` writes Pente's layout, `<category>/<side>/NNN.txt`, the same files for the same
/// seed, and refuses to replace cases without `--force`; `golden` then finds nothing wrong.
#[test]
fn generate_makes_a_pente_corpus_of_every_category() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).join("corpus");
    let generate = |to: &Path, extra: &[&str]| {
        let to = to.display().to_string();
        let mut args = vec!["--game", "pente", "generate", "--count", "3", "--seed", "9", "--out", &to, "-q"];
        args.extend_from_slice(extra);
        arbiter(&args, "")
    };
    assert_eq!(generate(&out("a"), &[]).status, 0);
    assert_eq!(generate(&out("b"), &[]).status, 0);
    let files = |root: &Path| -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> = walkdir::WalkDir::new(root)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
            .map(|e| {
                let name = e.path().strip_prefix(root).unwrap().display().to_string();
                (name, fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        found.sort();
        found
    };
    let a = files(&out("a"));
    assert_eq!(a, files(&out("b")), "the same seed gives the same files");
    let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 14, "{names:?}");
    for wanted in [
        "opening/white/first-stone.txt",
        "opening/white/second-stone.txt",
        "win/white/002.txt",
        "block/black/001.txt",
        "capture/white/001.txt",
        "legal/black/001.txt",
    ] {
        assert!(names.contains(&wanted), "{wanted}: {names:?}");
    }
    let again = generate(&out("a"), &[]);
    assert_eq!(again.status, 2, "{}", again.stderr);
    assert!(again.stderr.contains("use --force"), "{}", again.stderr);
    assert_eq!(generate(&out("a"), &["--force"]).status, 0);
    let corpus = out("a").display().to_string();
    assert_eq!(arbiter(&["--game", "pente", "golden", "--update", &corpus], "").status, 0);
    let run = arbiter(&["--game", "pente", "golden", "--check", &corpus], "");
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert!(run.stdout.contains("all 14 golden answers match the oracle"), "{}", run.stdout);
}

/// `verify --robustness --json` of a Pente bot, without the sandbox.
fn robustness(bot: &str) -> (i32, Value) {
    json(&[
        "--game",
        "pente",
        "verify",
        "corpus/pente",
        "--bot",
        bot,
        "--robustness",
        "--json",
        "--sandbox",
        "off",
    ])
}

#[test]
fn robustness_gives_pente_bots_bad_files_not_bad_arguments() {
    let (status, r) = robustness("builtin:minimax");
    assert_eq!(status, 0, "{r}");
    let names: Vec<&str> =
        r["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["missing input file", "invalid characters", "wrong size", "no legal move"]);
    assert!(r["checks"].as_array().unwrap().iter().all(|c| c["args"].as_array().unwrap().is_empty()));

    // A bot that answers whatever it is given writes output.txt for a bad file: not handled.
    let dir = tempfile::tempdir().unwrap();
    let (status, r) = robustness(&bot(dir.path(), "echo 10K > output.txt"));
    assert_eq!(status, 1);
    assert_eq!(r["passed"], 0);
    assert_eq!(r["checks"][1]["note"], "it wrote output.txt although the input was bad");
}

#[test]
fn a_pente_move_may_take_longer_than_timeout_while_the_clock_lasts() {
    let dir = tempfile::tempdir().unwrap();
    // Sleeps (no CPU time) 1.5 s on its first turn, then gives up on its third.
    let command = bot(
        dir.path(),
        "n=$(cat playdata.txt 2>/dev/null || echo 0); n=$((n + 1)); echo $n > playdata.txt\n\
         if [ $n -eq 1 ]; then sleep 1.5; fi\n\
         if [ $n -ge 3 ]; then exit 3; fi\n\
         exec \"$engine\" --game pente bot --builtin random-adjacent --seed $n",
    );
    let (_, m) = pente_match(&command, "builtin:random-adjacent", "1", &["--timeout", "0.5"]);
    let game = &m["games"][0];
    // Under a fixed 0.5 s per move the first move would be a timeout; Pente's clock allows it.
    assert_eq!(game["ending"], "crash", "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 4, "{game}");
}
