//! `arbiter verify`: run a bot over a corpus and grade it like the course does.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::run_args::RunArgs;
use super::{CommandResult, Outcome};
use crate::harness::bot::Bot;
use crate::harness::corpus::find_cases;
use crate::harness::escape::escape_controls;
use crate::harness::files;
use crate::harness::grade::run_ladder;
use crate::harness::host::HostOptions;
use crate::harness::machine::Snapshot;
use crate::harness::profile::Profile;
use crate::harness::referee::Referee;
use crate::harness::report::files::ReportFiles;
use crate::harness::report::live::LiveFiles;
use crate::harness::report::paths::RelativePaths;
use crate::harness::report::{self, RunInfo};
use crate::harness::robustness::{Check, run_checks};
use crate::harness::verdict::Verdict;
use crate::harness::verify::{ReadyCase, prepare_cases, run_cases, twin_cases};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The corpus folder: `grade4..grade7/white|black/NAME.txt`, or the course's
    /// `4..7/white|black/tests/N.txt` (with `answers/N.txt` beside `tests`).
    #[arg(value_name = "CORPUS", default_value = "corpus")]
    corpus: PathBuf,

    /// The bot: a command run as `COMMAND ARGS... <side> <in> <out>`, or `builtin:random`,
    /// `builtin:grade5`, `builtin:grade6`, `builtin:grade7`.
    #[arg(long, value_name = "COMMAND")]
    bot: String,

    /// Run this calibrate program once first, in a game that has one: the file it leaves is
    /// given to the bot in every case.
    #[arg(long, value_name = "PROGRAM")]
    calibrate: Option<String>,

    #[command(flatten)]
    run: RunArgs,

    /// A support file placed beside a hosted submission instead of arbiter's own (the chess
    /// assignment's `a1_support.py`: the course's copy). Repeatable.
    #[arg(long, value_name = "FILE")]
    support: Vec<PathBuf>,

    /// Read golden answers from DIR, mirroring each case's path inside the corpus
    /// (`DIR/CATEGORY/white/01.json`, as `arbiter golden --golden-dir DIR` writes them), instead
    /// of a `golden` folder beside a folder named `corpus`.
    #[arg(long, value_name = "DIR")]
    golden_dir: Option<PathBuf>,

    /// Print the whole report as JSON on stdout.
    #[arg(long)]
    json: bool,

    /// Also write Gradescope's results.json here. This file, `--junit` and `--json-out` are
    /// written before the first case runs and rewritten as cases finish, each time replaced
    /// atomically and marked incomplete until the run ends: a killed run leaves valid files.
    #[arg(long, value_name = "PATH")]
    gradescope: Option<PathBuf>,

    /// Also write a JUnit XML report here.
    #[arg(long, value_name = "PATH")]
    junit: Option<PathBuf>,

    /// Also write the report as a web page, `DIR/index.html`: the score by stage and each
    /// failing case drawn as the bot's board beside the expected one.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,

    /// Also write the JSON report (as `--json` prints it) here.
    #[arg(long, value_name = "PATH")]
    json_out: Option<PathBuf>,

    /// Paths in the reports are written relative to this folder, the student's submission
    /// (default: the current folder), and cases' paths relative to the corpus: no report shows
    /// the grader's absolute paths. Reproduce lines run in this folder.
    #[arg(long, value_name = "DIR")]
    relative_to: Option<PathBuf>,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,

    /// Colour in the report: `auto` (when stdout is a terminal that supports it and NO_COLOR
    /// is not set), `always` or `never`.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    color: ColorWhen,

    /// Also run each case's symmetric twins (left-right mirror; colours swapped with the board
    /// turned upside down) and flag cases that pass while a twin fails. Twins are not scored.
    #[arg(long)]
    variants: bool,
}

