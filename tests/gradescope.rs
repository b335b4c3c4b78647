//! The Gradescope autograders of docs/gradescope/, one per course, each tried end to end on a
//! copy of Gradescope's layout: `make-zip.sh COURSE DIR/source --no-src` lays out the zip,
//! the submission goes in `DIR/submission`, and `run_autograder` runs with `AUTOGRADER=DIR`,
//! arbiter on PATH and the sandbox a Docker container allows (`ARBITER_SANDBOX_NO_NAMESPACES`).
//! Each test reads `DIR/results/results.json` as Gradescope would: its score, its tests, no
//! hidden category's answer in what a student sees, and the stages not reached.

use serde_json::Value;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The PATH of Gradescope's Ubuntu image, where python3 and java are the system's.
const SYSTEM_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// Whether `tools` are installed in the system's folders, as on Gradescope's image (a python3
/// of pyenv's under /root is not one a sandboxed user can run without namespaces).
fn have_system_tools(tools: &[&str], test: &str) -> bool {
    for tool in tools {
        if !SYSTEM_PATH.split(':').any(|dir| Path::new(dir).join(tool).exists()) {
            println!("SKIPPED: {test}: `{tool}` is not installed in {SYSTEM_PATH}");
            return false;
        }
    }
    true
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the repository, read whole.
fn repo_file(path: &str) -> String {
    fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The Network player of tests/data that accepts every move (`naive`).
fn naive_player() -> String {
    repo_file("tests/data/network/naive/player/MachinePlayer.java")
}

/// One autograder run: what Gradescope would read and what the staff would see.
struct Graded {
    results: Value,
    stdout: String,
    /// The folder laid out as Gradescope's `/autograder`.
    root: PathBuf,
    _dir: tempfile::TempDir,
}

impl Graded {
    fn tests(&self) -> &Vec<Value> {
        self.results["tests"].as_array().unwrap_or_else(|| panic!("no tests in {}", self.results))
    }

    /// The tests whose name starts with `prefix`.
    fn named(&self, prefix: &str) -> Vec<&Value> {
        self.tests().iter().filter(|t| t["name"].as_str().unwrap_or("").starts_with(prefix)).collect()
    }

    fn score(&self) -> f64 {
        self.results["score"].as_f64().unwrap_or_else(|| panic!("no score in {}", self.results))
    }

    fn output(&self) -> &str {
        self.results["output"].as_str().unwrap_or("")
    }

    /// The submission was refused: it scores nothing, and the output a student reads says each
    /// of `says`.
    fn assert_refused(&self, says: &[&str]) {
        assert_eq!(self.score(), 0.0, "{}", self.output());
        for said in says {
            assert!(self.output().contains(said), "expected {said:?} in: {}", self.output());
        }
    }

    /// There is a test for each of `stages`.
    fn assert_stages(&self, stages: &[&str]) {
        for stage in stages {
            assert!(!self.named(stage).is_empty(), "a test for {stage}: {}", self.results);
        }
    }

    /// The `naive` Network player, which accepts every move, was graded: the 60 accept cases
    /// pass and the others mostly fail.
    fn assert_naive_network_graded(&self) {
        let score = self.score();
        assert!(score > 10.0 && score < 60.0, "{score}: {}", self.output());
        assert_eq!(self.named("accept/").iter().filter(|t| t["score"] == t["max_score"]).count(), 60);
    }
}

/// Lays out `course`'s autograder, puts `files` (path, content) in the submission, and runs
/// `run_autograder` with `GRADE_OPTIONS=options`.
fn autograde(course: &str, files: &[(&str, &str)], options: &str) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    // The bots run as users of their own, which must reach the submission.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let root = dir.path().join("autograder");
    let source = root.join("source");
    let made = Command::new("bash")
        .arg(repo().join("docs/gradescope/make-zip.sh"))
        .args([course, source.to_str().unwrap(), "--no-src"])
        .output()
        .unwrap();
    assert!(made.status.success(), "make-zip.sh {course}: {}", String::from_utf8_lossy(&made.stderr));
    assert!(!source.join("arbiter-src").exists(), "--no-src leaves the source out");
    for (path, content) in files {
        let path = root.join("submission").join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        // Gradescope's upload keeps no execute bit.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    }
    fs::create_dir_all(root.join("submission")).unwrap();
    // Gradescope copies run_autograder to /autograder and runs it from there.
    fs::copy(source.join("run_autograder"), root.join("run_autograder")).unwrap();
    // Gradescope's image: the languages from Ubuntu's packages, arbiter on PATH.
    let arbiter = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let path = format!("{}:{SYSTEM_PATH}", arbiter.parent().unwrap().display());
    let out = Command::new("bash")
        .arg(root.join("run_autograder"))
        .current_dir(&root)
        .env("AUTOGRADER", &root)
        .env("ARBITER_SANDBOX_NO_NAMESPACES", "1")
        .env("GRADE_OPTIONS", options)
        .env("PATH", path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let text = fs::read_to_string(root.join("results/results.json"))
        .unwrap_or_else(|e| panic!("{course}: no results.json ({e}); stdout:\n{stdout}\nstderr:\n{stderr}"));
    let results: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{course}: results.json is not JSON ({e}): {text}\nstderr:\n{stderr}"));
    Graded { results, stdout, root, _dir: dir }
}

/// `course`'s autograder refuses `files` (path, content): the submission scores nothing and the
/// output a student reads says each of `says`. Skipped without the system's `tools`.
fn autograder_refuses(tools: &[&str], test: &str, course: &str, files: &[(&str, &str)], says: &[&str]) {
    if !have_system_tools(tools, test) {
        return;
    }
    autograde(course, files, "").assert_refused(says);
}

/// Every test of `category` is hidden, and those that failed say so without a detail (the
/// answer is in the grader's report only); a visible failure of another category does show
/// `detail`, so the check could fail.
fn answers_hidden(graded: &Graded, category: &str, detail: &str) {
    let mut failed = 0;
    for test in graded.tests() {
        let name = test["name"].as_str().unwrap_or("");
        let text = test["output"].as_str().unwrap_or("");
        if name.starts_with(category) {
            assert_eq!(test["visibility"], "hidden", "{name} is hidden");
            if test["score"].as_f64() == Some(0.0)
                && !text.contains("not run")
                && !text.contains("not reached")
            {
                failed += 1;
                assert!(text.contains("A hidden test"), "{name}: {text}");
                assert!(!text.contains(detail), "hidden {name} gives its answer: {text}");
            }
        }
    }
    assert!(failed > 0, "no failed test of {category} to look at");
    assert!(
        graded
            .tests()
            .iter()
            .any(|t| t["visibility"] != "hidden" && t["output"].as_str().unwrap_or("").contains(detail)),
        "no visible failure shows `{detail}`"
    );
}

/// The stages after the gate are each one test saying they were not reached, worth nothing.
fn not_reached(graded: &Graded, stages: &[&str]) {
    for stage in stages {
        let tests = graded.named(stage);
        assert!(
            tests.iter().any(|t| t.to_string().contains("not reached") && t["score"].as_f64() == Some(0.0)),
            "no 'not reached' test for {stage}: {:#?}",
            graded.tests().iter().map(|t| &t["name"]).collect::<Vec<_>>()
        );
    }
}

#[test]
fn advance_python_skeleton_stops_at_the_gate_and_hides_grade_7() {
    if !have_system_tools(&["python3"], "advance_python_skeleton") {
        return;
    }
    let bot = repo_file("docs/gradescope/advance/python/bot.py");
    let graded = autograde("advance", &[("bot.py", &bot)], "");
    assert_eq!(graded.score(), 0.0, "the skeleton writes the board back: {}", graded.results);
    assert!(graded.root.join("submission/run").exists(), "the course's wrapper was put in place");
    assert_eq!(graded.named("grade4/").len(), 50, "grade 4's cases, each a test");
    not_reached(&graded, &["grade 5", "grade 6", "grade 7"]);
    assert!(graded.named("grade 7").iter().all(|t| t["visibility"] == "hidden"), "grade 7 is hidden");
    assert!(!graded.results.to_string().contains("grade7/"), "no grade-7 case is named");
    assert!(graded.stdout.contains("score"), "the staff's stdout is the full report: {}", graded.stdout);
}

#[test]
fn advance_java_that_does_not_compile_shows_the_compiler() {
    let bot = [("Bot.java", "class Bot { int x = ; }\n")];
    // The compiler's own words.
    autograder_refuses(
        &["javac"],
        "advance_java_build",
        "advance",
        &bot,
        &["The build failed", "Bot.java:1: error"],
    );
}

#[test]
fn chess_a1_buggy_module_is_graded_and_end_answers_hidden() {
    if !have_system_tools(&["python3"], "chess_a1_gradescope") {
        return;
    }
    let module = repo_file("tests/data/chess-a1/buggy/a1.py");
    let graded = autograde("chess-a1", &[("a1.py", &module)], "");
    // Its bugs are in every category, and every stage counts (no gate stops the later ones).
    let score = graded.score();
    assert!(score > 30.0 && score < 100.0, "the buggy module loses some marks: {score}");
    assert_eq!(graded.tests().len(), 400, "every case a test");
    answers_hidden(&graded, "end/", "expected");
}

#[test]
fn chess_a1_without_a1_py_is_refused_naming_the_files_sent() {
    let files = [("A1 (1).py", "print(1)\n")];
    // The files sent are named.
    autograder_refuses(
        &["python3"],
        "chess_a1_gradescope_missing",
        "chess-a1",
        &files,
        &["No `a1.py`", "`A1 (1).py`"],
    );
}

#[test]
fn network_player_in_a_folder_is_found_and_graded() {
    if !have_system_tools(&["javac", "java"], "network_gradescope") {
        return;
    }
    let player = naive_player();
    let graded = autograde(
        "network",
        &[("pj2/player/MachinePlayer.java", &player), ("pj2/GRADER", "us\n")],
        "--games 1",
    );
    graded.assert_naive_network_graded();
    answers_hidden(&graded, "block/", "expected");
    assert!(
        graded.root.join("results/arbiter/pj2/report.txt").exists(),
        "pj2/ was graded, as the folder holding player/"
    );
}

/// Gradescope's upload of files (not a zip) drops their folders: the player's classes arrive
/// side by side, each still saying its package. The autograder puts each back in its package's
/// folder (a class of another package, `list`, too) rather than refusing the submission.
#[test]
fn network_player_sent_as_loose_packaged_files_is_graded() {
    if !have_system_tools(&["javac", "java"], "network_gradescope") {
        return;
    }
    let player = naive_player();
    // The player uses a class of its own package `list`, as CS61B's DList is.
    let player = player
        .replace("public class MachinePlayer", "import list.Counter;\npublic class MachinePlayer")
        .replace("myName = \"naive\";", "myName = \"naive\" + Counter.one();");
    let counter = "package list;\npublic class Counter { public static int one() { return 1; } }\n";
    let skeleton = |name: &str| repo_file(&format!("hosts/java/network/player/{name}"));
    let (mv, pl) = (skeleton("Move.java"), skeleton("Player.java"));
    let graded = autograde(
        "network",
        &[
            ("MachinePlayer.java", &player),
            ("Counter.java", counter),
            ("Move.java", &mv),
            ("Player.java", &pl),
        ],
        "--games 1",
    );
    graded.assert_naive_network_graded();
    assert!(graded.stdout.contains("graded as the packages its files name"), "{}", graded.stdout);

    // Two files claiming one class are refused with their name, not compiled at random.
    let graded = autograde(
        "network",
        &[("MachinePlayer.java", &player), ("old/MachinePlayer.java", &player), ("Counter.java", counter)],
        "--games 1",
    );
    graded.assert_refused(&["Two files claim the same class", "player/MachinePlayer.java"]);
}

#[test]
fn planetwars_strategy_is_graded_by_games() {
    if !have_system_tools(&["javac", "java"], "planetwars_gradescope") {
        return;
    }
    let mut files = Vec::new();
    let strategy = repo().join("tests/data/planetwars/expander");
    for entry in walkdir::WalkDir::new(&strategy) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&strategy).unwrap().to_str().unwrap().to_string();
            files.push((relative, fs::read_to_string(entry.path()).unwrap()));
        }
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let graded = autograde("planetwars", &files, "--games 2");
    graded.assert_stages(&["games vs random", "games vs timid", "games vs scatter", "games vs settler"]);
    let score = graded.score();
    assert!((0.0..=50.0).contains(&score), "csci1933 gives at most 50: {score}");
}

#[test]
fn pente_homework_py_with_calibrate_plays_its_games() {
    if !have_system_tools(&["python3"], "pente_gradescope") {
        return;
    }
    // The starting agent of the Pente guide, and a calibrate.py that leaves its file.
    let homework = repo_file("docs/games/pente/homework.py");
    let calibrate = "open('calibration.txt', 'w').write('fast\\n')\n";
    let graded = autograde("pente", &[("homework.py", &homework), ("calibrate.py", calibrate)], "--games 1");
    graded.assert_stages(&["games vs random", "games vs minimax"]);
    assert!(graded.root.join("submission/run").exists() && graded.root.join("submission/calibrate").exists());
    let reports = graded.root.join("results/arbiter/submission");
    let row = fs::read_to_string(reports.join("grade.json")).unwrap();
    assert!(row.contains("calibrated: `calibrate` left calibration.txt"), "calibrate.py ran first: {row}");
    assert_eq!(fs::read_to_string(reports.join("calibration.txt")).unwrap(), "fast\n");
    // The note is where the student reads too: report.txt, and Gradescope's output.
    let text = fs::read_to_string(reports.join("report.txt")).unwrap();
    assert!(text.contains("calibrated: `calibrate` left calibration.txt"), "{text}");
    assert!(graded.output().contains("calibrated: `calibrate` left calibration.txt"), "{}", graded.output());
}

#[test]
fn pente_java_that_does_not_compile_and_no_homework_are_refused() {
    let java = [("homework.java", "public class homework { int x = ; }\n")];
    autograder_refuses(
        &["javac"],
        "pente_gradescope_build",
        "pente",
        &java,
        &["The build failed", "homework.java:1: error"],
    );
    // `Homework.py` is not `homework.py`: refused, saying the name it wants (homework.xxx).
    autograder_refuses(
        &[],
        "pente_gradescope_no_homework",
        "pente",
        &[("Homework.py", "print('9N')\n")],
        &["homework.xxx"],
    );
}
