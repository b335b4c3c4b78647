//! The example game run through arbiter's harness, as a program:
//!
//! ```text
//! cargo run --example tictactoe -- golden examples/tictactoe/corpus
//! cargo run --example tictactoe -- verify examples/tictactoe/corpus builtin:first
//! cargo run --example tictactoe -- match builtin:perfect builtin:random 4 /tmp/ttt
//! ```
//!
//! `golden` writes each case's golden answer beside the corpus (`golden/...json`); `verify`
//! judges a bot on every case; `match` plays games and writes each one's viewer page into a
//! folder. docs/NEW_GAME.md explains the game's parts.

mod game;

use arbiter::harness::bot::Bot;
use arbiter::harness::corpus::{find_cases, golden_path};
use arbiter::harness::html::viewer;
use arbiter::harness::matches::{MatchOptions, play_match};
use arbiter::harness::referee::{Cases, Referee};
use arbiter::harness::runner::Limits;
use arbiter::harness::verify::{VerifyOptions, prepare_cases, run_cases};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let referee = game::TicTacToe;
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["golden", corpus] => {
            for case in find_cases(corpus.as_ref(), referee.categories()).map_err(|e| e.to_string())? {
                let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
                let path = golden_path(&case.path).ok_or("the corpus is not in a folder named corpus")?;
                std::fs::create_dir_all(path.parent().expect("a case's folder"))
                    .map_err(|e| e.to_string())?;
                std::fs::write(&path, referee.golden(&case, &input)?).map_err(|e| e.to_string())?;
                println!("{}", path.display());
            }
        }
        ["verify", corpus, bot] => {
            let specs = find_cases(corpus.as_ref(), referee.categories()).map_err(|e| e.to_string())?;
            let (cases, errors) = prepare_cases(&referee, specs, 1);
            if let Some(e) = errors.first() {
                return Err(e.clone());
            }
            let bot = Bot::parse(bot, &referee)?;
            let options = VerifyOptions {
                limits: Limits::default(),
                same_file: false,
                strict: false,
                seed: 1,
                jobs: 1,
                create_output: false,
            };
            let cases: Vec<_> = cases.iter().collect();
            for result in run_cases(&cases, &bot, &options, &|_, _| {}) {
                println!("{} {}: {}", result.verdict, result.name, result.reason);
            }
        }
        ["match", a, b, games, folder] => {
            let (a, b) = (Bot::parse(a, &referee)?, Bot::parse(b, &referee)?);
            let options = MatchOptions::new(games.parse().map_err(|_| "games: a number")?, 1, 1);
            std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
            for record in play_match(&referee, &a, &b, &options, &|_| {})? {
                let page = viewer::game_page(&referee, &viewer::from_record(&record))?;
                let path = std::path::Path::new(folder).join(format!("game-{}.html", record.number));
                std::fs::write(&path, page).map_err(|e| e.to_string())?;
                println!(
                    "game {}: {:?} ({}) {}",
                    record.number,
                    record.result,
                    record.ending,
                    path.display()
                );
            }
        }
        _ => return Err("usage: tictactoe golden CORPUS | verify CORPUS BOT | match A B GAMES FOLDER".into()),
    }
    Ok(())
}
