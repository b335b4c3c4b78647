//! Reading what the user names on the command line: board files (or `-` for standard input),
//! sides and engine choices, with errors that say what to fix.

use std::path::PathBuf;

use anyhow::{Result, anyhow, bail};

use crate::advance::referee::AdvanceReferee;
use crate::advance::{Fast, Position, Reference};
use crate::harness::analyst::PositionInput;
use crate::harness::referee::Referee;
use crate::side::Side;

pub use crate::harness::board_file::read_source;

/// The options shared by every command that looks at one position.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Board file (`-` reads standard input). Advance: 9 lines of 9 characters from
    /// `ZBJMSCDGzbjmscdg.#`. Pente: input.txt as the course gives it.
    #[arg(value_name = "BOARD")]
    pub board: PathBuf,

    /// The side to move. Required for Advance, whose board files do not say; a Pente file names
    /// it on its first line, and a --side that disagrees is refused.
    #[arg(long, short = 's', value_name = "white|black")]
    pub side: Option<Side>,

    /// Look at the position even if it is not well-formed (Advance: a side without exactly one
    /// General, or the side not to move in danger; a side with no General is then never in
    /// danger).
    #[arg(long)]
    pub allow_invalid: bool,
}

/// A board argument read into memory, ready to hand to a game.
pub struct LoadedInput {
    pub bytes: Vec<u8>,
    pub origin: String,
    pub side: Option<Side>,
    pub allow_invalid: bool,
}

impl LoadedInput {
    /// The position as the games' [`Analyst`](crate::harness::analyst::Analyst) takes it.
    pub fn view(&self) -> PositionInput<'_> {
        PositionInput {
            bytes: &self.bytes,
            origin: &self.origin,
            side: self.side,
            allow_invalid: self.allow_invalid,
        }
    }
}

impl PositionArgs {
    /// Reads the board file's bytes (the game reads the position from them).
    pub fn read(&self) -> Result<LoadedInput> {
        let (bytes, origin) = read_source(&self.board)?;
        Ok(LoadedInput { bytes, origin, side: self.side, allow_invalid: self.allow_invalid })
    }

    /// Reads an Advance board and checks the position, unless `--allow-invalid` was given.
    pub fn load(&self) -> Result<Position> {
        crate::advance::analyst::load(&self.read()?.view())
    }
}

/// Which engine computes moves.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The bitboard engine, proven to agree with the reference (perft, property tests,
    /// differential fuzzing).
    #[default]
    Fast,
    /// The reference engine: written to be read next to the rules page.
    Reference,
}

/// Evaluates `$body` with `$engine` bound to the chosen engine. Each engine is its own type, so
/// the body is compiled once for each.
macro_rules! with_engine {
    ($choice:expr, |$engine:ident| $body:expr) => {
        match $choice {
            $crate::cli::input::EngineChoice::Fast => {
                let $engine = &$crate::advance::Fast;
                $body
            }
            $crate::cli::input::EngineChoice::Reference => {
                let $engine = &$crate::advance::Reference;
                $body
            }
        }
    };
}
pub(crate) use with_engine;

/// Which game's rules apply (`--game`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GameChoice {
    /// Advance, the 9x9 game of the course's first assignment.
    #[default]
    Advance,
    /// Pente as CSCI561 specifies it (19x19, pair captures, five in a row).
    Pente,
    /// Network as CS61B specifies it (8x8, networks of six); bots are Java classes.
    Network,
    /// The text chess of CSSE1001 Assignment 1 (2021); a submission is a Python module.
    #[value(name = "chess-a1")]
    ChessA1,
    /// PlanetWars as UMN CSCI 1933 specifies it; graded by win rates against built-in
    /// strategies.
    Planetwars,
}

