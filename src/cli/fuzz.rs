//! `arbiter fuzz`: find where a bot breaks the rules (or the two engines disagree), and shrink
//! each kind of failure to a small position.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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
use crate::advance::{Board, Fast, Strictness};
use crate::harness::bot::Bot;
use crate::harness::escape::escape_controls;
use crate::harness::files::write_atomic;
use crate::harness::fuzz::{FuzzOptions, FuzzReport, fuzz};
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

    /// Random positions to try, 1 to 100000.
    #[arg(long, default_value_t = 500, value_parser = bounds::whole::<usize>(1, MAX_FUZZ_CASES))]
    cases: usize,

    /// Seed: the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Positions tried at once, 1 to 256 (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    jobs: Option<usize>,

    /// Also demand grade N's answer (4, the default, demands only a legal move).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(4..=7))]
    grade: u8,

    /// Write each minimal failure here: `<rule>-<side>.txt` (a board ready for a corpus) and
    /// `<rule>-<side>.json` (the verdict, the bot's move and output, the legal alternatives).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Bot runs allowed for shrinking each kind of failure, 0 to 10000.
    #[arg(long, default_value_t = 400, value_parser = bounds::whole::<usize>(0, MAX_SHRINK_RUNS))]
    max_shrink_runs: usize,

    #[command(flatten)]
    limits: LimitArgs,

    /// Print the report as JSON.
    #[arg(long)]
    json: bool,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
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
    let bot =
        Bot::parse(args.bot.as_deref().unwrap_or_default(), referee.as_ref()).map_err(anyhow::Error::msg)?;
    let hidden = args.out.iter().filter_map(|d| std::path::absolute(d).ok()).collect();
    let (limits, sandbox) = args.limits.sandboxed(hidden)?;
    if !args.quiet && matches!(bot, Bot::Command(..)) {
        eprintln!("{}", sandbox.line());
    }
    let options = FuzzOptions {
        cases: args.cases,
        // Pente (any game but Advance) has no grades: its `legal` category asks for a legal move.
        category: if referee.game() == "advance" {
            format!("grade{}", args.grade)
        } else {
            "legal".to_string()
        },
        max_shrink_runs: args.max_shrink_runs,
        run: VerifyOptions { limits, same_file: false, strict: false, seed: args.seed, jobs },
    };
    let bar = progress_bar(args.cases, args.quiet);
    let failed = AtomicUsize::new(0);
    let report = fuzz(referee.as_ref(), &bot, &options, &|passed| {
        if !passed {
            failed.fetch_add(1, Ordering::Relaxed);
        }
        bar.set_message(format!("{} failed", failed.load(Ordering::Relaxed)));
        bar.inc(1);
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    if let Some(dir) = &args.out {
        write_failures(dir, &report)?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"bot": bot.label(), "seed": args.seed, "grade": args.grade, "report": report})
            )?
        );
    } else {
        // Reasons quote the bot's output: escaped so it cannot drive the terminal.
        print!("{}", escape_controls(&summary(&bot.label(), &args, &report)));
    }
    Ok(if report.failures.is_empty() { Outcome::Success } else { Outcome::Failure })
}

/// Writes `<slug>-<side>.txt` and `.json` for each failure, each atomically.
fn write_failures(dir: &Path, report: &FuzzReport) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for f in &report.failures {
        let stem = dir.join(format!("{}-{}", f.signature.slug(), f.side));
        write_atomic(&stem.with_extension("txt"), f.minimal_board.as_bytes())
            .with_context(|| format!("cannot write {}", stem.with_extension("txt").display()))?;
        let text = serde_json::to_string_pretty(&json!({
            "verdict": f.signature.verdict,
            "rule": f.signature.rule,
            "side": f.side,
            "reason": f.result.reason,
            "move": f.result.played,
            "bot_output": f.result.output,
            "legal_alternatives": f.result.expected,
            "reproduce": f.result.reproduce,
            "process": f.result.process,
            "stderr_tail": f.result.stderr_tail,
            "cases_failing_this_way": f.count,
            "original_board": f.original_board,
            "pieces_and_walls": {"original": f.original_size, "minimal": f.minimal_size},
        }))?;
        write_atomic(&stem.with_extension("json"), (text + "\n").as_bytes())
            .with_context(|| format!("cannot write {}", stem.with_extension("json").display()))?;
    }
    Ok(())
}

fn summary(bot: &str, args: &Args, report: &FuzzReport) -> String {
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
    for (i, f) in report.failures.iter().enumerate() {
        let what = f
            .signature
            .rule
            .as_deref()
            .map_or(f.signature.verdict.to_string(), |r| format!("{} ({r})", f.signature.verdict));
        let _ = writeln!(out, "\n{}. {what}: {} case(s), first the case #{}", i + 1, f.count, f.first_case);
        let _ = writeln!(
            out,
            "   shrunk from {} to {} pieces and walls in {} bot runs; {} to move:",
            f.original_size, f.minimal_size, f.shrink_runs, f.side
        );
        if let Ok(board) = Board::parse(f.minimal_board.as_bytes(), "minimal", Strictness::Lenient) {
            for line in draw(&board).lines() {
                let _ = writeln!(out, "     {line}");
            }
        }
        if let Some(mv) = &f.result.played {
            let _ = writeln!(out, "   the bot played {mv}");
        }
        let _ = writeln!(out, "   {}", f.result.reason);
        if !f.result.expected.is_empty() {
            let _ = writeln!(out, "   legal alternatives: {}", f.result.expected.join(" "));
        }
        if let Some(dir) = &args.out {
            let _ = writeln!(
                out,
                "   written: {}",
                dir.join(format!("{}-{}.txt", f.signature.slug(), f.side)).display()
            );
        }
        let _ = writeln!(out, "   reproduce: {}", f.result.reproduce);
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
