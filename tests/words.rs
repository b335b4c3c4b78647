//! Every game speaks its own words: each command's `--help` and the text reports (a verify, a
//! refused submission, a grade by games alone) rendered for every `--game`, and searched for
//! the words another game declares as its own (`Referee::words`: "General", "input.txt",
//! "transcript" ...) and for white/black where a game's sides are not colours.

mod common;

use std::path::Path;

use arbiter::harness::referee::{Referee, Words};
use common::{arbiter, arbiter_ok, have_tools};

/// Every game with its referee (the words come from the game, not from a list kept here).
fn games() -> Vec<(&'static str, Box<dyn Referee>)> {
    vec![
        ("advance", Box::new(arbiter::advance::referee::AdvanceReferee { engine: arbiter::advance::Fast })),
        ("pente", Box::new(arbiter::games::pente::referee::PenteReferee::default())),
        ("network", Box::new(arbiter::games::network::NetworkReferee::new(Default::default()))),
        ("chess-a1", Box::new(arbiter::games::chess_a1::ChessA1Referee::default())),
        ("planetwars", Box::new(arbiter::games::planetwars::referee::PlanetwarsReferee::default())),
    ]
}

const SUBCOMMANDS: &[&str] = &[
    "moves",
    "apply",
    "perft",
    "show",
    "expect",
    "check",
    "verify",
    "grade",
    "merge",
    "bot",
    "generate",
    "golden",
    "coverage",
    "bench",
    "match",
    "replay",
    "tournament",
    "fuzz",
];

/// The places in `text` where game `game` speaks another game's words, one line each.
fn foreign_words(game: &str, text: &str, what: &str) -> Vec<String> {
    let all = games();
    let own: &Words = &all.iter().find(|(g, _)| *g == game).expect("a known game").1.words();
    let mut found = Vec::new();
    let line_of = |at: usize| {
        text[..at].rsplit('\n').next().unwrap_or("").to_string() + text[at..].split('\n').next().unwrap_or("")
    };
    for (other, referee) in &all {
        if *other == game {
            continue;
        }
        for word in referee.words().own.iter().filter(|w| !own.own.contains(w)) {
            for (at, _) in text.match_indices(word) {
                found.push(format!("{game} {what}: {other}'s `{word}` in: {}", line_of(at).trim()));
            }
        }
    }
    // White and black, where the game's sides have other names.
    if !own.sides.contains(&"white") {
        let lower = text.to_lowercase();
        for colour in ["white", "black"] {
            for (at, _) in lower.match_indices(colour) {
                let before = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                let after = lower[at + colour.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
                if before && after {
                    found.push(format!(
                        "{game} {what}: `{colour}` (its sides are {:?}) in: {}",
                        own.sides,
                        line_of(at).trim()
                    ));
                }
            }
        }
    }
    found
}

fn assert_none(found: Vec<String>) {
    assert!(found.is_empty(), "another game's words:\n{}", found.join("\n"));
}

#[test]
fn every_help_speaks_its_games_words() {
    let mut found = Vec::new();
    for (game, _) in games() {
        let top = arbiter_ok(&["--game", game, "--help"], "");
        found.extend(foreign_words(game, &top.stdout, "--help"));
        for sub in SUBCOMMANDS {
            let run = arbiter_ok(&["--game", game, sub, "--help"], "");
            assert!(run.stdout.contains("Usage: arbiter"), "{game} {sub} --help: {}", run.stdout);
            found.extend(foreign_words(game, &run.stdout, &format!("{sub} --help")));
        }
    }
    assert_none(found);
}

#[test]
fn the_top_level_help_lists_every_game() {
    let run = arbiter(&["--help"], "");
    for (game, _) in games() {
        assert!(
            run.stdout.contains(&format!("`{game}`")),
            "--game's help leaves out {game}:\n{}",
            run.stdout
        );
    }
}

#[test]
fn a_game_without_cases_says_so_in_verify_help() {
    let run = arbiter(&["--game", "planetwars", "verify", "--help"], "");
    assert!(!run.stdout.contains("the categories being ."), "{}", run.stdout);
    assert!(run.stdout.contains("has no test cases"), "{}", run.stdout);
    let run = arbiter(&["--game", "pente", "verify", "--help"], "");
    assert!(run.stdout.contains("the categories being opening"), "{}", run.stdout);
}

/// A corpus of the game's first two cases of each category and side, in `dir`.
fn small_corpus(game_corpus: &Path, dir: &Path) {
    for category in std::fs::read_dir(game_corpus).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for side in ["white", "black"] {
            let from = category.path().join(side);
            let Ok(files) = std::fs::read_dir(&from) else { continue };
            let mut files: Vec<_> = files
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            files.sort();
            let to = dir.join(category.file_name()).join(side);
            std::fs::create_dir_all(&to).unwrap();
            for file in files.iter().take(2) {
                std::fs::copy(file, to.join(file.file_name().unwrap())).unwrap();
            }
        }
    }
}

