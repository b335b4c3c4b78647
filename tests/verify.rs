//! `arbiter verify` with small scripted bots, one per way a bot can behave, on a corpus made of
//! the four worked examples (one case per grade, white to move).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{arbiter, arbiter_ok, example_path, read_json, sh_bot, write_script};
use serde_json::Value;

/// A scratch folder with `corpus/gradeN/white/worked-example.txt`, and canned answer boards.
struct Setup {
    dir: tempfile::TempDir,
}

/// Right answers and legal-but-wrong ones per grade (grade 4 has only one legal move).
const RIGHT: [(u8, &str); 4] = [(4, "Zf3xf4"), (5, "Be7-d8"), (6, "Ma1xa7"), (7, "Mf1-f9")];
const WRONG: [(u8, &str); 3] = [(5, "Gb1-a1"), (6, "Ma1-a2"), (7, "Mf1-f8")];

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let s = Setup { dir };
        for grade in 4..=7 {
            let case = s.corpus().join(format!("grade{grade}/white/worked-example.txt"));
            fs::create_dir_all(case.parent().unwrap()).unwrap();
            fs::copy(example_path(grade), &case).unwrap();
        }
        for (grade, mv) in RIGHT {
            s.canned(&format!("right{grade}.txt"), grade, mv);
        }
        for (grade, mv) in WRONG {
            s.canned(&format!("wrong{grade}.txt"), grade, mv);
        }
        s
    }

    fn corpus(&self) -> PathBuf {
        self.dir.path().join("corpus")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Stores the board after `mv` on the grade's example.
    fn canned(&self, name: &str, grade: u8, mv: &str) {
        let run = arbiter_ok(&["apply", &example_path(grade), "--side", "white", mv], "");
        fs::write(self.path(name), run.stdout).unwrap();
    }

    /// A shell-script bot; `$dir` in the body is the scratch folder. Returns the bot command.
    fn bot(&self, name: &str, body: &str) -> String {
        sh_bot(self.dir.path(), name, &format!("dir='{}'\n{body}", self.dir.path().display()))
    }

    /// A bot that copies `<prefix><grade>.txt` to its output, recognising the case by the first
    /// line of the board (each example's differs); cases without such a file get `fallback`.
    fn canned_bot(&self, name: &str, prefix: &str, fallback: &str) -> String {
        let body = format!(
            r#"case "$(head -n 1 "$2")" in
  "........g") g=4 ;; "b#g.S.cmb") g=5 ;; "d.bz..cmj") g=6 ;; "..j....c.") g=7 ;;
esac
if [ -f "$dir/{prefix}$g.txt" ]; then cp "$dir/{prefix}$g.txt" "$3"; else cp "$dir/{fallback}$g.txt" "$3"; fi"#
        );
        self.bot(name, &body)
    }

    fn verify(&self, bot: &str, extra: &[&str]) -> (i32, Value) {
        let corpus = self.corpus().display().to_string();
        let mut args = vec!["verify", corpus.as_str(), "--bot", bot, "--json", "--quiet"];
        args.extend_from_slice(extra);
        let run = arbiter(&args, "");
        assert!(run.status == 0 || run.status == 1, "status {}: {}", run.status, run.stderr);
        (run.status, run.json())
    }
}

/// The verdict of each case, grade 4 first.
fn verdicts(report: &Value) -> Vec<String> {
    report["cases"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap().to_string()).collect()
}

fn case(report: &Value, grade: u64) -> &Value {
    report["cases"].as_array().unwrap().iter().find(|c| c["grade"] == grade).unwrap()
}

