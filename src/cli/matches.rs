//! `arbiter match`: bot against bot, as in the assignment's final stage.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use super::bounds::{self, MAX_GAMES, MAX_JOBS};
use super::limits::LimitArgs;
use super::{CommandResult, Outcome};
use crate::harness::bot::Bot;
use crate::harness::escape::escape_controls;
use crate::harness::files::{self, write_atomic};
use crate::harness::matches::{
    GameRecord, GameResult, MatchOptions, games_stage_score, play_match, tally, wilson_interval,
};
use crate::harness::profile::{GamesStage, Profile};
use crate::harness::records::write_record;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The two bots, A then B: commands or `builtin:random|grade5|grade6|grade7`. A plays white
    /// in odd games.
    #[arg(long = "bot", value_name = "COMMAND", num_args = 1, required = true)]
    bots: Vec<String>,

    /// Number of games, 1 to 10000.
    #[arg(long, default_value_t = 100, value_parser = bounds::whole::<usize>(1, MAX_GAMES))]
    games: usize,

    /// Seed for the built-in bots' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Games played at once, 1 to 256 (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    jobs: Option<usize>,

    /// Start from this board (white to move) instead of the initial position; a folder of
    /// boards is an opening set, each played twice, once with each colour.
    #[arg(long, value_name = "FILE|DIR")]
    start: Option<PathBuf>,

    /// Write each game as a readable record, `DIR/game-001.txt`, ...
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,

    /// Write each game as a web page to step through, `DIR/game-001.html`, ..., and
    /// `DIR/index.html` listing them.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,

    /// The marking profile whose games stage scores bot A (default: the built-in one): a file,
    /// or the name of one the game ships. A profile that plays by rule options of its own
    /// (`csci1933-course`: engine=course) plays this match by them too.
    #[arg(long, value_name = "FILE|NAME")]
    profile: Option<PathBuf>,

    #[command(flatten)]
    opponents: super::run_args::OpponentArgs,

    /// Limits on each move. In a game with a clock (Pente) `--timeout` does not apply: a move is
    /// killed when its CPU time reaches what is left on the bot's clock (plus 1 s for system
    /// time when the clock counts user time only), or when it has sat idle (no process running
    /// or waiting for a processor) for the clock left + 1 s, and a side may sit idle at most its
    /// starting clock + 1 s over the game. A busy machine changes neither.
    #[command(flatten)]
    limits: LimitArgs,

    /// Both sides' starting clock in seconds, in a game with a clock (Pente). Default: a
    /// `--start` file's time line, else the game's own (300 s for Pente).
    #[arg(long, value_name = "SECONDS", value_parser = clock_seconds)]
    clock: Option<f64>,

    /// Charge the game clock user + system CPU time. By default it is charged user time only,
    /// as the Unix `time` command counts play time for the Pente graders ("discards time taken
    /// by the operating system").
    #[arg(long)]
    clock_counts_system: bool,

    /// Pass the same path as input and output.
    #[arg(long)]
    same_file: bool,

    /// Run this calibrate program once first for bot A, in a game that has one: the file it
    /// leaves is given to A on every turn.
    #[arg(long, value_name = "PROGRAM")]
    calibrate: Option<String>,

    /// Which games A plays white (White moves first): `alternate` (A in odd games), `first`,
    /// `second`, or `first-in=K` (A moves first in K of the games, spread from the first; the
    /// CSCI561 rule is first-in=6 of 10). Default: the profile's games stage against B when
    /// there is one, else alternate.
    #[arg(long, value_name = "RULE")]
    colours: Option<crate::harness::matches::Colours>,

    /// Print everything as JSON.
    #[arg(long)]
    json: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// A `--clock` value: seconds above zero, at most a day.
fn clock_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!("{seconds} s: the clock must be above 0 and at most 86400 s"));
    }
    Ok(seconds)
}

