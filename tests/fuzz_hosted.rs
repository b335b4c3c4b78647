//! `fuzz` of hosted bots beyond asking for a move: Network's accept/reject questions to
//! `forceMove` and `opponentMove`, shrunk by dropping a move of each player; PlanetWars games
//! whose turns throw or whose orders are refused, shrunk to fewer turns. Tests print
//! `SKIPPED: <why>` without a JDK or python3.

mod common;

use std::path::PathBuf;

use common::{arbiter_json, have_tools};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fuzz(game: &str, bot: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--game", game, "fuzz", "--bot", bot, "--json", "-q", "--timeout", "5"];
    args.extend_from_slice(extra);
    arbiter_json(&args)
}

fn rules_of(v: &Value) -> Vec<String> {
    v["report"]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["signature"]["rule"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The test player that takes every move it is told is offered illegal moves of each kind, to
/// forceMove and to opponentMove: each is its own kind of failure, and each shrinks to a
/// shorter game in which the move still breaks the same rule.
#[test]
fn network_offers_illegal_moves_to_force_and_opponent_move_and_shrinks_the_games() {
    if !have_tools(&["javac", "java"], "fuzzing a hosted Network player") {
        return;
    }
    let bot = root().join("tests/data/network/naive").display().to_string();
    let (status, v) = fuzz(
        "network",
        &bot,
        &[
            "--cases",
            "12",
            "--seed",
            "1",
            "--reruns",
            "0",
            "--source",
            "offer/reject/cluster",
            "--source",
            "offer/reject/must-add",
            "--source",
            "opponent/reject/step-from-opponent",
            "--source",
            "opponent/reject/opponent-goal",
        ],
    );
    assert_eq!(status, 1, "{v:#}");
    let rules = rules_of(&v);
    for rule in [
        "cluster",
        "must-add",
        "opponentMove-accepts-step-from-opponent",
        "opponentMove-accepts-opponent-goal",
    ] {
        assert!(rules.iter().any(|r| r == rule), "{rule} not in {rules:?}");
    }
    for f in v["report"]["failures"].as_array().unwrap() {
        assert_eq!(f["signature"]["verdict"], "wrong-answer", "{f:#}");
        let minimal = f["minimal_board"].as_str().unwrap();
        assert!(minimal.contains("offer"), "{minimal}");
        // A move of each player dropped at a time: the same side to move, a shorter game.
        let (from, to) = (f["original_size"].as_u64().unwrap(), f["minimal_size"].as_u64().unwrap());
        assert_eq!(from % 2, to % 2);
        if from > 20 {
            assert!(to < from, "not shrunk: {f:#}");
        }
    }
    // An opponentMove offer is made to a player of the other side.
    let opponent = v["report"]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["minimal_board"].as_str().unwrap().contains("offer-opponent:"))
        .expect("an opponentMove failure");
    assert!(opponent["result"]["reason"].as_str().unwrap().starts_with("opponentMove("), "{opponent:#}");
}

/// A strategy speaking the host protocol, with two planted bugs: it throws once it holds four
/// planets, and it sends a planet's whole population plus one to itself once it holds more than
/// 300. Both are found in random games, each shrunk to fewer turns than the game's 200.
#[test]
fn planetwars_fuzz_finds_a_throwing_turn_and_a_refused_order_and_shrinks_the_game() {
    if !have_tools(&["python3"], "fuzzing a PlanetWars strategy") {
        return;
    }
    let source = std::fs::read_to_string(root().join("tests/data/planetwars/python/pwbot.py")).unwrap();
    let planted = source
        .replace(
            "        spare = p[\"population\"] // 2\n",
            "        spare = p[\"population\"] // 2\n        if p[\"population\"] > 300:\n            orders.append({\"from\": p[\"id\"], \"to\": p[\"id\"], \"population\": p[\"population\"] + 1})\n",
        )
        .replace(
            "        elif op == \"turn\":\n            result = turn(args)\n",
            "        elif op == \"turn\":\n            if sum(1 for p in args[\"planets\"] if p.get(\"owner\") == \"self\") >= 4:\n                raise ValueError(\"four planets\")\n            result = turn(args)\n",
        );
    assert_ne!(planted, source);
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("pwbot.py");
    std::fs::write(&bot, planted).unwrap();
    let command = format!("python3 {}", bot.display());
    let (status, v) = fuzz("planetwars", &command, &["--cases", "16", "--seed", "1", "--reruns", "1"]);
    assert_eq!(status, 1, "{v:#}");
    let failures = v["report"]["failures"].as_array().unwrap();
    let refused = failures
        .iter()
        .find(|f| f["signature"]["rule"].as_str().unwrap().starts_with("order-refused-"))
        .unwrap_or_else(|| panic!("no refused order: {v:#}"));
    assert_eq!(refused["signature"]["verdict"], "illegal-move");
    // The raise ends the protocol program: the turn it died in is reported.
    let died = failures
        .iter()
        .find(|f| ["crash", "malformed-output"].contains(&f["signature"]["verdict"].as_str().unwrap()))
        .unwrap_or_else(|| panic!("no crash: {v:#}"));
    for f in [refused, died] {
        let (from, to) = (f["original_size"].as_u64().unwrap(), f["minimal_size"].as_u64().unwrap());
        assert!(to < from, "shrunk to fewer turns: {f:#}");
        assert!(f["minimal_board"].as_str().unwrap().contains(&format!("turns: {to}")));
        assert!(f["result"]["reason"].as_str().unwrap().starts_with(&format!("turn {to} ")), "{f:#}");
    }
}
