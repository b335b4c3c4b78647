//! Result files are valid whenever they are read. `verify --gradescope/--junit/--json-out` are
//! marked incomplete until the run ends, and complete and equal to `--json` when it does;
//! `match --records` writes each game as it ends.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{arbiter, arbiter_ok, example_path, read_json, sh_bot, test_names, write_script};
use serde_json::Value;

/// A scratch folder with one worked example per grade, white to move, and a right answer for
/// each in `right<grade>.txt`.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (grade, mv) in [(4, "Zf3xf4"), (5, "Be7-d8"), (6, "Ma1xa7"), (7, "Mf1-f9")] {
        let case = dir.path().join(format!("corpus/grade{grade}/white/worked-example.txt"));
        fs::create_dir_all(case.parent().unwrap()).unwrap();
        fs::copy(example_path(grade), &case).unwrap();
        let run = arbiter_ok(&["apply", &example_path(grade), "--side", "white", mv], "");
        fs::write(dir.path().join(format!("right{grade}.txt")), run.stdout).unwrap();
    }
    dir
}

/// A bot that plays the right answer, except on the grade-6 case, where it records its pid in
/// `sleeper.pid` and sleeps for a minute.
fn bot(dir: &Path) -> String {
    let body = format!(
        r#"dir='{}'
case "$(head -n 1 "$2")" in
  "........g") g=4 ;; "b#g.S.cmb") g=5 ;; "d.bz..cmj") g=6 ;; "..j....c.") g=7 ;;
esac
if [ "$g" = 6 ]; then echo $$ > "$dir/sleeper.pid"; exec sleep 60; fi
cp "$dir/right$g.txt" "$3""#,
        dir.display()
    );
    sh_bot(dir, "bot.sh", &body)
}

struct Outputs {
    gradescope: PathBuf,
    junit: PathBuf,
    json: PathBuf,
}

impl Outputs {
    fn in_folder(dir: &Path) -> Outputs {
        let out = dir.join("out");
        fs::create_dir_all(&out).unwrap();
        Outputs {
            gradescope: out.join("results.json"),
            junit: out.join("junit.xml"),
            json: out.join("report.json"),
        }
    }

    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for (option, path) in
            [("--gradescope", &self.gradescope), ("--junit", &self.junit), ("--json-out", &self.json)]
        {
            args.push(option.to_string());
            args.push(path.display().to_string());
        }
        args
    }

    fn json(&self) -> Value {
        read_json(&self.json)
    }
}

