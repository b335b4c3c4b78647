//! `arbiter replay`: step through saved games and check every move with the oracle.

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::{CommandResult, Outcome};
use crate::harness::escape::escape_controls;
use crate::harness::files;
use crate::harness::matches::{GameResult, MOVES_EACH, result_by_material};
use crate::harness::records::{ParsedRecord, parse_record};
use crate::harness::referee::Referee;
use crate::harness::verdict::Verdict;
use crate::side::Side;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game records (`game-001.txt` from `match --records`), or folders of them.
    #[arg(value_name = "GAME", required = true)]
    games: Vec<PathBuf>,

    /// Print every position as the game goes.
    #[arg(long)]
    verbose: bool,

    /// Also write each game as a web page to step through: this file for one record, or
    /// `PATH/NAME.html` for each of several.
    #[arg(long, value_name = "PATH")]
    html: Option<PathBuf>,
}

/// Prints a line that may quote a record (which holds what bots wrote and whatever else was put
/// in the file), escaped so it cannot drive the terminal.
fn say(line: &str) {
    println!("{}", escape_controls(line));
}

/// The game options given on the command line, against which each record's own are checked.
pub struct Given {
    pub engine: super::input::EngineChoice,
    /// `--game`, when given explicitly.
    pub game: Option<super::input::GameChoice>,
    /// `--rule` options (empty when none was given).
    pub rules: Vec<String>,
}

/// The referee to replay `record` with: the one its `game name:` and `rules:` lines name (so a
/// game played with `--rule` options replays without them), or for an older record without
/// them the one the command line gave. Options given explicitly that differ from the record's
/// are an error naming both.
fn referee_for(
    given: &Given,
    record: &ParsedRecord,
    default: &dyn Referee,
) -> anyhow::Result<Option<Box<dyn Referee>>> {
    use clap::ValueEnum;
    let Some(name) = &record.game_name else { return Ok(None) };
    if let Some(game) = given.game {
        let given_name = game.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
        if given_name != *name {
            bail!("the record is a game of {name}, but --game {given_name} was given");
        }
    }
    // Compared as the game words them (`opening=seed`, the default, is no option at all).
    let default_rules = crate::harness::matches::rule_words(&default.game_args());
    if !given.rules.is_empty() && default_rules != record.rules {
        let shown = |rules: &[String]| {
            if rules.is_empty() {
                "no --rule".to_string()
            } else {
                rules.iter().map(|r| format!("--rule {r}")).collect::<Vec<_>>().join(" ")
            }
        };
        bail!("the record was played with {}, but {} was given", shown(&record.rules), shown(&given.rules));
    }
    if default.game() == name && default_rules == record.rules {
        return Ok(None);
    }
    let choice = super::input::GameChoice::from_str(name, true)
        .map_err(|_| anyhow::anyhow!("the record names the game `{name}`, which arbiter does not know"))?;
    Ok(Some(choice.referee(given.engine, &record.rules)?))
}