/// When to colour a report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorWhen {
    /// When stdout is a terminal that supports colour, and neither NO_COLOR nor CLICOLOR=0 is set.
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// Whether to colour what goes to stdout. `auto` asks anstream, which follows the
    /// NO_COLOR, CLICOLOR and CLICOLOR_FORCE conventions and checks for a terminal.
    pub fn for_stdout(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
            }
        }
    }
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    // A hosted game's submission is compiled and loaded once the sandbox's limits are known;
    // any other bot is checked at once.
    let parsed = if Bot::needs_open(&args.bot, referee.as_ref()) {
        None
    } else {
        Some(Bot::parse(&args.bot, referee.as_ref()).map_err(anyhow::Error::msg)?)
    };
    if args.run.robustness {
        let Some(bot) = &parsed else {
            bail!(
                "{}'s bots are called, not given files, so there are no bad inputs to give them",
                referee.game()
            );
        };
        return robustness(&args, bot, referee.as_ref());
    }
    let profile =
        Profile::choose(args.run.profile.as_deref(), referee.as_ref()).map_err(anyhow::Error::msg)?;
    if profile.stages.is_empty() {
        // A profile of games alone scores no case: running the corpus under it would print 0%.
        bail!(
            "the profile `{name}` scores games only, and `verify` runs test cases, so nothing would be \
             verified: grade its games with `arbiter --game {game} grade --profile {name} SUBMISSION...` \
             (or play them with `match --profile {name}`), and verify the cases without --profile",
            name = profile.name,
            game = referee.game(),
        );
    }
    let jobs = super::input::jobs(args.run.jobs);
    let mut specs = find_cases(&args.corpus, referee.categories())
        .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))?;
    if let Some(dir) = &args.golden_dir {
        for spec in &mut specs {
            spec.golden = super::golden::golden_in(dir, &args.corpus, &spec.path);
        }
    }
    let (limits, sandbox) = args.run.limits.sandboxed(hidden_paths(&args, &specs))?;
    for file in &args.support {
        if !file.is_file() {
            bail!("--support {}: no such file", file.display());
        }
    }
    let host_options = HostOptions { support: args.support.clone(), class: None };
    // A hosted submission that cannot be loaded (a syntax error, input() at import time) is
    // refused with the loader's words, and every case reports as not run with that reason.
    let (bot, refused) = match parsed {
        Some(bot) => (bot, None),
        None => match Bot::open(&args.bot, referee.as_ref(), &limits, &host_options) {
            Ok(bot) => (bot, None),
            Err(why) => {
                let placeholder = crate::harness::runner::BotCommand::parse(&crate::harness::runner::quote(
                    args.bot.as_ref(),
                ))
                .map_err(|e| anyhow::anyhow!("cannot name the submission {}: {e}", args.bot))?;
                (Bot::Command(placeholder, referee.protocol()), Some(why))
            }
        },
    };
    // A program the sandbox will not run (an interpreter whose installation holds the grader's
    // folders, a folder its user cannot be given) is refused once, with the reason.
    let refused = refused.or_else(|| match &bot {
        Bot::Command(command, _) => crate::harness::sandbox::refusal(command, &limits),
        _ => None,
    });
    let bot = super::input::calibrated(bot, args.calibrate.as_deref(), referee.as_ref(), &limits)?;
    if specs.is_empty() {
        bail!(
            "no test cases under {}: expected files like grade6/white/NAME.txt (or the course's 6/white/tests/N.txt)",
            args.corpus.display()
        );
    }
    let start = Instant::now();
    let machine = Snapshot::take();
    let (cases, errors) = prepare_cases(referee.as_ref(), specs, jobs);
    if !errors.is_empty() {
        bail!("the corpus has {} case(s) that cannot be used:\n{}", errors.len(), errors.join("\n"));
    }

    // The course's answers must agree with the rules before a student is failed on them.
    let disagreements: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let answer = match files::read_capped(c.spec.answer.as_ref()?, files::BOARD) {
                Ok(bytes) => bytes,
                Err(e) => {
                    return Some(format!("{}: the course's answer cannot be checked: {e}", c.spec.name));
                }
            };
            c.prepared.check_answer(&answer).map(|why| format!("{}: {why}", c.spec.name))
        })
        .collect();
    if !disagreements.is_empty() && !args.json {
        eprintln!(
            "warning: the corpus's own answers disagree with the rules in {} case(s):",
            disagreements.len()
        );
        for d in &disagreements {
            eprintln!("  {}", escape_controls(d));
        }
    }

    let twins = if args.variants {
        twin_cases(referee.as_ref(), &cases).map_err(anyhow::Error::msg)?
    } else {
        Vec::new()
    };

    let rules = args.run.stop_rules();
    let options = args.run.verify_options(limits, jobs);
    let all: Vec<&ReadyCase> = cases.iter().chain(&twins).collect();
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(all.len() as u64) };
    bar.set_style(
        // ETA from the rate so far; with cases of even cost that is the time left.
        ProgressStyle::with_template("{bar:24} {pos}/{len} cases  {msg}  [{elapsed_precise}, ETA {eta}]")
            .expect("a valid template"),
    );
    let base = match &args.relative_to {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().context("cannot read the current folder")?,
    };
    let exe = crate::harness::program::installed_path();
    let info = RunInfo {
        bot: bot.label(),
        corpus: args.corpus.display().to_string(),
        paths: RelativePaths::new(&args.corpus, &base, exe.as_deref()),
        hidden: args.run.hidden_categories(referee.categories())?,
        machine,
        refused: refused.clone(),
        seed: args.run.seed,
        profile: &profile,
        disagreements,
        categories: cases.iter().map(|c| c.spec.category.clone()).collect(),
        start,
        sandbox,
    };
    let files = ReportFiles {
        gradescope: args.gradescope.clone(),
        junit: args.junit.clone(),
        json: args.json_out.clone(),
        text: None,
    };
    // The result files exist, valid and marked incomplete, from before the first case runs
    // until the last write marks them complete: a killed run leaves the cases it finished.
    let live = (!files.is_empty()).then(|| LiveFiles::new(&info, &files, cases.len(), all.len()));
    if let Some(live) = &live {
        live.write_now().map_err(anyhow::Error::msg)?;
    }
    let passed = std::sync::atomic::AtomicUsize::new(0);
    let mut results = std::thread::scope(|scope| {
        if let Some(live) = &live {
            scope.spawn(|| live.keep_writing());
        }
        let progress = |index: usize, r: &crate::harness::verify::CaseResult| {
            if let Some(live) = &live {
                live.record(index, r);
            }
            if r.verdict == Verdict::Pass {
                passed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            bar.set_message(format!("{} passed", passed.load(std::sync::atomic::Ordering::Relaxed)));
            bar.inc(1);
        };
        let results = if let Some(why) = &refused {
            let reason = format!("the submission was refused before any case ran: {why}");
            let results: Vec<crate::harness::verify::CaseResult> = all
                .iter()
                .map(|c| crate::harness::verify::not_run(c, &bot, &options, reason.clone()))
                .collect();
            for (i, r) in results.iter().enumerate() {
                progress(i, r);
            }
            results
        } else if rules.any() {
            // The stop rules need the cases run as the profile's ladder; twins are not scored
            // and run after, all of them.
            let (originals, twins) = all.split_at(cases.len());
            let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().expect("a thread pool");
            let mut results =
                pool.install(|| run_ladder(originals, &profile, &bot, &options, &rules, &progress));
            bar.inc(results.iter().filter(|r| r.verdict == Verdict::NotRun).count() as u64);
            results.extend(run_cases(twins, &bot, &options, &|i, r| progress(i + cases.len(), r)));
            results
        } else {
            run_cases(&all, &bot, &options, &progress)
        };
        if let Some(warning) = live.as_ref().and_then(LiveFiles::finish) {
            bar.suspend(|| eprintln!("warning: a partial result file could not be written: {warning}"));
        }
        // The scope waits for the writer thread, so no partial write can land after the last.
        results
    });
    bar.finish_and_clear();
    let variants = results.split_off(cases.len());

    let report = info.report(&results, &variants, true);
    files.write(&report).map_err(anyhow::Error::msg)?;
    if let Some(dir) = &args.html {
        let html = crate::harness::html::verify::submission_page(referee.as_ref(), &report, None);
        crate::harness::html::write(&dir.join("index.html"), &html).map_err(anyhow::Error::msg)?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report::json::render(&report))?);
    } else {
        print!("{}", report::human::render_colored(&report, args.run.details, args.color.for_stdout()));
    }
    let clean = report.failures().next().is_none() && report.suspicious.is_empty();
    Ok(if clean { Outcome::Success } else { Outcome::Failure })
}