/// The starting positions named by `--start`: one file, or every file in a folder with one of
/// the game's start endings (`.txt`; PlanetWars also `.dot`).
fn read_starts(start: &Option<PathBuf>, extensions: &[&str]) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let Some(path) = start else { return Ok(Vec::new()) };
    let mut files = if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)))
            .collect();
        files.sort();
        files
    } else {
        vec![path.clone()]
    };
    if files.is_empty() {
        let endings: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
        bail!("{} holds no start positions ({} files)", path.display(), endings.join(" or "));
    }
    files
        .drain(..)
        .map(|f| {
            let bytes = files::read_capped(&f, files::BOARD)?;
            Ok((f.display().to_string(), bytes))
        })
        .collect()
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    if args.bots.len() != 2 {
        bail!("a match needs exactly two bots: --bot A --bot B (got {})", args.bots.len());
    }
    let (limits, sandbox) = args.limits.sandboxed(Vec::new())?;
    let profile = Profile::choose(args.profile.as_deref(), referee.as_ref()).map_err(anyhow::Error::msg)?;
    let referee = super::run_args::ruled_by(referee, &profile)?;
    let opponents = args.opponents.folder()?;
    // The profile's games stage that plays B, which scores A; none when B is another bot. B is
    // that stage's opponent as the profile names it (taken from --opponents) or as a path.
    let stage = profile.game_stages.iter().chain(&profile.games).find(|g| {
        g.opponent == args.bots[1]
            || g.opponent_in(opponents).is_ok_and(|spec| same_file(&spec, &args.bots[1]))
    });
    let b_spec = match stage {
        Some(g) if g.opponent == args.bots[1] => g.opponent_in(opponents).map_err(anyhow::Error::msg)?,
        _ => args.bots[1].clone(),
    };
    let open = |spec: &str| {
        Bot::open(spec, referee.as_ref(), &limits, &crate::harness::host::HostOptions::default())
            .map_err(anyhow::Error::msg)
    };
    let a =
        super::input::calibrated(open(&args.bots[0])?, args.calibrate.as_deref(), referee.as_ref(), &limits)?;
    let b = open(&b_spec)?;
    let extensions = referee.games().map_or(&["txt"][..], |g| g.start_extensions());
    let starts = read_starts(&args.start, extensions)?;
    // Built-in bots run inside arbiter; the sandbox is news only when a program runs.
    if !args.quiet && [&a, &b].iter().any(|bot| matches!(bot, Bot::Command(..) | Bot::Hosted(_))) {
        eprintln!("{}", sandbox.line());
    }
    let options = MatchOptions {
        games: args.games,
        seed: args.seed,
        jobs: super::input::jobs(args.jobs),
        limits,
        same_file: args.same_file,
        starts,
        colours: args.colours.or(stage.map(|g| g.colours)).unwrap_or_default(),
        clock: args.clock.or(stage.and_then(|g| g.clock)),
        clock_range: stage.and_then(|g| g.clock_range),
        clock_counts_system: args.clock_counts_system,
    };
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(args.games as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    // Each record is written as its game ends, atomically, so a stopped match leaves the games
    // it finished, each file whole.
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let record_error: Mutex<Option<String>> = Mutex::new(None);
    let (a_wins, b_wins, draws) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    let records = play_match(referee.as_ref(), &a, &b, &options, &|r: &GameRecord| {
        if let Some(dir) = &args.records {
            let path = dir.join(format!("game-{:03}.txt", r.number));
            if let Err(e) = write_atomic(&path, write_record(r).as_bytes()) {
                let mut first = record_error.lock().unwrap_or_else(PoisonError::into_inner);
                first.get_or_insert_with(|| format!("cannot write {}: {e}", path.display()));
            }
        }
        match r.a_outcome() {
            Some(true) => a_wins.fetch_add(1, Ordering::Relaxed),
            Some(false) => b_wins.fetch_add(1, Ordering::Relaxed),
            None => draws.fetch_add(1, Ordering::Relaxed),
        };
        bar.set_message(format!(
            "A {} - B {} - draws {}",
            a_wins.load(Ordering::Relaxed),
            b_wins.load(Ordering::Relaxed),
            draws.load(Ordering::Relaxed)
        ));
        bar.inc(1);
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();

    if let Some(e) = record_error.into_inner().unwrap_or_else(PoisonError::into_inner) {
        bail!(e);
    }

    if let Some(dir) = &args.html {
        write_viewers(referee.as_ref(), dir, &a.label(), &b.label(), &records)?;
    }
    let (a_wins, b_wins, draws) = tally(&records);
    let (lo, hi) = wilson_interval(a_wins, records.len());
    // No games-stage score for a bot that forfeited every game: only the reason is shown.
    let games_stage = stage.map(|g| games_stage_score(g, &records));
    let games_score = games_stage.as_ref().and_then(|s| s.as_ref().ok().copied());
    let no_games_score = games_stage.as_ref().and_then(|s| s.as_ref().err().cloned());
    let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &records {
        *endings.entry(r.ending.as_str()).or_default() += 1;
    }
    let by_colour = |white: bool| {
        let games: Vec<&GameRecord> = records.iter().filter(|r| r.a_is_white == white).collect();
        let wins = games.iter().filter(|r| r.a_outcome() == Some(true)).count();
        let losses = games.iter().filter(|r| r.a_outcome() == Some(false)).count();
        json!({"games": games.len(), "wins": wins, "losses": losses, "draws": games.len() - wins - losses})
    };
    if args.json {
        let out = json!({
            "a": a.label(), "b": b.label(), "seed": args.seed,
            "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
            "a_as_white": by_colour(true), "a_as_black": by_colour(false),
            "a_win_rate": a_wins as f64 / records.len() as f64,
            "a_win_rate_ci95": [lo, hi],
            "games_stage_score": games_score, "games_stage_note": no_games_score, "profile": profile.name,
            "endings": endings,
            "games": records,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(Outcome::Success);
    }
    // Game details quote what the bots wrote and said: escaped so they cannot drive the terminal.
    let text = summary(
        &args,
        &a,
        &b,
        &records,
        (&profile, stage),
        games_stage.as_ref(),
        (lo, hi),
        &endings,
        &by_colour,
    );
    print!("{}", escape_controls(&text));
    Ok(Outcome::Success)
}

/// Whether two bot specifications name the same file (`AI1_obf.jar#Class` by its file).
fn same_file(a: &str, b: &str) -> bool {
    let path = |s: &str| std::path::Path::new(s.split('#').next().unwrap_or(s)).canonicalize().ok();
    a.split_once('#').map(|x| x.1) == b.split_once('#').map(|x| x.1)
        && path(a).is_some()
        && path(a) == path(b)
}

/// Every game's viewer page and the index of them.
fn write_viewers(
    referee: &dyn crate::harness::referee::Referee,
    dir: &std::path::Path,
    a: &str,
    b: &str,
    records: &[GameRecord],
) -> anyhow::Result<()> {
    use crate::harness::html::{self, viewer};
    let games: Vec<viewer::ViewedGame> = records.iter().map(viewer::from_record).collect();
    let mut index = Vec::new();
    for (r, g) in records.iter().zip(&games) {
        let name = format!("game-{:03}.html", r.number);
        let page = viewer::game_page(referee, g).map_err(anyhow::Error::msg)?;
        html::write(&dir.join(&name), &page).map_err(anyhow::Error::msg)?;
        index.push((name, g));
    }
    let title = format!("{a} against {b}");
    html::write(&dir.join("index.html"), &viewer::match_index(&title, &index)).map_err(anyhow::Error::msg)
}

#[allow(clippy::too_many_arguments)]
fn summary(
    args: &Args,
    a: &Bot,
    b: &Bot,
    records: &[GameRecord],
    (profile, stage): (&Profile, Option<&GamesStage>),
    games_stage: Option<&Result<f64, String>>,
    (lo, hi): (f64, f64),
    endings: &BTreeMap<&str, usize>,
    by_colour: &dyn Fn(bool) -> serde_json::Value,
) -> String {
    let (a_wins, b_wins, draws) = tally(records);
    let mut out = String::new();
    let _ =
        writeln!(out, "A = {}\nB = {}\n{} games, seed {}\n", a.label(), b.label(), records.len(), args.seed);
    let _ = writeln!(out, "A wins {a_wins}, B wins {b_wins}, draws {draws}");
    for (white, name) in [(true, "as white"), (false, "as black")] {
        let c = by_colour(white);
        let _ = writeln!(
            out,
            "  A {name}: {} games, {} wins, {} losses, {} draws",
            c["games"], c["wins"], c["losses"], c["draws"]
        );
    }
    let _ = writeln!(
        out,
        "A's win rate {:.1}% (95% confidence interval {:.1}% to {:.1}%, Wilson)",
        100.0 * a_wins as f64 / records.len() as f64,
        100.0 * lo,
        100.0 * hi
    );
    if let (Some(Err(why)), Some(g)) = (games_stage, stage) {
        let _ = writeln!(out, "{} for A (profile `{}`): no score: A {why}", g.label(), profile.name);
    }
    if let (Some(Ok(score)), Some(g)) = (games_stage, stage) {
        let rule = match g.win_rate_above {
            Some(t) => format!("{} if more than {:.0}% won", g.points, 100.0 * t),
            None if profile.gated => format!("{} + {} per win above {}", g.base, g.per_win, g.wins_above),
            None => format!("{} per win, {} per draw", g.per_win, g.per_draw),
        };
        let _ = writeln!(
            out,
            "{} for A (profile `{}`): {rule} = {score:.2}%{}",
            g.label(),
            profile.name,
            if records.len() != g.games {
                format!(" (the profile plays {} games; this match {})", g.games, records.len())
            } else {
                String::new()
            }
        );
    }
    if stage.is_none() {
        let opponents: Vec<&str> =
            profile.game_stages.iter().chain(&profile.games).map(|g| g.opponent.as_str()).collect();
        if !opponents.is_empty() {
            let _ = writeln!(
                out,
                "no games-stage score: profile `{}` scores games against {}, not B",
                profile.name,
                opponents.join(" and ")
            );
        }
    }
    let list: Vec<String> = endings.iter().map(|(e, n)| format!("{e} {n}")).collect();
    let _ = writeln!(out, "endings: {}\n", list.join(", "));
    for r in records {
        let (wa, ba) = if r.a_is_white { ("A", "B") } else { ("B", "A") };
        let result = match r.result {
            GameResult::White => format!("white ({wa}) wins"),
            GameResult::Black => format!("black ({ba}) wins"),
            GameResult::Draw => "draw".to_string(),
        };
        let _ = writeln!(
            out,
            "game {:>3}: {result:<16} {:<16} {:>3} moves  {}",
            r.number,
            r.ending,
            r.moves.len(),
            r.detail
        );
    }
    out
}