/// Replays one record; returns what was confirmed, or the first disagreement.
fn replay(referee: &dyn Referee, record: &ParsedRecord, verbose: bool) -> Result<String, String> {
    let mut game = referee
        .require_games()?
        .new_game(Some(("the record's start board", record.start_board.as_bytes())))?;
    for (i, mv) in record.moves.iter().enumerate() {
        let mover = game.to_move();
        if verbose {
            println!("{}", String::from_utf8_lossy(&game.board_file()));
            say(&format!("{}. {mover} plays {mv}", i + 1));
        }
        game.play_notation(mv).map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        // The clocks as the record gives them, so that an ending decided on time (Pente's full
        // board) is decided again.
        if let Some(left) = record.times.get(i).and_then(|t| t.clock_left) {
            game.set_clock_left(mover, left);
        }
    }
    let board = String::from_utf8_lossy(&game.record_file()).into_owned();
    // A record without a `final board:` section is replayed without that comparison.
    if !record.final_board.is_empty() && board != record.final_board {
        return Err(format!(
            "after the moves the board is\n{board}but the record's final board is\n{}",
            record.final_board
        ));
    }
    let to_move = game.to_move();
    let winner_if_mover_loses = if to_move == Side::White { GameResult::Black } else { GameResult::White };
    let n = record.moves.len();
    let check = |ok: bool, what: String| {
        if ok {
            Ok(what)
        } else {
            Err(format!("the record says {:?} by {}, but {what}", record.result, record.ending))
        }
    };
    // A game that ends by its own rules (Pente's five, captures, full board).
    if let Some((winner, name, detail)) = game.ending() {
        let result = match winner {
            Some(Side::White) => GameResult::White,
            Some(Side::Black) => GameResult::Black,
            None => GameResult::Draw,
        };
        return check(record.ending == name && record.result == result, detail);
    }
    match record.ending.as_str() {
        "no-legal-move" => check(
            !game.has_legal_move() && n < 2 * MOVES_EACH && record.result == winner_if_mover_loses,
            format!(
                "{to_move} has {} legal move after {n} moves",
                if game.has_legal_move() { "a" } else { "no" }
            ),
        ),
        "move-limit" => {
            let [w, b] = game.material();
            check(
                n == 2 * MOVES_EACH && record.result == result_by_material([w, b]),
                format!("{n} moves were played and material is {w} to {b}"),
            )
        }
        forfeit => {
            // The forfeiting bot is the one to move; if it wrote a board, judge it again.
            if record.result != winner_if_mover_loses {
                return Err(format!(
                    "{to_move} was to move and forfeited ({forfeit}), yet the record gives the game to {:?}",
                    record.result
                ));
            }
            match &record.forfeit_output {
                Some(output) => match game.play_output(output.as_bytes()) {
                    Ok(mv) => Err(format!("the forfeit output is the legal move {mv}")),
                    Err(j) if j.verdict.map(|v| v.to_string()).as_deref() == Some(forfeit) => {
                        Ok(format!("{to_move}'s output is again judged {forfeit}: {}", j.reason))
                    }
                    Err(j) => Err(format!(
                        "the forfeit output is judged {:?}, not {forfeit}",
                        j.verdict.unwrap_or(Verdict::Pass)
                    )),
                },
                None => Ok(format!("{to_move} forfeited ({forfeit}); nothing it wrote to recheck")),
            }
        }
    }
}

/// Writes a record's viewer page: to `path` itself when it is the only record, else into the
/// folder `path`, named after the record.
fn write_viewer(
    referee: &dyn Referee,
    file: &std::path::Path,
    record: &ParsedRecord,
    path: &std::path::Path,
    only: bool,
) -> anyhow::Result<()> {
    use crate::harness::html::{self, viewer};
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let page = viewer::game_page(referee, &viewer::from_parsed(&name, record))
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let stem = file.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let target =
        if only { path.to_path_buf() } else { path.join(format!("{}.html", html::file_name(&stem))) };
    html::write(&target, &page).map_err(anyhow::Error::msg)
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>, given: &Given) -> CommandResult {
    let mut files = Vec::new();
    for path in &args.games {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read {}", path.display()))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        bail!("no game records found");
    }
    let mut failed = 0;
    for file in &files {
        let text = files::read_capped_text(file, files::GAME_RECORD)?;
        let record = parse_record(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let own =
            referee_for(given, &record, referee.as_ref()).with_context(|| file.display().to_string())?;
        let referee = own.as_deref().unwrap_or(referee.as_ref());
        if let Some(path) = &args.html {
            write_viewer(referee, file, &record, path, files.len() == 1)?;
        }
        match replay(referee, &record, args.verbose) {
            Ok(what) => say(&format!(
                "ok    {}: game {}, {} moves, all legal; {what}",
                file.display(),
                record.game,
                record.moves.len()
            )),
            Err(why) => {
                failed += 1;
                say(&format!("FAIL  {}: game {}: {why}", file.display(), record.game));
            }
        }
    }
    println!("{} of {} game(s) replayed and confirmed", files.len() - failed, files.len());
    Ok(if failed == 0 { Outcome::Success } else { Outcome::Failure })
}
