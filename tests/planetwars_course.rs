//! PlanetWars as the course plays it: strategies given as `.jar` files (as the course gives its
//! AI1 to AI3) hosted like a student's, the course's `.dot` maps, the engine's order of planets
//! and edges under `--rule engine=course`, opponents taken from `--opponents DIR`, a
//! submission's class named in its `arbiter.toml`, and tournaments without the strategies whose
//! `compete()` is false. The strategies are arbiter's own test strategies in
//! `tests/data/planetwars/` (the course's jars are not shipped); tests that need a JDK print
//! `SKIPPED: <why>` without one.

mod common;

use std::path::{Path, PathBuf};

use common::grading::{grade, write_profile};
use common::planetwars::{data, play};
use common::{arbiter, arbiter_ok, have_tools};
use serde_json::Value;

fn api_sources() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("hosts/java/planetwars")
}

/// A jar of the test strategies in `folders`, compiled with the course's API (which the jar
/// carries along, as the course's jars do): `DIR/NAME.jar`.
fn jar(dir: &Path, name: &str, folders: &[&str]) -> String {
    let classes = dir.join(format!("{name}-classes"));
    let mut javac = std::process::Command::new("javac");
    javac.args(["-nowarn", "-d"]).arg(&classes).arg("-sourcepath").arg(api_sources());
    for folder in folders {
        for entry in walkdir::WalkDir::new(data(folder)).into_iter().flatten() {
            if entry.path().extension().is_some_and(|x| x == "java") {
                javac.arg(entry.path());
            }
        }
    }
    let out = javac.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let file = dir.join(format!("{name}.jar"));
    let out = std::process::Command::new("jar")
        .arg("cf")
        .arg(&file)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    file.display().to_string()
}