fn corpus_bytes(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn the_right_answers_pass_everything_and_score_85() {
    let s = Setup::new();
    let (status, r) = s.verify(&s.canned_bot("right.sh", "right", "right"), &[]);
    assert_eq!(status, 0);
    assert_eq!(verdicts(&r), vec!["pass"; 4]);
    assert_eq!(r["score"], 85.0);
    let c = case(&r, 7);
    assert_eq!(c["move"], "Mf1-f9");
    assert_eq!(c["side"], "white");
    assert!(c["path"].as_str().unwrap().ends_with("grade7/white/worked-example.txt"));
}

#[test]
fn legal_but_wrong_moves_are_wrong_moves_and_the_gate_stops_the_score() {
    let s = Setup::new();
    let (status, r) = s.verify(&s.canned_bot("wrong.sh", "wrong", "right"), &[]);
    assert_eq!(status, 1);
    assert_eq!(verdicts(&r), vec!["pass", "wrong-move", "wrong-move", "wrong-move"]);
    // Grade 4 passed in full (1/1), grade 5 did not: 50% + 0.3% x 0.
    assert_eq!(r["score"], 50.0);
    assert_eq!(r["stopped_at"], 5);
    let c = case(&r, 6);
    assert_eq!(c["move"], "Ma1-a2");
    assert_eq!(c["expected"], serde_json::json!(["Ma1xa7"]));
    assert_eq!(c["satisfies"], serde_json::json!([4, 5]));
    assert!(c["reason"].as_str().unwrap().contains("grade 6 expects Ma1xa7"));
    assert!(c["diff"].as_str().unwrap().contains("+7 m.z.g.zs."));
    // Each stage's count is reported even past the gate.
    let stages = r["stages"].as_array().unwrap();
    assert_eq!(
        stages.iter().map(|s| s["reached"].as_bool().unwrap()).collect::<Vec<_>>(),
        vec![true, true, false, false]
    );
}

#[test]
fn passing_grades_4_and_5_scores_65_plus_grade6_passes() {
    let s = Setup::new();
    // Right on grades 4 and 5, wrong on 6 and 7.
    fs::copy(s.path("right5.txt"), s.path("mixed5.txt")).unwrap();
    let (_, r) = s.verify(&s.canned_bot("mixed.sh", "mixed", "wrong"), &[]);
    let right4 = s.path("mixed4.txt");
    assert!(!right4.exists());
    // There is no wrong4.txt either: cp fails, the bot exits with status 1 and writes nothing.
    assert_eq!(verdicts(&r), vec!["crash", "pass", "wrong-move", "wrong-move"]);
    assert_eq!(r["score"], 0.0);
    fs::copy(s.path("right4.txt"), right4).unwrap();
    let (_, r) = s.verify(&s.canned_bot("mixed.sh", "mixed", "wrong"), &[]);
    assert_eq!(verdicts(&r), vec!["pass", "pass", "wrong-move", "wrong-move"]);
    assert_eq!(r["score"], 65.0);
}

#[test]
fn an_illegal_move_names_the_rule_and_the_move() {
    let s = Setup::new();
    // The General steps from i1 to h2, still on the Dragon's diagonal.
    let illegal =
        "........g\n.........\n.........\n.........\n.........\n.....d...\n.....Z...\n.......G#\n.......#.\n";
    fs::write(s.path("illegal4.txt"), illegal).unwrap();
    let (status, r) = s.verify(&s.canned_bot("illegal.sh", "illegal", "right"), &[]);
    assert_eq!(status, 1);
    let c = case(&r, 4);
    assert_eq!(c["verdict"], "illegal-move");
    assert_eq!(c["move"], "Gi1-h2");
    assert_eq!(c["rule"], "general-in-danger");
    assert!(c["reason"].as_str().unwrap().contains("would still be in danger from the Dragon on f4"));
    assert_eq!(verdicts(&r)[1..], ["pass", "pass", "pass"]);
}

#[test]
fn garbage_nothing_and_unchanged_outputs_get_their_verdicts() {
    let s = Setup::new();
    let (_, r) = s.verify(&s.bot("garbage.sh", "echo 'not a board' > \"$3\""), &[]);
    assert_eq!(verdicts(&r), vec!["malformed-output"; 4]);
    assert!(
        case(&r, 4)["reason"]
            .as_str()
            .unwrap()
            .contains("out.txt:1:1: expected one of `ZBJMSCDGzbjmscdg.#`, found `n`"),
        "{}",
        case(&r, 4)["reason"]
    );
    let (_, r) = s.verify(&s.bot("nothing.sh", "exit 0"), &[]);
    assert_eq!(verdicts(&r), vec!["no-output"; 4]);
    let (_, r) = s.verify(&s.bot("unchanged.sh", "cp \"$2\" \"$3\""), &[]);
    assert_eq!(verdicts(&r), vec!["unchanged"; 4]);
    assert!(case(&r, 7)["diff"].as_str().unwrap().contains("expected (Mf1-f9)"));
}

#[test]
fn crashes_report_the_exit_and_the_last_words() {
    let s = Setup::new();
    let (_, r) =
        s.verify(&s.bot("crash.sh", "echo 'working...'; echo 'Unhandled exception: boom' >&2; exit 3"), &[]);
    assert_eq!(verdicts(&r), vec!["crash"; 4]);
    let c = case(&r, 5);
    assert_eq!(c["process"], "exited with status 3");
    assert_eq!(c["stderr_tail"], "Unhandled exception: boom");
    assert_eq!(c["stdout_head"], "working...");
    let (_, r) = s.verify(&s.bot("segv.sh", "kill -SEGV $$"), &[]);
    assert_eq!(verdicts(&r), vec!["crash"; 4]);
    assert_eq!(case(&r, 6)["process"], "killed by signal 11 (SIGSEGV)");
}

#[test]
fn a_board_written_before_an_error_exit_is_judged() {
    let s = Setup::new();
    let body = "sh \"$dir/right.sh\" \"$@\"; exit 1";
    s.canned_bot("right.sh", "right", "right");
    let (_, r) = s.verify(&s.bot("late.sh", body), &[]);
    assert_eq!(verdicts(&r), vec!["pass"; 4]);
    assert!(case(&r, 4)["reason"].as_str().unwrap().contains("(and then the bot exited with status 1)"));
}

#[test]
fn a_hanging_bot_times_out_without_hanging_the_verifier() {
    let s = Setup::new();
    let start = std::time::Instant::now();
    let (_, r) = s.verify(&s.bot("hang.sh", "sleep 60"), &["--timeout", "0.3", "--jobs", "2"]);
    assert_eq!(verdicts(&r), vec!["timeout"; 4]);
    // A sleeper uses no CPU: its idle time (1 x 0.3 s + 1 s) stops it, and says so.
    let process = case(&r, 4)["process"].as_str().unwrap().to_string();
    assert!(process.contains("its idle limit is 1.3 s (1 x its 300 ms CPU limit + 1 s)"), "{process}");
    // Not a speed check: a verifier that waited for the sleeps would take 120 s.
    assert!(start.elapsed().as_secs_f64() < 60.0 * common::slowdown(), "took {:?}", start.elapsed());
}

#[test]
fn a_flood_of_output_is_capped_and_the_answer_still_judged() {
    let s = Setup::new();
    s.canned_bot("right.sh", "right", "right");
    let (_, r) =
        s.verify(&s.bot("flood.sh", "yes flood | head -c 20000000; sh \"$dir/right.sh\" \"$@\""), &[]);
    assert_eq!(verdicts(&r), vec!["pass"; 4]);
    assert!(case(&r, 4)["stdout_head"].as_str().unwrap().starts_with("flood\nflood"));
}

#[test]
fn the_corpus_is_never_modified_whatever_the_bot_does() {
    let s = Setup::new();
    let before = corpus_bytes(&s.corpus());
    let vandal = s.bot("vandal.sh", "echo garbage > \"$2\"; rm -f \"$2\"; exit 0");
    let (_, r) = s.verify(&vandal, &[]);
    assert_eq!(verdicts(&r), vec!["no-output"; 4]);
    let (_, r) = s.verify(&vandal, &["--same-file"]);
    assert_eq!(verdicts(&r), vec!["no-output"; 4]);
    let (_, r) = s.verify(&s.bot("scribble.sh", "echo garbage > \"$2\""), &["--same-file"]);
    assert_eq!(verdicts(&r), vec!["malformed-output"; 4]);
    assert_eq!(corpus_bytes(&s.corpus()), before);
}

#[test]
fn same_file_passes_one_path_for_input_and_output() {
    let s = Setup::new();
    let body = "[ \"$2\" = \"$3\" ] || { echo \"different paths: $2 $3\" >&2; exit 9; }\nsh \"$dir/right.sh\" \"$@\"";
    s.canned_bot("right.sh", "right", "right");
    let (_, r) = s.verify(&s.bot("same.sh", body), &["--same-file"]);
    assert_eq!(verdicts(&r), vec!["pass"; 4]);
    let (_, r) = s.verify(&s.bot("same.sh", body), &[]);
    assert_eq!(verdicts(&r), vec!["crash"; 4]);
}

#[test]
fn results_do_not_depend_on_the_job_count() {
    let s = Setup::new();
    let strip = |r: &Value| -> Vec<(String, String)> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["verdict"].to_string(), c["move"].to_string()))
            .collect()
    };
    let one = s.verify("builtin:random", &["--jobs", "1", "--seed", "7"]).1;
    let four = s.verify("builtin:random", &["--jobs", "4", "--seed", "7"]).1;
    assert_eq!(strip(&one), strip(&four));
    assert_eq!(one["score"], four["score"]);
}

