//! `arbiter tournament`: a round robin among submissions and built-in bots, with a crosstable,
//! points and Elo ratings.

use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::bounds::{self, MAX_GAMES, MAX_JOBS};
use super::limits::LimitArgs;
use super::{CommandResult, Outcome};
use crate::harness::bot::Bot;
use crate::harness::escape::escape_controls;
use crate::harness::files::write_atomic;
use crate::harness::html;
use crate::harness::matches::GameRecord;
use crate::harness::records::write_record;
use crate::harness::tournament::{PairingGames, Standings, TournamentOptions, play_round_robin};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The players, at least two: commands (as `match --bot` takes them) or `builtin:NAME`.
    #[arg(long = "bot", value_name = "COMMAND", num_args = 1, required = true)]
    bots: Vec<String>,

    /// Games per pairing, 1 to 10000; colours alternate, so an even number gives each player
    /// each side equally.
    #[arg(long, default_value_t = 10, value_parser = bounds::whole::<usize>(1, MAX_GAMES))]
    games: usize,

    /// Seed for the built-in bots' random choices (each pairing derives its own from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Games played at once, 1 to 256 (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    jobs: Option<usize>,

    /// Keep every game's record, `DIR/A-vs-B/game-001.txt`, ... (A and B by entrant number).
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,

    /// Limits on each move, as for `match`.
    #[command(flatten)]
    limits: LimitArgs,

    /// Pass the same path as input and output.
    #[arg(long)]
    same_file: bool,

    /// Play every bot given, even one that says it does not take part in tournaments (a
    /// PlanetWars strategy whose `compete()` is false, left out by default).
    #[arg(long)]
    all: bool,

    /// Print the results as JSON.
    #[arg(long)]
    json: bool,

    /// Also write the standings and crosstable as CSV here.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,

    /// Also write the results as a web page here.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    if args.bots.len() < 2 {
        bail!("a tournament needs at least two bots (got {})", args.bots.len());
    }
    let (limits, sandbox) = args.limits.sandboxed(Vec::new())?;
    let mut bots: Vec<Bot> = args
        .bots
        .iter()
        .map(|spec| {
            Bot::open(spec, referee.as_ref(), &limits, &crate::harness::host::HostOptions::default())
                .map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<_>>()?;
    if !args.all {
        let left_out = leave_out_non_competing(&mut bots, referee.as_ref(), &limits, args.seed)?;
        if !args.quiet {
            for label in &left_out {
                eprintln!("left out {label}: it says it does not take part in tournaments (--all plays it)");
            }
        }
        if bots.len() < 2 {
            bail!(
                "a tournament needs at least two bots; {} of the {} given say they do not take part (--all plays them)",
                left_out.len(),
                args.bots.len()
            );
        }
    }
    if !args.quiet && bots.iter().any(|bot| matches!(bot, Bot::Command(..) | Bot::Hosted(_))) {
        eprintln!("{}", sandbox.line());
    }
    let names: Vec<String> = bots.iter().map(Bot::label).collect();
    let options = TournamentOptions {
        games: args.games,
        seed: args.seed,
        jobs: super::input::jobs(args.jobs),
        limits,
        same_file: args.same_file,
    };
    let pairings = bots.len() * (bots.len() - 1) / 2;
    let bar =
        if args.quiet { ProgressBar::hidden() } else { ProgressBar::new((pairings * args.games) as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let done = Mutex::new(0usize);
    let progress = |_: &GameRecord| bar.inc(1);
    // Each pairing's records are written as it ends, so a stopped tournament keeps them.
    let mut keep = |p: &PairingGames| -> Result<(), String> {
        let mut n = done.lock().unwrap_or_else(|e| e.into_inner());
        *n += 1;
        bar.set_message(format!("{}/{pairings} pairings", *n));
        let Some(dir) = &args.records else { return Ok(()) };
        let folder = dir.join(format!("{}-vs-{}", p.a + 1, p.b + 1));
        std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        for r in &p.records {
            let path = folder.join(format!("game-{:03}.txt", r.number));
            write_atomic(&path, write_record(r).as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    };
    let played = play_round_robin(referee.as_ref(), &bots, &options, &progress, &mut keep)
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    let standings = Standings::new(names, &played);
    if let Some(path) = &args.csv {
        let bytes = standings.csv().map_err(anyhow::Error::msg)?;
        write_atomic(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.html {
        let page = html::tournament::tournament_page(referee.game(), &standings);
        html::write(path, &page).map_err(anyhow::Error::msg)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&standings.json())?);
    } else {
        print!(
            "{} players, {} games per pairing, seed {}\n\n{}",
            bots.len(),
            args.games,
            args.seed,
            escape_controls(&standings.text())
        );
    }
    Ok(Outcome::Success)
}

/// Leaves out the hosted bots that say, when a game starts, that they do not take part in
/// tournaments ([`crate::harness::referee::Games::enters_tournament`]); returns their labels.
fn leave_out_non_competing(
    bots: &mut Vec<Bot>,
    referee: &dyn crate::harness::referee::Referee,
    limits: &crate::harness::runner::Limits,
    seed: u64,
) -> anyhow::Result<Vec<String>> {
    let Some(games) = referee.games() else { return Ok(Vec::new()) };
    let mut left_out = Vec::new();
    let mut kept = Vec::new();
    for bot in bots.drain(..) {
        if let Bot::Hosted(hosted) = &bot {
            let game = games.new_game_seeded(None, seed).map_err(anyhow::Error::msg)?;
            let run = hosted.run_script(&game.host_start(crate::side::Side::White), limits);
            if run
                .calls
                .last()
                .and_then(|c| c.value())
                .is_some_and(|greeting| !games.enters_tournament(greeting))
            {
                left_out.push(bot.label());
                continue;
            }
        }
        kept.push(bot);
    }
    *bots = kept;
    Ok(left_out)
}