fn endings(report: &Value) -> Vec<String> {
    report["games"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| g["ending"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_strategy_jar_is_hosted_as_given_and_its_class_found_or_named() {
    if !have_tools(&["java", "javac", "jar"], "planetwars strategy jar") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let expander = jar(dir.path(), "expander", &["expander"]);
    let (report, all) = play(&[], &["--bot", &expander, "--bot", "builtin:random", "--games", "4"]);
    assert!(report["a_wins"].as_u64().is_some_and(|w| w >= 3), "{all}");
    // Beside the course's example the student's class is played (it gives no order, and loses
    // without a crash); `#CLASS` plays the example (which throws here) instead.
    let two = jar(dir.path(), "two", &["two"]);
    let (report, all) = play(&[], &["--bot", &two, "--bot", "builtin:greedy", "--games", "2"]);
    assert_eq!(endings(&report), ["conquest", "conquest"], "{all}");
    let named = format!("{two}#planetwars.strategies.RandomStrategy");
    let (report, all) = play(&[], &["--bot", &named, "--bot", "builtin:greedy", "--games", "2"]);
    assert_eq!(endings(&report), ["crash", "crash"], "{all}");
    assert!(all.contains("the example is never the one graded"), "{all}");
}

/// Player 1's first orders on `hashes.dot` from the test strategy Reveal, in the course's
/// engine (its `planetwars.core` of CSCI 1933 run outside arbiter): each planet of the list it
/// was handed, in order, with each of its edges in the order its set iterates. Planets 17 and 1
/// share a bucket of the engine's hash tables (as do 19 and 3): 17 comes first.
const ENGINE_FIRST_TURN: &str = "0>16:0 0>17:0 17>5:0 17>19:0 17>1:0 17>3:0 17>0:0 1>3:0 1>17:0 \
     19>16:0 19>17:0 3>17:0 3>13:0 3>1:0 5>13:0 5>17:0 5>7:0 2>18:0 2>10:0 2>6:0 4>14:0 4>6:0 \
     6>4:0 6>2:0 7>9:0 7>5:0 8>9:0 8>15:0 9>7:0 9>8:0 10>12:0 10>2:0 11>13:0 11>12:0 12>11:0 \
     12>14:0 12>10:0 13>3:0 13>11:0 13>5:0 14>12:0 14>4:0 15>18:0 15>8:0 16>0:0 16>19:0 18>2:0 \
     18>15:0";

/// Player 2's first orders there, in the engine: planet 3's edges come in another order than
/// Player 1 saw them (hidden from Player 2, its set is copied into a larger table).
const ENGINE_SECOND_TURN: &str = "2>10:0 2>18:0 2>6:0 18>15:0 18>2:0 6>4:0 6>2:0 10>12:0 10>2:0 \
     0>16:0 0>17:0 1>3:0 1>17:0 3>1:0 3>17:0 3>13:0 4>14:0 4>6:0 5>17:0 5>13:0 5>7:0 7>9:0 7>5:0 \
     8>9:0 8>15:0 9>7:0 9>8:0 11>13:0 11>12:0 12>11:0 12>14:0 12>10:0 13>3:0 13>11:0 13>5:0 \
     14>12:0 14>4:0 15>18:0 15>8:0 16>0:0 16>19:0 17>5:0 17>19:0 17>1:0 17>3:0 17>0:0 19>16:0 \
     19>17:0";

/// The orders of a record's move, refusals dropped: `0>16:0!not-owned` is `0>16:0`.
fn orders(record_move: &Value) -> String {
    let text = record_move.as_str().unwrap_or_default();
    text.split_whitespace().map(|w| w.split('!').next().unwrap_or(w)).collect::<Vec<_>>().join(" ")
}

#[test]
fn under_engine_course_a_strategy_gets_planets_and_edges_in_the_engines_order() {
    if !have_tools(&["java", "javac"], "planetwars engine order") {
        return;
    }
    let map = data("maps/hashes.dot");
    let args = ["--bot", &data("reveal"), "--bot", "builtin:greedy", "--games", "2", "--start", &map];
    let (report, all) = play(&["engine=course"], &args);
    let games = report["games"].as_array().unwrap_or_else(|| panic!("{all}"));
    // Game 1: Reveal moves first; game 2: second.
    assert_eq!(
        orders(&games[0]["moves"][0]),
        ENGINE_FIRST_TURN.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    assert_eq!(
        orders(&games[1]["moves"][1]),
        ENGINE_SECOND_TURN.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    // arbiter's own order: planets by id, each planet's edges by neighbour.
    let (report, all) = play(&["engine=course", "order=arbiter"], &args);
    let first = orders(&report["games"][0]["moves"][0]);
    assert!(
        first.starts_with("0>16:0 0>17:0 1>3:0 1>17:0 2>6:0 2>10:0 2>18:0 3>1:0 3>13:0 3>17:0"),
        "{first}\n{all}"
    );
}

#[test]
fn a_course_map_is_a_start_and_shows_its_homes_with_the_engines_first_unit_of_time() {
    let map = data("maps/hashes.dot");
    let run = arbiter_ok(&["--game", "planetwars", "--rule", "engine=course", "show", &map], "");
    // 1 person at each home, grown to 2 by the engine's first unit of time.
    assert!(run.stdout.contains("player 1: 2 people; planets 17;"), "{}", run.stdout);
    assert!(run.stdout.contains("player 2: 2 people; planets 2;"), "{}", run.stdout);
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&map, dir.path().join("a.dot")).unwrap();
    std::fs::write(dir.path().join("notes.md"), "not a map").unwrap();
    let (report, all) = play(
        &["engine=course"],
        &[
            "--bot",
            "builtin:greedy",
            "--bot",
            "builtin:random",
            "--games",
            "2",
            "--start",
            &dir.path().display().to_string(),
        ],
    );
    assert_eq!(report["games"].as_array().map(Vec::len), Some(2), "{all}");
    let bad = dir.path().join("bad.dot");
    std::fs::write(&bad, "graph g {\n  0 [ habit = 1 ]\n}\n").unwrap();
    let run = arbiter(&["--game", "planetwars", "show", &bad.display().to_string()], "");
    run.assert_refused("bad.dot:2:3: planet 0 has no `size`");
}

#[test]
fn a_profile_plays_its_opponents_from_the_opponents_folder_by_its_own_rules() {
    if !have_tools(&["java", "javac", "jar"], "planetwars opponents folder") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let opponents = dir.path().join("course");
    std::fs::create_dir(&opponents).unwrap();
    jar(&opponents, "Weak", &["two"]);
    let profile = write_profile(
        dir.path(),
        r#"{"name": "small-course", "rules": ["engine=course"], "stages": [
            {"name": "games vs weak", "games": 4, "opponent": "Weak.jar", "win_rate_above": 0.7, "points": 10}]}"#,
    );
    let reports = dir.path().join("out");
    let expander = data("expander");
    // Without the folder the opponent is nowhere: said before any game.
    let run = grade("planetwars", &reports, &["--profile", &profile], &expander);
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("give --opponents DIR"), "{}", run.stderr);
    let options = ["--profile", &profile, "--opponents", opponents.to_str().unwrap()];
    let run = grade("planetwars", &reports, &options, &expander);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    let out = run.json();
    assert_eq!(out["rows"][0]["stages"][0]["total"].as_u64(), Some(4), "{out}");
    assert_eq!(out["rows"][0]["status"], "graded", "{out}");
    // Played by the profile's rules: the records say engine=course's options.
    let record = std::fs::read_to_string(reports.join("expander").join("games_vs_weak.json")).unwrap();
    assert!(record.contains("growth=course"), "{record}");
}

#[test]
fn a_submission_with_several_strategies_is_graded_with_the_one_its_arbiter_toml_names() {
    if !have_tools(&["java", "javac"], "planetwars arbiter.toml class") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let submission = dir.path().join("ann");
    let strategies = submission.join("planetwars/strategies");
    std::fs::create_dir_all(&strategies).unwrap();
    for (folder, file) in [("expander", "Expander.java"), ("reveal", "Reveal.java")] {
        std::fs::copy(format!("{}/planetwars/strategies/{file}", data(folder)), strategies.join(file))
            .unwrap();
    }
    let profile = write_profile(
        dir.path(),
        r#"{"name": "small", "stages": [
            {"name": "games vs random", "games": 2, "opponent": "builtin:random", "win_rate_above": 0.4, "points": 30}]}"#,
    );
    let reports = dir.path().join("out");
    let grade_ann = || grade("planetwars", &reports, &["--profile", &profile], submission.to_str().unwrap());
    let run = grade_ann();
    let out: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    let note = out["rows"][0]["note"].as_str().unwrap_or_default().to_string() + &run.stderr;
    assert!(
        note.contains("several classes implement planetwars.publicapi.IStrategy"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(
        note.contains("class = \\\"planetwars.strategies.Expander\\\"")
            || note.contains("class = \"planetwars.strategies.Expander\""),
        "{note}"
    );
    std::fs::write(submission.join("arbiter.toml"), "class = \"planetwars.strategies.Expander\"\n").unwrap();
    let run = grade_ann();
    let out: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    assert_eq!(out["rows"][0]["score"].as_f64(), Some(30.0), "{}{}", run.stdout, run.stderr);
    let saved = std::fs::read_to_string(reports.join("ann/grade.json")).unwrap();
    assert!(saved.contains("planetwars.strategies.Expander"), "{saved}");
}

#[test]
fn a_tournament_leaves_out_the_strategies_that_do_not_compete() {
    if !have_tools(&["java", "javac"], "planetwars tournament compete") {
        return;
    }
    // `two` plays Passive, whose compete() is false; Reveal's is true.
    let (two, reveal) = (data("two"), data("reveal"));
    // A tournament between `bots`, two games a pairing, with `options`.
    let tournament = |options: &[&str], bots: &[&str]| {
        let mut args = vec!["--game", "planetwars", "tournament", "--games", "2"];
        args.extend_from_slice(options);
        for &bot in bots {
            args.extend(["--bot", bot]);
        }
        arbiter(&args, "")
    };
    let run = tournament(&["--json", "-q"], &[&two, &reveal, "builtin:random"]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("/two"), "{}", run.stdout);
    assert!(run.stdout.contains("reveal"), "{}", run.stdout);
    let loud = tournament(&[], &[&two, "builtin:random", "builtin:greedy"]);
    assert!(loud.stderr.contains("left out"), "{}", loud.stderr);
    let all = tournament(&["--all", "--json", "-q"], &[&two, "builtin:random"]);
    assert!(all.stdout.contains("/two"), "{}{}", all.stdout, all.stderr);
}