#[test]
fn builtin_bots_play_their_grades() {
    let s = Setup::new();
    let (status, r) = s.verify("builtin:grade7", &[]);
    assert_eq!((status, verdicts(&r)), (0, vec!["pass".to_string(); 4]));
    let (_, r) = s.verify("builtin:grade6", &["--seed", "3"]);
    assert_eq!(verdicts(&r)[..3], ["pass", "pass", "pass"]);
    let run = arbiter(&["verify", &s.corpus().display().to_string(), "--bot", "builtin:grade9"], "");
    run.assert_refused("the built-in bots are builtin:random, builtin:grade5");
}

#[test]
fn gradescope_and_junit_reports_are_written() {
    let s = Setup::new();
    // Reports go in a folder of their own, which the sandbox hides from the bot, not in the
    // bot's own folder: no bot may read them while they are written.
    let gs = s.path("out/results.json");
    let junit = s.path("out/junit.xml");
    fs::create_dir_all(gs.parent().unwrap()).unwrap();
    let bot = s.canned_bot("wrong.sh", "wrong", "right");
    s.verify(&bot, &["--gradescope", &gs.display().to_string(), "--junit", &junit.display().to_string()]);
    let g: Value = read_json(&gs);
    assert_eq!(g["score"], 50.0);
    let tests = g["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4);
    assert_eq!(tests[0]["status"], "passed");
    // The one grade-4 case carries what passing grade 4 is worth: reaching grade 5's base, 50.
    assert_eq!((tests[0]["score"].as_f64(), tests[0]["max_score"].as_f64()), (Some(50.0), Some(50.0)));
    assert_eq!(tests[1]["status"], "failed");
    assert_eq!(tests[1]["score"], 0.0);
    assert!(tests[1]["output"].as_str().unwrap().contains("expected: `Be7-d8`"));
    // Grades 6 and 7 were not reached: one test each, scoring nothing, saying why.
    assert_eq!(tests[2]["name"], "grade 6: 1 case(s) not reached");
    let unreached = tests[2]["output"].as_str().unwrap();
    assert!(
        unreached.starts_with("**not reached**: grade 6 counts only once grade 5 passes in full"),
        "{unreached}"
    );
    assert_eq!(tests[2]["score"], 0.0);
    assert!(tests[2].get("status").is_none(), "nothing was judged: {}", tests[2]);
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml"));
    assert_eq!(xml.matches("<testcase ").count(), 4);
    assert_eq!(xml.matches("<failure type=\"wrong-move\"").count(), 1);
    assert_eq!(xml.matches("<skipped>not scored: grade 5 did not pass in full").count(), 2);
    common::junit::assert_valid(&xml);
}

#[test]
fn a_replacement_profile_changes_the_arithmetic() {
    let s = Setup::new();
    let profile = s.path("profile.json");
    fs::write(
        &profile,
        r#"{"name": "tiny", "gated": true, "stages": [{"grade": 4, "tests": 1, "base": 0, "per_pass": 40},
            {"grade": 5, "tests": 1, "base": 40, "per_pass": 20}], "games": null}"#,
    )
    .unwrap();
    let bot = s.canned_bot("wrong.sh", "wrong", "right");
    let (_, r) = s.verify(&bot, &["--profile", &profile.display().to_string()]);
    assert_eq!(r["profile"], "tiny");
    assert_eq!(r["score"], 40.0);
    fs::write(&profile, "{not json").unwrap();
    let run = arbiter(
        &[
            "verify",
            &s.corpus().display().to_string(),
            "--bot",
            "builtin:random",
            "--profile",
            &profile.display().to_string(),
        ],
        "",
    );
    run.assert_refused("not a marking profile");
}

