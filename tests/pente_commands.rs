//! The position commands (`moves`, `apply`, `perft`, `show`, `expect`) for Pente, through the
//! game's analyst, and the `--rule` option that picks Pente's opening rule.

mod common;

use std::fs;
use std::path::PathBuf;

use common::{arbiter, arbiter_ok};
use serde_json::Value;

/// input.txt with `color` to move, nothing captured, and the given stones (`(row, column)`).
fn input_file(name: &str, color: &str, stones: &[(usize, char, char)]) -> PathBuf {
    let mut lines = vec![vec!['.'; 19]; 19];
    for &(row, column, stone) in stones {
        let c = "ABCDEFGHJKLMNOPQRST".find(column).unwrap();
        lines[19 - row][c] = stone;
    }
    let mut text = format!("{color}\n300\n0,0\n");
    for line in lines {
        text.extend(line);
        text.push('\n');
    }
    let dir = std::env::temp_dir().join(format!("arbiter-pente-commands-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

fn json(args: &[&str]) -> Value {
    let run = arbiter_ok(args, "");
    run.json()
}

/// The counts an independent implementation (written from the assignment alone, outside this
/// repository) gives for the empty board: White must take the centre, then Black may play
/// anywhere, then White's second stone is restricted by the opening rule.
#[test]
fn perft_of_the_empty_board_under_both_opening_rules() {
    let empty = input_file("empty.txt", "WHITE", &[]);
    let path = empty.to_str().unwrap();
    let nodes = |rule: &str, depth: &str| {
        json(&["--game", "pente", "--rule", rule, "perft", path, "-d", depth, "--json"])["nodes"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(nodes("opening=seed", "1"), 1);
    assert_eq!(nodes("opening=seed", "2"), 360);
    assert_eq!(nodes("opening=seed", "3"), 17232);
    assert_eq!(nodes("opening=tournament", "3"), 120624);
    let divided = json(&["--game", "pente", "perft", path, "-d", "2", "--divide", "--json"]);
    assert_eq!(divided["divide"]["10K"], 360, "the only first move is the centre");
}

#[test]
fn perft_deeper_than_pente_allows_is_refused() {
    let empty = input_file("empty-deep.txt", "WHITE", &[]);
    let run = arbiter(&["--game", "pente", "perft", empty.to_str().unwrap(), "-d", "4"], "");
    run.assert_refused("pente allows 0 to 3");
}

/// Every bundled case: `expect --json` gives the same set for the case's category as its
/// golden file. (A case's category is the folder's: a `legal` case may hold a threat, since it
/// asks only for a legal move.)
#[test]
fn expect_agrees_with_the_golden_answers_of_the_bundled_cases() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(root.join("corpus/pente")).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let relative = path.strip_prefix(root.join("corpus/pente")).unwrap();
        let category = relative.iter().next().unwrap().to_str().unwrap();
        let golden: Value = serde_json::from_str(
            &fs::read_to_string(root.join("golden/pente").join(relative).with_extension("json")).unwrap(),
        )
        .unwrap();
        let report = json(&["--game", "pente", "expect", path.to_str().unwrap(), "--json"]);
        assert_eq!(report["sets"][category], golden["expected"], "{}", path.display());
        assert_eq!(report["legal"].as_array().unwrap().len() as u64, golden["legal"], "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 70, "only {seen} cases found");
}

#[test]
fn expect_explains_the_block_and_names_the_threat() {
    // Black has four in a row on row 5 (C..F), open at G; B5 is White's. White must block at G5.
    let file = input_file(
        "block.txt",
        "WHITE",
        &[
            (10, 'K', 'w'),
            (5, 'B', 'w'),
            (12, 'A', 'w'),
            (1, 'T', 'w'),
            (5, 'C', 'b'),
            (5, 'D', 'b'),
            (5, 'E', 'b'),
            (5, 'F', 'b'),
        ],
    );
    let path = file.to_str().unwrap();
    let run = arbiter_ok(&["--game", "pente", "expect", path, "--category", "block"], "");
    assert!(run.stdout.contains("Black threatens to win at 5G"), "{}", run.stdout);
    assert!(run.stdout.contains("expected for block: 5G"), "{}", run.stdout);
    let why = arbiter(&["--game", "pente", "expect", path, "--why", "9A"], "");
    assert!(why.stdout.contains("after it Black still wins"), "{}", why.stdout);
    let show = arbiter(&["--game", "pente", "show", path], "");
    assert!(show.stdout.contains("Black threatens to win at 5G"), "{}", show.stdout);
    assert!(show.stdout.contains("White to move, 300 seconds left"), "{}", show.stdout);
}

#[test]
fn apply_plays_a_capture_and_refuses_an_occupied_point() {
    // White on 10K (the centre), Black on 10L and 10M; White at 10N captures them.
    let file = input_file(
        "capture.txt",
        "WHITE",
        &[(10, 'K', 'w'), (10, 'L', 'b'), (10, 'M', 'b'), (3, 'C', 'w'), (4, 'D', 'b'), (17, 'S', 'w')],
    );
    let path = file.to_str().unwrap();
    let run = arbiter_ok(&["--game", "pente", "apply", path, "10N"], "");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "BLACK", "the other player moves next");
    assert_eq!(lines[2], "2,0", "White has captured two pieces");
    assert_eq!(lines[3 + 19 - 10], ".........w..w......", "10L and 10M are gone, 10N holds White's stone");

    let taken = arbiter(&["--game", "pente", "apply", path, "10L"], "");
    assert_eq!(taken.status, 1);
    assert!(taken.stderr.contains("10L is not a legal move: it holds a black stone"), "{}", taken.stderr);
    let nonsense = arbiter(&["--game", "pente", "apply", path, "10I"], "");
    assert_eq!(nonsense.status, 2, "a move that cannot be read is bad input: {}", nonsense.stderr);
}

#[test]
fn moves_lists_every_legal_point_with_the_file_after_it() {
    let file = input_file("second.txt", "WHITE", &[(10, 'K', 'w'), (11, 'K', 'b')]);
    let path = file.to_str().unwrap();
    let seed = json(&["--game", "pente", "moves", path, "--json"]);
    let tournament = json(&["--game", "pente", "--rule", "opening=tournament", "moves", path, "--json"]);
    // Within distance 3 of the centre: a 7x7 square less the two stones; at least 3 away: the
    // rest of the board less the 5x5 square around the centre.
    assert_eq!(seed["count"], 47);
    assert_eq!(tournament["count"], 361 - 25);
    let first = &seed["moves"][0];
    assert!(first["board"].as_str().unwrap().starts_with("BLACK\n300"), "{first}");
}

#[test]
fn a_side_that_disagrees_with_the_file_and_advance_options_are_refused() {
    let file = input_file("side.txt", "WHITE", &[]);
    let path = file.to_str().unwrap();
    let run = arbiter(&["--game", "pente", "moves", path, "--side", "black"], "");
    run.assert_refused("the file gives white to move, but --side says black");
    let agg = arbiter(&["--game", "pente", "expect", path, "--agg", "max"], "");
    assert_eq!(agg.status, 2);
    assert!(agg.stderr.contains("--agg is Advance's"), "{}", agg.stderr);
    let rule = arbiter(&["--rule", "opening=tournament", "show", path, "--side", "white"], "");
    assert_eq!(rule.status, 2);
    assert!(rule.stderr.contains("Advance has no rule options"), "{}", rule.stderr);
    let key = arbiter(&["--game", "pente", "--rule", "board=13", "show", path], "");
    assert_eq!(key.status, 2);
    assert!(key.stderr.contains("Pente has one rule option, `opening`"), "{}", key.stderr);
}

#[test]
fn advance_boards_still_need_a_side() {
    let board = format!("{}/corpus/examples/grade4/white/worked-example.txt", env!("CARGO_MANIFEST_DIR"));
    let run = arbiter(&["moves", &board], "");
    run.assert_refused("--side white|black is required");
}

/// `golden --check` (and `--update`) refuse a case that is not what its folder's category
/// claims: a lost position (every move "right"), a `win` position filed as `capture`, and a
/// golden answer outside the category's set.
#[test]
fn golden_check_refuses_lost_positions_and_cases_of_another_category() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("cases");
    let gold = dir.path().join("gold");
    let put = |category: &str, name: &str, file: PathBuf| {
        let to = corpus.join(category).join("white").join(name);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(file, to).unwrap();
    };
    // Black's open four on row 5 (C..F): White cannot stop both ends, the game is lost.
    let lost = [(10, 'K', 'w'), (1, 'A', 'w'), (1, 'T', 'w'), (19, 'A', 'w')];
    let lost_black = [(5, 'C', 'b'), (5, 'D', 'b'), (5, 'E', 'b'), (5, 'F', 'b')];
    put("legal", "lost.txt", input_file("lost.txt", "WHITE", &[&lost[..], &lost_black[..]].concat()));
    // White's open four on row 10: White wins at 10J or 10O.
    let four = [(10, 'K', 'w'), (10, 'L', 'w'), (10, 'M', 'w'), (10, 'N', 'w')];
    let scattered = [(1, 'A', 'b'), (1, 'C', 'b'), (19, 'A', 'b'), (19, 'C', 'b')];
    let win = input_file("win.txt", "WHITE", &[&four[..], &scattered[..]].concat());
    put("capture", "win.txt", win.clone());
    put("win", "ok.txt", win);

    let args = |mode: &'static str| {
        vec![
            "--game".to_string(),
            "pente".to_string(),
            "golden".to_string(),
            mode.to_string(),
            "--golden-dir".to_string(),
            gold.display().to_string(),
            corpus.display().to_string(),
        ]
    };
    let run_with = |mode| {
        let owned = args(mode);
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        arbiter(&refs, "")
    };
    let run = run_with("--update");
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(gold.join("win/white/ok.json").exists(), "the golden files are written all the same");
    let run = run_with("--check");
    assert_eq!(run.status, 1, "{}", run.stdout);
    let out = &run.stdout;
    assert!(out.contains("lost.txt: a lost position: Black threatens 5B 5G"), "{out}");
    assert!(out.contains("win.txt: a `win` position in a `capture` folder: 10J completes five"), "{out}");
    assert!(!out.contains("ok.txt"), "{out}");
    assert!(out.contains("2 case(s) are not what their category claims"), "{out}");

    // A golden answer outside the win set is named as such (besides differing from the oracle).
    let golden = gold.join("win/white/ok.json");
    let text = fs::read_to_string(&golden).unwrap().replace("\"10J\"", "\"1T\"");
    fs::write(&golden, text).unwrap();
    let run = run_with("--check");
    assert!(
        run.stdout.contains("ok.txt: the golden answer holds 1T outside the `win` set"),
        "{}",
        run.stdout
    );
}
