//! `arbiter fuzz`: find where a bot breaks the rules (or the two engines disagree), and shrink
//! each kind of failure to a small position.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;

use super::bounds::{self, MAX_FUZZ_CASES, MAX_JOBS, MAX_SHRINK_RUNS};
use super::limits::LimitArgs;
use super::show::draw;
use super::{CommandResult, Outcome};
use crate::advance::differential::{disagreement, shrink_disagreement};
use crate::advance::generate::random_position;
use crate::advance::{Board, Fast};
use crate::harness::bot::Bot;
use crate::harness::escape::escape_controls;
use crate::harness::files::write_atomic;
use crate::harness::fuzz::{FuzzGame, FuzzOptions, FuzzReport, fuzz};
use crate::harness::interrupt;
use crate::harness::referee::{named, some_of};
use crate::harness::verify::{VerifyOptions, case_seed};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot to fuzz: a command or `builtin:NAME`.
    #[arg(long, value_name = "COMMAND", required_unless_present = "engines")]
    bot: Option<String>,

    /// Instead of a bot, check the fast engine against the reference: legal boards, winning
    /// moves, grade sets and perft 2.
    #[arg(long, conflicts_with = "bot")]
    engines: bool,

    /// Positions to try, 1 to 100000.
    #[arg(long, default_value_t = 500, value_parser = bounds::whole::<usize>(1, MAX_FUZZ_CASES))]
    cases: usize,

    /// Stop starting new positions after this long (`60s`, `2m`, `90`): what was found so far
    /// is shrunk and reported.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    time: Option<Duration>,

    /// Seed: the same seed gives the same positions, from the same sources.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Positions tried at once, 1 to 256 (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    jobs: Option<usize>,

    /// The answer demanded: `auto` (the default) demands the single answer of grade 4, 5 or 6
    /// where a position has one (so a move the bot never considers is caught) and any legal
    /// move elsewhere; 4 demands only a legal move; 5, 6 or 7 that grade's answer everywhere.
    #[arg(long, default_value = "auto", value_parser = grade)]
    grade: GradeChoice,

    /// Only uniform random positions, none of the positions aimed at the rules' edges.
    #[arg(long)]
    no_edges: bool,

    /// Only the sources whose names start with this (`random`, or a family such as `tempt/`);
    /// repeatable. The report lists every source with its count (docs/FUZZ.md lists each
    /// game's).
    #[arg(long, value_name = "PREFIX")]
    source: Vec<String>,

    /// Write each kind of failure here: `<kind>-<side>.txt` (the minimal board, ready for a
    /// corpus) and `<kind>-<side>.json` (verdict, the bot's move and output, the expected
    /// moves, every case that failed this way), and the whole report as `fuzz-report.json`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Also write the report as a web page, `DIR/index.html`: each kind of failure in the order
    /// to fix it, its minimal position drawn beside the nearest expected board.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,

    /// Bot runs allowed for shrinking each kind of failure, 0 to 10000.
    #[arg(long, default_value_t = 400, value_parser = bounds::whole::<usize>(0, MAX_SHRINK_RUNS))]
    max_shrink_runs: usize,

    /// Time allowed for shrinking, all kinds of failure together (`30s`, `2m`): shared out, each
    /// kind getting an equal part of what is left when its turn comes (in the order to fix them).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = duration)]
    shrink_time: Duration,

    /// Times the first failing case of each kind is run again, 0 to 20: a failure that does not
    /// come back every time is reported as intermittent and not shrunk.
    #[arg(long, default_value_t = 2, value_parser = bounds::whole::<usize>(0, 20))]
    reruns: usize,

    /// Pass the same path as input and output (the assignment allows it).
    #[arg(long)]
    same_file: bool,

    /// Create the output file (empty) before the bot starts, for bots that can only open an
    /// existing file.
    #[arg(long)]
    create_output: bool,

    #[command(flatten)]
    limits: LimitArgs,

    /// Print the report as JSON.
    #[arg(long)]
    json: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// What `--grade` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GradeChoice {
    /// Each position's single answer of grade 4 to 6, where it has one.
    Auto,
    Grade(u8),
}