#[test]
fn the_course_layout_is_read_and_its_answers_checked_first() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("7/white/tests");
    let answers = dir.path().join("7/white/answers");
    fs::create_dir_all(&tests).unwrap();
    fs::create_dir_all(&answers).unwrap();
    fs::copy(example_path(7), tests.join("1.txt")).unwrap();
    fs::copy(example_path(7), tests.join("2.txt")).unwrap();
    // Case 1's answer is right (with CRLF line ends); case 2's is a legal move that is not it.
    let right = arbiter(&["apply", &example_path(7), "--side", "white", "Mf1-f9"], "").stdout;
    fs::write(answers.join("1.txt"), right.replace('\n', "\r\n")).unwrap();
    fs::write(
        answers.join("2.txt"),
        arbiter(&["apply", &example_path(7), "--side", "white", "Mf1-f8"], "").stdout,
    )
    .unwrap();
    let run = arbiter(
        &["verify", &dir.path().display().to_string(), "--bot", "builtin:grade7", "--json", "-q"],
        "",
    );
    let r: Value = run.json();
    assert_eq!(verdicts(&r), vec!["pass", "pass"]);
    let disagreements = r["disagreements"].as_array().unwrap();
    assert_eq!(disagreements.len(), 1, "{disagreements:?}");
    assert!(
        disagreements[0]
            .as_str()
            .unwrap()
            .starts_with("7/white/2: the course's answer Mf1-f8 is not in the grade-7 set (Mf1-f9)")
    );
}

#[test]
fn a_bad_corpus_board_or_a_missing_bot_stops_before_any_bot_runs() {
    let s = Setup::new();
    fs::write(s.corpus().join("grade5/white/broken.txt"), "........g\n").unwrap();
    let run = arbiter(&["verify", &s.corpus().display().to_string(), "--bot", "builtin:random"], "");
    run.assert_refused("broken.txt:2:1: expected 9 lines, found 1");
    let run = arbiter(&["verify", &s.corpus().display().to_string(), "--bot", "/no/such/bot"], "");
    run.assert_refused("cannot find the bot's program `/no/such/bot`");
    let run = arbiter(&["verify", &s.path("nowhere").display().to_string(), "--bot", "builtin:random"], "");
    assert_eq!(run.status, 2);
}

