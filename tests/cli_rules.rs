//! The rules commands (`moves`, `apply`, `perft`, `show`) as a user meets them: output formats,
//! exit statuses, and errors for every kind of bad input.

mod common;

use common::{arbiter, arbiter_ok, example_path};
use std::fs;

fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    (dir, path.display().to_string())
}

#[test]
fn moves_json_lists_every_move_with_its_board() {
    let run = arbiter_ok(&["moves", &example_path(7), "--side", "white", "--json"], "");
    let v: serde_json::Value = run.json();
    assert_eq!(v["side"], "white");
    assert_eq!(v["count"], 20);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    let f9 = moves.iter().find(|m| m["notation"] == "Mf1-f9").unwrap();
    let board = f9["board"].as_str().unwrap();
    assert_eq!(board.lines().count(), 9);
    assert_eq!(board.lines().next().unwrap(), "..j..M.c.");
    assert!(!board.ends_with('\n'));
}

#[test]
fn a_dash_reads_the_board_from_standard_input() {
    let text = fs::read_to_string(example_path(4)).unwrap();
    let run = arbiter_ok(&["moves", "-", "--side", "white", "--json"], &text);
    assert!(run.stdout.contains("Zf3xf4"));
}

#[test]
fn every_command_names_file_line_and_column_of_a_bad_character() {
    let (_dir, path) = temp_file(
        "bad.txt",
        "........g\n.........\n...x.....\n.........\n.........\n.........\n.........\n.........\n....G....\n",
    );
    for args in [
        vec!["moves", path.as_str(), "--side", "white"],
        vec!["apply", path.as_str(), "--side", "white", "Ge1-e2"],
        vec!["perft", path.as_str(), "--side", "white", "--depth", "1"],
        vec!["show", path.as_str(), "--side", "white"],
    ] {
        let run = arbiter(&args, "");
        assert_eq!(run.status, 2, "{args:?}");
        assert!(run.stderr.contains(&format!("{path}:3:4: expected one of")), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("found `x`"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn wrong_line_count_and_length_are_reported_where_they_happen() {
    let (_d1, short) = temp_file("short.txt", "........g\n.........\n.........\n....G....\n");
    let run = arbiter(&["moves", &short, "--side", "white"], "");
    run.assert_refused(":5:1: expected 9 lines, found 4");

    let (_d2, long) = temp_file(
        "long.txt",
        "........g\n..........\n.........\n.........\n.........\n.........\n.........\n.........\n....G....\n",
    );
    let run = arbiter(&["moves", &long, "--side", "white"], "");
    run.assert_refused(":2:10: expected the line to end after 9 characters");
}

#[test]
fn a_missing_file_and_a_bad_side_are_input_errors() {
    let run = arbiter(&["moves", "/nonexistent/board.txt", "--side", "white"], "");
    run.assert_refused("cannot read board file /nonexistent/board.txt");
    let run = arbiter(&["moves", &example_path(4), "--side", "red"], "");
    run.assert_refused("expected `white` or `black`");
}

#[test]
fn invalid_positions_are_refused_with_a_reason_unless_allowed() {
    // The grade-4 example with black to move: white (not to move) is in danger.
    let run = arbiter(&["moves", &example_path(4), "--side", "black"], "");
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("white is not to move, yet its General on i1 is in danger from the Dragon on f4"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--allow-invalid"));
    let run = arbiter_ok(&["moves", &example_path(4), "--side", "black", "--allow-invalid", "--json"], "");
    let v: serde_json::Value = run.json();
    assert!(v["count"].as_u64().unwrap() > 0);
}

#[test]
fn apply_prints_the_board_or_says_why_not() {
    let run = arbiter_ok(&["apply", &example_path(4), "--side", "white", "Zf3xf4"], "");
    assert_eq!(
        run.stdout,
        "........g\n.........\n.........\n.........\n.........\n.....Z...\n.........\n........#\n.......#G\n"
    );

    let run = arbiter(&["apply", &example_path(4), "--side", "white", "Gi1-h2"], "");
    assert_eq!(run.status, 1);
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("Gi1-h2 is not a legal move for white: the General on h2 would still be in danger from the Dragon on f4"), "{}", run.stderr);

    let run = arbiter(&["apply", &example_path(4), "--side", "white", "Zf3xf5"], "");
    assert_eq!(run.status, 1);
    assert!(
        run.stderr.contains("the way from f3 to f5 is blocked by the black Dragon on f4"),
        "{}",
        run.stderr
    );

    let run = arbiter(&["apply", &example_path(4), "--side", "white", "Zf3-f4x"], "");
    run.assert_refused("not a move in notation");
}

#[test]
fn perft_divide_adds_up_to_the_total() {
    let initial =
        "mjdsgscjm\nbzzzzzzzb\n.........\n.........\n.........\n.........\n.........\nBZZZZZZZB\nMJCSGSDJM\n";
    let run = arbiter_ok(&["perft", "-", "--side", "white", "--depth", "2", "--divide", "--json"], initial);
    let v: serde_json::Value = run.json();
    assert_eq!(v["nodes"], 1849);
    let divide = v["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 43);
    assert_eq!(divide.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 1849);
    let run = arbiter(&["perft", "-", "--side", "white", "--depth", "3"], initial);
    assert_eq!(run.stdout.trim(), "80482");
}

#[test]
fn show_draws_labels_material_and_danger() {
    let run = arbiter_ok(&["show", &example_path(4), "--side", "white"], "");
    assert!(run.stdout.starts_with("    a b c d e f g h i\n 9  . . . . . . . . g  9\n"), "{}", run.stdout);
    assert!(run.stdout.contains("white General on i1: in danger from the Dragon on f4"), "{}", run.stdout);
    assert!(run.stdout.contains("black General: not in danger"));
    assert!(run.stdout.contains("white to move, 1 legal move\n"), "{}", run.stdout);
}
