//! PlanetWars strategies through the host layer: Java classes implementing the course's
//! `IStrategy`, compiled with arbiter's API and driven by `turn` calls in the sandbox, and a
//! Python program that speaks the protocol itself. The strategies are in
//! `tests/data/planetwars/`; tests that need a JDK print `SKIPPED: <why>` without one.

mod common;

use common::grading::{grade, write_profile};
use common::planetwars::data;
use common::{have_tools, read_json};
use serde_json::Value;
use tempfile::TempDir;

/// `match --json` of `bot` against `opponent`: the report, and everything said.
fn play(bot: &str, opponent: &str, games: &str) -> (Value, String) {
    common::planetwars::play(&[], &["--bot", bot, "--bot", opponent, "--games", games])
}

/// Each game's (ending, detail).
fn endings(report: &Value) -> Vec<(String, String)> {
    report["games"]
        .as_array()
        .map(|games| {
            games
                .iter()
                .map(|g| {
                    (
                        g["ending"].as_str().unwrap_or_default().to_string(),
                        g["detail"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Grades `strategy` by a profile of one game stage (`stage`, its JSON) in a folder of its own,
/// the reports in `DIR/out`: the folder and the gradebook's JSON.
fn grade_by_one_stage(stage: &str, strategy: &str) -> (TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let profile = write_profile(dir.path(), &format!(r#"{{"name": "small", "stages": [{stage}]}}"#));
    let run = grade("planetwars", &dir.path().join("out"), &["--profile", &profile], strategy);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    (dir, run.json())
}

/// Plays `bot` against `opponent` for two games: each ends in `ending`, with a detail saying
/// each of `says`.
fn assert_both_games_end(bot: &str, opponent: &str, ending: &str, says: &[&str]) {
    let (report, all) = play(bot, opponent, "2");
    let games = endings(&report);
    assert_eq!(games.len(), 2, "{all}");
    for (got, detail) in games {
        assert_eq!(got, ending, "{all}");
        for said in says {
            assert!(detail.contains(said), "{detail}");
        }
    }
}

#[test]
fn a_java_strategy_is_compiled_hosted_and_beats_random() {
    if !have_tools(&["java", "javac"], "planetwars java strategy") {
        return;
    }
    let (report, all) = play(&data("expander"), "builtin:random", "10");
    assert!(report["a_wins"].as_u64().is_some_and(|w| w >= 8), "{all}");
    for g in report["games"].as_array().unwrap() {
        assert_eq!(g["times"].as_array().unwrap().len(), g["moves"].as_array().unwrap().len(), "{g}");
    }
}

#[test]
fn a_java_strategy_is_graded_by_the_profile_of_win_rates() {
    if !have_tools(&["java", "javac"], "planetwars java grade") {
        return;
    }
    let (_dir, out) = grade_by_one_stage(
        r#"{"name": "games vs random", "games": 6, "opponent": "builtin:random", "colours": "alternate",
            "win_rate_above": 0.6, "points": 30}"#,
        &data("expander"),
    );
    assert_eq!(out["rows"][0]["score"].as_f64(), Some(30.0), "{out}");
}

#[test]
fn games_lost_by_exception_are_counted_in_the_gradebook_and_said_in_the_reports() {
    if !have_tools(&["java", "javac"], "planetwars forfeits in grade") {
        return;
    }
    let (dir, out) = grade_by_one_stage(
        r#"{"name": "games vs greedy", "games": 2, "opponent": "builtin:greedy", "colours": "alternate",
            "per_win": 1}"#,
        &data("thrower"),
    );
    let reports = dir.path().join("out");
    let row = &out["rows"][0];
    assert_eq!((row["crashes"].as_u64(), row["timeouts"].as_u64()), (Some(2), Some(0)), "{row}");
    let folder = reports.join(row["submission"].as_str().unwrap());
    let text = std::fs::read_to_string(folder.join("report.txt")).unwrap();
    // Long lines are folded at 80 columns.
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(joined.contains("0 of 2 won, 0 drawn, 0.00 points; 2 lost by exception: turn threw"), "{text}");
    let report: Value = read_json(folder.join("report.json"));
    let forfeits = &report["game_stages"][0]["forfeits"];
    assert_eq!(forfeits["causes"][0]["cause"], "exception", "{report}");
    assert!(
        forfeits["causes"][0]["first"].as_str().unwrap().contains("Thrower.takeTurn(Thrower.java:"),
        "{forfeits}"
    );
    let gradescope = std::fs::read_to_string(folder.join("results.json")).unwrap();
    assert!(gradescope.contains("2 lost by exception"), "{gradescope}");
}

#[test]
fn a_loop_a_throw_and_an_exit_in_take_turn_each_forfeit_with_their_verdict() {
    if !have_tools(&["java", "javac"], "planetwars failing strategies") {
        return;
    }
    let started = std::time::Instant::now();
    // The CPU limit, however busy the machine: a loop is never idle.
    assert_both_games_end(
        &data("looper"),
        "builtin:greedy",
        "timeout",
        &["turn used more than 1.0 s of CPU time"],
    );
    // Killed at a second of CPU time a turn, not left to hang.
    assert!(started.elapsed().as_secs_f64() < 60.0 * common::slowdown(), "{:?}", started.elapsed());
    assert_both_games_end(
        &data("thrower"),
        "builtin:greedy",
        "crash",
        &["java.lang.IllegalStateException: no planet to attack on turn 3", "Thrower.takeTurn(Thrower.java:"],
    );
    // The course engine's reading: a turn that throws gives no orders and the game goes on,
    // the exceptions kept in the record's notes.
    let (report, all) = common::planetwars::play(
        &["thrown=skip"],
        &["--bot", &data("thrower"), "--bot", "builtin:greedy", "--games", "1"],
    );
    let game = &report["games"][0];
    assert_eq!(game["ending"], "conquest", "{all}");
    let notes: Vec<&str> = game["notes"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(notes[0].contains("IllegalStateException: no planet to attack on turn 3"), "{notes:?}");
    assert!(notes.len() <= 11 && notes.len() >= 2, "{notes:?}");
    // What it queued before throwing is carried out, as the course's engine does: from its
    // third turn (ply 5, moving first in game 1) one person from each planet of its.
    assert_eq!(game["a_is_white"], true);
    let moves: Vec<&str> = game["moves"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(moves[0], "pass", "{moves:?}");
    assert!(moves[4].contains(":1"), "{moves:?}");
    assert_both_games_end(&data("exiter"), "builtin:greedy", "crash", &["exited with status 3 during turn"]);
}

#[test]
fn the_strategy_is_the_class_implementing_istrategy_or_the_file_given() {
    if !have_tools(&["java", "javac"], "planetwars class choice") {
        return;
    }
    // Beside a copy of the course's RandomStrategy (which throws here), the student's own class
    // is the one played: it gives no order and loses, without a crash.
    assert_both_games_end(&data("two"), "builtin:greedy", "conquest", &[]);
    // Naming the example's file plays it instead.
    let file = format!("{}/planetwars/strategies/RandomStrategy.java", data("two"));
    assert_both_games_end(&file, "builtin:greedy", "crash", &["the example is never the one graded"]);
    // No strategy at all: refused before any game, with the reason.
    let (_, all) = play(&data("none"), "builtin:greedy", "2");
    assert!(all.contains("no class that implements planetwars.publicapi.IStrategy"), "{all}");
}

#[test]
fn a_python_program_speaking_the_protocol_plays() {
    if arbiter::harness::host::tools::find("python3").is_none() {
        println!("SKIPPED: planetwars protocol bot: `python3` is not installed");
        return;
    }
    let bot = format!("python3 {}/pwbot.py", data("python"));
    let (report, all) = play(&bot, "builtin:random", "4");
    assert_eq!(report["a_wins"].as_u64(), Some(4), "{all}");
}

/// A strategy whose turns return at once while a thread it started computes all the time in
/// between (issue 30): that time is charged to its turns, and past a few milliseconds while no
/// turn was in progress the game is lost with a verdict that says so. Its opponent takes 30 ms
/// a turn (sleeping), so that there is time between the strategy's turns.
#[test]
fn a_thread_computing_between_turns_loses_the_game() {
    if !have_tools(&["java", "javac", "python3"], "planetwars thread between turns") {
        return;
    }
    let opponent = format!("python3 {}/napper.py", data("python"));
    assert_both_games_end(&data("spinner"), &opponent, "crash", &["while no call was in progress"]);
}
