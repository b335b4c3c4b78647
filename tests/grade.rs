//! `arbiter grade` and `arbiter merge` on a small class: correct, buggy, crashing, hanging,
//! slow, non-executable, a missing interpreter and a hostile name, over one case per grade.
//!
//! The bots are shell scripts wrapping `arbiter bot`, run with `--sandbox off`: the sandbox
//! keeps bots from running arbiter itself (see tests/hostile.rs), which these bots need.
//! No assertion is about time: the cost of a hanging bot is counted in cases run.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::grading::grade;
use common::{arbiter, arbiter_ok, read_json, test_names};
use serde_json::Value;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// A scratch folder with a corpus (the first white case of each grade) and a class.
struct Class {
    dir: tempfile::TempDir,
}

impl Class {
    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        let class = Class { dir };
        for grade in 4..=7 {
            let from =
                Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("corpus/grade{grade}/white/01.txt"));
            let to = class.path(&format!("corpus/grade{grade}/white/01.txt"));
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::copy(from, to).unwrap();
        }
        let grade = |g: u8| format!("exec '{ARBITER}' bot --grade {g} \"$@\"");
        class.submission("correct", &grade(7), true);
        class.submission("buggy", &grade(4), true);
        class.submission("crashing", "echo 'Traceback (most recent call last):' >&2; exit 1", true);
        class.submission("hanging", "exec sleep 60", true);
        class.submission("slow", &format!("sleep 0.2; {}", grade(7)), true);
        class.submission("no-exec-bit", &grade(7), false);
        fs::create_dir_all(class.path("class/no-python9")).unwrap();
        write_run(&class.path("class/no-python9/run"), "#!/usr/bin/env python9\nprint('hi')\n", true);
        let hostile = format!(
            "if [ \"$1\" = name ]; then echo '=HYPERLINK(\"http://evil\",\"click\")'; exit 0; fi\n{}",
            grade(5)
        );
        class.submission("hostile", &hostile, true);
        class
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn submission(&self, name: &str, body: &str, executable: bool) {
        let folder = self.path(&format!("class/{name}"));
        fs::create_dir_all(&folder).unwrap();
        write_run(&folder.join("run"), &format!("#!/bin/sh\n{body}\n"), executable);
    }

    /// Every submission folder, in no particular order (grade sorts them).
    fn submissions(&self) -> Vec<String> {
        fs::read_dir(self.path("class")).unwrap().map(|e| e.unwrap().path().display().to_string()).collect()
    }

    /// Runs `arbiter grade` on `subs` into `reports`; returns the status and stderr.
    fn grade(&self, subs: &[String], reports: &str, extra: &[&str]) -> (i32, String) {
        let corpus = self.path("corpus").display().to_string();
        let reports = self.path(reports).display().to_string();
        let mut args = vec!["grade", "--corpus", &corpus, "--reports", &reports, "--sandbox", "off"];
        if !extra.contains(&"--timeout") {
            args.extend(["--timeout", "1"]);
        }
        args.extend_from_slice(extra);
        args.extend(subs.iter().map(String::as_str));
        let run = arbiter_ok(&args, "");
        (run.status, run.stderr)
    }

    fn csv(&self, file: &str) -> Vec<Vec<String>> {
        parse_csv(&fs::read_to_string(self.path(file)).unwrap())
    }

    fn report(&self, reports: &str, submission: &str) -> Value {
        read_json(self.path(&format!("{reports}/{submission}/report.json")))
    }
}

fn write_run(path: &Path, text: &str, executable: bool) {
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(if executable { 0o755 } else { 0o644 })).unwrap();
}

/// A minimal RFC 4180 reader, independent of the one arbiter uses.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut cell, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    rows
}

/// The rows without the measured wall time, which no two runs share.
fn without_time(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    let time = rows[0].iter().position(|h| h == "wall_seconds").unwrap();
    rows.iter()
        .map(|r| r.iter().enumerate().filter(|(i, _)| *i != time).map(|(_, c)| c.clone()).collect())
        .collect()
}

fn column<'a>(rows: &'a [Vec<String>], submission: &str, name: &str) -> &'a str {
    let i = rows[0].iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let row = rows.iter().find(|r| r[0] == submission).unwrap_or_else(|| panic!("no row {submission}"));
    &row[i]
}

fn cases_run(report: &Value) -> usize {
    report["cases"].as_array().unwrap().iter().filter(|c| c["verdict"] != "not-run").count()
}

