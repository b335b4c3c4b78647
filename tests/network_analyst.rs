//! The position commands for Network (`moves`, `apply`, `perft`, `show`, `expect`) through the
//! harness's `Analyst` trait, as the command line will call them.

use arbiter::games::network::{DoubleNetwork, NetworkAnalyst, Rules};
use arbiter::harness::analyst::{Analyst, ExpectRequest, PositionInput};
use arbiter::side::Side;

/// Black threatens `add 17` and `add 57`; White to move (see tests/network_rules.rs).
const THREATENED: &str =
    "#.....b#\nw.......\n.......w\nw..b....\n.......w\nw..b.bb.\n........\n#......#\nwhite\n";

fn input(bytes: &[u8]) -> PositionInput<'_> {
    PositionInput { bytes, origin: "pos.txt", side: None, allow_invalid: false }
}

#[test]
fn moves_lists_every_legal_move_with_the_board_after_it() {
    let analyst = NetworkAnalyst::default();
    let (side, lines) = analyst.moves(&input(THREATENED.as_bytes())).unwrap();
    assert_eq!(side, Side::White);
    // 02 and 04 would join White's 01 03 05 into groups of three: 06 comes first.
    assert_eq!(lines.first().unwrap().notation, "add 06");
    let after = &lines.iter().find(|l| l.notation == "add 34").unwrap().board;
    assert!(after.lines().nth(4).unwrap().starts_with("...w"), "{after}");
    assert!(after.ends_with("black\n"));
}

#[test]
fn apply_gives_the_board_or_the_broken_rule() {
    let analyst = NetworkAnalyst::default();
    let ok = analyst.apply(&input(THREATENED.as_bytes()), "add 34").unwrap().unwrap();
    assert!(ok.ends_with("black\n"));
    let refused = analyst.apply(&input(THREATENED.as_bytes()), "add 30").unwrap().unwrap_err();
    assert_eq!(refused, "add 30 is not a legal move (opponent-goal): 30 is in Black's goal area");
    let refused = analyst.apply(&input(THREATENED.as_bytes()), "step 34 01").unwrap().unwrap_err();
    assert!(refused.contains("(must-add)"), "{refused}");
    let bad = analyst.apply(&input(THREATENED.as_bytes()), "add 3x").unwrap_err().to_string();
    assert!(bad.starts_with("the move:1:5: expected a row digit 0..7, found `x`"), "{bad}");
}

#[test]
fn expect_names_the_threat_and_the_blocks() {
    let analyst = NetworkAnalyst::default();
    let text = analyst.expect(&input(THREATENED.as_bytes()), &ExpectRequest::default()).unwrap();
    assert!(text.contains("the position's category: block"), "{text}");
    assert!(text.contains("block: add 34, add 44, add 61, add 62, add 64"), "{text}");
    assert!(text.contains("Black threatens to win with add 17, add 57"), "{text}");
    let json: serde_json::Value = serde_json::from_str(
        &analyst
            .expect(&input(THREATENED.as_bytes()), &ExpectRequest { json: true, ..Default::default() })
            .unwrap(),
    )
    .unwrap();
    assert_eq!(json["category"], "block");
    assert_eq!(json["threats"], serde_json::json!(["add 17", "add 57"]));
    assert_eq!(json["networks"]["black"], serde_json::Value::Null);
    assert_eq!(json["rules"]["double"], "opponent");
    let why = analyst
        .expect(
            &input(THREATENED.as_bytes()),
            &ExpectRequest { why: Some("add 46".into()), ..Default::default() },
        )
        .unwrap();
    assert!(why.contains("after it add 17 completes a network for Black"), "{why}");
}

#[test]
fn show_draws_the_board_with_coordinates_and_marks_networks() {
    // Black's network 60 65 55 33 35 57 is complete: capitals mark it.
    let done = THREATENED.replace("#......#\nwhite", "#....b.#\nwhite").replace(
        "w.......\n.......w\nw..b....\n.......w\nw..b.bb.\n........",
        "w.......\n.......w\nw..b....\n.......w\nw..b.bb.\nw.......",
    );
    let analyst = NetworkAnalyst::default();
    let shown = analyst.show(&PositionInput { allow_invalid: true, ..input(done.as_bytes()) }).unwrap();
    assert!(shown.starts_with("     0 1 2 3 4 5 6 7\n  0  # . . . . . B #  0\n"), "{shown}");
    assert!(shown.contains("  7  # . . . . B . #  7"), "{shown}");
    assert!(shown.contains("the game is over: Black has a network: 60 65 55 33 35 57"), "{shown}");
}

