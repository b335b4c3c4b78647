//! `expect` and `check` as a grader or student meets them.

mod common;

use common::{arbiter, arbiter_ok, example_path};
use serde_json::Value;
use std::fs;

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

fn notations(v: &Value) -> Vec<String> {
    let mut list: Vec<String> =
        v.as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap().to_string()).collect();
    list.sort();
    list
}

/// Writes `text` to a file in a fresh temporary folder.
fn write(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    fs::write(&path, text).unwrap();
    (dir, path.display().to_string())
}

/// The board after `mv` on the grade-`grade` example, as `apply` prints it.
fn after(grade: u8, mv: &str) -> String {
    let run = arbiter_ok(&["apply", &example_path(grade), "--side", "white", mv], "");
    run.stdout
}

fn check(grade: u8, output: &str, extra: &[&str]) -> (i32, Value) {
    let (_dir, out) = write(output);
    let input = example_path(grade);
    let mut args = vec!["check", input.as_str(), out.as_str(), "--side", "white", "--json"];
    args.extend_from_slice(extra);
    let run = arbiter(&args, "");
    (run.status, json(&run.stdout))
}

#[test]
fn expect_json_gives_every_grade_values_and_sensitivity() {
    let run = arbiter_ok(&["expect", &example_path(7), "--side", "white", "--json"], "");
    let v = json(&run.stdout);
    assert_eq!(v["legal"].as_array().unwrap().len(), 20);
    assert!(v["winning"].as_array().unwrap().is_empty());
    assert_eq!(notations(&v["grades"]["7"]), vec!["Mf1-f9"]);
    assert_eq!(v["grades"]["6"].as_array().unwrap().len(), 20);
    assert_eq!(v["grade7_values"]["Mf1-f9"], -4.0);
    assert_eq!(v["grade7_values"]["Mf1-f8"], -11.0);
    assert_eq!(v["sensitive"], false);
    let board = v["grades"]["7"][0]["board"].as_str().unwrap();
    assert_eq!(board.lines().next().unwrap(), "..j..M.c.");
}

#[test]
fn expect_explains_grade7_in_words() {
    let run = arbiter_ok(&["expect", &example_path(7), "--side", "white"], "");
    assert!(run.stdout.contains("20 moves tie at grade 6"), "{}", run.stdout);
    assert!(run.stdout.contains("Mf1-f9        -4"), "{}", run.stdout);
    assert!(run.stdout.contains("not interpretation-sensitive"));
    let why = arbiter(&["expect", &example_path(7), "--side", "white", "--why", "Mf1-f8"], "");
    assert!(why.stdout.contains("Ge7xf8   -> Gb3-b2 leaves advantage -11"), "{}", why.stdout);
    assert!(
        why.stdout.contains("not the grade-7 answer under min: Mf1-f9 is worth -4, this move -11"),
        "{}",
        why.stdout
    );
    let sensitive = arbiter(&["expect", &example_path(7), "--side", "black"], "");
    assert!(sensitive.stdout.contains("INTERPRETATION-SENSITIVE"), "{}", sensitive.stdout);
}

#[test]
fn check_accepts_the_right_answer_with_any_line_ends() {
    let board = after(6, "Ma1xa7");
    let (status, v) = check(6, &board, &["--grade", "6"]);
    assert_eq!(status, 0);
    assert_eq!(
        (v["legal"].as_bool(), v["move"].as_str(), v["verdict"].as_str()),
        (Some(true), Some("Ma1xa7"), Some("pass"))
    );
    assert_eq!(v["grades"], serde_json::json!([4, 5, 6, 7]));
    let crlf_no_final = board.trim_end().replace('\n', "\r\n");
    assert_eq!(check(6, &crlf_no_final, &["--grade", "6"]).0, 0);
    let (status, v) = check(6, &crlf_no_final, &["--grade", "6", "--strict"]);
    assert_eq!(status, 1);
    assert_eq!(v["verdict"], "malformed-output");
    assert_eq!((v["line"].as_u64(), v["column"].as_u64()), (Some(1), Some(10)));
}

#[test]
fn check_calls_a_legal_but_wrong_move_a_wrong_move_and_shows_what_was_expected() {
    let (status, v) = check(6, &after(6, "Ma1-a2"), &["--grade", "6"]);
    assert_eq!(status, 1);
    assert_eq!(v["verdict"], "wrong-move");
    assert_eq!(v["legal"], true);
    assert_eq!(v["move"], "Ma1-a2");
    assert_eq!(v["grades"], serde_json::json!([4, 5]));
    assert_eq!(v["expected"], serde_json::json!(["Ma1xa7"]));
    assert!(v["diff"].as_str().unwrap().contains("-7 M.z.g.zs.\n+7 m.z.g.zs."), "{}", v["diff"]);
    // Without --grade, any legal move passes.
    assert_eq!(check(6, &after(6, "Ma1-a2"), &[]).0, 0);
}

