//! `arbiter grade`: a whole class over one corpus, into a gradebook and a folder of reports.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::bounds::{self, MAX_GAMES};
use super::run_args::RunArgs;
use super::{CommandResult, Outcome};
use crate::harness::bot::Bot;
use crate::harness::corpus::find_cases;
use crate::harness::escape::escape_controls;
use crate::harness::files::write_atomic;
use crate::harness::grade::{self, Games, Graded, Setup, StopRules, Submission};
use crate::harness::gradebook::{Row, Table};
use crate::harness::profile::Profile;
use crate::harness::shard::Shard;
use crate::harness::verify::{VerifyOptions, prepare_cases};

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Grade a class: run every submission over the corpus, write each one's reports \
                  (text, JSON, Gradescope results.json, JUnit) to REPORTS/<submission>/ and one \
                  gradebook row per submission to a CSV file.\n\n\
                  A submission is a folder holding an executable `run` file (named after the \
                  folder), or a bot command (`python3 bot.py`, `builtin:grade7`). A submission \
                  whose program cannot start (no `run`, no execute bit, a missing #! \
                  interpreter) is refused before any case runs; its row and reports say why.\n\n\
                  Submissions run in parallel (--jobs); results do not depend on the job count. \
                  A rerun skips the submissions already graded with the same settings (their \
                  grade.json is there and their report.json is complete) and reruns the others: \
                  an interrupted run is resumed by running the same command again.\n\n\
                  Exit status: 0 when every submission was graded (whatever its score), 2 on bad \
                  input (a missing corpus, a bad option).",
    after_help = "Examples:\n  \
                  arbiter grade submissions/* --reports out --stop-at-gate --max-timeouts 3\n  \
                  arbiter grade submissions/* --reports out --shard 2/4   # on machine 2 of 4\n  \
                  arbiter merge out                                      # then, anywhere"
)]
pub struct Args {
    /// The submissions: folders with a `run` file, or bot commands.
    #[arg(value_name = "SUBMISSION", required = true)]
    submissions: Vec<String>,

    /// The corpus folder (as `verify` takes it).
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    corpus: PathBuf,

    /// The folder of reports: REPORTS/<submission>/{report.txt, report.json, results.json,
    /// junit.xml, grade.json}.
    #[arg(long, value_name = "DIR")]
    reports: PathBuf,

    /// The gradebook, one row per submission of this run (default: REPORTS/gradebook.csv, or
    /// REPORTS/gradebook-K-of-N.csv with --shard K/N). Rewritten as each submission finishes.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,

    /// Stop a submission's run once a stage has a case that did not pass: the later stages
    /// could not count. Their cases are reported as not run.
    #[arg(long)]
    stop_at_gate: bool,

    /// After N timeouts, do not run the submission's remaining cases (reported as not run).
    #[arg(long, value_name = "N", value_parser = bounds::whole::<usize>(1, 1_000_000))]
    max_timeouts: Option<usize>,

    /// Grade only share K of N of the submissions (sorted by name, taken round-robin: K, K+N,
    /// K+2N, ...); `arbiter merge` joins the shards' outputs.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,

    /// Grade again the submissions already graded.
    #[arg(long)]
    force: bool,

    /// Play N games (colours alternating) against the profile's games opponent (the grade-7
    /// bot for Advance) with each submission that passes every stage, scored by the profile's
    /// games stage. A bot that forfeits every game gets no games-stage score.
    #[arg(long, value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_GAMES))]
    games: Option<usize>,

    #[command(flatten)]
    run: RunArgs,

    /// A marking profile (JSON) replacing the built-in one.
    #[arg(long, value_name = "FILE")]
    profile: Option<PathBuf>,

    /// Print the gradebook as JSON on stdout.
    #[arg(long)]
    json: bool,