#[test]
fn a_class_is_graded_the_same_whatever_the_job_count() {
    let class = Class::new();
    let subs = class.submissions();
    class.grade(&subs, "one", &["--jobs", "1"]);
    class.grade(&subs, "two", &["--jobs", "2"]);
    let rows = class.csv("one/gradebook.csv");
    assert_eq!(without_time(&rows), without_time(&class.csv("two/gradebook.csv")));

    let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    let expected =
        ["buggy", "correct", "crashing", "hanging", "hostile", "no-exec-bit", "no-python9", "slow"];
    assert_eq!(names, expected, "one row each, sorted by name");
    let score = |s: &str| column(&rows, s, "score").to_string();
    assert_eq!(score("correct"), "85");
    assert_eq!(score("slow"), "85");
    assert_eq!(score("buggy"), "50", "grade 4 in full, nothing at grade 5");
    assert_eq!(score("hostile"), "65", "grades 4 and 5 in full");
    assert_eq!(score("crashing"), "0");
    assert_eq!(score("hanging"), "0");
    assert_eq!(column(&rows, "correct", "bot_name"), "arbiter-grade7");
    assert_eq!(column(&rows, "buggy", "grade4_passed"), "1");
    assert_eq!(column(&rows, "buggy", "stopped_at"), "grade 5");
    assert_eq!(column(&rows, "hanging", "timeouts"), "4");
    for refused in ["no-exec-bit", "no-python9"] {
        assert_eq!(column(&rows, refused, "status"), "refused");
        assert_eq!(column(&rows, refused, "cases_run"), "0");
    }
    assert!(column(&rows, "no-exec-bit", "note").contains("execute bit"));
    assert!(column(&rows, "no-python9", "note").contains("no `python9` on PATH"));

    // A formula for a name is shown, never run: the cell starts with a quote.
    assert_eq!(column(&rows, "hostile", "bot_name"), "'=HYPERLINK(\"http://evil\",\"click\")");

    // Every submission has its reports, complete, in every format.
    for s in expected {
        for file in ["report.txt", "report.json", "results.json", "junit.xml", "grade.json"] {
            assert!(class.path(&format!("one/{s}/{file}")).is_file(), "{s}/{file}");
        }
        assert_eq!(class.report("one", s)["complete"], true);
        // Every JUnit file readable by Jenkins and the xUnit plugin, refused submissions' too.
        common::junit::assert_valid_file(&class.path(&format!("one/{s}/junit.xml")));
    }
    let refused = class.report("one", "no-python9");
    assert!(refused["cases"].as_array().unwrap().iter().all(|c| c["verdict"] == "not-run"));
    let gradescope: Value = read_json(class.path("one/crashing/results.json"));
    assert_eq!(gradescope["score"], 0.0);
}

#[test]
fn stop_rules_make_a_hanging_bot_cheap() {
    let class = Class::new();
    let subs = [arg(&class, "class/hanging"), arg(&class, "class/buggy")];
    class.grade(&subs, "all", &["--jobs", "2"]);
    assert_eq!(cases_run(&class.report("all", "hanging")), 4);

    class.grade(&subs, "gate", &["--jobs", "2", "--stop-at-gate"]);
    let hanging = class.report("gate", "hanging");
    assert_eq!(cases_run(&hanging), 1, "grade 4 failed: nothing after it runs");
    let not_run = &hanging["cases"][1];
    assert_eq!(not_run["verdict"], "not-run");
    assert!(not_run["reason"].as_str().unwrap().contains("grade 4 did not pass in full"), "{not_run}");
    let buggy = class.report("gate", "buggy");
    assert_eq!(cases_run(&buggy), 2, "grades 4 and 5 run; 6 and 7 cannot count");
    assert_eq!(buggy["score"], 50.0, "the score is the same as without the gate");

    class.grade(&subs, "timeouts", &["--jobs", "2", "--max-timeouts", "2"]);
    let hanging = class.report("timeouts", "hanging");
    assert_eq!(cases_run(&hanging), 2);
    assert!(hanging["cases"][3]["reason"].as_str().unwrap().contains("--max-timeouts 2"));
    let rows = class.csv("timeouts/gradebook.csv");
    assert_eq!(column(&rows, "hanging", "not_run"), "2");
    assert_eq!(column(&rows, "buggy", "cases_run"), "4", "a bot without timeouts runs everything");

    // verify takes the same rules.
    let corpus = class.path("corpus").display().to_string();
    let bot = class.path("class/hanging/run").display().to_string();
    let run = arbiter(
        &[
            "verify",
            &corpus,
            "--bot",
            &bot,
            "--timeout",
            "1",
            "--sandbox",
            "off",
            "--json",
            "-q",
            "--max-timeouts",
            "1",
        ],
        "",
    );
    let report: Value = run.json();
    assert_eq!(cases_run(&report), 1);
}