impl GameChoice {
    /// The game's referee; `engine` chooses Advance's engine, `rules` the game's rule options
    /// (`KEY=VALUE`, from `--rule`).
    pub fn referee(self, engine: EngineChoice, rules: &[String]) -> Result<Box<dyn Referee>> {
        match self {
            GameChoice::Advance => {
                if let Some(rule) = rules.first() {
                    bail!("--rule {rule}: Advance has no rule options; its rules page decides every case");
                }
                Ok(engine.referee())
            }
            GameChoice::Pente => {
                let mut referee = crate::games::pente::referee::PenteReferee::default();
                referee.rules =
                    with_rules(referee.rules, rules, crate::games::pente::rules::Rules::with_option)?;
                Ok(Box::new(referee))
            }
            GameChoice::Network => {
                let chosen = with_rules(
                    crate::games::network::Rules::default(),
                    rules,
                    crate::games::network::Rules::with_option,
                )?;
                Ok(Box::new(crate::games::network::NetworkReferee::new(chosen)))
            }
            GameChoice::ChessA1 => Ok(Box::new(with_rules(
                crate::games::chess_a1::ChessA1Referee::default(),
                rules,
                crate::games::chess_a1::ChessA1Referee::with_option,
            )?)),
            GameChoice::Planetwars => {
                let mut referee = crate::games::planetwars::referee::PlanetwarsReferee::default();
                referee.rules =
                    with_rules(referee.rules, rules, crate::games::planetwars::rules::Rules::with_option)?;
                Ok(Box::new(referee))
            }
        }
    }
}

/// `start` with each rule option (`--rule KEY=VALUE`) laid over it in turn by `with_option`;
/// the first that does not fit is named in the error.
fn with_rules<T>(
    start: T,
    rules: &[String],
    with_option: impl Fn(T, &str) -> Result<T, String>,
) -> Result<T> {
    rules
        .iter()
        .try_fold(start, |chosen, rule| with_option(chosen, rule).map_err(|e| anyhow!("--rule {rule}: {e}")))
}

impl EngineChoice {
    /// The Advance referee computing with this engine.
    pub fn referee(self) -> Box<dyn Referee> {
        match self {
            EngineChoice::Fast => Box::new(AdvanceReferee { engine: Fast }),
            EngineChoice::Reference => Box::new(AdvanceReferee { engine: Reference }),
        }
    }
}

/// The number of jobs: as given, or the number of cores; never more than the cores (more bots
/// than processors would only wait for each other), which is said on stderr when a larger
/// number was asked for.
pub fn jobs(given: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, super::bounds::MAX_JOBS as usize);
    match given {
        Some(asked) if asked > cores => {
            eprintln!("note: --jobs {asked} is more than the {cores} cores here: running {cores} at once");
            cores
        }
        Some(asked) => asked.max(1),
        None => cores,
    }
}

/// `bot` given the file its calibrate program leaves (`--calibrate PROGRAM`), run once now; the
/// bot as it is without `--calibrate`. A failed calibration is an error: the user asked for it.
pub fn calibrated(
    bot: crate::harness::bot::Bot,
    program: Option<&str>,
    referee: &dyn Referee,
    limits: &crate::harness::runner::Limits,
) -> Result<crate::harness::bot::Bot> {
    use crate::harness::bot::Bot;
    let Some(program) = program else { return Ok(bot) };
    let Some(calibration) = referee.calibration() else {
        bail!("--calibrate: {} has no calibrate program", referee.game());
    };
    let Bot::Command(command, protocol) = bot else {
        bail!("--calibrate: only a program bot can be calibrated, not {}", bot.label());
    };
    let program = crate::harness::runner::BotCommand::parse(program)?;
    let done =
        crate::harness::calibrate::run_calibration(&program, &calibration, limits).map_err(|e| anyhow!(e))?;
    eprintln!(
        "calibrated: {} left {} ({} bytes) in {:.1} s of CPU",
        program.original(),
        calibration.file,
        done.bytes.len(),
        done.cpu_seconds
    );
    Ok(Bot::Command(command.with_file(calibration.file, done.bytes), protocol))
}
