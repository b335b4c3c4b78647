//! The `arbiter` command line: one file per subcommand, wired together here.

mod apply;
mod bench;
mod bot;
mod bounds;
mod check;
mod coverage;
mod expect;
mod fuzz;
mod game_help;
mod generate;
mod golden;
mod grade;
mod input;
mod limits;
mod matches;
mod merge;
mod moves;
mod perft;
mod replay;
mod run_args;
mod show;
mod tournament;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::harness::escape::escape_controls;
use input::{EngineChoice, GameChoice};

/// How a command ended, when it did not fail on bad input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The command did its job and the answer is "yes" (exit status 0).
    Success,
    /// The command did its job and the answer is "no": a move is illegal, a bot failed
    /// (exit status 1).
    Failure,
}

/// The result of a subcommand: an [`Outcome`], or an error about the input (exit status 2).
pub type CommandResult = anyhow::Result<Outcome>;

#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about = "Says with certainty which answers are right for an Advance bot, and checks real bots against them.",
    long_about = "Says with certainty which answers are right for an Advance bot, and checks real bots against them.\n\n\
                  Exit status: 0 on success, 1 when the answer is \"no\" (an illegal move, a failing bot), \
                  2 when the input is invalid (a malformed board file, a bad argument)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,

    /// The engine that computes moves: `fast` (bitboards, the default) or `reference` (written
    /// to be read next to the rules page). The two are proven to agree.
    #[arg(long, global = true, value_enum, default_value_t)]
    engine: EngineChoice,

    /// The game: `advance` (the default), `pente`, `network`, `chess-a1` or `planetwars`. Every
    /// command takes it but `coverage`; `--help` after it speaks that game's words.
    #[arg(long, global = true, value_enum, default_value_t)]
    game: GameChoice,

    /// A rule option of the game, as KEY=VALUE (repeatable). Pente: `opening=seed` (the
    /// default: White's second stone at most 3 points from the centre, as the assignment words
    /// it) or `opening=tournament` (at least 3 away, as the real game plays). Network:
    /// `double=mover` (a move completing both networks wins for its mover; the text says it
    /// loses) and `lift=no-double` (a step whose lifted board has both networks is illegal), the
    /// course referee's readings. Chess a1: `texts=FILE` (the fixed texts main() prints, in
    /// place of corpus/chess-a1/texts.json) and `extras=on` (CSSE7030's promotion, castling and
    /// en passant: the `extras` cases and the `csse7030-a1` profile). Advance has none.
    #[arg(long = "rule", global = true, value_name = "KEY=VALUE")]
    rules: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every legal move with its notation and the board after it.
    Moves(moves::Args),
    /// Play one move and print the board after it, or say why the move is not legal.
    Apply(apply::Args),
    /// Count move sequences to a given depth (perft), optionally per first move.
    Perft(perft::Args),
    /// Draw a position with its coordinates, and what the game says of it (material, danger,
    /// threats).
    Show(show::Args),
    /// The expected answer of every category (or grade) for a position, with the numbers behind
    /// it.
    Expect(expect::Args),
    /// Judge a bot's output: the legal move that turns IN into OUT and the grades it satisfies,
    /// or exactly what is wrong.
    Check(check::Args),
    /// Run a bot over a corpus of test cases and grade it like the course does.
    Verify(verify::Args),
    /// Grade a class: many submissions into a gradebook CSV and a folder of reports.
    Grade(grade::Args),
    /// Join the gradebooks and reports of `grade --shard` runs into one gradebook.
    Merge(merge::Args),
    /// A built-in bot with the assignment's interface, to play against anything: `bot --builtin
    /// NAME ARGS...` (`--help` after `--game` gives the game's ARGS).
    Bot(bot::Args),
    /// Generate test cases (for one grade, or every category), each with a unique, robust
    /// expected answer.
    Generate(generate::Args),
    /// Check (--check) or rewrite (--update) the golden answer of every corpus case.
    Golden(golden::Args),
    /// Which piece kinds and move kinds the corpus's answers exercise, by grade.
    Coverage(coverage::Args),
    /// Measure speed: the game's own figures (for Advance, both engines side by side: perft
    /// throughput and the time to answer every case).
    Bench(bench::Args),
    /// Play two bots against each other, as the assignment's games stage does.
    Match(matches::Args),
    /// Step through saved game records and check every move with the oracle.
    Replay(replay::Args),
    /// A round robin among bots: a crosstable, points and Elo ratings with error bars.
    Tournament(tournament::Args),
    /// Search random positions for rule breaks by a bot (or for disagreements between the two
    /// engines), and shrink each to a small position.
    Fuzz(fuzz::Args),
}

