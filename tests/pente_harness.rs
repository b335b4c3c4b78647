//! Pente through the harness: `--game pente` with its categories, its bot protocol (no
//! arguments, input.txt to output.txt, playdata.txt kept between a bot's turns), its profile,
//! and games that end by its own rules.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::grading::grade;
use common::{arbiter, arbiter_json as json, arbiter_ok, script_bot as bot, write_script};
use serde_json::Value;

/// `match --json -q` between two Pente bots.
/// A bot in `dir` that counts its turns in playdata.txt (`$n`, from 1), runs `body`, then plays
/// the built-in `random-adjacent` agent seeded by its turn: the command that runs it.
fn turn_counting_bot(dir: &Path, body: &str) -> String {
    bot(
        dir,
        &format!(
            "n=$(cat playdata.txt 2>/dev/null || echo 0); n=$((n + 1)); echo $n > playdata.txt\n{body}\n\
             exec \"$engine\" --game pente bot --builtin random-adjacent --seed $n"
        ),
    )
}

/// A submission's folder `dir/name` holding a private copy of arbiter as `engine`, which its
/// scripts run as the agent.
fn submission_with_engine(dir: &Path, name: &str) -> PathBuf {
    let folder = dir.join(name);
    fs::create_dir(&folder).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_arbiter"), folder.join("engine")).unwrap();
    folder
}

fn pente_match(a: &str, b: &str, games: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["--game", "pente", "match", "--bot", a, "--bot", b, "--games", games, "--json", "-q"];
    args.extend_from_slice(extra);
    json(&args)
}

#[test]
fn the_bundled_pente_cases_are_judged_by_category() {
    let (status, r) =
        json(&["--game", "pente", "verify", "corpus/pente", "--bot", "builtin:minimax", "--json", "-q"]);
    assert_eq!(status, 1, "minimax does not maximise captures, so the capture stage fails");
    assert_eq!(r["profile"], "pente-cases");
    let stages: Vec<(String, u64, u64)> = r["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["grade"].as_str().unwrap().to_string(),
                s["passed"].as_u64().unwrap(),
                s["total"].as_u64().unwrap(),
            )
        })
        .collect();
    let names: Vec<&str> = stages.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["opening", "legal", "win", "block", "capture"]);
    // Every stage before capture passes in full: minimax takes wins and stops fives.
    for (name, passed, total) in &stages[..4] {
        assert_eq!(passed, total, "{name}");
    }
    assert_eq!(r["stopped_at"], "capture");
    let case = r["cases"].as_array().unwrap().iter().find(|c| c["grade"] == "win").unwrap();
    assert_eq!(case["verdict"], "pass");
    // The reproduce line runs the bot; the check line judges its output with arbiter.
    let check = case["check"].as_str().unwrap();
    assert!(
        check.contains("--game pente --side white --category win")
            || check.contains("--game pente --side black --category win"),
        "{check}"
    );
}

#[test]
fn a_pente_bot_gets_no_arguments_and_is_judged_on_its_point() {
    let dir = tempfile::tempdir().unwrap();
    // Always answers the centre, and says how it was called.
    let command = bot(dir.path(), "echo \"args=$# input=$(head -n 1 input.txt)\" >&2\necho 10K > output.txt");
    let (_, r) =
        json(&["--game", "pente", "verify", "corpus/pente/opening", "--bot", &command, "--json", "-q"]);
    let cases = r["cases"].as_array().unwrap();
    let first = cases.iter().find(|c| c["name"] == "opening/white/first-stone").unwrap();
    assert_eq!(first["verdict"], "pass", "{first}");
    assert_eq!(first["stderr_tail"], "args=0 input=WHITE");
    let second = cases.iter().find(|c| c["name"] == "opening/white/second-stone").unwrap();
    assert_eq!(second["verdict"], "illegal-move");
    assert_eq!(second["rule"], "occupied");
    assert!(second["reason"].as_str().unwrap().starts_with("10K is not a legal move"), "{second}");
}

