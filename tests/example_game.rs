//! The sixth game: the tic-tac-toe of `examples/tictactoe/`, written outside the crate, plugs
//! into verify, match, fuzz and the viewer through the traits the five bundled games implement
//! (docs/NEW_GAME.md). Every built-in bot plays in-process, so nothing here needs a tool.

#[path = "../examples/tictactoe/game.rs"]
#[allow(dead_code)]
mod game;

use std::path::Path;
use std::time::Duration;

use arbiter::harness::bot::Bot;
use arbiter::harness::corpus::find_cases;
use arbiter::harness::fuzz::{FuzzGame, FuzzOptions, fuzz};
use arbiter::harness::html::viewer;
use arbiter::harness::matches::{MatchOptions, play_match};
use arbiter::harness::referee::{Cases, Referee};
use arbiter::harness::runner::Limits;
use arbiter::harness::verdict::Verdict;
use arbiter::harness::verify::{VerifyOptions, prepare_cases, run_cases};

fn corpus() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/tictactoe/corpus"))
}

fn options() -> VerifyOptions {
    VerifyOptions {
        limits: Limits::default(),
        same_file: false,
        strict: false,
        seed: 7,
        jobs: 1,
        create_output: false,
    }
}

/// The verdict of every case for a built-in bot, by case name.
fn verify(bot: &str) -> Vec<(String, Verdict, bool)> {
    let referee = game::TicTacToe;
    let specs = find_cases(corpus(), referee.categories()).expect("the example corpus");
    assert_eq!(specs.len(), 5, "the example corpus has five cases");
    let (cases, errors) = prepare_cases(&referee, specs, 1);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(cases.iter().all(|c| c.prepared.golden_used()), "every case has its golden answer");
    let bot = Bot::parse(bot, &referee).expect("a built-in bot");
    let cases: Vec<_> = cases.iter().collect();
    run_cases(&cases, &bot, &options(), &|_, _| {})
        .into_iter()
        .map(|r| (r.name, r.verdict, r.expected.is_empty()))
        .collect()
}

#[test]
fn verify_judges_the_example_corpus() {
    let perfect = verify("builtin:perfect");
    assert!(perfect.iter().all(|(_, v, _)| *v == Verdict::Pass), "{perfect:?}");
    let first = verify("builtin:first");
    let failed: Vec<_> = first.iter().filter(|(_, v, _)| *v != Verdict::Pass).collect();
    assert_eq!(failed.len(), 1, "{first:?}");
    assert_eq!(failed[0].0, "best/black/block-row");
    assert_eq!(failed[0].1, Verdict::WrongMove);
    assert!(!failed[0].2, "a wrong move shows the expected answers");
}

#[test]
fn golden_answers_are_what_the_game_computes() {
    let referee = game::TicTacToe;
    for case in find_cases(corpus(), referee.categories()).expect("the example corpus") {
        let input = std::fs::read(&case.path).expect("a case file");
        let golden =
            std::fs::read_to_string(case.golden.as_ref().expect("a golden path")).expect("a golden file");
        assert_eq!(golden, referee.golden(&case, &input).expect("an answer"), "{}", case.name);
    }
}

#[test]
fn a_match_is_played_and_every_game_drawn_in_the_viewer() {
    let referee = game::TicTacToe;
    let perfect = Bot::parse("builtin:perfect", &referee).expect("a built-in bot");
    let random = Bot::parse("builtin:random", &referee).expect("a built-in bot");
    let options = MatchOptions::new(6, 3, 2);
    let records = play_match(&referee, &perfect, &random, &options, &|_| {}).expect("a match");
    assert_eq!(records.len(), 6);
    for record in &records {
        // Perfect play never loses tic-tac-toe.
        assert_ne!(record.a_outcome(), Some(false), "game {}: {:?}", record.number, record.moves);
        assert!(["three", "full-board"].contains(&record.ending.as_str()), "{}", record.ending);
        let page = viewer::game_page(&referee, &viewer::from_record(record)).expect("a viewer page");
        assert!(page.contains("<svg"), "the page draws the board");
        assert_eq!(page.matches("class=\"position").count(), record.moves.len() + 1, "one board per ply");
    }
}

#[test]
fn fuzzing_finds_and_shrinks_a_missed_block() {
    let referee = game::TicTacToe;
    let mut options = FuzzOptions {
        cases: 60,
        category: "legal".to_string(),
        auto_category: false,
        edges: false,
        only_sources: Vec::new(),
        time: None,
        max_shrink_runs: 200,
        shrink_time: Duration::from_secs(60),
        reruns: 1,
        run: options(),
    };
    let game = FuzzGame::of(&referee).expect("the game fuzzes");
    let random = Bot::parse("builtin:random", &referee).expect("a built-in bot");
    let report = fuzz(game, &random, &options, &|_| {}).expect("a fuzz run");
    assert_eq!((report.cases, report.passed), (60, 60), "a random bot plays legal moves");

    options.category = "best".to_string();
    let first = Bot::parse("builtin:first", &referee).expect("a built-in bot");
    let report = fuzz(game, &first, &options, &|_| {}).expect("a fuzz run");
    assert!(report.passed < report.cases, "the first empty cell is often not best");
    let failure = &report.failures[0];
    assert!(failure.minimal_size <= failure.original_size);
    assert_eq!(failure.result.verdict, Verdict::WrongMove);
}
