//! The chess assignment end to end: small `a1.py` modules (tests/data/chess-a1/) hosted by
//! arbiter's Python host in the sandbox and judged on the bundled corpus (corpus/chess-a1).
//! Tests print `SKIPPED: <why>` where python3 is missing.

mod common;

use std::path::PathBuf;

use common::verifying::{self, verdicts as cases, verify_json};
use common::{arbiter, have_tools, read_json};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn module(name: &str) -> String {
    root().join("tests/data/chess-a1").join(name).join("a1.py").display().to_string()
}

/// The JSON report of `verify` on the bundled corpus, with `extra` options, of the module
/// `tests/data/chess-a1/<bot>/a1.py`.
fn verify(bot: &str, extra: &[&str]) -> Value {
    verify_module(&module(bot), extra)
}

/// The JSON report of `verify` on the bundled corpus, with `extra` options, of the module at
/// `path`.
fn verify_module(path: &str, extra: &[&str]) -> Value {
    let corpus = root().join("corpus/chess-a1").display().to_string();
    verify_json("chess-a1", &corpus, path, &[&["--timeout", "5"], extra].concat())
}

#[test]
fn a_correct_module_passes_every_case() {
    if !have_tools(&["python3"], "a correct a1.py") {
        return;
    }
    let report = verify("correct", &[]);
    let all = cases(&report);
    assert_eq!(all.len(), 400);
    let failed: Vec<_> = all.iter().filter(|c| c.1 != "pass").collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn a_correct_csse7030_module_scores_full_marks_under_csse7030_and_the_csse1001_one_does_not() {
    if !have_tools(&["python3"], "a correct CSSE7030 a1.py") {
        return;
    }
    let report = verify("correct-7030", &["--rule", "extras=on"]);
    assert_eq!(report["profile"], "csse7030-a1");
    let all = cases(&report);
    assert_eq!(all.len(), 500);
    let failed: Vec<_> = all.iter().filter(|c| c.1 != "pass").collect();
    assert!(failed.is_empty(), "{failed:#?}");
    assert_eq!(report["score"].as_f64(), Some(100.0));
    // CSSE1001's solution has no special moves: it fails the extras, a castling or an en passant
    // in main() is an invalid move to it, and its promoted pawns stay pawns.
    // The extras alone: it passes the other 400 (a_correct_module_passes_every_case).
    let extras = root().join("corpus/chess-a1/extras").display().to_string();
    let bot = module("correct");
    let report = verify_json("chess-a1", &extras, &bot, &["--timeout", "5", "--rule", "extras=on"]);
    let extras = cases(&report);
    assert_eq!(extras.len(), 100);
    assert!(extras.iter().all(|c| c.0.starts_with("extras/")), "{extras:#?}");
    assert!(extras.iter().filter(|c| c.1 == "pass").count() < 20, "{extras:#?}");
    // Without the rule, the CSSE7030 profile is refused with the reason.
    let corpus = root().join("corpus/chess-a1").display().to_string();
    let bot = module("correct");
    let run =
        arbiter(&["--game", "chess-a1", "verify", &corpus, "--bot", &bot, "--profile", "csse7030-a1"], "");
    assert!(run.stderr.contains("extras") && run.stderr.contains("--rule"), "{}", run.stderr);
}

#[test]
fn bugs_in_two_functions_fail_their_cases_and_the_games_that_use_them() {
    if !have_tools(&["python3"], "a buggy a1.py") {
        return;
    }
    let report = verify("buggy", &[]);
    let all = cases(&report);
    let failed = |prefix: &str, function: &str| {
        all.iter().filter(|c| c.0.starts_with(prefix) && c.1 != "pass" && c.2.contains(function)).count()
    };
    // is_move_valid forgets its last condition; square_to_position reads rank 1 as row 0.
    assert!(failed("validation/", "is_move_valid(") > 5);
    assert!(failed("interaction/", "process_move(") + failed("interaction/", "square_to_position(") >= 1);
    assert!(failed("end/", "(") > 5, "can_move and the others use is_move_valid");
    // Functions without a bug pass every case.
    for function in
        ["print_board(", "update_board(", "change_position(", "clear_position(", "is_current_players_piece("]
    {
        let bad: Vec<_> = all.iter().filter(|c| c.2.starts_with(function) && c.1 != "pass").collect();
        assert!(bad.is_empty(), "{function}: {bad:#?}");
    }
    // A transcript failure names the first differing line, the input before it, and shows
    // both lines with whitespace visible.
    let main: Vec<_> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"].as_str().unwrap().starts_with("main/") && c["verdict"] != "pass")
        .collect();
    assert!(!main.is_empty());
    let diff = main[0]["diff"].as_str().unwrap_or_default();
    assert!(diff.contains("first difference at line"), "{diff}");
    assert!(diff.contains("expected") && diff.contains("actual") && diff.contains('·'), "{diff}");
    let reproduce = main[0]["reproduce"].as_str().unwrap_or_default();
    assert!(
        reproduce.starts_with("printf '%s\\n' ") && reproduce.ends_with("| python3 a1.py"),
        "{reproduce}"
    );
}

#[test]
fn a_module_that_cannot_be_imported_is_refused_and_no_case_runs() {
    if !have_tools(&["python3"], "an a1.py that cannot be imported") {
        return;
    }
    for (name, words) in [("broken", "SyntaxError"), ("blocking", "EOFError")] {
        let report = verify(name, &[]);
        let refused = report["refused"].as_str().unwrap_or_default();
        assert!(refused.contains(words), "{name}: {refused}");
        let all = cases(&report);
        assert_eq!(all.len(), 400);
        assert!(all.iter().all(|c| c.1 == "not-run" && c.2.contains(words)), "{name}: {:?}", all[0]);
    }
}

#[test]
fn a_module_that_python_3_9_cannot_parse_gets_no_functionality_mark_and_the_line_is_named() {
    if !have_tools(&["python3"], "an a1.py with a match statement") {
        return;
    }
    // The correct module with one function that uses `match` (Python 3.10) after it: Section
    // 5.1, "Your program must run using the Python 3.9 interpreter ... you will get zero".
    let newer = correct_with(
        "",
        r#"

def piece_name(piece: str) -> str:
    """The piece's name: a test module's one line of Python 3.10 (a match statement)."""
    match piece.lower():
        case "k":
            return "king"
        case _:
            return "another piece"
"#,
    );
    let report = verify_module(&newer.path().join("a1.py").display().to_string(), &[]);
    let refused = report["refused"].as_str().unwrap_or_default();
    assert!(
        refused.contains("a1.py line 124 needs a Python newer than 3.9")
            && refused.contains("match piece.lower():"),
        "{refused}"
    );
    let all = cases(&report);
    assert_eq!(all.len(), 400);
    assert!(all.iter().all(|c| c.1 == "not-run"), "{:?}", all[0]);
    assert_eq!(report["score"].as_f64(), Some(0.0), "{}", report["score"]);
}

#[test]
fn a_graders_support_module_and_texts_replace_arbiters() {
    if !have_tools(&["python3"], "--support and --rule texts=FILE") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ours = std::fs::read_to_string(root().join("hosts/python/chess_a1/a1_support.py")).unwrap();
    let support = dir.path().join("a1_support.py");
    std::fs::write(&support, format!("{ours}\nHELP_MESSAGE = 'Type a move such as e2 e4.'\n")).unwrap();
    let support = support.display().to_string();
    // The course's support module with another help text: transcripts with `h` now differ...
    let report = verify("correct", &["--support", &support]);
    let help_failures = cases(&report).into_iter().filter(|c| c.1 != "pass").count();
    assert!(help_failures > 0);
    assert!(cases(&report).iter().filter(|c| c.1 != "pass").all(|c| c.0.starts_with("main/")));
    // ... until the texts profile says the same.
    let mut texts = read_json(root().join("corpus/chess-a1/texts.json"));
    texts["help"] = Value::String("Type a move such as e2 e4.\n".into());
    let file = dir.path().join("texts.json");
    std::fs::write(&file, texts.to_string()).unwrap();
    let rule = format!("texts={}", file.display());
    let report = verify("correct", &["--support", &support, "--rule", &rule]);
    let failed: Vec<_> = cases(&report).into_iter().filter(|c| c.1 != "pass").collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn a_function_not_written_yet_fails_only_its_own_cases_and_says_so() {
    if !have_tools(&["python3"], "an a1.py with functions missing") {
        return;
    }
    let all = cases(&verify("missing", &[]));
    let initial: Vec<_> = all.iter().filter(|c| c.2.starts_with("initial_state(")).collect();
    assert!(!initial.is_empty() && initial.iter().all(|c| c.1 == "pass"), "{initial:?}");
    let can_move: Vec<_> = all.iter().filter(|c| c.2.contains("the case calls can_move(")).collect();
    assert!(!can_move.is_empty());
    assert!(
        can_move.iter().all(|c| c.1 == "crash" && c.2.starts_with("a1.py has no function can_move()")),
        "{:?}",
        can_move[0]
    );
}

#[test]
fn grade_gives_every_submission_the_graders_support_module_and_notes_it() {
    if !have_tools(&["python3"], "grade --support") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    for name in ["alice", "bob"] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(module("correct"), class.join(name).join("a1.py")).unwrap();
    }
    let ours = std::fs::read_to_string(root().join("hosts/python/chess_a1/a1_support.py")).unwrap();
    let support = dir.path().join("a1_support.py");
    std::fs::write(&support, format!("{ours}\nHELP_MESSAGE = 'Type a move such as e2 e4.'\n")).unwrap();
    let corpus = root().join("corpus/chess-a1").display().to_string();
    let reports = dir.path().join("out").display().to_string();
    let (alice, bob) = (class.join("alice").display().to_string(), class.join("bob").display().to_string());
    let grade = |extra: &[&str]| {
        let mut args =
            vec!["--game", "chess-a1", "grade", "--corpus", &corpus, "--reports", &reports, "-q", "--json"];
        args.extend_from_slice(extra);
        args.extend([alice.as_str(), bob.as_str()]);
        arbiter(&args, "").json()["rows"].as_array().unwrap().clone()
    };
    let s = support.display().to_string();
    let rows = grade(&["--support", &s]);
    assert_eq!(rows.len(), 2);
    for row in &rows {
        // The course's help text differs from arbiter's: the transcripts that ask for help fail
        // for both, so both used the grader's module; the note says which.
        let note = row["note"].as_str().unwrap();
        assert!(note.contains("support files: the grader's a1_support.py (fingerprint "), "{note}");
        assert!(row["score"].as_f64().unwrap() < 100.0, "{row}");
    }
    // Without it, arbiter's own module: graded again (other settings), full marks.
    let rows = grade(&[]);
    assert!(rows.iter().all(|r| r["score"].as_f64() == Some(100.0) && r["status"] == "graded"), "{rows:?}");
    let missing = dir.path().join("nothing.py").display().to_string();
    let run = arbiter(
        &[
            "--game",
            "chess-a1",
            "grade",
            "--corpus",
            &corpus,
            "--reports",
            &reports,
            "--support",
            &missing,
            &alice,
        ],
        "",
    );
    run.assert_refused("--support");
    assert!(run.stderr.contains("no such file"), "{}", run.stderr);
}

/// `main` cases run `python3 a1.py` with the script on stdin (docs/PROTOCOL.md): what the
/// process writes is compared, `exit()` ends it as it does for the course, and reading past the
/// script is named.
#[test]
fn transcripts_run_the_module_as_a_program() {
    if !have_tools(&["python3"], "python3 a1.py transcripts") {
        return;
    }
    let correct = std::fs::read_to_string(module("correct")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("a1.py"), text).unwrap();
        folder.join("a1.py").display().to_string()
    };
    // Quitting with exit() (site's builtin), the board written straight to file descriptor 1
    // (which main() run inside the host did not see).
    let exits = correct
        .replace(
            "            if input(\"Are you sure you want to quit? \") in (\"y\", \"Y\"):\n                return",
            "            if input(\"Are you sure you want to quit? \") in (\"y\", \"Y\"):\n                exit()",
        )
        .replace(
            "def print_board(board):\n",
            "def print_board(board):\n    import os, sys\n    sys.stdout.flush()\n    rows = [row + '  ' + str(8 - i) + '\\n' for i, row in enumerate(board)]\n    os.write(1, (''.join(rows) + '\\nabcdefgh\\n').encode())\n    return\n",
        );
    assert_ne!(exits, correct);
    let corpus = root().join("corpus/chess-a1/main").display().to_string();
    let run = |bot: &str| cases(&verify_json("chess-a1", &corpus, bot, &["--timeout", "5"]));
    let all = run(&write("exits", exits));
    assert_eq!(all.len(), 100);
    assert!(all.iter().all(|c| c.1 == "pass"), "{:?}", all.iter().find(|c| c.1 != "pass"));
    // A program that never asks to confirm a quit reads past the script's end.
    let no_quit = correct.replace("elif text in (\"q\", \"Q\"):", "elif text in (\"quit\",):");
    let all = run(&write("no-quit", no_quit));
    let eof: Vec<_> = all.iter().filter(|c| c.1 != "pass").collect();
    assert!(!eof.is_empty());
    assert!(eof.iter().all(|c| c.2.contains("EOFError")), "{:?}", eof[0]);
}