/// What no bot may see: the corpus, its golden answers and course answers, and the folders the
/// reports go to.
fn hidden_paths(args: &Args, specs: &[crate::harness::referee::CaseSpec]) -> Vec<PathBuf> {
    let mut hidden = vec![args.corpus.clone()];
    // The HTML folder holds the pages themselves: a file inside it stands for it.
    let html = args.html.as_ref().map(|d| d.join("index.html"));
    let reports =
        [args.gradescope.as_ref(), args.junit.as_ref(), args.json_out.as_ref()].into_iter().flatten();
    for dir in super::limits::answer_folders(specs) {
        if !hidden.contains(&dir) {
            hidden.push(dir);
        }
    }
    for file in reports.chain(html.as_ref()) {
        let dir = std::path::absolute(file).ok().and_then(|f| f.parent().map(PathBuf::from));
        if let Some(dir) = dir
            && !hidden.contains(&dir)
        {
            hidden.push(dir);
        }
    }
    hidden
}

/// `verify --robustness`: the bad-input checks, as a table or JSON.
fn robustness(args: &Args, bot: &Bot, referee: &dyn Referee) -> CommandResult {
    // A built-in bot is checked through its command-line form, `arbiter bot --builtin NAME`.
    let command = bot.as_command(args.run.seed);
    let (limits, sandbox) = args.run.limits.sandboxed(Vec::new())?;
    let boards = referee.cases().and_then(|c| c.robustness_boards()).ok_or_else(|| {
        anyhow::anyhow!(
            "{}'s bots read no position file, so there are no bad inputs to give them",
            referee.game()
        )
    })?;
    let checks = run_checks(&command, &referee.protocol(), &boards, &limits);
    let passed = checks.iter().filter(|c| c.passed).count();
    if args.json {
        let out = serde_json::json!({"bot": bot.label(), "sandbox": sandbox, "passed": passed, "total": checks.len(), "checks": checks});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        // What the bot said and its name are its own text: escaped, like the verify report.
        print!("{}", escape_controls(&robustness_table(&bot.label(), &checks, &sandbox.line())));
    }
    Ok(if passed == checks.len() { Outcome::Success } else { Outcome::Failure })
}

/// The robustness checks as a table for people.
fn robustness_table(bot: &str, checks: &[Check], sandbox: &str) -> String {
    let passed = checks.iter().filter(|c| c.passed).count();
    let mut out = format!("robustness of {bot}: {passed} of {} checks passed\n{sandbox}\n\n", checks.len());
    for c in checks {
        let mark = if c.passed { "pass" } else { "FAIL" };
        let wrote = if c.wrote_output { ", wrote output.txt" } else { "" };
        let _ = writeln!(out, "{mark}  {:<24} {}{wrote}", c.name, c.process);
        if !c.message.is_empty() {
            let _ = writeln!(out, "      said: {}", c.message);
        }
        let _ = writeln!(out, "      {}", c.note);
    }
    out
}