/// Each case game's verify report of a bot that fails some cases.
#[test]
fn every_verify_report_speaks_its_games_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chess_bot = root.join("tests/data/chess-a1/buggy/a1.py");
    let chess_bot = chess_bot.to_str().unwrap();
    let mut found = Vec::new();
    for (game, corpus, bot) in [
        ("advance", "corpus", "builtin:random"),
        ("pente", "corpus/pente", "builtin:random-adjacent"),
        ("network", "corpus/network", "builtin:random"),
        ("chess-a1", "corpus/chess-a1", chess_bot),
    ] {
        if game == "chess-a1"
            && !have_tools(&["python3"], "every_verify_report_speaks_its_games_words (chess-a1)")
        {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        small_corpus(&root.join(corpus), dir.path());
        let corpus = dir.path().to_str().unwrap();
        let run = arbiter(&["--game", game, "verify", corpus, "--bot", bot, "-q", "--details", "100"], "");
        assert!(run.status <= 1, "{game} verify: {}\n{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("stage"), "{game} verify printed no stage table:\n{}", run.stdout);
        found.extend(foreign_words(game, &run.stdout, "verify report"));
        // The stage table's columns line up whatever the length of the game's stage names.
        let table: Vec<&str> = run
            .stdout
            .lines()
            .skip_while(|l| !l.starts_with("stage "))
            .take_while(|l| l.contains("passed") || l.contains('/'))
            .collect();
        let column = table[0].find("passed").unwrap() + "passed".len();
        for row in &table[1..] {
            // The end of the row's `passed/total`, right-aligned under "passed".
            let slash = row.find('/').unwrap_or(0);
            let end = row[slash..].find(' ').map_or(row.len(), |n| slash + n);
            assert_eq!(end, column, "{game}: misaligned stage table:\n{}", table.join("\n"));
        }
    }
    assert_none(found);
}

/// Each game's report of a submission refused before any case ran, and PlanetWars' grade by
/// games alone.
#[test]
fn every_grade_report_speaks_its_games_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (game, referee) in games() {
        // The game's bundled corpus, for a game with cases.
        let corpus = match game {
            _ if referee.cases().is_none() => None,
            "advance" => Some(root.join("corpus")),
            other => Some(root.join("corpus").join(other)),
        };
        let dir = tempfile::tempdir().unwrap();
        let submission = dir.path().join("alice");
        std::fs::create_dir(&submission).unwrap();
        std::fs::write(submission.join("notes.txt"), "nothing to run\n").unwrap();
        let reports = dir.path().join("out");
        let mut args = vec!["--game", game, "grade", "-q", "--reports", reports.to_str().unwrap()];
        if let Some(corpus) = &corpus {
            args.extend(["--corpus", corpus.to_str().unwrap()]);
        }
        args.push(submission.to_str().unwrap());
        let run = arbiter(&args, "");
        let report = std::fs::read_to_string(reports.join("alice/report.txt"))
            .unwrap_or_else(|e| panic!("{game}: no report ({e}):\n{}\n{}", run.stdout, run.stderr));
        assert!(report.contains("REFUSED"), "{game}: {report}");
        assert!(!report.contains("could not start: could not start"), "{game}: {report}");
        found.extend(foreign_words(game, &report, "refused report"));
        found.extend(foreign_words(game, &run.stdout, "grade output"));
    }
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("out");
    arbiter_ok(
        &[
            "--game",
            "planetwars",
            "grade",
            "-q",
            "--games",
            "2",
            "--reports",
            reports.to_str().unwrap(),
            "builtin:defensive",
        ],
        "",
    );
    let report = std::fs::read_to_string(reports.join("builtin_defensive/report.txt")).unwrap();
    assert!(!report.contains("corpus corpus"), "{report}");
    assert!(report.contains("games only"), "{report}");
    found.extend(foreign_words("planetwars", &report, "games-only report"));
    assert_none(found);
}