/// A few cases of the bundled corpus, in a corpus of their own.
fn small_corpus() -> tempfile::TempDir {
    verifying::small_corpus(
        "chess-a1",
        &["validation/white/009", "validation/white/018", "validation/white/099"],
    )
}

/// The correct module with `top` added before it and `end` after it, as `a1.py` in a folder
/// of its own: the folder.
fn correct_with(top: &str, end: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read_to_string(module("correct")).unwrap();
    std::fs::write(dir.path().join("a1.py"), format!("{top}{correct}{end}")).unwrap();
    dir
}

fn verify_small(corpus: &std::path::Path, module: &std::path::Path, timeout: &str) -> Value {
    let corpus = corpus.join("corpus").display().to_string();
    let bot = module.join("a1.py").display().to_string();
    verify_json("chess-a1", &corpus, &bot, &["--timeout", timeout])
}

/// Each case's (name, verdict, reason) when the module in `module` is verified on the small
/// corpus in `corpus`, which must have judged all three cases.
fn small_verdicts(
    corpus: &std::path::Path,
    module: &std::path::Path,
    timeout: &str,
) -> Vec<(String, String, String)> {
    let report = verify_small(corpus, module, timeout);
    let all = cases(&report);
    assert_eq!(all.len(), 3, "{report}");
    all
}