/// A Pente failure shows the board with the bot's point marked (and the expected points, when
/// few), and a quiet position's hundreds of right answers are a handful and a count.
#[test]
fn a_pente_failure_draws_the_board_and_lists_a_handful_of_expected_points() {
    let dir = tempfile::tempdir().unwrap();
    let command = bot(dir.path(), "echo 10K > output.txt");
    let run = arbiter(
        &[
            "--game",
            "pente",
            "verify",
            "corpus/pente/legal",
            "--bot",
            &command,
            "-q",
            "--details",
            "1",
            "--color",
            "never",
        ],
        "",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.contains("1. illegal-move (occupied; stone place): "), "{text}");
    assert!(text.contains("   A B C D E F G H J K L M N O P Q R S T\n"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("10  ") && l.contains(" * ")),
        "the bot's point is marked: {text}"
    );
    assert!(text.contains("* 10K: the bot's move, on a "), "{text}");
    let expected = text.lines().find(|l| l.starts_with("  expected: ")).unwrap();
    assert!(expected.starts_with("  expected: any of 3"), "{expected}");
    assert!(expected.ends_with(" ..."), "{expected}");
    assert!(expected.split_whitespace().count() < 20, "{expected}");
}

#[test]
fn playdata_is_kept_between_a_bots_turns_and_games_end_by_pentes_rules() {
    let dir = tempfile::tempdir().unwrap();
    // Counts its turns in playdata.txt and gives up (exit 3, no output) on its fourth.
    let command =
        turn_counting_bot(dir.path(), "if [ $n -ge 4 ]; then echo \"turn $n: giving up\" >&2; exit 3; fi");
    let (_, m) = pente_match(&command, "builtin:random-adjacent", "1", &[]);
    let game = &m["games"][0];
    assert_eq!(game["ending"], "crash", "{game}");
    // A is White: its fourth turn is ply 7, after 6 moves; without playdata it would never stop.
    assert_eq!(game["moves"].as_array().unwrap().len(), 6, "{game}");
    assert!(game["detail"].as_str().unwrap().contains("exited with status 3"), "{game}");

    let (_, m) = pente_match("builtin:minimax", "builtin:random-adjacent", "2", &[]);
    for game in m["games"].as_array().unwrap() {
        assert!(["five", "captures", "full-board"].contains(&game["ending"].as_str().unwrap()), "{game}");
    }
}

#[test]
fn commands_that_know_advance_only_say_so() {
    let run = arbiter(&["--game", "pente", "coverage", "corpus/pente"], "");
    run.assert_refused("`coverage` knows Advance only");
}

