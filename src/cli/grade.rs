//! `arbiter grade`: a whole class over one corpus, into a gradebook and a folder of reports.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::bounds::{self, MAX_GAMES, MAX_TIMEOUT_SECONDS};
use super::run_args::RunArgs;
use super::{CommandResult, Outcome};
use crate::harness::bot::Bot;
use crate::harness::corpus::find_cases;
use crate::harness::escape::escape_controls;
use crate::harness::files::write_atomic;
use crate::harness::grade::{self, Games, Graded, Setup, Submission};
use crate::harness::gradebook::{Row, Table};
use crate::harness::profile::{Colours, GamesStage, Profile};
use crate::harness::shard::{Shard, ShardManifest};
use crate::harness::submission_options::Overrides;
use crate::harness::verify::prepare_cases;

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Grade a class: run every submission over the corpus, write each one's reports \
                  (text, JSON, Gradescope results.json, JUnit) to REPORTS/<submission>/ and one \
                  gradebook row per submission to a CSV file.\n\n\
                  A submission is a folder holding an executable `run` file (named after the \
                  folder), an executable program, or a bot command (`python3 bot.py`, \
                  `builtin:grade7`). A file that is not executable (a README among the folders) \
                  is skipped with a note. Before any case runs, every submission is checked, \
                  and one whose program cannot start (no `run`, no execute bit, a missing #! \
                  interpreter, a #! line ending in CR, a script named in the command that does \
                  not exist, an unreadable arbiter.toml) is refused with one line saying why; \
                  its row and reports say it too.\n\n\
                  A submission may set its own options in an `arbiter.toml` file in its folder \
                  (`same-file = true`, `create-output = true`, `timeout = 20`, the timeout at most \
                  --timeout-cap; `class = \"pkg.Name\"`, the class to play where a hosted game lets \
                  students name theirs), and the grader in --overrides FILE.csv (lines \
                  `submission,option,value`), so that one odd submission needs no run of its \
                  own.\n\n\
                  Submissions run in parallel (--jobs); results do not depend on the job count. \
                  A rerun skips the submissions already graded with the same settings and \
                  options (their grade.json is there and their report.json is complete) and \
                  reruns the others: an interrupted run is resumed by running the same command \
                  again. A timeout counts only when the case times out twice.\n\n\
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

    /// The corpus folder (as `verify` takes it); not read when the profile scores games alone.
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    corpus: PathBuf,

    /// The folder of reports: REPORTS/SUBMISSION/{report.txt, report.json, results.json,
    /// junit.xml, grade.json}.
    #[arg(long, value_name = "DIR")]
    reports: PathBuf,

    /// The gradebook, one row per submission of this run (default: REPORTS/gradebook.csv, or
    /// REPORTS/gradebook-K-of-N.csv with --shard K/N). Rewritten as each submission finishes.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,

    /// Also write web pages here: `DIR/index.html` for the class (score histogram, each case's
    /// pass rate) and one page per submission, its failing cases drawn.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,

    /// Grade only share K of N of the submissions (sorted by name, taken round-robin: K, K+N,
    /// K+2N, ...); `arbiter merge` joins the shards' outputs.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,

    /// Grade again the submissions already graded.
    #[arg(long)]
    force: bool,

    /// Play N games against the profile's final games opponent with each submission that passes every stage, scored by the profile's games stage; in a
    /// profile whose stages include games (Pente's `csci561`), play N games in each of them
    /// instead of the profile's number. A bot that forfeits every game gets no games-stage
    /// score.
    #[arg(long, value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_GAMES))]
    games: Option<usize>,

    #[command(flatten)]
    run: RunArgs,

    #[command(flatten)]
    opponents: super::run_args::OpponentArgs,

    /// The longest timeout, in seconds, a submission's arbiter.toml may ask for (default:
    /// --timeout, so no submission can give itself more time).
    #[arg(long, value_name = "SECONDS", value_parser = bounds::seconds(false, MAX_TIMEOUT_SECONDS))]
    timeout_cap: Option<f64>,

    /// Per-submission options set by the grader: a CSV file with the header
    /// `submission,option,value` and lines such as `alice,timeout,30`, `bob,same-file,true`,
    /// `carol,create-output,true`, `dan,class,planetwars.strategies.MyStrategy`. They win over
    /// the submission's arbiter.toml and are not capped.
    #[arg(long, value_name = "FILE.csv")]
    overrides: Option<PathBuf>,

    /// Run each submission's calibrate program (a `calibrate` file beside `run`, for games that
    /// have one) once before its bot, and give the file it leaves to the bot in every run; a
    /// copy is kept in the submission's report folder.
    #[arg(long)]
    calibrate: bool,

    /// A support file placed beside every hosted submission instead of arbiter's own (the chess
    /// assignment's `a1_support.py`: the course's copy), as `verify --support` does. Repeatable.
    /// Each submission's notes name it, with a fingerprint of its content, and a submission
    /// graded with another support file is graded again.
    #[arg(long, value_name = "FILE")]
    support: Vec<PathBuf>,

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
    let profile =
        Profile::choose(args.run.profile.as_deref(), referee.as_ref()).map_err(anyhow::Error::msg)?;
    let referee = super::run_args::ruled_by(referee, &profile)?;
    let referee = referee.as_ref();
    let opponents = args.opponents.folder()?;
    let (all, strays) = grade::submissions(&args.submissions).map_err(anyhow::Error::msg)?;
    let chosen: Vec<Submission> = match args.shard {
        Some(shard) => shard.select(&all),
        None => all.clone(),
    };
    let overrides = match &args.overrides {
        Some(path) => Overrides::read(path).map_err(anyhow::Error::msg)?,
        None => Overrides::default(),
    };
    let names: Vec<&str> = all.iter().map(|s| s.name.as_str()).collect();
    if let Some(unknown) = overrides.unknown(&names).first() {
        bail!(
            "--overrides names the submission `{unknown}`, which is not among those given (the names are the folders' names)"
        );
    }
    let jobs = super::input::jobs(args.run.jobs);
    let mut support = Vec::new();
    for file in &args.support {
        if !file.is_file() {
            bail!("--support {}: no such file", file.display());
        }
        let bytes = std::fs::read(file).with_context(|| format!("--support {}", file.display()))?;
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        support.push((name, content_fingerprint(&bytes)));
    }
    // A profile of games alone (Pente's csci561) needs no corpus.
    let specs = if profile.has_case_stages() {
        let specs = find_cases(&args.corpus, referee.categories())
            .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))?;
        if specs.is_empty() {
            bail!("no test cases under {}", args.corpus.display());
        }
        specs
    } else {
        Vec::new()
    };
    std::fs::create_dir_all(&args.reports)
        .with_context(|| format!("cannot create the reports folder {}", args.reports.display()))?;
    // No bot may see the corpus, its answers, any report, or a classmate (its own folder is
    // kept visible to it by the sandbox).
    let mut hidden = vec![args.corpus.clone(), args.reports.clone()];
    hidden.extend(args.html.clone());
    hidden.extend(all_folders(&chosen));
    // The golden and course answers, hidden as `verify` hides them.
    hidden.extend(super::limits::answer_folders(&specs));
    let (limits, sandbox) = args.run.limits.sandboxed(hidden)?;
    let (cases, errors) = prepare_cases(referee, specs, jobs);
    if !errors.is_empty() {
        bail!("the corpus has {} case(s) that cannot be used:\n{}", errors.len(), errors.join("\n"));
    }
    // `--jobs N` is N bots at once over the whole run: every case, game, bot name, calibration
    // and hosted submission's loading holds one of N slots while its bot runs, whichever
    // submission it belongs to. Games and cases may then be offered N at a time everywhere.
    crate::harness::runner::slots::set_limit(jobs);
    let game_jobs = jobs;
    let open_stage = |stage: &GamesStage, games: usize| -> anyhow::Result<Games> {
        // An opponent hosted like a submission (a course's strategy jar) is made ready once,
        // under the submissions' limits.
        let spec = stage.opponent_in(opponents).map_err(anyhow::Error::msg)?;
        let opponent = Bot::open(&spec, referee, &limits, &crate::harness::host::HostOptions::default())
            .map_err(|e| anyhow::anyhow!("the opponent of `{}`, {spec}: {e}", stage.label()))?;
        // Fewer or more games than the profile's keep its share of first moves.
        let colours = match stage.colours {
            Colours::FirstIn(k) if games != stage.games => {
                Colours::FirstIn(((k * games) as f64 / stage.games.max(1) as f64).round() as usize)
            }
            other => other,
        };
        Ok(Games {
            games,
            opponent,
            jobs: game_jobs,
            colours,
            clock: stage.clock,
            clock_range: stage.clock_range,
        })
    };
    let games = match args.games {
        None => None,
        Some(n) => match &profile.games {
            Some(stage) => Some(open_stage(stage, n)?),
            None if !profile.game_stages.is_empty() => None,
            None => bail!(
                "the marking profile `{}` has no games stage, so games could not count; drop --games or give a --profile with one",
                profile.name
            ),
        },
    };
    let game_stages = profile
        .game_stages
        .iter()
        .map(|stage| open_stage(stage, args.games.unwrap_or(stage.games)))
        .collect::<anyhow::Result<Vec<Games>>>()?;
    // The opponents that are files (a course's strategy jar), by content: a rerun against
    // another jar of the same name grades again.
    let opponent_prints: Vec<serde_json::Value> = profile
        .game_stages
        .iter()
        .chain(&profile.games)
        .filter_map(|stage| {
            let spec = stage.opponent_in(opponents).ok()?;
            let file = std::path::Path::new(spec.split('#').next()?);
            let bytes = file.is_file().then(|| std::fs::read(file).ok()).flatten()?;
            Some(serde_json::json!({"opponent": stage.opponent, "fingerprint": content_fingerprint(&bytes)}))
        })
        .collect();
    if args.calibrate && referee.calibration().is_none() {
        bail!("--calibrate: {} has no calibrate program", referee.game());
    }
    let rules = args.run.stop_rules();
    let hidden = args.run.hidden_categories(referee.categories())?;
    let robustness = if args.run.robustness {
        let boards = referee.cases().and_then(|c| c.robustness_boards()).ok_or_else(|| {
            anyhow::anyhow!(
                "{}'s bots read no position file, so there are no bad inputs to give them",
                referee.game()
            )
        })?;
        Some(boards)
    } else {
        None
    };
    let timeout_cap = args.run.limits.timeout.max(args.timeout_cap.unwrap_or(0.0));
    // Plain JSON, no absolute path: the corpus by its name and a fingerprint of its content.
    let settings = serde_json::json!({
        "arbiter": env!("CARGO_PKG_VERSION"),
        "game": referee.game(),
        "corpus": {
            "name": corpus_label(&args.corpus),
            "cases": cases.len(),
            "fingerprint": fingerprint(&cases),
        },
        "profile": profile,
        "limits": args.run.limits,
        "seed": args.run.seed,
        "strict": args.run.strict,
        "same_file": args.run.same_file,
        "create_output": args.run.create_output,
        "rules": rules,
        "games": args.games,
        "hidden": hidden,
        "details": args.run.details,
        "robustness": args.run.robustness,
        "timeout_cap": timeout_cap,
        "calibrate": args.calibrate,
        "support": support.iter().map(|(name, print)| serde_json::json!({"file": name, "fingerprint": print})).collect::<Vec<_>>(),
    });
    let mut settings = settings;
    if !opponent_prints.is_empty() {
        settings["opponents"] = serde_json::Value::Array(opponent_prints);
    }
    let setup = Setup {
        referee,
        profile: &profile,
        cases: &cases,
        options: args.run.verify_options(limits, jobs),
        rules,
        games,
        game_stages,
        corpus: args.corpus.display().to_string(),
        sandbox: &sandbox,
        reports: args.reports.clone(),
        settings,
        hidden,
        details: args.run.details,
        robustness,
        timeout_cap,
        overrides,
        shard: args.shard.map(|s| s.to_string()),
        html: args.html.clone(),
        calibrate: args.calibrate,
        host: crate::harness::host::HostOptions { support: args.support.clone(), class: None },
        support_note: (!support.is_empty()).then(|| {
            let files: Vec<String> =
                support.iter().map(|(name, print)| format!("{name} (fingerprint {print})")).collect();
            format!("support files: the grader's {}", files.join(", "))
        }),
    };
    // Every submission is checked before any case runs: one line for each that cannot be
    // graded, at once, rather than after a class's worth of cases.
    for note in &strays {
        if !args.quiet {
            eprintln!("skipped {}", escape_controls(note));
        }
    }
    for submission in &chosen {
        if let Some(why) = grade::precheck(submission, &setup)
            && !args.quiet
        {
            eprintln!("refused {}: {}", submission.name, escape_controls(&why));
        }
    }
    let manifest = args.shard.map(|shard| ShardManifest {
        shard: shard.to_string(),
        class: all.len(),
        submissions: chosen.iter().map(|s| s.name.clone()).collect(),
        complete: false,
    });
    if let Some(m) = &manifest {
        m.write(&args.reports).map_err(anyhow::Error::msg)?;
    }
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
    // Plain threads taking submissions in order (the slots bound the bots): a rayon thread
    // waiting for a submission's games would take up another submission meanwhile.
    let next = AtomicUsize::new(0);
    let grade_one = |submission: &Submission| {
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
                failures.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{}: {e}", submission.name));
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
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, chosen.len().max(1)) {
            scope.spawn(|| {
                while let Some(submission) = chosen.get(next.fetch_add(1, Ordering::Relaxed)) {
                    grade_one(submission);
                }
            });
        }
    });
    bar.finish_and_clear();
    let rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    write_gradebook(&csv_path, &rows).map_err(anyhow::Error::msg)?;
    if let Some(e) = csv_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        eprintln!("warning: the gradebook could not be rewritten during the run: {e}");
    }
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(mut m) = manifest
        && failures.is_empty()
    {
        m.complete = true;
        m.write(&args.reports).map_err(anyhow::Error::msg)?;
    }
    let mut sorted = rows.clone();
    sorted.sort_by(|a, b| a.submission.cmp(&b.submission));
    if let Some(dir) = &args.html {
        use crate::harness::html::class;
        let students: Vec<class::Student> = sorted
            .iter()
            .map(|r| {
                let report = args.reports.join(&r.submission).join(grade::JSON_REPORT);
                class::student_from_report(&r.submission, r.score, &r.status, &report, dir)
            })
            .collect();
        let page = class::class_page(referee.game(), &students);
        crate::harness::html::write(&dir.join("index.html"), &page).map_err(anyhow::Error::msg)?;
    }
    if args.json {
        let out = serde_json::json!({
            "gradebook": csv_path.display().to_string(),
            "reports": args.reports.display().to_string(),
            "shard": args.shard.map(|s| s.to_string()),
            "profile": profile.name,
            "elapsed_ms": u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
            "rows": sorted,
            "errors": failures,
            "skipped": strays,
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

/// A short fingerprint of a file's content (64-bit FNV-1a), to tell two support files apart.
fn content_fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The corpus as `grade.json` names it: as given when relative, else relative to the current
/// folder when inside it, else its name.
fn corpus_label(corpus: &std::path::Path) -> String {
    if corpus.is_relative() {
        return corpus.display().to_string();
    }
    let inside = std::env::current_dir()
        .ok()
        .and_then(|d| corpus.strip_prefix(d).ok().map(|p| p.display().to_string()));
    inside.filter(|p| !p.is_empty()).unwrap_or_else(|| {
        corpus.file_name().map_or_else(|| "corpus".to_string(), |n| n.to_string_lossy().into_owned())
    })
}

/// A fingerprint of the corpus's content: every case's name, board and expected answers, in
/// order (FNV-1a, 64 bits, as hex). Two corpora with the same fingerprint grade alike wherever
/// they are.
fn fingerprint(cases: &[crate::harness::verify::ReadyCase]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes.iter().chain([&0xff]) {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for case in cases {
        eat(case.spec.name.as_bytes());
        eat(&case.input);
        for answer in case.prepared.expected() {
            eat(answer.as_bytes());
        }
    }
    format!("{h:016x}")
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
    if row.grader_errors > 0 {
        let _ = write!(text, ", {} not run through the grader's fault (grade again)", row.grader_errors);
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