#[test]
fn check_names_the_rule_an_illegal_move_breaks() {
    // The General steps from i1 to h2, still on the Dragon's diagonal.
    let board =
        "........g\n.........\n.........\n.........\n.........\n.....d...\n.....Z...\n.......G#\n.......#.\n";
    let (status, v) = check(4, board, &[]);
    assert_eq!(status, 1);
    assert_eq!(v["verdict"], "illegal-move");
    assert_eq!(v["legal"], false);
    assert_eq!(v["move"], Value::Null);
    assert_eq!(v["attempt"], "Gi1-h2");
    assert_eq!(v["rule"], "general-in-danger");
    assert_eq!(
        v["reason"],
        "Gi1-h2 is not legal: the General on h2 would still be in danger from the Dragon on f4"
    );
    assert_eq!(v["closest"][0]["notation"], "Zf3xf4");
}

#[test]
fn check_names_a_sentinels_protection() {
    // Grade-6 example: the black Zombie on h6 stands next to the black Sentinel on h7, so the
    // white Zombie on i5 may not take it.
    let input = fs::read_to_string(example_path(6)).unwrap();
    let output = input.replacen("......#z#", "......#Z#", 1).replacen(".....Z#.Z", ".....Z#..", 1);
    let (status, v) = check(6, &output, &[]);
    assert_eq!(status, 1);
    assert_eq!(v["attempt"], "Zi5xh6");
    assert_eq!(v["rule"], "protected-by-sentinel");
    assert_eq!(
        v["reason"],
        "Zi5xh6 is not legal: the black Zombie on h6 is protected by the Sentinel on h7, so it cannot be captured"
    );
}

#[test]
fn check_reports_unchanged_unreachable_and_malformed_outputs() {
    let input = fs::read_to_string(example_path(4)).unwrap();
    let (status, v) = check(4, &input, &[]);
    assert_eq!((status, v["verdict"].as_str()), (1, Some("unchanged")));

    let two_moves = input.replace(".....d...", ".........").replace("........g", ".......g.");
    let (status, v) = check(4, &two_moves, &[]);
    assert_eq!(
        (status, v["verdict"].as_str(), v["rule"].as_str()),
        (1, Some("illegal-move"), Some("unreachable"))
    );
    assert_eq!(v["changes"].as_array().unwrap().len(), 3);

    let (status, v) = check(4, "........g\n....\n", &[]);
    assert_eq!((status, v["verdict"].as_str()), (1, Some("malformed-output")));
    assert_eq!((v["line"].as_u64(), v["column"].as_u64()), (Some(2), Some(5)));
}

#[test]
fn check_refuses_a_malformed_input_board() {
    let (_dir, bad) = write("nonsense");
    let run = arbiter(&["check", &bad, &bad, "--side", "white"], "");
    run.assert_refused(":1:1:");
}

#[test]
fn expect_says_when_the_side_to_move_has_lost() {
    let stuck =
        "....g....\n.........\n.........\n.........\n.........\n.........\n.........\n##.......\nG#.......\n";
    let run = arbiter_ok(&["expect", "-", "--side", "white"], stuck);
    assert!(run.stdout.contains("white has no legal move, so it has lost"), "{}", run.stdout);
    let v = json(&arbiter(&["expect", "-", "--side", "white", "--json"], stuck).stdout);
    assert!(v["legal"].as_array().unwrap().is_empty());
    assert!(v["grades"]["7"].as_array().unwrap().is_empty());
}

/// `expect` reads the case files of every game that has cases, as `verify` does: Network's
/// (position, `game:`, `offer:`) and chess-a1's (a call, or `main()` with its script).
#[test]
fn expect_explains_network_and_chess_a1_case_files() {
    let run = arbiter_ok(&["--game", "network", "expect", "corpus/network/reject/white/001-corner.txt"], "");
    assert!(run.stdout.contains("to forceMove, which must refuse it (return false)"), "{}", run.stdout);
    let run =
        arbiter_ok(&["--game", "network", "expect", "corpus/network/accept/white/001.txt", "--json"], "");
    assert_eq!(json(&run.stdout)["offer"]["legal"], Value::Bool(true), "{}", run.stdout);
    let run = arbiter_ok(&["--game", "network", "expect", "corpus/network/legal/white/018.txt"], "");
    assert!(run.stdout.contains("legal: "), "{}", run.stdout);

    let run = arbiter_ok(
        &["--game", "chess-a1", "expect", "corpus/chess-a1/interaction/white/039.txt", "--json"],
        "",
    );
    let v = json(&run.stdout);
    assert_eq!(v["returns"], "((7, 7), (3, 1))", "{v}");
    assert!(v["why"].as_str().unwrap().contains("h1 b5"), "{v}");
    let run = arbiter_ok(&["--game", "chess-a1", "expect", "corpus/chess-a1/main/white/001.txt"], "");
    assert!(run.stdout.starts_with("main() with inputs `f2 f3`"), "{}", run.stdout);
    assert!(run.stdout.trim_end().ends_with("| Checkmate"), "{}", run.stdout);
}
