//! `arbiter --game chess-a1 fuzz`: random valid games asked about at every position through the
//! Python host; a correct module comes out clean, a buggy one is caught and shrunk to one
//! question after a few moves. Tests print `SKIPPED: <why>` where python3 is missing.

mod common;

use std::path::PathBuf;

use common::{arbiter_json, have_tools};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess-a1").join(name).join("a1.py")
}

fn fuzz(bot: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--game", "chess-a1", "fuzz", "--bot", bot, "--json", "-q", "--timeout", "5"];
    args.extend_from_slice(extra);
    arbiter_json(&args)
}

/// The failures `fuzz` reports of `bot`, which it must have failed (exit status 1).
fn failures(bot: &str, extra: &[&str]) -> Vec<Value> {
    let (status, v) = fuzz(bot, extra);
    assert_eq!(status, 1, "{v:#}");
    v["report"]["failures"].as_array().unwrap().clone()
}

/// The one failure `fuzz` reports of `bot`.
fn one_failure(bot: &str, extra: &[&str]) -> Value {
    let failures = failures(bot, extra);
    assert_eq!(failures.len(), 1, "{failures:#?}");
    failures[0].clone()
}

/// A failure's shrunk case, which must be one question: a call of `function`.
fn one_question<'a>(failure: &'a Value, function: &str) -> &'a str {
    let minimal = failure["minimal_board"].as_str().unwrap();
    assert!(
        minimal.contains(&format!("call: {function}(")),
        "shrunk to one question of {function}: {minimal}"
    );
    minimal
}

/// The module `name` with a bug planted (`from` replaced by `to`, which must change it), as
/// `a1.py` in a folder of its own: the folder and the module's path.
fn planted(name: &str, from: &str, to: &str) -> (tempfile::TempDir, String) {
    let module = std::fs::read_to_string(data(name)).unwrap();
    let planted = module.replace(from, to);
    assert_ne!(planted, module, "{from:?} is not in {name}'s a1.py");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a1.py"), planted).unwrap();
    let bot = dir.path().join("a1.py").display().to_string();
    (dir, bot)
}

/// The moves of a shrunk failure: its `# game:` comment.
fn moves_of(minimal: &str) -> Vec<String> {
    let line = minimal.lines().find_map(|l| l.strip_prefix("# game:")).unwrap_or_else(|| panic!("{minimal}"));
    line.split(',').map(str::trim).filter(|m| !m.is_empty()).map(str::to_string).collect()
}

#[test]
fn a_correct_module_answers_every_question_of_random_games() {
    if !have_tools(&["python3"], "fuzzing a correct a1.py") {
        return;
    }
    let bot = data("correct").display().to_string();
    let (status, v) = fuzz(&bot, &["--cases", "4", "--seed", "3"]);
    assert_eq!(status, 0, "{v:#}");
    assert_eq!(v["report"]["passed"], 4);
    assert!(v["report"]["failures"].as_array().unwrap().is_empty());
    let sources = &v["report"]["sources"];
    assert!(
        sources["random"].as_u64().unwrap() > 0 && sources["captures"].as_u64().unwrap() > 0,
        "{sources}"
    );
}

#[test]
fn a_move_that_leaves_the_king_in_check_is_caught_and_shrunk_to_one_question() {
    if !have_tools(&["python3"], "fuzzing a buggy a1.py") {
        return;
    }
    // tests/data/chess-a1/buggy: is_move_valid never looks at check.
    let bot = data("buggy").display().to_string();
    let f = &one_failure(&bot, &["--cases", "4", "--seed", "1", "--reruns", "1", "--shrink-time", "240s"]);
    assert_eq!(f["signature"]["rule"], "is_move_valid-accepts-leaves-king-in-check");
    let minimal = one_question(f, "is_move_valid");
    let moves = moves_of(minimal);
    assert!(moves.len() <= 12, "a short game: {moves:?}");
    assert_eq!(f["minimal_size"].as_u64().unwrap() as usize, moves.len());
    assert!(
        f["result"]["reproduce"]
            .as_str()
            .unwrap()
            .starts_with("python3 -c \"from a1 import *; print(repr(is_move_valid(")
    );
    assert!(f["result"]["reason"].as_str().unwrap().contains("leaves the player's own king in check"));
}

