//! `arbiter match` and `arbiter replay`, with built-in bots and scripted misbehaving ones.

mod common;

use std::fs;

use common::{arbiter, arbiter_ok, sh_bot};
use serde_json::Value;

fn play(args: &[&str]) -> Value {
    let mut all = vec!["match", "--json", "-q"];
    all.extend_from_slice(args);
    let run = arbiter_ok(&all, "");
    run.json()
}

/// A shell-script bot in `dir`; returns the command.
#[test]
fn a_match_alternates_colours_and_counts_results() {
    let m = play(&["--bot", "builtin:grade7", "--bot", "builtin:random", "--games", "4", "--seed", "5"]);
    let games = m["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for (i, g) in games.iter().enumerate() {
        let a_white = i % 2 == 0;
        assert_eq!(g["white"], if a_white { "builtin:grade7" } else { "builtin:random" });
        assert_eq!(g["black"], if a_white { "builtin:random" } else { "builtin:grade7" });
        assert!(["white", "black", "draw"].contains(&g["result"].as_str().unwrap()));
        assert!(!g["moves"].as_array().unwrap().is_empty());
    }
    let total = m["a_wins"].as_u64().unwrap() + m["b_wins"].as_u64().unwrap() + m["draws"].as_u64().unwrap();
    assert_eq!(total, 4);
    let ci = m["a_win_rate_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= m["a_win_rate"].as_f64().unwrap());
    assert!(m["a_win_rate"].as_f64().unwrap() <= ci[1].as_f64().unwrap());
    // A move-limit game is decided by material.
    for g in games.iter().filter(|g| g["ending"] == "move-limit") {
        assert_eq!(g["moves"].as_array().unwrap().len(), 200);
        let (w, b) = (g["material"][0].as_i64().unwrap(), g["material"][1].as_i64().unwrap());
        let expected = if w > b {
            "white"
        } else if b > w {
            "black"
        } else {
            "draw"
        };
        assert_eq!(g["result"], expected);
    }
}

#[test]
fn results_do_not_depend_on_the_job_count() {
    let args = ["--bot", "builtin:grade6", "--bot", "builtin:random", "--games", "4", "--seed", "8"];
    let one = play(&[&args[..], &["--jobs", "1"]].concat());
    let two = play(&[&args[..], &["--jobs", "3"]].concat());
    // Everything but the measured times.
    let played = |m: &Value| {
        let mut games = m["games"].clone();
        for g in games.as_array_mut().unwrap() {
            assert!(g.as_object_mut().unwrap().remove("times").is_some(), "{g}");
        }
        games
    };
    assert_eq!(played(&one), played(&two));
}

#[test]
fn misbehaving_bots_lose_and_the_record_says_how() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Each bot misbehaves on its first turn; it plays white in game 1.
    let illegal = sh_bot(d, "illegal.sh", "sed '8s/^BZ/B./; 6s/^\\./Z/' \"$2\" > \"$3\"");
    let cases = [
        (sh_bot(d, "crash.sh", "echo boom >&2; exit 3"), "crash"),
        (sh_bot(d, "garbage.sh", "echo garbage > \"$3\""), "malformed-output"),
        (sh_bot(d, "unchanged.sh", "cp \"$2\" \"$3\""), "unchanged"),
        (sh_bot(d, "silent.sh", "exit 0"), "no-output"),
        (sh_bot(d, "hang.sh", "sleep 30"), "timeout"),
        (illegal, "illegal-move"),
    ];
    for (command, ending) in cases {
        let m = play(&["--bot", &command, "--bot", "builtin:random", "--games", "1", "--timeout", "0.3"]);
        let g = &m["games"][0];
        assert_eq!(g["ending"], ending, "{command}: {}", g["detail"]);
        assert_eq!(g["result"], "black", "{command}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 0);
        assert_eq!(g["final_board"], g["start_board"], "the record shows the position the bot faced");
        assert_eq!(m["b_wins"], 1);
    }
    let m = play(&[
        "--bot",
        &sh_bot(d, "illegal.sh", "sed '8s/^BZ/B./; 6s/^\\./Z/' \"$2\" > \"$3\""),
        "--bot",
        "builtin:random",
        "--games",
        "1",
    ]);
    let g = &m["games"][0];
    assert!(
        g["detail"].as_str().unwrap().contains("Zb2-a4 is not legal: the Zombie on b2 cannot move to a4"),
        "{}",
        g["detail"]
    );
    assert!(
        g["forfeit_output"].as_str().unwrap().contains(".........\nZ........"),
        "{}",
        g["forfeit_output"]
    );
}

#[test]
fn records_replay_and_a_tampered_record_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("games");
    let garbage = sh_bot(dir.path(), "garbage.sh", "echo garbage > \"$3\"");
    arbiter_ok(
        &[
            "match",
            "--bot",
            "builtin:grade6",
            "--bot",
            "builtin:random",
            "--games",
            "2",
            "--records",
            &records.display().to_string(),
            "-q",
        ],
        "",
    );
    arbiter_ok(
        &[
            "match",
            "--bot",
            "builtin:random",
            "--bot",
            &garbage,
            "--games",
            "2",
            "--records",
            &dir.path().join("forfeits").display().to_string(),
            "-q",
        ],
        "",
    );

    let replay = arbiter_ok(
        &["replay", &records.display().to_string(), &dir.path().join("forfeits").display().to_string()],
        "",
    );
    assert!(replay.stdout.contains("4 of 4 game(s) replayed and confirmed"), "{}", replay.stdout);
    assert!(replay.stdout.contains("output is again judged malformed-output"), "{}", replay.stdout);

    // A record without its `final board:` section (written by hand, or cut short) still
    // replays: the moves and the result are checked, with no board to compare.
    let whole = fs::read_to_string(records.join("game-002.txt")).unwrap();
    let (head, tail) = whole.split_once("final board:\n").unwrap();
    let rest =
        ["times:", "forfeit output:"].iter().filter_map(|s| tail.find(s)).min().map_or("", |k| &tail[k..]);
    let cut = dir.path().join("cut.txt");
    fs::write(&cut, format!("{head}{rest}")).unwrap();
    let replay = arbiter_ok(&["replay", &cut.display().to_string()], "");
    assert!(replay.stdout.contains("1 of 1 game(s) replayed and confirmed"), "{}", replay.stdout);

    // Change the first move to one that is not legal: replay names it.
    let first = records.join("game-001.txt");
    let text = fs::read_to_string(&first).unwrap();
    let moves_at = text.find("moves:\n").unwrap() + "moves:\n".len();
    let line_end = moves_at + text[moves_at..].find('\n').unwrap();
    let tampered = format!("{}Zb2-b5{}", &text[..moves_at], &text[line_end..]);
    fs::write(&first, tampered).unwrap();
    let replay = arbiter(&["replay", &first.display().to_string()], "");
    assert_eq!(replay.status, 1);
    assert!(
        replay.stdout.contains("move 1 (Zb2-b5): Zb2-b5 is not a legal move for white"),
        "{}",
        replay.stdout
    );

    // Claim the other side won: replay disagrees.
    let second = records.join("game-002.txt");
    let text = fs::read_to_string(&second).unwrap();
    let flipped = if text.contains("result: white") {
        text.replace("result: white", "result: black")
    } else {
        text.replace("result: black", "result: white")
    };
    fs::write(&second, flipped).unwrap();
    assert_eq!(arbiter(&["replay", &second.display().to_string()], "").status, 1);
}

