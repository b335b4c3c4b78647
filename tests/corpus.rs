//! The committed corpus: its shape, its criteria, its golden answers, its twins, and the
//! built-in bots' self-check.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use arbiter::Side;
use arbiter::advance::coverage::Coverage;
use arbiter::advance::generate::criteria::meets;
use arbiter::advance::grades::{Aggregation, grade_report};
use arbiter::advance::symmetry::Twin;
use arbiter::advance::{Action, Board, Engine, Fast, Kind};
use arbiter::harness::corpus::find_cases;
use arbiter::harness::referee::CaseSpec;
use common::{arbiter, arbiter_ok};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The grade a case tests, from its category folder (`grade6`).
fn grade(c: &CaseSpec) -> u8 {
    arbiter::harness::category::grade_number(&c.category).expect("Advance categories are grades")
}

fn cases() -> Vec<(CaseSpec, Board)> {
    find_cases(&root().join("corpus"), arbiter::advance::referee::CATEGORIES)
        .unwrap()
        .into_iter()
        .map(|c| {
            let board = Board::from_text(&std::fs::read_to_string(&c.path).unwrap()).unwrap();
            (c, board)
        })
        .collect()
}

#[test]
fn the_corpus_has_25_cases_per_grade_and_side() {
    let mut counts: BTreeMap<(u8, Side), usize> = BTreeMap::new();
    for (c, _) in cases() {
        *counts.entry((grade(&c), c.side)).or_default() += 1;
    }
    assert_eq!(counts.len(), 8);
    assert!(counts.values().all(|&n| n == 25), "{counts:?}");
}

#[test]
fn every_case_meets_its_grades_criteria() {
    for (c, board) in cases() {
        let report = grade_report(&Fast, &Fast.load(&board, c.side));
        if let Err(why) = meets(&report, grade(&c)) {
            panic!("{}: {why}", c.name);
        }
        assert!(arbiter::advance::Position::new(board, c.side).validate().is_ok(), "{}", c.name);
    }
}

#[test]
fn the_golden_answers_match_the_oracle() {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["golden", "--check"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("all 204 golden answers match the oracle"), "{stdout}");
}

#[test]
fn a_stale_golden_file_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("corpus/grade7/white/worked-example.txt");
    std::fs::create_dir_all(case.parent().unwrap()).unwrap();
    std::fs::copy(common::example_path(7), &case).unwrap();
    let corpus = dir.path().join("corpus").display().to_string();
    let run = arbiter(&["golden", "--check", &corpus], "");
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("missing (run `arbiter golden --update`)"), "{}", run.stdout);
    assert_eq!(arbiter(&["golden", "--update", &corpus], "").status, 0);
    assert_eq!(arbiter(&["golden", "--check", &corpus], "").status, 0);
    let golden = dir.path().join("golden/grade7/white/worked-example.json");
    let text = std::fs::read_to_string(&golden).unwrap().replace("Mf1-f9", "Mf1-f8");
    std::fs::write(&golden, text).unwrap();
    let run = arbiter(&["golden", "--check", &corpus], "");
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("differs from the oracle's answer"), "{}", run.stdout);
}

#[test]
fn every_twin_has_the_mirrored_answers() {
    for (c, board) in cases() {
        let report = grade_report(&Fast, &Fast.load(&board, c.side));
        for twin in Twin::ALL {
            let (twin_board, twin_side) = twin.board(&board, c.side);
            let twin_report = grade_report(&Fast, &Fast.load(&twin_board, twin_side));
            for grade in 4..=7 {
                let mut mirrored: Vec<_> =
                    report.expected(grade, Aggregation::Min).iter().map(|&m| twin.apply_to_move(m)).collect();
                mirrored.sort();
                assert_eq!(
                    twin_report.expected(grade, Aggregation::Min),
                    mirrored,
                    "{} {twin:?} grade {grade}",
                    c.name
                );
            }
            assert_eq!(twin_report.sensitive(), report.sensitive());
        }
    }
}

fn verify(bot: &str) -> Value {
    let corpus = root().join("corpus").display().to_string();
    let run = arbiter(&["verify", &corpus, "--bot", bot, "--json", "-q", "--seed", "11"], "");
    run.json()
}

fn passes(report: &Value, grade: u64) -> (usize, usize) {
    let cases: Vec<&Value> =
        report["cases"].as_array().unwrap().iter().filter(|c| c["grade"] == grade).collect();
    (cases.iter().filter(|c| c["verdict"] == "pass").count(), cases.len())
}