/// Issue 30: a mark left in `builtins` by one case is never met by the next (each case imports
/// the module in a process of its own); the module raises at import when it meets one.
#[test]
fn a_mark_in_builtins_reaches_no_later_case() {
    if !have_tools(&["python3"], "an a1.py that leaves a mark in builtins") {
        return;
    }
    let module = correct_with(
        "import builtins as _b\nif getattr(_b, 'arbiter_seen', False):\n    raise RuntimeError('a mark left by an earlier case')\n_b.arbiter_seen = True\n",
        "",
    );
    let corpus = small_corpus();
    let all = small_verdicts(corpus.path(), module.path(), "5");
    assert!(all.iter().all(|c| c.1 == "pass"), "{all:#?}");
}

/// Issue 30: a module that burns 1.5 s of CPU time at import pays for it in every case: under
/// `--timeout 1` every case times out while loading, under `--timeout 5` every case passes and
/// is charged the import.
#[test]
fn an_import_that_burns_cpu_counts_against_every_case() {
    if !have_tools(&["python3"], "an a1.py that is slow to import") {
        return;
    }
    let module = correct_with(
        "import time as _t\n_s = _t.process_time()\nwhile _t.process_time() - _s < 1.5:\n    pass\n",
        "",
    );
    let corpus = small_corpus();
    let all = small_verdicts(corpus.path(), module.path(), "1");
    assert!(all.iter().all(|c| c.1 == "timeout" && c.2.contains("loading the submission")), "{all:#?}");
    let report = verify_small(corpus.path(), module.path(), "5");
    for case in report["cases"].as_array().unwrap() {
        assert_eq!(case["verdict"], "pass", "{case}");
        assert!(case["cpu_ms"].as_u64().unwrap() >= 1400, "the import is charged: {case}");
    }
}