#[test]
fn a_match_can_start_from_a_given_position() {
    let start = common::example_path(7);
    let m = play(&["--bot", "builtin:grade7", "--bot", "builtin:grade7", "--games", "2", "--start", &start]);
    for g in m["games"].as_array().unwrap() {
        assert_eq!(g["start_board"], fs::read_to_string(&start).unwrap());
        assert_eq!(g["start"], start);
    }
    // Both games open with the grade-7 answer.
    assert_eq!(m["games"][0]["moves"][0], "Mf1-f9");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    fs::write(&bad, "nonsense").unwrap();
    let run = arbiter(
        &[
            "match",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:random",
            "--start",
            &bad.display().to_string(),
        ],
        "",
    );
    run.assert_refused(&format!("bad start position: {}:1:1:", bad.display()));
}

/// Every move has its time in the record, also when a built-in bot is called in memory (a game
/// without a clock), so that `times[i]` belongs to `moves[i]`.
#[test]
fn each_move_has_its_time_in_the_record() {
    let v =
        play(&["--game", "planetwars", "--bot", "builtin:random", "--bot", "builtin:greedy", "--games", "2"]);
    for game in v["games"].as_array().unwrap() {
        let moves = game["moves"].as_array().unwrap().len();
        assert!(moves > 0, "{game}");
        assert_eq!(game["times"].as_array().unwrap().len(), moves, "{game}");
    }
}