#[test]
fn perft_and_divide_count_sequences() {
    let analyst = NetworkAnalyst::default();
    let start = "#......#\n........\n........\n........\n........\n........\n........\n#......#\nwhite\n";
    assert_eq!(analyst.perft(&input(start.as_bytes()), 2).unwrap(), 2268);
    let divided = analyst.perft_divide(&input(start.as_bytes()), 2).unwrap();
    assert_eq!(divided.len(), 48);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 2268);
}

#[test]
fn files_that_no_game_reaches_are_refused_unless_asked() {
    let analyst = NetworkAnalyst::default();
    // White to move with one chip more than Black.
    let odd = "#......#\n.w......\n........\n........\n........\n........\n........\n#......#\nwhite\n";
    let e = analyst.show(&input(odd.as_bytes())).unwrap_err().to_string();
    assert!(e.contains("not a position a game can reach"), "{e}");
    assert!(analyst.show(&PositionInput { allow_invalid: true, ..input(odd.as_bytes()) }).is_ok());
    // Eleven chips are refused even then.
    let eleven = "#bbbbbb#\n........\n........\n........\n........\n........\n........\n#bbbbb.#\nwhite\n";
    let e = analyst
        .show(&PositionInput { allow_invalid: true, ..input(eleven.as_bytes()) })
        .unwrap_err()
        .to_string();
    assert!(e.contains("Black has 11 chips"), "{e}");
    // --side must agree with the file.
    let e = analyst
        .moves(&PositionInput { side: Some(Side::Black), ..input(THREATENED.as_bytes()) })
        .unwrap_err();
    assert!(e.to_string().contains("--side says black"));
    // A file error names the file, line and column.
    let e = analyst.moves(&input(b"#......#\n...z....\n")).unwrap_err().to_string();
    assert!(e.starts_with("pos.txt:2:4: expected `.`, `b` or `w` for square 31, found `z`"), "{e}");
}

#[test]
fn rule_options_change_the_answers() {
    // The double-network step of tests/network_rules.rs: a loss by the text, a win by the
    // referee's reading.
    let stepping = "#.b..bb#\n...w..w.\n.....w..\n..bb....\n...w.w..\n...b.bbw\nw.w.w.w.\n#b...b.#\nwhite\n";
    let text = NetworkAnalyst::default();
    let referee = NetworkAnalyst { rules: Rules { double: DoubleNetwork::Mover, ..Rules::default() } };
    let json = |a: &NetworkAnalyst| -> serde_json::Value {
        serde_json::from_str(
            &a.expect(&input(stepping.as_bytes()), &ExpectRequest { json: true, ..Default::default() })
                .unwrap(),
        )
        .unwrap()
    };
    assert!(json(&text)["losing"].as_array().unwrap().contains(&serde_json::json!("step 04 34")));
    assert!(json(&referee)["win"].as_array().unwrap().contains(&serde_json::json!("step 04 34")));
}

#[test]
fn apply_says_who_won_when_the_move_ends_the_game() {
    let analyst = NetworkAnalyst::default();
    assert_eq!(analyst.winner_after(&input(THREATENED.as_bytes()), "add 34").unwrap(), None);
    // An illegal move names no winner.
    assert_eq!(analyst.winner_after(&input(THREATENED.as_bytes()), "add 30").unwrap(), None);
    // corpus/network/win/black/003.txt: `step 44 64` completes black's network.
    let won = "#....b.#\n..ww.w..\n...b.w..\nwb.w....\n...w.bb.\n..b.....\n...wwbbw\n#bb....#\nblack\n";
    assert_eq!(
        analyst.winner_after(&input(won.as_bytes()), "step 44 64").unwrap().as_deref(),
        Some("black wins")
    );
    assert_eq!(analyst.winner_after(&input(won.as_bytes()), "step 10 13").unwrap(), None);
}