impl std::fmt::Display for GradeChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GradeChoice::Auto => f.write_str("auto"),
            GradeChoice::Grade(g) => write!(f, "{g}"),
        }
    }
}

fn grade(text: &str) -> Result<GradeChoice, String> {
    match text.trim() {
        "auto" => Ok(GradeChoice::Auto),
        t => match t.parse::<u8>() {
            Ok(g) if (4..=7).contains(&g) => Ok(GradeChoice::Grade(g)),
            _ => Err(format!("expected `auto` or a grade from 4 to 7, not `{t}`")),
        },
    }
}

/// The longest `--time` or `--shrink-time`: a day.
const MAX_DURATION_SECONDS: f64 = 86_400.0;

/// Reads `60s`, `2m`, `1h` or a plain number of seconds, more than 0 and at most a day.
fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, scale) = match t.char_indices().last() {
        Some((i, 's')) => (&t[..i], 1.0),
        Some((i, 'm')) => (&t[..i], 60.0),
        Some((i, 'h')) => (&t[..i], 3600.0),
        _ => (t, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 && n * scale <= MAX_DURATION_SECONDS => {
            Ok(Duration::from_secs_f64(n * scale))
        }
        _ => Err(format!("expected a duration like 60s, 2m or 1h, more than 0 and at most 24h, not `{t}`")),
    }
}

fn progress_bar(len: usize, quiet: bool) -> ProgressBar {
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(len as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions  {msg}  [{elapsed_precise}]")
            .expect("a valid template"),
    );
    bar
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    let jobs = super::input::jobs(args.jobs);
    if args.engines {
        return engines(&args, jobs);
    }
    let game = FuzzGame::of(referee.as_ref()).map_err(anyhow::Error::msg)?;
    let hidden = args.out.iter().chain(&args.html).filter_map(|d| std::path::absolute(d).ok()).collect();
    let (limits, sandbox) = args.limits.sandboxed(hidden)?;
    let bot = Bot::open(
        args.bot.as_deref().unwrap_or_default(),
        referee.as_ref(),
        &limits,
        &crate::harness::host::HostOptions::default(),
    )
    .map_err(anyhow::Error::msg)?;
    if !args.quiet && matches!(bot, Bot::Command(..) | Bot::Hosted(_)) {
        eprintln!("{}", sandbox.line());
    }
    let category = match args.grade {
        GradeChoice::Auto => game.fuzzing.any_move_category().to_string(),
        GradeChoice::Grade(g) if referee.categories().contains(&format!("grade{g}").as_str()) => {
            format!("grade{g}")
        }
        GradeChoice::Grade(g) => anyhow::bail!(
            "--grade {g}: {} has no grades; fuzzing asks for a legal move ({})",
            referee.game(),
            game.fuzzing.any_move_category()
        ),
    };
    let options = FuzzOptions {
        cases: args.cases,
        category,
        auto_category: args.grade == GradeChoice::Auto,
        edges: !args.no_edges,
        only_sources: args.source.clone(),
        time: args.time,
        max_shrink_runs: args.max_shrink_runs,
        shrink_time: args.shrink_time,
        reruns: args.reruns,
        run: VerifyOptions {
            limits,
            same_file: args.same_file,
            strict: false,
            seed: args.seed,
            jobs,
            create_output: args.create_output,
        },
    };
    // The first Ctrl-C stops the run and reports what was found so far; a second one ends
    // arbiter at once.
    interrupt::handle_interrupts();
    let bar = progress_bar(args.cases, args.quiet);
    let failed = AtomicUsize::new(0);
    let report = fuzz(game, &bot, &options, &|passed| {
        if !passed {
            failed.fetch_add(1, Ordering::Relaxed);
        }
        bar.set_message(format!("{} failed", failed.load(Ordering::Relaxed)));
        bar.inc(1);
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    if let Some(dir) = &args.out {
        write_failures(dir, &bot.label(), &args, &report)?;
    }
    if let Some(dir) = &args.html {
        crate::harness::html::fuzz::write_page(referee.as_ref(), &bot.label(), args.seed, &report, dir)
            .map_err(anyhow::Error::msg)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report_json(&bot.label(), &args, &report))?);
    } else {
        // Reasons quote the bot's output: escaped so it cannot drive the terminal.
        print!("{}", escape_controls(&summary(game, &bot.label(), &args, &report)));
    }
    if report.stopped.as_deref() == Some("interrupted") {
        // As an interrupted command always ends; the report and files are out.
        std::process::exit(130);
    }
    Ok(if report.failures.is_empty() { Outcome::Success } else { Outcome::Failure })
}