/// `generate` writes Pente's layout, `<category>/<side>/NNN.txt`, the same files for the same
/// seed, and refuses to replace cases without `--force`; `golden` then finds nothing wrong.
#[test]
fn generate_makes_a_pente_corpus_of_every_category() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).join("corpus");
    let generate = |to: &Path, extra: &[&str]| {
        let to = to.display().to_string();
        let mut args = vec!["--game", "pente", "generate", "--count", "3", "--seed", "9", "--out", &to, "-q"];
        args.extend_from_slice(extra);
        arbiter(&args, "")
    };
    assert_eq!(generate(&out("a"), &[]).status, 0);
    assert_eq!(generate(&out("b"), &[]).status, 0);
    let files = |root: &Path| -> Vec<(String, String)> {
        let mut found: Vec<(String, String)> = walkdir::WalkDir::new(root)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
            .map(|e| {
                let name = e.path().strip_prefix(root).unwrap().display().to_string();
                (name, fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        found.sort();
        found
    };
    let a = files(&out("a"));
    assert_eq!(a, files(&out("b")), "the same seed gives the same files");
    let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 14, "{names:?}");
    for wanted in [
        "opening/white/first-stone.txt",
        "opening/white/second-stone.txt",
        "win/white/002.txt",
        "block/black/001.txt",
        "capture/white/001.txt",
        "legal/black/001.txt",
    ] {
        assert!(names.contains(&wanted), "{wanted}: {names:?}");
    }
    let again = generate(&out("a"), &[]);
    assert_eq!(again.status, 2, "{}", again.stderr);
    assert!(again.stderr.contains("use --force"), "{}", again.stderr);
    assert_eq!(generate(&out("a"), &["--force"]).status, 0);
    let corpus = out("a").display().to_string();
    assert_eq!(arbiter(&["--game", "pente", "golden", "--update", &corpus], "").status, 0);
    let run = arbiter_ok(&["--game", "pente", "golden", "--check", &corpus], "");
    assert!(run.stdout.contains("all 14 golden answers match the oracle"), "{}", run.stdout);
}

/// `verify --robustness --json` of a Pente bot, without the sandbox.
fn robustness(bot: &str) -> (i32, Value) {
    json(&[
        "--game",
        "pente",
        "verify",
        "corpus/pente",
        "--bot",
        bot,
        "--robustness",
        "--json",
        "--sandbox",
        "off",
    ])
}

#[test]
fn robustness_gives_pente_bots_bad_files_not_bad_arguments() {
    let (status, r) = robustness("builtin:minimax");
    assert_eq!(status, 0, "{r}");
    let names: Vec<&str> =
        r["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["missing input file", "invalid characters", "wrong size", "no legal move"]);
    assert!(r["checks"].as_array().unwrap().iter().all(|c| c["args"].as_array().unwrap().is_empty()));

    // A bot that answers whatever it is given writes output.txt for a bad file: not handled.
    let dir = tempfile::tempdir().unwrap();
    let (status, r) = robustness(&bot(dir.path(), "echo 10K > output.txt"));
    assert_eq!(status, 1);
    assert_eq!(r["passed"], 0);
    assert_eq!(r["checks"][1]["note"], "it wrote output.txt although the input was bad");
}

#[test]
fn a_pente_move_may_take_longer_than_timeout_while_the_clock_lasts() {
    let dir = tempfile::tempdir().unwrap();
    // Sleeps (no CPU time) 1.5 s on its first turn, then gives up on its third.
    let command = turn_counting_bot(
        dir.path(),
        "if [ $n -eq 1 ]; then sleep 1.5; fi\n\
         if [ $n -ge 3 ]; then exit 3; fi",
    );
    let (_, m) = pente_match(&command, "builtin:random-adjacent", "1", &["--timeout", "0.5"]);
    let game = &m["games"][0];
    // Under a fixed 0.5 s per move the first move would be a timeout; Pente's clock allows it.
    assert_eq!(game["ending"], "crash", "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 4, "{game}");
}

#[test]
fn help_speaks_the_chosen_games_words() {
    for command in ["match", "verify", "fuzz", "tournament", "grade"] {
        let help = arbiter_ok(&["--game", "pente", command, "--help"], "");
        assert!(help.stdout.contains("input.txt"), "{command}: {}", help.stdout);
        assert!(
            !help.stdout.contains("grade5") && !help.stdout.contains("<side> <in> <out>"),
            "{command}: {}",
            help.stdout
        );
    }
    let help = arbiter(&["--game=pente", "match", "--help"], "");
    assert!(help.stdout.contains("builtin:random-adjacent|minimax"), "{}", help.stdout);
    let help = arbiter(&["--game", "pente", "check", "--help"], "");
    assert!(help.stdout.contains("opening, legal, win, block, capture"), "{}", help.stdout);
    let help = arbiter(&["--game", "network", "verify", "--help"], "");
    assert!(
        help.stdout.contains("host protocol") && help.stdout.contains("builtin:random"),
        "{}",
        help.stdout
    );
    // `--timeout`'s default is the game's move time: Network's seed gives chooseMove() 5 s.
    let timeout_default = |game: &str| {
        let help = arbiter(&["--game", game, "verify", "--help"], "").stdout;
        let at = help.find("--timeout <SECONDS>").expect("--timeout in the help");
        let rest = &help[at..];
        let from = rest.find("[default: ").expect("a default") + "[default: ".len();
        rest[from..from + rest[from..].find(']').unwrap()].to_string()
    };
    assert_eq!(timeout_default("network"), "5");
    assert_eq!(timeout_default("pente"), "10");
    // Advance keeps its own words.
    let help = arbiter(&["match", "--help"], "");
    assert!(help.stdout.contains("grade7"), "{}", help.stdout);
}

#[test]
fn csci561_grades_by_games_alone_with_the_first_move_in_6_of_10() {
    let dir = tempfile::tempdir().unwrap();
    let folder = submission_with_engine(dir.path(), "alice");
    write_script(
        &folder.join("run"),
        // The random agent: quick games (the graders' minimax searches full-width at depth 3).
        "#!/bin/sh\nexec \"$(dirname \"$0\")/engine\" --game pente bot --builtin random-adjacent --seed 3\n",
    );
    let reports = dir.path().join("reports");
    let options = ["--corpus", "corpus/pente", "--profile", "csci561", "--games", "5"];
    let run = grade("pente", &reports, &options, folder.to_str().unwrap());
    let book = run.json();
    assert_eq!(run.status, 0, "{book}");
    let row = &book["rows"][0];
    assert_eq!(row["cases_run"], 0, "a profile of games alone runs no case: {row}");
    let stages = row["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2, "{row}");
    let won: u64 = stages.iter().map(|s| s["passed"].as_u64().unwrap()).sum();
    assert_eq!(row["score"].as_f64().unwrap(), 5.0 * won as f64, "5 points a win: {row}");
    // first-in=6 of the profile's 10, over 5 games: the first move in 3, the first game among them.
    let games: Value =
        serde_json::from_str(&fs::read_to_string(reports.join("alice/games_vs_random.json")).unwrap())
            .unwrap();
    let white: Vec<bool> =
        games.as_array().unwrap().iter().map(|g| g["a_is_white"].as_bool().unwrap()).collect();
    assert_eq!(white, [true, true, false, true, false], "{white:?}");
}

/// `calibrate` runs once before the bot, and the `calibration.txt` it leaves is beside
/// `input.txt` on every turn (CSCI561: "we will run your calibrate program once (and only once)
/// before we run your agent").
#[test]
fn calibration_txt_is_made_once_and_given_on_every_turn() {
    let dir = tempfile::tempdir().unwrap();
    let folder = submission_with_engine(dir.path(), "carol");
    let script = |name: &str, body: &str| write_script(&folder.join(name), &format!("#!/bin/sh\n{body}\n"));
    // Gives up at once without its calibration.
    script(
        "run",
        "grep -q measured calibration.txt || { echo 'no calibration.txt' >&2; exit 3; }\n\
         exec \"$(dirname \"$0\")/engine\" --game pente bot --builtin random-adjacent --seed 5",
    );
    script("calibrate", "echo measured > calibration.txt");
    let run = folder.join("run").display().to_string();
    let (_, m) = pente_match(&run, "builtin:random-adjacent", "1", &[]);
    assert_eq!(m["games"][0]["ending"], "crash", "without --calibrate: {}", m["games"][0]);
    let calibrate = folder.join("calibrate").display().to_string();
    let (_, m) = pente_match(&run, "builtin:random-adjacent", "1", &["--calibrate", &calibrate]);
    assert_ne!(m["games"][0]["ending"], "crash", "with --calibrate: {}", m["games"][0]);
    assert!(m["games"][0]["moves"].as_array().unwrap().len() > 4, "{}", m["games"][0]);

    let reports = dir.path().join("reports");
    let run = grade(
        "pente",
        &reports,
        &["--profile", "csci561", "--games", "1", "--calibrate"],
        folder.to_str().unwrap(),
    );
    let book = run.json();
    assert_eq!(run.status, 0, "{book}");
    let row = &book["rows"][0];
    assert!(row["note"].as_str().unwrap().contains("calibrated: `calibrate` left calibration.txt"), "{row}");
    assert_eq!(fs::read_to_string(reports.join("carol/calibration.txt")).unwrap(), "measured\n");
    let games: Value =
        serde_json::from_str(&fs::read_to_string(reports.join("carol/games_vs_random.json")).unwrap())
            .unwrap();
    assert_ne!(games[0]["ending"], "crash", "{games}");
}

#[test]
fn the_clock_is_set_by_clock_and_given_with_two_decimals_and_each_move_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    // Refuses (exit 5) a first turn whose input.txt does not give `3.00` seconds; on later turns
    // the time must have two decimals.
    let command = turn_counting_bot(
        dir.path(),
        "t=$(sed -n 2p input.txt)\n\
         if [ $n -eq 1 ] && [ \"$t\" != 3.00 ]; then echo \"time $t\" >&2; exit 5; fi\n\
         echo \"$t\" | grep -Eq '^[0-9]+\\.[0-9][0-9]$' || { echo \"time $t\" >&2; exit 6; }\n\
         if [ $n -ge 3 ]; then exit 3; fi",
    );
    let (_, m) = pente_match(&command, "builtin:random-adjacent", "1", &["--clock", "3"]);
    let game = &m["games"][0];
    assert_eq!(game["ending"], "crash", "{game}");
    assert!(game["detail"].as_str().unwrap().contains("status 3"), "{game}");
    assert_eq!(game["game"], "pente");
    assert_eq!(game["rules"], serde_json::json!([]));
    let moves = game["moves"].as_array().unwrap().len();
    let times = game["times"].as_array().unwrap();
    assert_eq!((moves, times.len()), (4, 4), "{game}");
    for t in times {
        let (cpu, left) = (t["cpu"].as_f64().unwrap(), t["clock_left"].as_f64().unwrap());
        assert!(left <= 3.0 && left > 0.0 && cpu >= 0.0, "{t}");
        assert!(t["user"].as_f64().is_none_or(|user| user <= cpu), "{t}");
    }
    // The clock is charged user time: White's first move (bot A's) takes its user seconds off.
    let first = &times[0];
    if let Some(user) = first["user"].as_f64() {
        assert!((first["clock_left"].as_f64().unwrap() - (3.0 - user)).abs() < 1e-5, "{first}");
    }
    // The start board shows the clock the game started with.
    assert_eq!(game["start_board"].as_str().unwrap().lines().nth(1), Some("3.0"), "{game}");
}

#[test]
fn a_start_files_time_is_the_clock_without_clock() {
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.txt");
    let mut text = String::from("WHITE\n7.5\n0,0\n");
    for _ in 0..19 {
        text.push_str(&".".repeat(19));
        text.push('\n');
    }
    fs::write(&start, &text).unwrap();
    let start = start.display().to_string();
    let (_, m) = pente_match("builtin:random-adjacent", "builtin:random-adjacent", "1", &["--start", &start]);
    let game = &m["games"][0];
    let first = game["times"][0]["clock_left"].as_f64().unwrap();
    assert!(first <= 7.5 && first > 7.0, "{game}");
    let (_, m) = pente_match(
        "builtin:random-adjacent",
        "builtin:random-adjacent",
        "1",
        &["--start", &start, "--clock", "60"],
    );
    let first = m["games"][0]["times"][0]["clock_left"].as_f64().unwrap();
    assert!(first > 59.0, "{}", m["games"][0]);
}

#[test]
fn a_sleeper_is_stopped_by_its_idle_time_and_a_spinner_by_its_cpu_clock() {
    let dir = tempfile::tempdir().unwrap();
    // Clock 0.5 s: the move's idle cap is the clock left + 1 s, within the game's idle budget
    // of 1 x 0.5 s + 1 s.
    let sleeper = bot(dir.path(), "sleep 20");
    let started = std::time::Instant::now();
    let (_, m) = pente_match(&sleeper, "builtin:random-adjacent", "1", &["--clock", "0.5"]);
    assert!(started.elapsed().as_secs_f64() < 15.0 * common::slowdown());
    let game = &m["games"][0];
    assert_eq!(game["ending"], "timeout", "{game}");
    let detail = game["detail"].as_str().unwrap();
    assert!(
        detail.contains("ended by the idle cap of a move") && detail.contains("+ 1 s = 1.50 s"),
        "{game}"
    );

    // Clock 2 s: killed at 2 s of CPU time, however long a loaded machine makes that in wall
    // time (idle time is what stops a sleeper).
    let spinner = bot(dir.path(), "while :; do :; done");
    let (_, m) =
        pente_match(&spinner, "builtin:random-adjacent", "1", &["--clock", "2", "--clock-counts-system"]);
    let game = &m["games"][0];
    assert_eq!(game["ending"], "timeout", "{game}");
    assert!(game["detail"].as_str().unwrap().contains("ended by its CPU clock"), "{game}");
}

#[test]
fn a_record_replays_with_the_game_and_rules_it_was_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let records = records.to_str().unwrap();
    arbiter_ok(
        &[
            "--game",
            "pente",
            "--rule",
            "opening=tournament",
            "match",
            "--bot",
            "builtin:minimax",
            "--bot",
            "builtin:random-adjacent",
            "--games",
            "1",
            "-q",
            "--records",
            records,
        ],
        "",
    );
    let text = fs::read_to_string(Path::new(records).join("game-001.txt")).unwrap();
    assert!(text.contains("\ngame name: pente\nrules: opening=tournament\n"), "{text}");
    assert!(text.contains("\ntimes:\n"), "{text}");
    // No --game, no --rule: the record says which.
    let run = arbiter_ok(&["replay", records], "");
    assert!(run.stdout.contains("1 of 1 game(s) replayed and confirmed"), "{}", run.stdout);
    // The same options given explicitly are fine; different ones are an error naming both.
    arbiter_ok(&["--game", "pente", "--rule", "opening=tournament", "replay", records], "");
    let run = arbiter(&["--game", "pente", "--rule", "opening=seed", "replay", records], "");
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("played with --rule opening=tournament, but --rule opening=seed was given"),
        "{}",
        run.stderr
    );
    let run = arbiter(&["--game", "advance", "replay", records], "");
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("a game of pente, but --game advance was given"), "{}", run.stderr);
}