/// Lets SIGPIPE end the process, as it ends `cat` or `grep`.
fn restore_default_sigpipe() {
    use nix::sys::signal::{SigHandler, Signal, signal};
    // SAFETY: setting the default disposition installs no handler code; it is done before any
    // thread of ours is started.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
}

/// The command line, its `--help` in the words of the game chosen with `--game` (Advance's,
/// written by hand, otherwise).
/// Also whether `--game` was given on it (`replay` takes the game from the record otherwise).
fn parse() -> (Cli, bool) {
    use clap::{CommandFactory, FromArgMatches, ValueEnum};
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut command = Cli::command();
    // Without --game (or with one clap will refuse) the help is the default game's.
    let chosen = game_help::game_named(&args).and_then(|name| GameChoice::from_str(&name, true).ok());
    if let Ok(referee) = chosen.unwrap_or_default().referee(EngineChoice::default(), &[]) {
        command = game_help::for_game(command, referee.as_ref());
    }
    let matches = command.get_matches_from(args);
    let game_given = matches.value_source("game") == Some(clap::parser::ValueSource::CommandLine);
    (Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()), game_given)
}

/// Runs the command line and returns the process exit status.
pub fn run() -> ExitCode {
    let (cli, game_given) = parse();
    // Bots run in sessions of their own; on Ctrl-C (or SIGTERM) take them down with us. If a
    // handler cannot be installed, arbiter still works; only an interrupt may leave a bot behind.
    let _ = ctrlc::set_handler(|| {
        crate::harness::runner::kill_all_running();
        // A command that can stop early and report (fuzz) takes the first Ctrl-C from here.
        if crate::harness::interrupt::request_stop() {
            return;
        }
        std::process::exit(130);
    });
    let referee = match cli.game.referee(cli.engine, &cli.rules) {
        Ok(referee) => referee,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    // The position commands never run a bot, so like other Unix filters they may simply end
    // when the reader of their output goes away (`arbiter moves ... | head`). Commands that run
    // bots keep Rust's default, where a closed pipe is an error to handle, not a death.
    if matches!(
        cli.command,
        Command::Moves(_) | Command::Apply(_) | Command::Perft(_) | Command::Show(_) | Command::Expect(_)
    ) {
        restore_default_sigpipe();
    }
    let advance_only = !matches!(
        cli.command,
        Command::Generate(_)
            | Command::Verify(_)
            | Command::Grade(_)
            | Command::Merge(_)
            | Command::Bot(_)
            | Command::Golden(_)
            | Command::Match(_)
            | Command::Replay(_)
            | Command::Tournament(_)
            | Command::Fuzz(_)
            | Command::Check(_)
            | Command::Moves(_)
            | Command::Apply(_)
            | Command::Perft(_)
            | Command::Show(_)
            | Command::Expect(_)
            | Command::Bench(_)
    );
    if cli.game != GameChoice::Advance && advance_only {
        eprintln!("error: `coverage` knows Advance only; every other command takes --game");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Moves(args) => moves::run(args, referee.as_ref()),
        Command::Apply(args) => apply::run(args, referee.as_ref()),
        Command::Perft(args) => perft::run(args, referee.as_ref()),
        Command::Show(args) => show::run(args, referee.as_ref()),
        Command::Expect(args) => expect::run(args, referee.as_ref()),
        Command::Check(args) if cli.game != GameChoice::Advance => {
            check::run_for_game(args, referee.as_ref())
        }
        Command::Check(args) => check::run(args, cli.engine),
        Command::Verify(args) => verify::run(args, referee),
        Command::Grade(args) => grade::run(args, referee),
        Command::Merge(args) => merge::run(args),
        Command::Bot(args) => bot::run(args, referee),
        Command::Generate(args) if cli.game != GameChoice::Advance => {
            generate::run_for_game(args, referee.as_ref())
        }
        Command::Generate(args) => generate::run(args, cli.engine),
        Command::Golden(args) => golden::run(args, referee),
        Command::Coverage(args) => coverage::run(args, cli.engine),
        Command::Bench(args) if cli.game == GameChoice::Advance => bench::run(args),
        Command::Bench(args) => bench::run_for_game(args, referee.as_ref()),
        Command::Match(args) => matches::run(args, referee),
        Command::Replay(args) => replay::run(
            args,
            referee,
            &replay::Given {
                engine: cli.engine,
                game: game_given.then_some(cli.game),
                rules: cli.rules.clone(),
            },
        ),
        Command::Tournament(args) => tournament::run(args, referee),
        Command::Fuzz(args) => fuzz::run(args, referee),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        Err(e) => {
            // Errors can quote a bot's output or a file's bad line: escape what a terminal obeys.
            eprintln!("error: {}", escape_controls(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}