fn report_json(bot: &str, args: &Args, report: &FuzzReport) -> serde_json::Value {
    json!({"bot": bot, "seed": args.seed, "grade": args.grade.to_string(), "report": report})
}

/// Writes `<slug>-<side>.txt` and `.json` for each kind of failure, and `fuzz-report.json`,
/// each atomically.
fn write_failures(dir: &Path, bot: &str, args: &Args, report: &FuzzReport) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let write = |path: &Path, bytes: &[u8]| {
        write_atomic(path, bytes).with_context(|| format!("cannot write {}", path.display()))
    };
    for f in &report.failures {
        let stem = dir.join(format!("{}-{}", f.signature.slug(), f.side));
        write(&stem.with_extension("txt"), f.minimal_board.as_bytes())?;
        let text = serde_json::to_string_pretty(&json!({
            "verdict": f.signature.verdict,
            "rule": f.signature.rule,
            "piece": f.signature.piece,
            "move_kind": f.signature.move_kind,
            "side": f.side,
            "grade": f.result.category,
            "missed": f.missed,
            "reason": f.result.reason,
            "move": f.result.played,
            "bot_output": f.result.output,
            "stdout_head": f.result.stdout_head,
            "expected": f.result.expected,
            "legal_alternatives": f.result.expected,
            // The fuzzer's user has arbiter: the line judges the output too.
            "reproduce": format!("{} ; {}", f.result.reproduce, f.result.check),
            "process": f.result.process,
            "stderr_tail": f.result.stderr_tail,
            "reproduction": f.reproduction,
            "intermittent": f.reproduction.intermittent(),
            "cases_failing_this_way": f.count,
            "first_found": f.first_found,
            "source": f.source,
            "original_board": f.original_board,
            "pieces_and_walls": {"original": f.original_size, "minimal": f.minimal_size},
            "shrink": {"runs": f.shrink_runs, "end": f.shrink_end, "sentence": f.shrink_sentence(report.size_unit)},
            "cases": f.cases,
        }))?;
        write(&stem.with_extension("json"), (text + "\n").as_bytes())?;
    }
    let all = serde_json::to_string_pretty(&report_json(bot, args, report))? + "\n";
    write(&dir.join("fuzz-report.json"), all.as_bytes())
}

