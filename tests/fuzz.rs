//! `arbiter fuzz`: bots with planted rule bugs are caught within a few hundred positions and
//! shrunk to small positions; correct bots and the two engines come out clean.

mod common;

use std::fs;

use arbiter::Side;
use arbiter::advance::explain::diagnose;
use arbiter::advance::{Board, Move};
use common::arbiter;
use serde_json::Value;

fn fuzz(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["fuzz", "--json", "-q"];
    all.extend_from_slice(args);
    let run = arbiter(&all, "");
    (
        run.status,
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr)),
    )
}

#[test]
fn each_planted_bug_is_found_and_shrunk_to_a_small_position() {
    let dir = tempfile::tempdir().unwrap();
    let bugs = [
        ("mutant-protection", "protected-by-sentinel"),
        ("mutant-dragon-adjacent", "dragon-adjacent-capture"),
        ("mutant-convert-general", "convert-general"),
        ("mutant-no-danger", "general-in-danger"),
    ];
    for (bot, rule) in bugs {
        let out = dir.path().join(bot);
        let (status, v) = fuzz(&[
            "--bot",
            &format!("builtin:{bot}"),
            "--cases",
            "300",
            "--seed",
            "3",
            "--out",
            &out.display().to_string(),
        ]);
        assert_eq!(status, 1, "{bot} should be caught");
        let failures = v["report"]["failures"].as_array().unwrap();
        assert_eq!(failures.len(), 1, "{bot}: one kind of failure, got {failures:?}");
        let f = &failures[0];
        assert_eq!(f["signature"]["verdict"], "illegal-move");
        assert_eq!(f["signature"]["rule"], rule);
        assert!(
            f["minimal_size"].as_u64().unwrap() <= 6,
            "{bot}: {} pieces and walls left",
            f["minimal_size"]
        );
        assert!(f["minimal_size"].as_u64().unwrap() <= f["original_size"].as_u64().unwrap());

        // The minimal position shows the bug: the move the bot played breaks `rule` there.
        let side: Side = f["side"].as_str().unwrap().parse().unwrap();
        let board = Board::from_text(f["minimal_board"].as_str().unwrap()).unwrap();
        let played: Move = f["result"]["move"].as_str().unwrap().parse().unwrap();
        assert_eq!(diagnose(&board, side, played).unwrap_err().rule(), rule);

        // The files: a board ready for a corpus and a JSON with the bot's output and verdict.
        let stem = out.join(format!("{rule}-{side}"));
        let written = Board::from_text(&fs::read_to_string(stem.with_extension("txt")).unwrap()).unwrap();
        assert_eq!(written, board);
        let json: Value =
            serde_json::from_str(&fs::read_to_string(stem.with_extension("json")).unwrap()).unwrap();
        assert_eq!(json["verdict"], "illegal-move");
        assert!(json["bot_output"].as_str().unwrap().lines().count() == 9);
        assert!(json["reason"].as_str().unwrap().starts_with(&format!("{played} is not legal")));
        assert!(!json["legal_alternatives"].as_array().unwrap().is_empty());
        assert!(json["reproduce"].as_str().unwrap().contains("check case.txt output.txt"));
    }
}

#[test]
fn a_correct_bot_has_no_failures() {
    let (status, v) = fuzz(&["--bot", "builtin:random", "--cases", "150", "--seed", "4"]);
    assert_eq!(status, 0);
    assert_eq!(v["report"]["passed"], 150);
    assert!(v["report"]["failures"].as_array().unwrap().is_empty());
    let (status, v) = fuzz(&["--bot", "builtin:grade7", "--cases", "40", "--grade", "7", "--seed", "4"]);
    assert_eq!(status, 0, "{v}");
}

#[test]
fn a_crashing_process_bot_is_shrunk_to_what_makes_it_crash() {
    let dir = tempfile::tempdir().unwrap();
    // Crashes whenever a black Catapult is on the board; otherwise plays a random legal move.
    let script = dir.path().join("bot.sh");
    // The sandbox hides arbiter's own executable from bots; a bot may ship its own copy.
    let exe = dir.path().join("engine");
    fs::copy(env!("CARGO_BIN_EXE_arbiter"), &exe).unwrap();
    let exe = exe.display();
    fs::write(&script, format!("#!/bin/sh\nif grep -q c \"$2\"; then echo 'catapults confuse me' >&2; exit 4; fi\nexec {exe} bot --grade 4 \"$@\"\n")).unwrap();
    let (status, v) = fuzz(&["--bot", &format!("sh {}", script.display()), "--cases", "60", "--seed", "5"]);
    assert_eq!(status, 1);
    let f = &v["report"]["failures"][0];
    assert_eq!(f["signature"]["verdict"], "crash");
    assert_eq!(f["result"]["stderr_tail"], "catapults confuse me");
    let minimal = f["minimal_board"].as_str().unwrap();
    // Both Generals and the black Catapult remain, and little else.
    assert!(minimal.contains('c'), "{minimal}");
    assert!(f["minimal_size"].as_u64().unwrap() <= 4, "{minimal}");
}

#[test]
fn the_engines_agree_on_random_positions() {
    let (status, v) = fuzz(&["--engines", "--cases", "300", "--seed", "6"]);
    assert_eq!(status, 0);
    assert_eq!(v["disagreements"], 0);
}