#[test]
fn shards_merged_equal_the_whole_class_and_reruns_skip_what_is_done() {
    let class = Class::new();
    let subs = class.submissions();
    let rules = ["--stop-at-gate", "--max-timeouts", "1", "--jobs", "2"];
    class.grade(&subs, "whole", &rules);
    let mut shard_args = rules.to_vec();
    shard_args.extend(["--shard", "1/2"]);
    class.grade(&subs, "shard1", &shard_args);
    let last = shard_args.len() - 1;
    shard_args[last] = "2/2";
    class.grade(&subs, "shard2", &shard_args);
    let whole = class.csv("whole/gradebook.csv");
    let first = class.csv("shard1/gradebook-1-of-2.csv");
    let second = class.csv("shard2/gradebook-2-of-2.csv");
    assert_eq!(first.len() - 1 + second.len() - 1, whole.len() - 1, "each submission in one shard");

    // From the report folders, and from the partial CSVs.
    for inputs in [["shard1", "shard2"], ["shard1/gradebook-1-of-2.csv", "shard2/gradebook-2-of-2.csv"]] {
        let paths: Vec<String> = inputs.iter().map(|i| class.path(i).display().to_string()).collect();
        let mut args = vec!["merge"];
        args.extend(paths.iter().map(String::as_str));
        let merged = arbiter_ok(&args, "");
        assert_eq!(without_time(&parse_csv(&merged.stdout)), without_time(&whole), "{inputs:?}");
    }

    // A rerun skips the complete submissions and reruns one whose report is incomplete.
    let report = class.path("whole/correct/report.json");
    let before = fs::metadata(&report).unwrap().modified().unwrap();
    let slow = class.path("whole/slow/report.json");
    let text = fs::read_to_string(&slow).unwrap().replace("\"complete\": true", "\"complete\": false");
    fs::write(&slow, text).unwrap();
    let (_, stderr) = class.grade(&subs, "whole", &rules);
    assert!(stderr.contains("skipped correct: already graded"), "{stderr}");
    assert!(!stderr.contains("skipped slow"), "{stderr}");
    assert_eq!(fs::metadata(&report).unwrap().modified().unwrap(), before, "not rewritten");
    assert_eq!(class.report("whole", "slow")["complete"], true);
    assert_eq!(without_time(&class.csv("whole/gradebook.csv")), without_time(&whole));
    // --force grades everything again.
    let (_, stderr) = class.grade(&subs, "whole", &[&rules[..], &["--force"]].concat());
    assert!(!stderr.contains("skipped"), "{stderr}");
}

#[test]
fn the_games_stage_is_folded_into_the_score() {
    let class = Class::new();
    let subs = [arg(&class, "class/correct"), arg(&class, "class/buggy")];
    class.grade(&subs, "games", &["--games", "2", "--jobs", "2"]);
    let rows = class.csv("games/gradebook.csv");
    assert_eq!(column(&rows, "correct", "games_played"), "2");
    let won: usize = column(&rows, "correct", "games_won").parse().unwrap();
    assert!(won <= 2);
    // 85 + 0.5 per win above 30: two games cannot lift it.
    assert_eq!(column(&rows, "correct", "games_score"), "85");
    assert_eq!(column(&rows, "buggy", "games_played"), "", "not reached: grade 5 failed");
    assert!(class.path("games/correct/games.json").is_file());

    // A bot that forfeits every game gets no games-stage score from `match` either.
    let crash = class.path("class/crashing/run").display().to_string();
    let run = arbiter(
        &[
            "match",
            "--bot",
            &crash,
            "--bot",
            "builtin:grade7",
            "--games",
            "2",
            "--json",
            "-q",
            "--sandbox",
            "off",
        ],
        "",
    );
    let out: Value = run.json();
    assert_eq!(out["games_stage_score"], Value::Null);
    assert!(out["games_stage_note"].as_str().unwrap().contains("lost all 2 games by forfeit"));
}