#[test]
fn the_grade7_bot_passes_every_case() {
    let r = verify("builtin:grade7");
    assert_eq!(r["cases"].as_array().unwrap().len(), 200);
    for grade in 4..=7 {
        assert_eq!(passes(&r, grade), (50, 50), "grade {grade}");
    }
    assert_eq!(r["score"], 85.0);
}

#[test]
fn the_grade6_bot_passes_grades_4_to_6_and_random_passes_grade_4() {
    let r = verify("builtin:grade6");
    for grade in 4..=6 {
        assert_eq!(passes(&r, grade), (50, 50), "grade {grade}");
    }
    let r = verify("builtin:random");
    assert_eq!(passes(&r, 4), (50, 50));
}

#[test]
fn every_piece_and_move_kind_answers_at_least_three_cases_of_grades_5_to_7() {
    let mut coverage = Coverage::default();
    for (c, board) in cases() {
        coverage.add(&Fast, &c.name, &board, c.side, grade(&c));
    }
    assert!(coverage.ambiguous.is_empty(), "{:?}", coverage.ambiguous);
    for kind in Kind::ALL {
        assert!(coverage.kind_5_to_7(kind) >= 3, "{kind:?}: {}", coverage.kind_5_to_7(kind));
    }
    for action in Action::ALL {
        assert!(coverage.action_5_to_7(action) >= 3, "{action:?}: {}", coverage.action_5_to_7(action));
    }
    // docs/CORPUS.md is the table `arbiter coverage` prints.
    let doc = std::fs::read_to_string(root().join("docs/CORPUS.md")).unwrap();
    assert!(
        doc.ends_with(&coverage.markdown()),
        "docs/CORPUS.md is out of date: run scripts/regenerate-corpus.sh"
    );
}

#[test]
fn generation_is_deterministic_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let generate = |out: &Path| {
        let out = out.display().to_string();
        arbiter(&["generate", "--grade", "6", "--count", "4", "--seed", "99", "--out", &out], "")
    };
    let boards = |out: &Path| -> Vec<String> {
        find_cases(out, arbiter::advance::referee::CATEGORIES)
            .unwrap()
            .iter()
            .map(|c| std::fs::read_to_string(&c.path).unwrap())
            .collect()
    };
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    assert_eq!(generate(&a).status, 0);
    assert_eq!(generate(&b).status, 0);
    assert_eq!(boards(&a).len(), 4);
    assert_eq!(boards(&a), boards(&b));
    let again = generate(&a);
    assert_eq!(again.status, 2, "refuses to overwrite without --force");
    assert!(again.stderr.contains("use --force to replace them"), "{}", again.stderr);
}

#[test]
fn generate_takes_several_grades_and_golden_works_on_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (cases, gold) = (dir.path().join("cases"), dir.path().join("answers"));
    let (cases_s, gold_s) = (cases.display().to_string(), gold.display().to_string());
    let small =
        ["--count", "2", "--max-candidates", "20000", "--rare-budget", "0", "--pool-factor", "1", "-q"];
    let mut args = vec!["generate", "--grades", "4,5", "--out", &cases_s];
    args.extend(small);
    arbiter_ok(&args, "");
    let found = find_cases(&cases, arbiter::advance::referee::CATEGORIES).unwrap();
    let grades: std::collections::BTreeSet<&str> = found.iter().map(|c| c.category.as_str()).collect();
    assert_eq!(grades.into_iter().collect::<Vec<_>>(), vec!["grade4", "grade5"]);
    // The folder is not named `corpus`: its golden files go where --golden-dir says.
    let run = arbiter(&["golden", "--check", &cases_s], "");
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("--golden-dir DIR"), "{}", run.stderr);
    arbiter_ok(&["golden", "--update", "--golden-dir", &gold_s, &cases_s], "");
    assert!(gold.join("grade5/white/01.json").is_file());
    arbiter_ok(&["golden", "--check", "--golden-dir", &gold_s, &cases_s], "");
    let run = arbiter(
        &["verify", &cases_s, "--golden-dir", &gold_s, "--bot", "builtin:grade7", "-q", "--json"],
        "",
    );
    let report: serde_json::Value = run.json();
    assert!(report["cases"].as_array().unwrap().iter().all(|c| c["golden"] == true), "{}", run.stdout);
}