    /// No progress bar, no line per submission.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// The folders of the submissions that are folders.
fn all_folders(submissions: &[Submission]) -> Vec<PathBuf> {
    submissions.iter().filter_map(|s| s.folder.clone()).collect()
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    let referee = referee.as_ref();
    let profile = match &args.profile {
        Some(path) => Profile::load(path, referee.categories()).map_err(anyhow::Error::msg)?,
        None => Profile::builtin(referee.marking_profile()),
    };
    let all = grade::submissions(&args.submissions).map_err(anyhow::Error::msg)?;
    let chosen: Vec<Submission> = match args.shard {
        Some(shard) => shard.select(&all),
        None => all,
    };
    let jobs = super::input::jobs(args.run.jobs);
    let specs = find_cases(&args.corpus, referee.categories())
        .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))?;
    if specs.is_empty() {
        bail!("no test cases under {}", args.corpus.display());
    }
    std::fs::create_dir_all(&args.reports)
        .with_context(|| format!("cannot create the reports folder {}", args.reports.display()))?;
    // No bot may see the corpus, its answers, any report, or a classmate (its own folder is
    // kept visible to it by the sandbox).
    let mut hidden = vec![args.corpus.clone(), args.reports.clone()];
    hidden.extend(all_folders(&chosen));
    let (limits, sandbox) = args.run.limits.sandboxed(hidden)?;
    let (cases, errors) = prepare_cases(referee, specs, jobs);
    if !errors.is_empty() {
        bail!("the corpus has {} case(s) that cannot be used:\n{}", errors.len(), errors.join("\n"));
    }
    let games = match args.games {
        None => None,
        Some(n) => {
            let Some(stage) = &profile.games else {
                bail!(
                    "the marking profile `{}` has no games stage, so games could not count; drop --games or give a --profile with one",
                    profile.name
                );
            };
            let opponent = Bot::parse(&stage.opponent, referee).map_err(anyhow::Error::msg)?;
            // One submission alone gets every job for its games; a class keeps one game per
            // submission, the submissions themselves filling the jobs.
            let game_jobs = if chosen.len() == 1 { jobs } else { 1 };
            Some(Games { games: n, opponent, jobs: game_jobs })
        }
    };
    let rules = StopRules { stop_at_gate: args.stop_at_gate, max_timeouts: args.max_timeouts };
    let settings = format!(
        "arbiter {} game {} corpus {} profile {} limits {:?} seed {} strict {} same-file {} rules {:?} games {:?}",
        env!("CARGO_PKG_VERSION"),
        referee.game(),
        std::path::absolute(&args.corpus).unwrap_or_else(|_| args.corpus.clone()).display(),
        serde_json::to_string(&profile).unwrap_or_default(),
        args.run.limits,
        args.run.seed,
        args.run.strict,
        args.run.same_file,
        rules,
        args.games,
    );
    let setup = Setup {
        referee,
        profile: &profile,
        cases: &cases,
        options: VerifyOptions {
            limits,
            same_file: args.run.same_file,
            strict: args.run.strict,
            seed: args.run.seed,
            jobs,
            create_output: false,
        },
        rules,
        games,
        corpus: args.corpus.display().to_string(),
        sandbox: &sandbox,
        reports: args.reports.clone(),
        settings,
    };
    let csv_path = args.csv.clone().unwrap_or_else(|| {
        args.reports.join(match args.shard {
            Some(s) => format!("gradebook-{}-of-{}.csv", s.index, s.count),
            None => "gradebook.csv".to_string(),
        })
    });

    let start = Instant::now();
    let total_cases = (chosen.len() * cases.len()) as u64;
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(total_cases) };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} cases  {msg}  [{elapsed_precise}, about {eta} left]",
        )
        .expect("a valid template"),
    );
    let done = AtomicUsize::new(0);
    let say = |line: String| {
        if !args.quiet {
            bar.suspend(|| eprintln!("{}", escape_controls(&line)));
        }
    };
    bar.set_message(format!("0/{} submissions", chosen.len()));
    let rows: Mutex<Vec<Row>> = Mutex::new(Vec::new());
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let csv_error: Mutex<Option<String>> = Mutex::new(None);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().context("cannot start threads")?;
    pool.install(|| {
        use rayon::prelude::*;
        chosen.par_iter().for_each(|submission| {
            let graded = grade::grade(submission, &setup, args.force, &|_| bar.inc(1));
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{finished}/{} submissions", chosen.len()));
            let row = match graded {
                Ok(Graded::Graded(row)) => {
                    say(format!("{:<7} {}: {}", row.status, submission.name, describe(&row)));
                    row
                }
                Ok(Graded::Skipped(row)) => {
                    bar.inc(cases.len() as u64);
                    say(format!(
                        "skipped {}: already graded ({}; --force grades it again)",
                        submission.name,
                        describe(&row)
                    ));
                    row
                }
                Err(e) => {
                    say(format!("error   {}: {e}", submission.name));
                    failures
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(format!("{}: {e}", submission.name));
                    return;
                }
            };
            // The gradebook is rewritten as each submission finishes: a stopped run leaves the
            // rows it finished (and `arbiter merge REPORTS` rebuilds it from grade.json files).
            let mut rows = rows.lock().unwrap_or_else(|e| e.into_inner());
            rows.push(row);
            if let Err(e) = write_gradebook(&csv_path, &rows) {
                csv_error.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
            }
        });
    });
    bar.finish_and_clear();
    let rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    write_gradebook(&csv_path, &rows).map_err(anyhow::Error::msg)?;
    if let Some(e) = csv_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        eprintln!("warning: the gradebook could not be rewritten during the run: {e}");
    }
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut sorted = rows.clone();
    sorted.sort_by(|a, b| a.submission.cmp(&b.submission));
    if args.json {
        let out = serde_json::json!({
            "gradebook": csv_path.display().to_string(),
            "reports": args.reports.display().to_string(),
            "shard": args.shard.map(|s| s.to_string()),
            "profile": profile.name,
            "elapsed_ms": u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
            "rows": sorted,
            "errors": failures,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", escape_controls(&summary(&sorted, &csv_path, start.elapsed().as_secs_f64())));
    }
    if !failures.is_empty() {
        bail!("{} submission(s) could not be graded:\n{}", failures.len(), failures.join("\n"));
    }
    Ok(Outcome::Success)
}

/// Writes the gradebook of `rows`, sorted, atomically.
fn write_gradebook(path: &std::path::Path, rows: &[Row]) -> Result<(), String> {
    let csv = Table::from_rows(rows)?.to_csv()?;
    write_atomic(path, &csv).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A row in a few words: score, cases run, timing.
fn describe(row: &Row) -> String {
    let mut text = format!("{}%", row.score);
    if row.status == "refused" {
        let _ = write!(text, ", refused: {}", row.note.trim_start_matches("refused: "));
        return text;
    }
    let _ = write!(text, ", {} cases run", row.cases_run);
    if row.not_run > 0 {
        let _ = write!(text, ", {} not run", row.not_run);
    }
    if let (Some(played), Some(won)) = (row.games_played, row.games_won) {
        let _ = write!(text, ", {won}/{played} games won");
    }
    let _ = write!(text, ", {:.1} s", row.wall_seconds);
    text
}

/// The gradebook as a table for people, fitting 80 columns.
fn summary(rows: &[Row], csv: &std::path::Path, seconds: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:<20} {:>7} {:>6} {:>7} {:>7}",
        "submission", "bot name", "score", "run", "not run", "seconds"
    );
    for r in rows {
        let cut = |s: &str, n: usize| s.chars().take(n).collect::<String>();
        let score = if r.status == "refused" { "refused".to_string() } else { format!("{:.2}", r.score) };
        let _ = writeln!(
            out,
            "{:<24} {:<20} {:>7} {:>6} {:>7} {:>7.1}",
            cut(&r.submission, 24),
            cut(&r.bot_name, 20),
            score,
            r.cases_run,
            r.not_run,
            r.wall_seconds
        );
    }
    let _ = writeln!(out, "\n{} submission(s) in {seconds:.1} s; gradebook: {}", rows.len(), csv.display());
    out
}