#[test]
fn pente_classes_are_graded_too() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/pente");
    for category in ["opening", "legal"] {
        let from = corpus.join(category).join("white");
        let to = dir.path().join("corpus").join(category).join("white");
        fs::create_dir_all(&to).unwrap();
        for entry in fs::read_dir(&from).unwrap().take(2) {
            let entry = entry.unwrap();
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    let good = dir.path().join("minimax");
    fs::create_dir_all(&good).unwrap();
    write_run(
        &good.join("run"),
        &format!("#!/bin/sh\nexec '{ARBITER}' --game pente bot --builtin minimax\n"),
        true,
    );
    let reports = dir.path().join("out");
    let corpus = dir.path().join("corpus").display().to_string();
    let options = ["--corpus", &corpus, "--sandbox", "off", "--timeout", "5"];
    let run = grade("pente", &reports, &options, &good.display().to_string());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let out = run.json();
    let row = &out["rows"][0];
    assert_eq!(row["submission"], "minimax");
    assert_eq!(row["cases_run"], 4);
    assert!(row["score"].as_f64().unwrap() > 0.0, "{row}");
    let header = fs::read_to_string(reports.join("gradebook.csv")).unwrap();
    assert!(
        header.starts_with("submission,bot_name,status,score,opening_passed,opening_total,legal_passed"),
        "{header}"
    );
}

#[test]
fn robustness_counts_a_traceback_as_not_handled() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    let body = format!(
        "#!/bin/sh\nif [ \"$1\" = name ]; then echo x; exit 0; fi\n\
         if [ \"$1\" != white ] && [ \"$1\" != black ]; then echo 'Traceback (most recent call last):' >&2; exit 1; fi\n\
         exec '{ARBITER}' bot --grade 7 \"$@\"\n"
    );
    write_run(&bot, &body, true);
    let run = arbiter(
        &["verify", "--robustness", "--bot", &bot.display().to_string(), "--json", "--sandbox", "off"],
        "",
    );
    let out: Value = run.json();
    let wrong_arg =
        out["checks"].as_array().unwrap().iter().find(|c| c["name"] == "wrong first argument").unwrap();
    assert_eq!(wrong_arg["passed"], false, "{wrong_arg}");
    assert!(wrong_arg["note"].as_str().unwrap().contains("Python traceback"), "{wrong_arg}");
}

/// The path of a class file as a string.
fn arg(class: &Class, name: &str) -> String {
    class.path(name).display().to_string()
}

#[test]
fn stray_files_crlf_shebangs_and_missing_scripts_are_told_before_any_case_runs() {
    let class = Class::new();
    fs::write(class.path("class/README.md"), "# the class\n").unwrap();
    fs::create_dir_all(class.path("class/crlf")).unwrap();
    write_run(&class.path("class/crlf/run"), "#!/bin/sh\r\necho hi\r\n", true);
    let subs = vec![
        arg(&class, "class/README.md"),
        arg(&class, "class/crlf"),
        arg(&class, "class/correct"),
        "/bin/sh nosuch.py".to_string(),
    ];
    let (_, stderr) = class.grade(&subs, "out", &["--jobs", "1"]);
    let lines: Vec<&str> = stderr.lines().collect();
    let at = |needle: &str| {
        lines.iter().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle:?} in {stderr}"))
    };
    let first_graded = at("graded  correct");
    assert!(at("README.md is a file, not a submission") < first_graded, "{stderr}");
    assert!(at("refused crlf: ") < first_graded, "{stderr}");
    assert!(lines[at("refused crlf: ")].contains("carriage return"), "{stderr}");
    assert!(at("names `nosuch.py`, but there is no such file") < first_graded, "{stderr}");

    let rows = class.csv("out/gradebook.csv");
    let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, vec!["_bin_sh_nosuch.py", "correct", "crlf"], "no row for the README");
    assert_eq!(column(&rows, "crlf", "status"), "refused");
    assert!(column(&rows, "crlf", "note").contains("Windows line endings"));
    assert_eq!(column(&rows, "_bin_sh_nosuch.py", "status"), "refused");
    // A refused submission's results.json: one test per stage, none per case.
    let results = read_json(class.path("out/crlf/results.json"));
    assert_eq!(
        test_names(&results),
        vec![
            "grade 4: 1 case(s) not run",
            "grade 5: 1 case(s) not reached",
            "grade 6: 1 case(s) not reached",
            "grade 7: 1 case(s) not reached"
        ]
    );
    assert!(results["tests"][0]["output"].as_str().unwrap().contains("carriage return"));
}