fn summary(game: FuzzGame<'_>, bot: &str, args: &Args, report: &FuzzReport) -> String {
    let mut out = String::new();
    let failed = report.cases - report.passed;
    let _ = writeln!(
        out,
        "fuzzed {bot} on {} positions (seed {}, grade {}): {} passed, {failed} failed in {} distinct way(s)",
        report.cases,
        args.seed,
        args.grade,
        report.passed,
        report.failures.len()
    );
    match report.stopped.as_deref() {
        Some("interrupted") => {
            let _ = writeln!(
                out,
                "interrupted after {} of {} positions: what was found so far",
                report.cases, report.requested
            );
        }
        Some(_) => {
            let _ =
                writeln!(out, "the time ran out after {} of {} positions", report.cases, report.requested);
        }
        None => {}
    }
    for (i, f) in report.failures.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n{}. {}: {} case(s), first found at case #{} after {:.1} s (shrunk from case #{}, {})",
            i + 1,
            f.signature.describe(),
            f.count,
            f.first_found.case,
            f.first_found.seconds,
            f.first_case,
            f.source
        );
        if let Some(missed) = &f.missed {
            let _ = writeln!(out, "   {}: the bot never plays it", missed.sentence);
        }
        let _ =
            writeln!(out, "   {}; {}:", f.shrink_sentence(report.size_unit), game.fuzzing.side_words(f.side));
        // The game draws its own board (Pente marks the bot's move on it).
        if let Some(picture) = &f.result.picture {
            for line in picture.lines() {
                let _ = writeln!(out, "     {line}");
            }
        }
        if let Some(mv) = &f.result.played {
            let _ = writeln!(out, "   the bot played {}", named(mv, f.result.played_kind.as_ref()));
        }
        let _ = writeln!(out, "   {}", f.result.reason);
        if !f.result.expected.is_empty() {
            let expected = match &f.result.expected[..] {
                [one] => named(one, f.result.expected_kind.as_ref()),
                many => some_of(many, 8, "moves"),
            };
            let _ = writeln!(out, "   expected: {expected}");
        }
        if !f.result.stdout_head.is_empty() {
            let head: Vec<&str> = f.result.stdout_head.lines().take(3).collect();
            let _ = writeln!(out, "   stdout: {}", head.join(" | "));
        }
        if let Some(dir) = &args.out {
            let _ = writeln!(
                out,
                "   written: {}",
                dir.join(format!("{}-{}.txt", f.signature.slug(), f.side)).display()
            );
        }
        if f.result.check.is_empty() {
            let _ = writeln!(out, "   reproduce: {}", f.result.reproduce);
        } else {
            let _ = writeln!(out, "   reproduce: {} ; {}", f.result.reproduce, f.result.check);
        }
    }
    if !report.sources.is_empty() {
        let list: Vec<String> = report.sources.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let _ = writeln!(out, "\npositions by source: {}", list.join(", "));
    }
    out
}

/// `fuzz --engines`: the fast engine against the reference.
fn engines(args: &Args, jobs: usize) -> CommandResult {
    let bar = progress_bar(args.cases, args.quiet);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let found: Vec<(usize, Board, crate::side::Side, String)> = pool.install(|| {
        (0..args.cases)
            .into_par_iter()
            .filter_map(|i| {
                let (board, side) =
                    random_position(&Fast, case_seed(args.seed, &format!("fuzz position {i}")));
                let d = disagreement(&board, side);
                bar.inc(1);
                d.map(|d| (i, board, side, d))
            })
            .collect()
    });
    bar.finish_and_clear();
    let shrunk: Vec<(usize, Board, crate::side::Side, String)> = found
        .iter()
        .take(5)
        .map(|(i, board, side, _)| {
            let small = shrink_disagreement(board, *side);
            let d = disagreement(&small, *side).unwrap_or_default();
            (*i, small, *side, d)
        })
        .collect();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (i, board, side, _) in &shrunk {
            let path = dir.join(format!("engines-{i}-{side}.txt"));
            write_atomic(&path, board.to_text().as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if args.json {
        let list: Vec<_> = shrunk
            .iter()
            .map(|(i, b, s, d)| json!({"case": i, "side": s, "board": b.joined(), "difference": d}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"cases": args.cases, "seed": args.seed, "disagreements": found.len(), "shrunk": list})
            )?
        );
    } else if found.is_empty() {
        println!("the fast and reference engines agree on all {} positions (seed {})", args.cases, args.seed);
    } else {
        println!("the engines disagree on {} of {} positions; the first, shrunk:", found.len(), args.cases);
        for (i, board, side, d) in &shrunk {
            println!("\ncase #{i}, {side} to move:\n{}{d}", draw(board));
        }
    }
    Ok(if found.is_empty() { Outcome::Success } else { Outcome::Failure })
}