#[test]
fn verify_kills_a_pente_bot_after_the_time_its_input_gives() {
    let dir = tempfile::tempdir().unwrap();
    let case_dir = dir.path().join("corpus/legal/white");
    fs::create_dir_all(&case_dir).unwrap();
    let text = fs::read_to_string("corpus/pente/legal/white/001.txt").unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "0.4";
    fs::write(case_dir.join("000.txt"), lines.join("\n") + "\n").unwrap();
    let spinner = bot(dir.path(), "while :; do :; done");
    let corpus = dir.path().join("corpus");
    let started = std::time::Instant::now();
    let (_, r) = json(&[
        "--game",
        "pente",
        "verify",
        corpus.to_str().unwrap(),
        "--bot",
        &spinner,
        "--timeout",
        "20",
        "--json",
        "-q",
    ]);
    // Killed after 0.4 s of CPU time (twice: a timeout is run again), not 20 s.
    assert!(started.elapsed().as_secs_f64() < 15.0 * common::slowdown(), "{r}");
    let case = &r["cases"][0];
    assert_eq!(case["verdict"], "timeout", "{r}");
    assert!(case["reason"].as_str().unwrap().contains("the play time the case's input gives"), "{r}");
}

/// `csci561`'s games stages draw each game's clock from 100 to 300 s by the seed ("This total
/// amount of time will vary from game to game"): the same clocks for the same seed, the clock on
/// the first input's time line and in the record; `--clock` gives every game one clock.
#[test]
fn csci561_varies_the_clock_from_game_to_game_by_the_seed_and_records_it() {
    let clocks = |extra: &[&str]| -> Vec<(Option<u64>, String)> {
        let mut args = vec!["--profile", "csci561", "--seed", "11"];
        args.extend_from_slice(extra);
        let (status, m) = pente_match("builtin:random-adjacent", "builtin:random-adjacent", "6", &args);
        assert_eq!(status, 0, "{m}");
        m["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let note = g["notes"].as_array().and_then(|n| n.first()).and_then(|n| n.as_str());
                let seconds = note.map(|n| {
                    let at = n.strip_prefix("each side's clock started at ").unwrap_or_else(|| panic!("{n}"));
                    at.split(' ').next().unwrap().parse::<u64>().unwrap_or_else(|e| panic!("{e}: {n}"))
                });
                let time_line = g["start_board"].as_str().unwrap().lines().nth(1).unwrap().to_string();
                (seconds, time_line)
            })
            .collect()
    };
    let varied = clocks(&[]);
    for (seconds, time_line) in &varied {
        let s = seconds.expect("every game notes its clock");
        assert!((100..=300).contains(&s), "{varied:?}");
        assert_eq!(time_line.parse::<f64>().ok(), Some(s as f64), "the record's start board gives the clock");
    }
    let distinct: std::collections::BTreeSet<_> = varied.iter().map(|(s, _)| s).collect();
    assert!(distinct.len() > 1, "the clock varies from game to game: {varied:?}");
    assert_eq!(clocks(&[]), varied, "the same seed, the same clocks");
    let fixed = clocks(&["--clock", "42"]);
    assert!(fixed.iter().all(|(s, t)| s.is_none() && t.parse::<f64>().ok() == Some(42.0)), "{fixed:?}");
}