#[test]
fn a_reproduce_line_runs_as_printed_in_a_copy_of_the_students_folder() {
    let class = Class::new();
    class.grade(&[arg(&class, "class/buggy")], "out", &[]);
    let report = class.report("out", "buggy");
    let failed = report["cases"].as_array().unwrap().iter().find(|c| c["verdict"] == "wrong-move").unwrap();
    let line = failed["reproduce"].as_str().unwrap();
    assert!(line.starts_with("printf '%s\\n' "), "{line}");
    assert!(line.contains(" && ./run white in.txt out.txt ; cat out.txt"), "{line}");
    assert!(!line.contains("arbiter"), "a student has no arbiter: {line}");
    // The student's folder, elsewhere, without the corpus or the grader's files.
    let copy = tempfile::tempdir().unwrap();
    fs::copy(class.path("class/buggy/run"), copy.path().join("run")).unwrap();
    let out = std::process::Command::new("sh").arg("-c").arg(line).current_dir(copy.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = fs::read_to_string(copy.path().join("out.txt")).unwrap();
    assert_eq!(written, failed["output"].as_str().unwrap(), "the same move as in grading");
    assert_eq!(String::from_utf8_lossy(&out.stdout), written, "and shown");
    // results.json shows the same line, folded.
    let results = fs::read_to_string(class.path("out/buggy/results.json")).unwrap();
    assert!(results.contains("./run") && !results.contains("arbiter check"), "{results}");
}

#[test]
fn grade_json_is_plain_json_without_the_graders_paths() {
    let class = Class::new();
    class.grade(&[arg(&class, "class/correct")], "out", &["--hidden", "7"]);
    let text = fs::read_to_string(class.path("out/correct/grade.json")).unwrap();
    let saved: Value = serde_json::from_str(&text).unwrap();
    let root = class.dir.path().display().to_string();
    assert!(!text.contains(&root), "an absolute path: {text}");
    for debug in ["Some(", "Duration", "secs:", "StopRules"] {
        assert!(!text.contains(debug), "a Rust Debug string ({debug}): {text}");
    }
    let settings = &saved["settings"];
    assert_eq!(settings["corpus"]["name"], "corpus");
    assert_eq!(settings["corpus"]["cases"], 4);
    assert_eq!(settings["limits"]["timeout"], 1.0);
    assert_eq!(settings["rules"]["stop_at_gate"], false);
    assert_eq!(settings["hidden"], serde_json::json!(["grade7"]));
    assert!(saved["machine"]["cores"].as_u64().unwrap() >= 1, "{text}");
    assert_eq!(saved["row"]["score"], 85.0);
}

#[test]
fn per_submission_options_are_applied_recorded_and_resumed() {
    let class = Class::new();
    let arbiter_bot = |g: u8| format!("exec '{ARBITER}' bot --grade {g} \"$@\"");
    // Two bots that can only open an output file that exists, and one that takes 1.2 s a move.
    let picky = format!("[ -e \"$3\" ] || {{ echo 'no output file' >&2; exit 4; }}; {}", arbiter_bot(7));
    class.submission("picky-toml", &picky, true);
    fs::write(class.path("class/picky-toml/arbiter.toml"), "create-output = true\ntimeout = 60\n").unwrap();
    class.submission("picky-csv", &picky, true);
    class.submission("slowpoke", &format!("[ \"$1\" = name ] || sleep 1.2; {}", arbiter_bot(7)), true);
    let overrides = class.path("overrides.csv");
    fs::write(&overrides, "submission,option,value\npicky-csv,create-output,true\nslowpoke,timeout,5\n")
        .unwrap();
    let subs: Vec<String> =
        ["picky-toml", "picky-csv", "slowpoke"].iter().map(|n| arg(&class, &format!("class/{n}"))).collect();
    let extra = ["--overrides", overrides.to_str().unwrap(), "--jobs", "3"];
    class.grade(&subs, "out", &extra);
    let rows = class.csv("out/gradebook.csv");
    for name in ["picky-toml", "picky-csv", "slowpoke"] {
        assert_eq!(column(&rows, name, "score"), "85", "{name}: {rows:?}");
    }
    // The toml's timeout was held to the grader's cap (here --timeout, 1 s), and said so.
    let note = column(&rows, "picky-toml", "note");
    assert!(note.contains("create-output true (arbiter.toml)"), "{note}");
    assert!(note.contains("asks for a timeout of 60 s; the grader allows at most 1 s"), "{note}");
    assert!(column(&rows, "slowpoke", "note").contains("timeout 5 s (overrides.csv line 3)"));
    let saved: Value = read_json(class.path("out/picky-csv/grade.json"));
    assert_eq!(saved["options"]["create_output"]["value"], true, "{saved}");

    // A rerun skips them all; one whose arbiter.toml changed is graded again.
    let (_, stderr) = class.grade(&subs, "out", &extra);
    assert_eq!(stderr.matches("already graded").count(), 3, "{stderr}");
    fs::write(class.path("class/picky-toml/arbiter.toml"), "create-output = false\n").unwrap();
    let (_, stderr) = class.grade(&subs, "out", &extra);
    assert!(!stderr.contains("skipped picky-toml"), "{stderr}");
    assert_eq!(column(&class.csv("out/gradebook.csv"), "picky-toml", "score"), "0");

    // A bad arbiter.toml refuses the submission, naming the line and column.
    fs::write(class.path("class/picky-toml/arbiter.toml"), "create-output = true\nspeed = 11\n").unwrap();
    let (_, stderr) = class.grade(&subs, "out", &extra);
    assert!(stderr.contains("refused picky-toml: arbiter.toml line 2, column 1:"), "{stderr}");
    assert_eq!(column(&class.csv("out/gradebook.csv"), "picky-toml", "status"), "refused");
    // Fixed to no option at all, it is graded again, not left refused.
    fs::write(class.path("class/picky-toml/arbiter.toml"), "# nothing to set\n").unwrap();
    let (_, stderr) = class.grade(&subs, "out", &extra);
    assert!(!stderr.contains("skipped picky-toml"), "{stderr}");
    assert_eq!(column(&class.csv("out/gradebook.csv"), "picky-toml", "status"), "graded");
    // An overrides file naming no submission given is an error before anything runs.
    fs::write(&overrides, "submission,option,value\npicky_csv,timeout,3\n").unwrap();
    let run = arbiter(
        &[
            "grade",
            &subs[1],
            "--corpus",
            &arg(&class, "corpus"),
            "--reports",
            &arg(&class, "x"),
            "--overrides",
            overrides.to_str().unwrap(),
        ],
        "",
    );
    run.assert_refused("names the submission `picky_csv`");
}

#[test]
fn merge_names_the_shards_it_is_missing() {
    let class = Class::new();
    let subs = vec![arg(&class, "class/correct"), arg(&class, "class/buggy")];
    class.grade(&subs, "s1", &["--shard", "1/3"]);
    class.grade(&subs, "s2", &["--shard", "2/3"]);
    // Shard 3 of 3 has no submission: its run leaves only its manifest, which still counts.
    class.grade(&subs, "s3", &["--shard", "3/3"]);
    assert!(class.path("s3/shard-3-of-3.json").is_file());
    let merged = arbiter_ok(&["merge", &arg(&class, "s1"), &arg(&class, "s3")], "");
    assert!(merged.stderr.contains("warning: 1 shard(s) missing: 2/3"), "{}", merged.stderr);
    let strict = arbiter(&["merge", &arg(&class, "s1"), &arg(&class, "s3"), "--require-complete"], "");
    assert_eq!(strict.status, 2);
    assert!(strict.stderr.contains("2/3"), "{}", strict.stderr);
    assert!(strict.stdout.is_empty());
    // From a gradebook file's name too.
    let from_csv = arbiter(&["merge", &arg(&class, "s2/gradebook-2-of-3.csv")], "");
    assert!(from_csv.stderr.contains("2 shard(s) missing: 1/3, 3/3"), "{}", from_csv.stderr);
    let all = arbiter_ok(
        &["merge", &arg(&class, "s1"), &arg(&class, "s2"), &arg(&class, "s3"), "--require-complete"],
        "",
    );
    assert!(!all.stderr.contains("warning"), "{}", all.stderr);
}

#[test]
fn grade_takes_the_options_that_shape_results() {
    let class = Class::new();
    let extra = ["--hidden", "5", "--robustness", "--details", "1", "--create-output"];
    class.grade(&[arg(&class, "class/buggy")], "out", &extra);
    let results = fs::read_to_string(class.path("out/buggy/results.json")).unwrap();
    let g: Value = serde_json::from_str(&results).unwrap();
    let tests = g["tests"].as_array().unwrap();
    let hidden = tests.iter().find(|t| t["name"] == "grade5/white/01").unwrap();
    assert_eq!(hidden["visibility"], "hidden");
    // The grader's report.json has the hidden case's answers; results.json none of them.
    let report = class.report("out", "buggy");
    let answers =
        report["cases"].as_array().unwrap().iter().find(|c| c["grade"] == 5).unwrap()["expected"].clone();
    assert!(!answers.as_array().unwrap().is_empty());
    for answer in answers.as_array().unwrap() {
        assert!(!results.contains(answer.as_str().unwrap()), "a hidden answer {answer}: {results}");
    }
    let checks: Vec<&Value> =
        tests.iter().filter(|t| t["name"].as_str().unwrap().starts_with("robustness: ")).collect();
    assert!(checks.len() >= 5, "{results}");
    assert!(checks.iter().all(|t| t["score"] == 0.0 && t["max_score"] == 0.0));
    let text = fs::read_to_string(class.path("out/buggy/report.txt")).unwrap();
    assert!(text.contains("bad inputs (not scored): "), "{text}");
    let saved: Value = read_json(class.path("out/buggy/grade.json"));
    assert_eq!(saved["settings"]["create_output"], true);
    assert_eq!(saved["settings"]["details"], 1);
    assert!(saved["row"]["note"].as_str().unwrap().contains("bad inputs handled: "), "{saved}");
}

/// Issue 19's first complaint: the same bot graded on an idle and on a busy machine must get
/// the same grade. A bot that computes for 0.5 s of CPU time per move, under a 1.5 s CPU limit,
/// is graded once alone and once beside four busy loops on this machine's cores (where its wall
/// time grows well past the limit): the gradebooks agree, because the limit is CPU time.
#[test]
fn a_busy_machine_gives_the_same_grade() {
    if arbiter::harness::host::tools::find("python3").is_none() {
        eprintln!("SKIPPED: a_busy_machine_gives_the_same_grade: `python3` is not installed");
        return;
    }
    let class = Class::new();
    let burn = "python3 -c 'import time\nwhile time.process_time() < 0.5: pass'";
    class.submission("thinker", &format!("{burn}\nexec '{ARBITER}' bot --grade 7 \"$@\""), true);
    let subs = [arg(&class, "class/thinker")];
    class.grade(&subs, "idle", &["--timeout", "1.5"]);
    let spinners: Vec<std::process::Child> = (0..4)
        .map(|_| std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap())
        .collect();
    class.grade(&subs, "busy", &["--timeout", "1.5"]);
    for mut spinner in spinners {
        let _ = spinner.kill();
        let _ = spinner.wait();
    }
    let idle = class.csv("idle/gradebook.csv");
    assert_eq!(column(&idle, "thinker", "score"), "85", "{idle:?}");
    assert_eq!(without_time(&idle), without_time(&class.csv("busy/gradebook.csv")));
}

/// `--stop-at-gate` stops only at a gate the profile has: Network's `cs61b` adds its stages,
/// so a bot that fails `win` still has its `block` cases run and counted, and the score is the
/// same with and without the option (it was 15.0 with it and 19.25 without).
#[test]
fn stop_at_gate_stops_nothing_in_a_profile_that_adds_its_stages() {
    let score = |extra: &[&str]| {
        let mut args =
            vec!["--game", "network", "verify", "corpus/network", "--bot", "builtin:random", "-q", "--json"];
        args.extend(extra);
        let run = common::arbiter(&args, "");
        assert!(run.status == 0 || run.status == 1, "{}", run.stderr);
        let json: Value = run.json();
        let not_run = json["cases"].as_array().unwrap().iter().filter(|c| c["verdict"] == "not-run").count();
        (json["score"].as_f64().unwrap(), not_run)
    };
    let (without, _) = score(&[]);
    let (with, not_run) = score(&["--stop-at-gate"]);
    assert!(without > 0.0 && without < 100.0, "{without}");
    assert_eq!(with, without, "the score does not depend on --stop-at-gate");
    assert_eq!(not_run, 0, "every stage runs");
}