/// Checks that `xml` is well formed as far as JUnit readers care: one declaration, balanced
/// elements with quoted attributes, comments closed, no stray `<` or `&`. Returns the names of
/// the elements in document order.
/// Runs arbiter with `args` in the background (its output discarded) until `ready` (given the
/// path `DIR/sleeper.pid`, where the sleeping bot writes its pid) says Ok; the test fails with
/// its Err after 20 s. Then kills arbiter with SIGKILL, which leaves it no chance to tidy up, and
/// the sleeping bot, which runs in a session of its own and outlives a SIGKILLed arbiter.
fn kill_when_ready<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    dir: &Path,
    mut ready: impl FnMut(&Path) -> Result<(), String>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let sleeper = dir.join("sleeper.pid");
    while let Err(why) = ready(&sleeper) {
        assert!(Instant::now() < deadline, "{why}");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let pid: i32 = fs::read_to_string(&sleeper).unwrap().trim().parse().unwrap();
    // SAFETY: kill has no memory-safety preconditions; the pid is the test's own bot.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

fn elements(xml: &str) -> Vec<String> {
    let body = xml.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").expect("an XML declaration");
    let mut open: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find(['<', '&']) {
        let (text, tail) = rest.split_at(at);
        assert!(open.is_empty() || !text.contains('>'), "stray > in {text:?}");
        if tail.starts_with('&') {
            let end = tail.find(';').expect("an entity ends with ;");
            assert!(
                ["&amp", "&lt", "&gt", "&quot", "&apos"].contains(&&tail[..end]),
                "entity {}",
                &tail[..end]
            );
            rest = &tail[end + 1..];
            continue;
        }
        if let Some(comment) = tail.strip_prefix("<!--") {
            let end = comment.find("-->").expect("a closed comment");
            rest = &comment[end + 3..];
            continue;
        }
        let end = tail.find('>').expect("a closed tag");
        let tag = &tail[1..end];
        assert!(!tag.contains('<'), "a tag inside a tag: {tag}");
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else {
            let name = tag.split([' ', '/']).next().unwrap().to_string();
            seen.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &tail[end + 1..];
    }
    assert!(open.is_empty(), "unclosed elements {open:?}");
    assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
    seen
}

/// An XML element: its name, attributes, child elements and the text directly in it.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    children: Vec<Element>,
    text: String,
}

impl Element {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Parses the XML arbiter writes (checked well formed by [`elements`] first) into a tree.
fn tree(xml: &str) -> Element {
    elements(xml);
    let mut stack = vec![Element::default()];
    let mut rest = xml.split_once("?>").unwrap().1;
    while let Some(at) = rest.find('<') {
        stack.last_mut().unwrap().text.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(comment) = tail.strip_prefix("<!--") {
            rest = &comment[comment.find("-->").unwrap() + 3..];
            continue;
        }
        let end = tail.find('>').unwrap();
        let tag = &tail[1..end];
        rest = &tail[end + 1..];
        if tag.starts_with('/') {
            let done = stack.pop().unwrap();
            stack.last_mut().unwrap().children.push(done);
            continue;
        }
        let closed = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, mut attrs) = tag.split_once(' ').unwrap_or((tag, ""));
        let mut element = Element { name: name.to_string(), ..Element::default() };
        while let Some(eq) = attrs.find("=\"") {
            let key = attrs[..eq].trim().to_string();
            let value_end = attrs[eq + 2..].find('"').unwrap();
            element.attributes.push((key, attrs[eq + 2..eq + 2 + value_end].to_string()));
            attrs = &attrs[eq + 2 + value_end + 1..];
        }
        if closed {
            stack.last_mut().unwrap().children.push(element);
        } else {
            stack.push(element);
        }
    }
    let mut document = stack.pop().unwrap();
    assert_eq!(document.children.len(), 1, "one root element");
    document.children.pop().unwrap()
}

/// Checks the constraints the Ant JUnit schema as Windy Road published it (tests/data/JUnit.xsd)
/// puts on a `<testsuites>` document: the elements, their order and number, the required
/// attributes and their types, no attribute the schema does not declare, and counts that agree
/// with the test cases. When xmllint is installed, also validates against every schema in
/// tests/data (Jenkins' and the xUnit plugin's too).
fn assert_junit_schema(xml: &str) {
    let root = tree(xml);
    assert_eq!(root.name, "testsuites");
    assert!(root.attributes.is_empty(), "<testsuites> takes no attributes: {:?}", root.attributes);
    let int = |e: &Element, name: &str| -> usize {
        let v = e.attribute(name).unwrap_or_else(|| panic!("<{}> lacks {name}", e.name));
        v.parse().unwrap_or_else(|_| panic!("{name}=\"{v}\" is not an int"))
    };
    let decimal = |e: &Element, name: &str| {
        let v = e.attribute(name).unwrap_or_else(|| panic!("<{}> lacks {name}", e.name));
        assert!(
            !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.') && v.matches('.').count() <= 1,
            "{name}=\"{v}\" is not a decimal"
        );
    };
    let only = |e: &Element, allowed: &[&str]| {
        for (n, _) in &e.attributes {
            assert!(allowed.contains(&n.as_str()), "<{}> has an attribute the schema lacks: {n}", e.name);
        }
    };
    for (id, suite) in root.children.iter().enumerate() {
        assert_eq!(suite.name, "testsuite");
        only(
            suite,
            &[
                "name",
                "package",
                "id",
                "tests",
                "failures",
                "errors",
                "skipped",
                "time",
                "timestamp",
                "hostname",
            ],
        );
        for token in ["name", "package", "hostname"] {
            assert!(
                suite.attribute(token).is_some_and(|v| !v.trim().is_empty()),
                "{token} in {:?}",
                suite.attributes
            );
        }
        assert_eq!(int(suite, "id"), id, "ids count from 0");
        let stamp = suite.attribute("timestamp").expect("a timestamp");
        let shape: String = stamp.chars().map(|c| if c.is_ascii_digit() { 'n' } else { c }).collect();
        assert_eq!(shape, "nnnn-nn-nnTnn:nn:nn", "timestamp {stamp}: no zone, no fractions");
        decimal(suite, "time");
        let names: Vec<&str> = suite.children.iter().map(|c| c.name.as_str()).collect();
        let cases = names.iter().filter(|n| **n == "testcase").count();
        let mut expected = vec!["properties"];
        expected.extend(std::iter::repeat_n("testcase", cases));
        expected.extend(["system-out", "system-err"]);
        assert_eq!(names, expected, "a suite holds properties, test cases, system-out, system-err");
        for p in &suite.children[0].children {
            assert_eq!(p.name, "property");
            only(p, &["name", "value"]);
            assert!(p.attribute("name").is_some_and(|n| !n.is_empty()) && p.attribute("value").is_some());
        }
        for stream in &suite.children[cases + 1..] {
            assert!(stream.children.is_empty() && stream.attributes.is_empty());
        }
        let mut counts = [0usize; 3];
        for case in &suite.children[1..=cases] {
            only(case, &["name", "classname", "time"]);
            assert!(case.attribute("name").is_some() && case.attribute("classname").is_some());
            decimal(case, "time");
            assert!(case.children.len() <= 1, "at most one of skipped, error, failure");
            if let Some(outcome) = case.children.first() {
                let slot = ["failure", "error", "skipped"].iter().position(|n| *n == outcome.name);
                counts[slot.unwrap_or_else(|| panic!("<{}> in a test case", outcome.name))] += 1;
                assert!(outcome.children.is_empty(), "text only in <{}>", outcome.name);
                if outcome.name == "skipped" {
                    // Jenkins' schema allows no attribute there: the reason is the text.
                    assert!(
                        outcome.attributes.is_empty(),
                        "<skipped> takes no attribute: {:?}",
                        outcome.attributes
                    );
                    assert!(!outcome.text.trim().is_empty(), "a skipped test says why");
                } else {
                    only(outcome, &["type", "message"]);
                    assert!(outcome.attribute("type").is_some(), "<{}> needs a type", outcome.name);
                }
            }
        }
        assert_eq!(int(suite, "tests"), cases);
        assert_eq!([int(suite, "failures"), int(suite, "errors"), int(suite, "skipped")], counts);
    }
    // The schemas themselves, Jenkins' and the xUnit plugin's too, where xmllint is installed.
    common::junit::assert_valid(xml);
}

#[test]
fn a_killed_run_leaves_valid_files_with_the_cases_it_finished() {
    let dir = setup();
    let out = Outputs::in_folder(dir.path());
    let corpus = dir.path().join("corpus").display().to_string();
    let mut args: Vec<String> =
        // No sandbox: the bot signals the test through a file beside it (the sandbox would keep
        // its folder read-only), and the test kills it itself.
        ["verify", &corpus, "--bot", &bot(dir.path()), "--jobs", "1", "--timeout", "60", "-q", "--sandbox", "off"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    args.extend(out.args());
    // Killed once the two cases before the sleeping one are in the files.
    kill_when_ready(&args, dir.path(), |sleeper| {
        let written = fs::read_to_string(&out.json).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
        let ready =
            sleeper.exists() && written.is_some_and(|r| r["cases"].as_array().is_some_and(|c| c.len() == 2));
        ready.then_some(()).ok_or_else(|| "the partial files never showed two cases".to_string())
    });

    let report = out.json();
    assert_eq!(report["complete"], false);
    assert_eq!(report["planned_cases"], 4);
    let names: Vec<&str> =
        report["cases"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["grade4/white/worked-example", "grade5/white/worked-example"]);
    // Grades 4 and 5 passed; grade 6 has not: 65% + 0.2% per pass, no more than the run could give.
    assert_eq!(report["score"], 65.0);
    assert_eq!(report["stopped_at"], 6);

    let g: Value = read_json(&out.gradescope);
    assert_eq!(g["score"], 65.0);
    assert_eq!(g["tests"].as_array().unwrap().len(), 2);
    assert!(
        g["output"].as_str().unwrap().starts_with("INCOMPLETE: 2 of 4 cases had run when this was written"),
        "{}",
        g["output"]
    );

    let xml = fs::read_to_string(&out.junit).unwrap();
    assert_eq!(elements(&xml).iter().filter(|e| *e == "testcase").count(), 2);
    assert!(xml.contains("<property name=\"complete\" value=\"false\"/>"), "{xml}");
    assert!(xml.contains("<!-- INCOMPLETE: 2 of 4 cases run;"), "{xml}");
    assert_junit_schema(&xml);

    // Only the three files: every write was a rename of a finished temporary file.
    let mut left: Vec<String> = fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    left.sort();
    assert_eq!(left, vec!["junit.xml", "report.json", "results.json"]);
}

#[test]
fn a_finished_run_marks_the_files_complete_and_json_out_matches_json() {
    let dir = setup();
    let out = Outputs::in_folder(dir.path());
    let corpus = dir.path().join("corpus").display().to_string();
    let mut args = vec![
        "verify".to_string(),
        corpus,
        "--bot".into(),
        "builtin:grade7".into(),
        "--json".into(),
        "-q".into(),
    ];
    args.extend(out.args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = arbiter_ok(&args, "");
    let mut printed: Value = run.json();
    let mut written = out.json();
    assert_eq!(written["complete"], true);
    assert_eq!(written["cases"].as_array().unwrap().len(), 4);
    // The same report but for the time taken, measured when each was made.
    printed["elapsed_ms"] = Value::Null;
    written["elapsed_ms"] = Value::Null;
    assert_eq!(printed, written);
    let g: Value = read_json(&out.gradescope);
    assert_eq!((g["score"].as_f64(), g["tests"].as_array().unwrap().len()), (Some(85.0), 4));
    // Four cases are not the course's 200: the headline says so rather than give 85.
    assert!(
        g["output"].as_str().unwrap().starts_with("Not a course score: 4 of 4 cases passed"),
        "{}",
        g["output"]
    );
    assert_eq!(g["extra_data"]["course_score"], false);
    let xml = fs::read_to_string(&out.junit).unwrap();
    assert_eq!(elements(&xml).iter().filter(|e| *e == "testcase").count(), 4);
    assert!(!xml.contains("INCOMPLETE") && xml.contains("<property name=\"complete\" value=\"true\"/>"));
    assert_junit_schema(&xml);
}

#[test]
fn an_unwritable_result_path_stops_the_run_before_any_bot_runs() {
    let dir = setup();
    let marker = dir.path().join("bot-ran");
    let bot = format!("sh -c 'touch {}' bot", marker.display());
    let corpus = dir.path().join("corpus").display().to_string();
    let target = dir.path().join("no-such-folder/results.json");
    let run =
        arbiter(&["verify", &corpus, "--bot", &bot, "-q", "--gradescope", &target.display().to_string()], "");
    assert_eq!(run.status, 2);
    assert!(run.stderr.starts_with(&format!("error: cannot write {}: ", target.display())), "{}", run.stderr);
    assert!(!marker.exists());
}

#[test]
fn a_killed_match_leaves_the_records_of_the_games_it_finished() {
    let dir = tempfile::tempdir().unwrap();
    // Forfeits its first game at once (exit 1, no board), then hangs in the second.
    let bot = sh_bot(
        dir.path(),
        "bot.sh",
        &format!(
            "dir='{}'\nif [ -f \"$dir/called\" ]; then echo $$ > \"$dir/sleeper.pid\"; exec sleep 60; fi\ntouch \"$dir/called\"; exit 1",
            dir.path().display()
        ),
    );
    let records = dir.path().join("games");
    let args = [
        "match".to_string(),
        "--bot".into(),
        "builtin:grade7".into(),
        "--bot".into(),
        bot,
        "--games".into(),
        "2".into(),
        "--jobs".into(),
        "1".into(),
        "--timeout".into(),
        "60".into(),
        "-q".into(),
        // No sandbox: the bot keeps its state in a file beside it, read-only in the sandbox.
        "--sandbox".into(),
        "off".into(),
        "--records".into(),
        records.display().to_string(),
    ];
    kill_when_ready(&args, dir.path(), |sleeper| {
        let ready = sleeper.exists() && !fs::read_to_string(sleeper).unwrap().trim().is_empty();
        ready.then_some(()).ok_or_else(|| "the second game never started".to_string())
    });

    let mut names: Vec<String> =
        fs::read_dir(&records).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    assert_eq!(names, vec!["game-001.txt"]);
    let game = records.join("game-001.txt");
    assert!(fs::read_to_string(&game).unwrap().contains("ending: crash"));
    let run = arbiter_ok(&["replay", &game.display().to_string()], "");
    assert!(run.stdout.contains("1 of 1 game(s) replayed and confirmed"), "{}", run.stdout);
}

/// A bot that plays the right answer at grade 4 and leaves the board unchanged elsewhere.
fn right_then_unchanged(dir: &Path) -> String {
    let body = format!(
        "if [ \"$(head -n 1 \"$2\")\" = '........g' ]; then cp '{}/right4.txt' \"$3\"; else cp \"$2\" \"$3\"; fi",
        dir.display()
    );
    sh_bot(dir, "unchanged.sh", &body)
}

#[test]
fn hidden_and_not_run_answers_never_reach_results_json_and_an_unreached_stage_is_one_test() {
    let dir = setup();
    let out = Outputs::in_folder(dir.path());
    let corpus = dir.path().join("corpus").display().to_string();
    let bot = right_then_unchanged(dir.path());
    let mut args: Vec<String> =
        ["verify", &corpus, "--bot", &bot, "-q", "--hidden", "5", "--stop-at-gate", "--sandbox", "off"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    args.extend(out.args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = arbiter(&args, "");
    assert_eq!(run.status, 1, "{}", run.stderr);
    let results = fs::read_to_string(&out.gradescope).unwrap();
    let junit = fs::read_to_string(&out.junit).unwrap();
    // Grade 5 failed (hidden), grades 6 and 7 were never run: none of their answers is in a file
    // a student may see, nor the hidden case's board.
    for answer in ["Be7-d8", "Ma1xa7", "Mf1-f9", "b#g.S.cmb"] {
        assert!(!results.contains(answer), "results.json shows {answer}: {results}");
        assert!(!junit.contains(answer), "junit.xml shows {answer}: {junit}");
    }
    let g: Value = serde_json::from_str(&results).unwrap();
    assert_eq!(
        test_names(&g),
        vec![
            "grade4/white/worked-example",
            "grade5/white/worked-example",
            "grade 6: 1 case(s) not reached",
            "grade 7: 1 case(s) not reached",
        ]
    );
    let hidden = &g["tests"][1];
    assert_eq!((hidden["visibility"].as_str(), hidden["status"].as_str()), (Some("hidden"), Some("failed")));
    assert!(hidden["output"].as_str().unwrap().starts_with("**unchanged**\n"), "{hidden}");
    // The grader's own report keeps the hidden case's answer; a case not run has none.
    let report = out.json();
    assert_eq!(report["cases"][1]["expected"], serde_json::json!(["Be7-d8"]));
    assert_eq!(report["cases"][2]["verdict"], "not-run");
    assert_eq!(report["cases"][2]["expected"], serde_json::json!([]));
    assert_eq!(report["cases"][2]["cpu_ms"], 0);
    // JUnit: one skipped test per stage not reached, the hidden one's verdict alone.
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert!(junit.contains("<failure type=\"unchanged\" message=\"unchanged\">a hidden test"), "{junit}");
    assert_junit_schema(&junit);
}

#[test]
fn a_killed_grade_leaves_a_current_report_txt_beside_the_other_files() {
    let dir = setup();
    let submission = dir.path().join("class/sleepy");
    fs::create_dir_all(&submission).unwrap();
    write_script(&submission.join("run"), &format!("#!/bin/sh\nexec {} \"$@\"\n", bot(dir.path())));
    let corpus = dir.path().join("corpus").display().to_string();
    let reports = dir.path().join("reports");
    let text_file = reports.join("sleepy/report.txt");
    let args = [
        "grade",
        &submission.display().to_string(),
        "--corpus",
        &corpus,
        "--reports",
        &reports.display().to_string(),
        "--jobs",
        "1",
        "--sandbox",
        "off",
        "-q",
    ];
    kill_when_ready(&args, dir.path(), |sleeper| {
        let text = fs::read_to_string(&text_file).unwrap_or_default();
        let ready = sleeper.exists() && text.contains("INCOMPLETE: 2 of 4 cases had run");
        ready.then_some(()).ok_or_else(|| format!("report.txt never showed two cases: {text}"))
    });
    let text = fs::read_to_string(&text_file).unwrap();
    assert!(text.contains("\nmachine: "), "{text}");
    assert!(!reports.join("sleepy/grade.json").exists(), "no row: the grading did not finish");
    assert!(fs::read_to_string(reports.join("sleepy/report.json")).unwrap().contains("\"complete\": false"));
}