#[test]
fn robustness_passes_a_careful_bot_and_says_what_a_careless_one_did() {
    let s = Setup::new();
    let (status, r) = {
        let run =
            arbiter(&["verify", "--robustness", "--bot", "builtin:grade7", "--json", "--timeout", "5"], "");
        (run.status, serde_json::from_str::<Value>(&run.stdout).unwrap())
    };
    assert_eq!(status, 0, "{r}");
    assert_eq!((r["passed"].as_u64(), r["total"].as_u64()), (Some(10), Some(10)));

    // Ignores its arguments: always writes a board, never complains, and has a long name.
    let careless = s.bot("careless.sh", "if [ \"$1\" = name ]; then echo 'a name that is far too long for the tournament'; exit 0; fi\ncp \"$dir/right4.txt\" \"$3\" 2>/dev/null; exit 0");
    let run = arbiter(&["verify", "--robustness", "--bot", &careless, "--json"], "");
    assert_eq!(run.status, 1);
    let r: Value = run.json();
    let check =
        |name: &str| r["checks"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap().clone();
    let wrong = check("wrong first argument");
    assert_eq!((wrong["passed"].as_bool(), wrong["wrote_output"].as_bool()), (Some(false), Some(true)));
    assert_eq!(wrong["note"], "it wrote output.txt although the input was bad");
    // With two arguments it has nowhere to write, and says nothing.
    let few = check("too few arguments (2)");
    assert_eq!(few["note"], "it printed no error message");
    let name = check("name");
    assert_eq!(name["passed"], false);
    assert!(name["note"].as_str().unwrap().contains("at most 32 are allowed"));

    // Dies of an unhandled error on every bad input.
    let crashing = s.bot("crashing.sh", "kill -ABRT $$");
    let run = arbiter(&["verify", "--robustness", "--bot", &crashing, "--json"], "");
    let r: Value = run.json();
    assert_eq!(r["passed"], 0);
    assert!(r["checks"][0]["note"].as_str().unwrap().contains("died by SIGABRT"));
}

/// Whether process `pid` is still alive (a zombie left for a lazy init counts as dead).
fn alive(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Without the sandbox (which has tests of its own in `tests/hostile.rs`): Ctrl-C takes the
/// bots' process groups down.
#[test]
fn interrupting_the_verifier_kills_the_bots_it_started() {
    let s = Setup::new();
    let bot = s.bot("sleeper.sh", "echo $$ > \"$dir/pid-$(head -c 9 \"$2\")\"\nexec sleep 60");
    let corpus = s.corpus().display().to_string();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["verify", &corpus, "--bot", &bot, "--timeout", "60", "--jobs", "2", "-q", "--sandbox", "off"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let pids = loop {
        let pids: Vec<String> = fs::read_dir(s.dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("pid-"))
            .map(|e| fs::read_to_string(e.path()).unwrap().trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
        if pids.len() == 2 || std::time::Instant::now() > deadline {
            break pids;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(pids.len(), 2, "two bots should be running");
    assert!(pids.iter().all(|p| alive(p)));
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(pids.iter().all(|p| !alive(p)), "bots outlived the interrupted verifier");
}

#[test]
fn variants_flag_a_bot_that_recognises_cases_instead_of_playing_them() {
    let s = Setup::new();
    // The canned bot knows each example by its first line; a twin's first line differs.
    let (status, r) = s.verify(&s.canned_bot("lookup.sh", "right", "right"), &["--variants"]);
    assert_eq!(status, 1);
    assert_eq!(verdicts(&r), vec!["pass"; 4], "the originals all pass");
    assert_eq!(r["score"], 85.0, "twins are not scored");
    assert_eq!(r["variants"].as_array().unwrap().len(), 8);
    let suspicious = r["suspicious"].as_array().unwrap();
    assert_eq!(suspicious.len(), 8);
    assert!(
        suspicious[0]
            .as_str()
            .unwrap()
            .starts_with("grade4/white/worked-example passes but its mirror twin fails")
    );
    // A bot that plays the game passes the twins too.
    let (status, r) = s.verify("builtin:grade7", &["--variants"]);
    assert_eq!(status, 0);
    assert!(r["suspicious"].as_array().unwrap().is_empty());
    assert_eq!(r["variants"][1]["name"], "grade4/white/worked-example@swap");
    assert_eq!(r["variants"][1]["side"], "black");
}

#[test]
fn a_bot_that_fails_every_case_the_same_way_is_pointed_to_same_file() {
    let s = Setup::new();
    let corpus = s.corpus().display().to_string();
    // Writes its answer into the input file only: without --same-file it never leaves an output.
    let bot = sh_bot(s.dir.path(), "in_place.sh", "echo e2-e3 >> \"$2\"\nexit 0");
    let run = arbiter(&["verify", &corpus, "--bot", &bot, "-q"], "");
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("needs --same-file"), "{}", run.stdout);
    // A bot that fails the same way without touching its input file is not told so: the hint
    // is for a bot that writes there.
    let quiet = sh_bot(s.dir.path(), "quiet.sh", "cat \"$2\" > /dev/null\nexit 0");
    let run = arbiter(&["verify", &corpus, "--bot", &quiet, "-q"], "");
    assert_eq!(run.status, 1);
    assert!(!run.stdout.contains("needs --same-file"), "{}", run.stdout);
    // A bot that fails in different ways gets no such hint.
    let run = arbiter(&["verify", &corpus, "--bot", "builtin:mutant-no-danger", "-q"], "");
    assert!(!run.stdout.contains("needs --same-file"), "{}", run.stdout);
}

/// A bot that crashes on every case, saying so on stderr; on grade 4 it plays the right move, so
/// the gate stops at grade 5 and grades 6 and 7 are not reached.
fn crashing_after_grade4(s: &Setup) -> String {
    s.canned_bot("right.sh", "right", "right");
    s.bot(
        "crashy.sh",
        r#"if [ "$(head -n 1 "$2")" = "........g" ]; then exec sh "$dir/right.sh" "$@"; fi
echo "Traceback (most recent call last): File $dir/bot.py, line 3: Unhandled exception: boom" >&2; exit 134"#,
    )
}

#[test]
fn gradescope_scores_add_up_hide_what_is_hidden_and_show_no_grader_path() {
    let s = Setup::new();
    let gs = s.path("out/results.json");
    let json_out = s.path("out/report.json");
    fs::create_dir_all(gs.parent().unwrap()).unwrap();
    let bot = crashing_after_grade4(&s);
    let root = s.dir.path().display().to_string();
    let (status, _) = s.verify(
        &bot,
        &[
            "--gradescope",
            &gs.display().to_string(),
            "--json-out",
            &json_out.display().to_string(),
            "--hidden",
            "7",
            "--relative-to",
            &root,
        ],
    );
    assert_eq!(status, 1);
    let text = fs::read_to_string(&gs).unwrap();
    let g: Value = serde_json::from_str(&text).unwrap();
    // Grade 4 passed (50 with this one-case corpus), grade 5 crashed: the score is 50.
    assert_eq!(g["score"], 50.0);
    let tests = g["tests"].as_array().unwrap();
    let sum: f64 = tests.iter().map(|t| t["score"].as_f64().unwrap()).sum();
    assert!((sum - 50.0).abs() < 1e-9, "tests add up to {sum}");
    assert!(g["execution_time"].is_f64(), "{}", g["execution_time"]);
    assert_eq!((g["output_format"].as_str(), g["stdout_visibility"].as_str()), (Some("md"), Some("hidden")));
    let by_name =
        |grade: u8| tests.iter().find(|t| t["name"] == format!("grade{grade}/white/worked-example")).unwrap();
    let stage = |grade: u8| {
        tests.iter().find(|t| t["name"] == format!("grade {grade}: 1 case(s) not reached")).unwrap()
    };
    assert_eq!(stage(7)["visibility"], "hidden");
    assert_eq!(stage(6)["visibility"], "visible");
    let crash = by_name(5)["output"].as_str().unwrap();
    assert!(crash.contains("expected: `Be7-d8`"), "{crash}");
    assert!(crash.contains("```text\nTraceback (most recent call last)"), "{crash}");
    assert!(crash.contains("```sh\nprintf '%s\\n' 'b#g.S.cmb'"), "{crash}");
    assert!(crash.contains("sh crashy.sh white in.txt out.txt"), "{crash}");
    let unreached = stage(6)["output"].as_str().unwrap();
    assert!(
        unreached.contains("grade 6 counts only once grade 5 passes in full, and 0 of its 1"),
        "{unreached}"
    );
    // How the unreached cases went, for information: counts, never their answers.
    assert!(unreached.contains("how they went: 1 crash"), "{unreached}");
    assert!(!text.contains("Ma1xa7") && !text.contains("Mf1-f9"), "answers of unreached stages: {text}");
    // No absolute path of the grader's anywhere: not the scratch folder, not arbiter's own.
    let report = fs::read_to_string(&json_out).unwrap();
    for (name, content) in [("results.json", &text), ("report.json", &report)] {
        assert!(!content.contains(&root), "{name} shows {root}: {content}");
        assert!(!content.contains(env!("CARGO_BIN_EXE_arbiter")), "{name} shows arbiter's path");
    }
    let r: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(r["schema_version"], 1);
    assert_eq!(case(&r, 5)["path"], "grade5/white/worked-example.txt");
    assert!(case(&r, 5)["stderr_tail"].as_str().unwrap().contains("File bot.py"), "{report}");
}

#[test]
fn crashes_timeouts_and_missing_outputs_list_the_expected_moves() {
    let s = Setup::new();
    for (bot, extra) in [
        (s.bot("crash.sh", "exit 3"), vec![]),
        (s.bot("silent.sh", "exit 0"), vec![]),
        (s.bot("hang.sh", "sleep 60"), vec!["--timeout", "0.3", "--jobs", "4"]),
    ] {
        let (_, r) = s.verify(&bot, &extra);
        for (grade, mv) in RIGHT {
            let c = case(&r, u64::from(grade));
            assert_ne!(c["verdict"], "pass");
            assert_eq!(c["expected"], serde_json::json!([mv]), "{c}");
        }
    }
}

#[test]
fn junit_marks_crashes_as_errors_unreached_stages_as_skipped_and_keeps_stderr() {
    let s = Setup::new();
    let junit = s.path("out/junit.xml");
    fs::create_dir_all(junit.parent().unwrap()).unwrap();
    s.verify(&crashing_after_grade4(&s), &["--junit", &junit.display().to_string()]);
    let xml = fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<error type=\"crash\"").count(), 1, "{xml}");
    assert_eq!(xml.matches("<skipped>").count(), 2, "{xml}");
    common::junit::assert_valid(&xml);
    assert!(xml.contains("errors=\"1\" skipped=\"0\""), "{xml}");
    assert!(xml.contains("<system-err>--- grade5/white/worked-example ---\nTraceback"), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
}

/// The human report of `bot`, with `env` set.
fn human(s: &Setup, bot: &str, extra: &[&str], env: &[(&str, &str)]) -> String {
    let corpus = s.corpus().display().to_string();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.args(["verify", &corpus, "--bot", bot, "-q"]).args(extra);
    // The test's own environment must not decide: only what each check sets.
    for k in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        command.env_remove(k);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_human_report_fits_80_columns_and_groups_identical_failures() {
    let s = Setup::new();
    let long = "x".repeat(150);
    let bot =
        s.bot("loud.sh", &format!("echo 'Unhandled exception: {long} and more words to fold' >&2; exit 1"));
    let text =
        human(&s, &format!("{bot} --an-option-that-makes-the-command-long"), &["--details", "10"], &[]);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line:?}", line.chars().count());
    }
    // One crash said the same way on every case is one group, with the answers it missed.
    assert!(text.contains("\n1. crash: 4 cases\n   the bot said: Unhandled exception:"), "{text}");
    assert!(text.contains("   the answers it missed: "), "{text}");
    // Three shown in full, the fourth a line of its own with its whole reason.
    assert_eq!(text.matches("  CRASH\n").count(), 3, "{text}");
    assert!(text.contains("\n   grade7/white/worked-example  crash  -: "), "{text}");
    assert!(text.contains("  expected: Zombie capture Zf3xf4"), "{text}");
    // With no board written to diff, the position is drawn.
    assert!(text.contains("\n        a b c d e f g h i\n     9  . . . . . . . . g  9\n"), "{text}");
    assert!(text.contains("slowest cases"), "{text}");
    // A folded reproduce line is one command still: continuations end in a backslash.
    let reproduce = text.split("  reproduce:\n").nth(1).unwrap();
    assert!(reproduce.lines().next().unwrap().ends_with(" \\"), "{reproduce}");
}

/// Failures come in the order to fix them: the one illegal move before the grade-7 misses
/// that come earlier in the corpus, grouped by cause (grade 7's misses are one), every move named with its
/// kind, and every reason whole (folded, never cut).
#[test]
fn the_report_puts_the_illegal_move_first_and_cuts_no_reason() {
    let run = arbiter(
        &["verify", "corpus", "--bot", "builtin:mutant-catapult-protected", "-q", "--color", "never"],
        "",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let text = run.stdout;
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let failures = text.split("in the order to fix them:\n").nth(1).unwrap();
    let first = failures.lines().find(|l| l.starts_with("1. ")).unwrap();
    assert_eq!(first, "1. illegal-move (protected-by-sentinel; Catapult shot): 1 case", "{text}");
    assert!(failures.contains("  ILLEGAL-MOVE\n  played:   Catapult shot C"), "{failures}");
    // The wrong answers have one cause, grade 7's, however many kinds of move they missed.
    assert!(failures.contains("\n2. wrong-move in grade 7: "), "{failures}");
    assert!(failures.contains("grade 7 asks for the move of greatest material gain"), "{failures}");
    // Wrong answers name the move played and the one expected with their kinds.
    assert!(
        failures.contains("  expected: Zombie leap Z") || failures.contains("  expected: Dragon capture D")
    );

    let run =
        arbiter(&["verify", "corpus", "--bot", "builtin:mutant-catapult-protected", "--json", "-q"], "");
    let v: Value = run.json();
    let groups = v["failures"].as_array().unwrap();
    assert_eq!(groups[0]["signature"]["verdict"], "illegal-move");
    assert!(
        groups[1..].iter().all(|g| g["signature"]["verdict"] == "wrong-move" && g["grade"] == 7),
        "{groups:?}"
    );
    let counted: u64 = groups.iter().map(|g| g["count"].as_u64().unwrap()).sum();
    let failed = v["cases"].as_array().unwrap().iter().filter(|c| c["verdict"] != "pass").count();
    assert_eq!(counted as usize, failed);
    // Every reason of the cases shown is in the text whole: only the folds differ.
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squeeze(&text);
    let illegal = groups[0]["cases"][0].as_str().unwrap();
    let case = v["cases"].as_array().unwrap().iter().find(|c| c["name"] == illegal).unwrap();
    assert!(text.contains(&squeeze(case["reason"].as_str().unwrap())), "{}", case["reason"]);
}

#[test]
fn colour_follows_the_option_and_no_color() {
    let s = Setup::new();
    let bot = s.bot("crash.sh", "exit 3");
    let escape = "\u{1b}[";
    assert!(
        !human(&s, &bot, &["--color", "auto"], &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")])
            .contains(escape)
    );
    assert!(!human(&s, &bot, &["--color", "never"], &[("CLICOLOR_FORCE", "1")]).contains(escape));
    // CLICOLOR_FORCE alone asks for colour even into a pipe: NO_COLOR above is what stopped it.
    assert!(human(&s, &bot, &["--color", "auto"], &[("CLICOLOR_FORCE", "1")]).contains(escape));
    // Into a pipe, auto means none; always means some.
    assert!(!human(&s, &bot, &[], &[]).contains(escape));
    assert!(human(&s, &bot, &["--color", "always"], &[]).contains(escape));
}

#[test]
fn create_output_serves_a_bot_that_only_opens_an_existing_file() {
    let s = Setup::new();
    s.canned_bot("right.sh", "right", "right");
    let picky = s.bot(
        "picky.sh",
        r#"[ -e "$3" ] || { echo "no output file to open" >&2; exit 4; }; exec sh "$dir/right.sh" "$@""#,
    );
    let (status, r) = s.verify(&picky, &[]);
    assert_eq!(status, 1);
    assert!(r["cases"].as_array().unwrap().iter().all(|c| c["verdict"] == "crash"), "{r}");
    let (status, r) = s.verify(&picky, &["--create-output"]);
    assert_eq!(status, 0, "{r}");
    assert!(r["cases"].as_array().unwrap().iter().all(|c| c["verdict"] == "pass"), "{r}");
}

#[test]
fn a_crlf_shebang_or_a_missing_script_is_refused_before_any_case() {
    let s = Setup::new();
    let corpus = s.corpus().display().to_string();
    // Saved with Windows line endings: the kernel would look for `/bin/sh\r`.
    let crlf = s.path("crlf.sh");
    write_script(&crlf, "#!/bin/sh\r\necho hi\r\n");
    let run = arbiter(&["verify", &corpus, "--bot", &crlf.display().to_string(), "-q"], "");
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("Windows line endings") && run.stderr.contains("dos2unix"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "no case ran: {}", run.stdout);
    // A script named in the command that is not there: one line, not 4 failed cases.
    let run = arbiter(&["verify", &corpus, "--bot", "sh nosuch.py", "-q"], "");
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("names `nosuch.py`, but there is no such file"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn a_timeout_is_run_again_once_before_it_counts_and_every_verdict_has_cpu_time() {
    let s = Setup::new();
    s.canned_bot("right.sh", "right", "right");
    // Hangs the first time it sees each case, then answers: a machine busy for a moment.
    let hiccup = s.bot(
        "hiccup.sh",
        r#"key=$(head -n 1 "$2" | tr -c 'a-zA-Z0-9\n' _)
if [ ! -e "$dir/seen-$key" ]; then touch "$dir/seen-$key"; sleep 30; fi
exec sh "$dir/right.sh" "$@""#,
    );
    let off = ["--sandbox", "off", "--timeout", "0.5", "--jobs", "4"];
    let (status, r) = s.verify(&hiccup, &off);
    assert_eq!(status, 0, "{r}");
    for c in r["cases"].as_array().unwrap() {
        assert_eq!(c["verdict"], "pass", "{c}");
        assert!(c["timeout_rerun"]["process"].as_str().unwrap().contains("timed out"), "{c}");
    }
    assert_eq!(r["timeout_reruns"], serde_json::json!({"rerun": 4, "timed_out_again": 0}));
    // A bot that hangs every time times out twice, and then counts.
    let (_, r) = s.verify(&s.bot("hang.sh", "sleep 30"), &off);
    assert_eq!(r["timeout_reruns"], serde_json::json!({"rerun": 4, "timed_out_again": 4}));
    assert!(verdicts(&r).iter().all(|v| v == "timeout"), "{r}");
    // CPU time on every verdict: timeouts, crashes, silence, passes, built-in bots.
    let (_, crash) = s.verify(&s.bot("crash.sh", "exit 3"), &off);
    let (_, silent) = s.verify(&s.bot("silent.sh", "exit 0"), &off);
    let (_, builtin) = s.verify("builtin:grade7", &[]);
    for report in [&r, &crash, &silent, &builtin] {
        for c in report["cases"].as_array().unwrap() {
            assert!(c["cpu_ms"].is_u64(), "no cpu_ms: {c}");
        }
    }
    let text = human(&s, &s.bot("hang2.sh", "sleep 30"), &off, &[]);
    assert!(text.contains("timeouts: 4 case(s) timed out and were run again"), "{text}");
}

#[test]
fn the_header_says_how_busy_the_machine_was_and_a_small_corpus_is_no_course_score() {
    let s = Setup::new();
    let (status, r) = s.verify("builtin:grade7", &[]);
    assert_eq!(status, 0);
    assert!(r["machine"]["cores"].as_u64().unwrap() >= 1, "{}", r["machine"]);
    assert_eq!(r["course_score"], false);
    assert_eq!(r["passed"], 4);
    let corpus = s.corpus().display().to_string();
    let run = arbiter(&["verify", &corpus, "--bot", "builtin:grade7", "-q"], "");
    assert!(run.stdout.contains("\nmachine: "), "{}", run.stdout);
    assert!(run.stdout.contains("not a course score: 4 of 4 cases passed"), "{}", run.stdout);
    assert_eq!(
        r["corpus_mismatch"],
        "grade 4: 1 case(s), not 50, grade 5: 1 case(s), not 50, grade 6: 1 case(s), not 50, grade 7: 1 case(s), not 50"
    );
    assert!(!run.stdout.contains("every case passed"), "{}", run.stdout);
    // One grade of the corpus: nothing of grades 5 to 7 ran, so no 85%.
    let grade4 = s.corpus().join("grade4").display().to_string();
    let run = arbiter(&["verify", &grade4, "--bot", "builtin:grade7", "-q"], "");
    assert!(run.stdout.contains("not a course score: 1 of 1 cases passed"), "{}", run.stdout);
    assert!(!run.stdout.contains("85.00%") && !run.stdout.contains("every case passed"), "{}", run.stdout);
}