#[test]
fn a_planted_check_text_bug_is_shrunk_to_a_few_moves() {
    if !have_tools(&["python3"], "fuzzing a planted bug") {
        return;
    }
    // check_game_over always says White is in check: only a position where Black is in check
    // shows it.
    let (_dir, bot) = planted("correct", "(\"White\" if whites_turn else \"Black\")", "\"White\"");
    let f = &one_failure(&bot, &["--cases", "12", "--seed", "2", "--reruns", "1", "--shrink-time", "240s"]);
    assert_eq!(f["signature"]["rule"], "check_game_over-prints");
    assert_eq!(f["side"], "black", "Black is in check in the shrunk position");
    let minimal = one_question(f, "check_game_over");
    // Black is to move after an odd number of moves; the shrinking drops a move of each player
    // at a time (seed 2: from a game of 38 moves to the check after 19, then to 15 moves).
    let moves = moves_of(minimal);
    assert!(moves.len() % 2 == 1 && moves.len() <= 17, "{moves:?}");
    assert!(f["minimal_size"].as_u64() < f["original_size"].as_u64(), "{f:#}");
    let reason = f["result"]["reason"].as_str().unwrap();
    assert!(reason.contains("Black is in check"), "{reason}");
}

#[test]
fn a_crash_on_an_off_board_move_does_not_hide_a_later_bug() {
    if !have_tools(&["python3"], "fuzzing a module with two bugs") {
        return;
    }
    // The buggy module (is_move_valid never looks at check), made to raise on a move off the
    // board, which every position is asked about from the first: the crash comes first in
    // every game, yet the check bug must be found too, each shrunk to its own question.
    let key = "def is_move_valid(move, board, whites_turn):\n    start, end = move\n";
    let raise = format!("{key}    if out_of_bounds(end):\n        raise IndexError(\"off the board\")\n");
    let (_dir, bot) = planted("buggy", key, &raise);
    let failures = failures(&bot, &["--cases", "4", "--seed", "1", "--reruns", "0", "--shrink-time", "240s"]);
    let rules: Vec<&str> = failures.iter().map(|f| f["signature"]["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"is_move_valid-raises"), "{rules:?}");
    assert!(rules.contains(&"is_move_valid-accepts-leaves-king-in-check"), "{rules:?}");
    // Each shrunk to its own question.
    for f in &failures {
        one_question(f, "is_move_valid");
    }
}

// The game files and their shrinking, without python3.

use arbiter::Side;
use arbiter::games::chess_a1::board::{Board, Pos};
use arbiter::games::chess_a1::fuzzing::{Ask, GameCase, Query, parse_moves, parse_single, prepare, queries};
use arbiter::games::chess_a1::{ChessA1Referee, Texts, rules};
use arbiter::harness::referee::{CaseSpec, Fuzzing, Referee};

fn spec() -> CaseSpec {
    CaseSpec {
        path: "fuzz.txt".into(),
        name: "fuzz".into(),
        category: "validation".into(),
        side: Side::White,
        answer: None,
        golden: None,
    }
}

#[test]
fn game_files_round_trip_and_refuse_invalid_moves() {
    let game = GameCase { moves: parse_moves("e2 e4, e7 e5").unwrap(), ask: Ask::Every };
    let text = game.render();
    assert_eq!(GameCase::parse(text.as_bytes(), "g").unwrap().unwrap(), game);
    let these = GameCase {
        moves: vec![],
        ask: Ask::These(vec![Query::CanMove, Query::IsMoveValid((Pos::new(6, 4), Pos::new(8, 4)))]),
    };
    assert_eq!(GameCase::parse(these.render().as_bytes(), "g").unwrap().unwrap(), these);
    let bad = GameCase::parse(b"game: e2 e5\n", "g").unwrap().unwrap_err();
    assert!(bad.contains("not valid"), "{bad}");
    assert!(GameCase::parse(b"call: can_move(x)\n", "g").is_none());
    for nonsense in [
        &b"game: e2 e4\nask: fly\n"[..],
        b"game: e2\n",
        b"game: e2 e4\nask: every position\nask: can_move\n",
        b"game:\n\xff\n",
    ] {
        if let Some(parsed) = GameCase::parse(nonsense, "g") {
            assert!(parsed.is_err(), "{}", String::from_utf8_lossy(nonsense));
        }
    }
}

#[test]
fn every_valid_move_is_asked_and_the_same_position_gets_the_same_questions() {
    let start = Board::initial();
    let qs = queries(&start, true);
    let valid = qs.iter().filter(|q| matches!(q, Query::IsMoveValid(m) if rules::is_valid(&start, *m, true)));
    assert_eq!(valid.count(), 20);
    assert!(qs.contains(&Query::CheckGameOver) && qs.contains(&Query::CanMove));
    assert!(qs.iter().any(|q| matches!(q, Query::IsMoveValid((_, to)) if !to.on_board())), "off the board");
    assert_eq!(qs, queries(&start, true));
    let case = prepare(b"game: f2 f3, e7 e5, g2 g4, d8 h4\nask: last position\n", "g", &Texts::default())
        .unwrap()
        .unwrap();
    assert!(case.script().unwrap().len() > 10);
}

#[test]
fn fuzzed_games_shrink_to_one_question_then_to_fewer_moves() {
    let referee = ChessA1Referee::default();
    for seed in 0..5 {
        let (a, side) = referee.random_position(seed);
        assert_eq!((a.clone(), side), referee.random_position(seed));
        assert_eq!(referee.side_of(&a), Some(side));
        let n = referee.size(&a);
        for smaller in referee.shrink_steps(&a, side) {
            assert!(referee.size(&smaller) <= n);
            assert!(referee.require_cases().unwrap().prepare(&spec(), &smaller, None).is_ok());
        }
    }
    // Keep taking the first step: the game's last position, then halves, then one question.
    let mut current = b"game: e2 e4, e7 e5, g1 f3, b8 c6\nask: last position\n".to_vec();
    while GameCase::parse(&current, "g").is_some() {
        current = referee.shrink_steps(&current, Side::White).into_iter().next().expect("a step");
    }
    let (moves, _) = parse_single(&current).expect("a single question");
    assert_eq!(moves.len(), 4);
    assert!(referee.require_cases().unwrap().prepare(&spec(), &current, None).is_ok());
    let fewer = referee.shrink_steps(&current, Side::White);
    assert!(!fewer.is_empty());
    assert!(fewer.iter().all(|c| parse_single(c).is_some_and(|(m, _)| m.len() == 2)));
}

#[test]
fn a_check_after_many_moves_shrinks_to_fewer_moves() {
    let referee = ChessA1Referee::default();
    let case = "# game: c2 c4, d7 d5, d2 d3, d5 c4, b1 d2, a7 a5, g2 g4, a8 a6, b2 b4, a6 b6, d2 c4, e7 e5, d1 d2, b6 b5, d2 c3, h7 h6, c4 b2, b7 b6, c3 c6\n\
        call: check_game_over(('.nbqkbnr', '..p..pp.', '.pQ....p', 'pr..p...', '.P....P.', '...P....', 'PN..PP.P', 'R.B.KBNR'), False)\n";
    assert!(parse_single(case.as_bytes()).is_some());
    let fewer = referee.shrink_steps(case.as_bytes(), Side::Black);
    assert!(!fewer.is_empty());
    assert!(fewer.iter().all(|c| parse_single(c).is_some_and(|(m, _)| m.len() == 17)));
}
