//! Grading a class: many submissions over one corpus, each to its own reports and one gradebook
//! row (see [`super::gradebook`]).
//!
//! - **A submission** is a folder holding an executable `run` file (run as the bot command), or
//!   a bot command. Before any case runs, a submission whose program cannot start (no `run`,
//!   no execute bit, a `#!` interpreter that does not exist) is refused: its row says why, and
//!   its reports list every case as not run, with that reason.
//! - **The ladder** ([`run_ladder`]): cases run stage by stage in the marking profile's order.
//!   With `--stop-at-gate` and a gated profile, once a stage has a case that did not pass, the
//!   later stages are not run (they could not count); a profile that adds its stages has no
//!   gate, and every stage runs. With `--max-timeouts N`, once the bot has timed out N times,
//!   the cases after the Nth timeout are not run. Both decisions follow the run order, never the
//!   order in which cases happened to finish, so results do not depend on the job count.
//! - **Per-submission options** ([`super::submission_options`]): `arbiter.toml` in the folder
//!   and the grader's `--overrides` CSV may set `same-file`, `create-output` and a longer
//!   `timeout` for one submission; they are recorded in `grade.json` and the row's note.
//! - **Reports**: `DIR/<submission>/` gets `report.txt`, `report.json`, Gradescope's
//!   `results.json` and `junit.xml` (all four written while the run goes on and marked
//!   incomplete until it ends), `games.json` when games were played, and last `grade.json`,
//!   the gradebook row with the settings, the submission's options, its shard and how busy the
//!   machine was: a submission with `grade.json` and a complete `report.json`, graded with the
//!   same settings and options, is complete and skipped by a rerun.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::bot::{Bot, check_submission_program};
use super::category;
use super::files::{self, write_atomic};
use super::gradebook::{Row, StageCell};
use super::machine::{Load, Snapshot};
use super::matches::{GameRecord, MatchOptions, games_stage_score, play_match, tally};
use super::profile::{Played, Profile};
use super::referee::{Protocol, Referee, RobustnessBoards};
use super::report::files::ReportFiles;
use super::report::live::LiveFiles;
use super::report::paths::RelativePaths;
use super::report::{RunInfo, pass_counts};
use super::robustness::run_checks;
use super::runner::{self, BotCommand, Outcome};
use super::submission_options::{Overrides, SubmissionOptions};
use super::verdict::Verdict;
use super::verify::{CaseResult, ReadyCase, VerifyOptions, not_run, run_case_settled};

/// The file in a submission folder that is run as its bot.
pub const RUN_FILE: &str = "run";
/// The gradebook row of a submission, written last: its presence marks the grading complete.
pub const ROW_FILE: &str = "grade.json";
/// The JSON report of a submission, as `verify --json` prints it.
pub const JSON_REPORT: &str = "report.json";
/// Longest wait for a bot's answer to `BOT name`.
pub const NAME_TIMEOUT: Duration = Duration::from_secs(2);

/// When to stop running a submission's cases early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopRules {
    /// Stop once a stage has a case that did not pass: later stages cannot count.
    pub stop_at_gate: bool,
    /// Stop after this many timeouts.
    pub max_timeouts: Option<usize>,
}

impl StopRules {
    /// Whether any rule can stop a run.
    pub fn any(&self) -> bool {
        self.stop_at_gate || self.max_timeouts.is_some()
    }
}

/// The order in which the ladder runs `cases`: stage by stage in the profile's order (each
/// stage's cases in corpus order), then the cases of categories the profile does not score.
/// Returns groups of positions in `cases`.
fn stage_groups(cases: &[&ReadyCase], profile: &Profile) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> =
        profile.stages.iter().map(|s| (s.category.clone(), Vec::new())).collect();
    for (i, case) in cases.iter().enumerate() {
        match groups.iter_mut().find(|(c, _)| *c == case.spec.category) {
            Some((_, list)) => list.push(i),
            None => groups.push((case.spec.category.clone(), vec![i])),
        }
    }
    groups.retain(|(_, list)| !list.is_empty());
    groups
}

/// Runs `cases` as the profile's ladder under `rules` (see the module documentation), at most
/// `options.jobs` at a time (and within the command's `--jobs` slots, [`runner::slots`]), calling `progress` with the case's
/// position in `cases` and its result as each case that runs finishes. Results come back in the
/// order of `cases`; those not run have the verdict `not-run` and say why.
pub fn run_ladder(
    cases: &[&ReadyCase],
    profile: &Profile,
    bot: &Bot,
    options: &VerifyOptions,
    rules: &StopRules,
    progress: &(dyn Fn(usize, &CaseResult) + Sync),
) -> Vec<CaseResult> {
    let groups = stage_groups(cases, profile);
    let scored: Vec<&str> = profile.stages.iter().map(|s| s.category.as_str()).collect();
    let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
    // Timeouts counted so far, in run order.
    let mut timeouts = 0;
    let mut gate: Option<String> = None;
    // Only a gated profile has gates: in one that adds its stages, a later stage counts whatever
    // an earlier one scored, so `--stop-at-gate` stops nothing there.
    let gating = rules.stop_at_gate && profile.gated;
    let batches: Vec<Vec<usize>> = if gating {
        groups.iter().map(|(_, list)| list.clone()).collect()
    } else {
        // Without a gate to wait for, every case goes in one batch: no stage waits for the
        // slowest case of the one before.
        vec![groups.iter().flat_map(|(_, list)| list.iter().copied()).collect()]
    };
    for batch in batches {
        if let Some(reason) = &gate {
            for &i in &batch {
                results[i] = Some(not_run(cases[i], bot, options, reason.clone()));
            }
            continue;
        }
        let ran = run_batch(
            cases,
            &batch,
            bot,
            options,
            rules.max_timeouts.map(|n| n.saturating_sub(timeouts)),
            progress,
        );
        // The run-order walk: the Nth timeout stops everything after it, whichever case
        // finished first (a case already running is run to the end, then not counted).
        for (&i, result) in batch.iter().zip(ran) {
            let limit_reached = rules.max_timeouts.is_some_and(|n| timeouts >= n);
            let result = match result {
                Some(r) if !limit_reached => r,
                _ => {
                    let n = rules.max_timeouts.unwrap_or(0);
                    let reason = format!(
                        "the bot had already timed out {n} time{} (--max-timeouts {n})",
                        if n == 1 { "" } else { "s" }
                    );
                    not_run(cases[i], bot, options, reason)
                }
            };
            if result.verdict == Verdict::Timeout {
                timeouts += 1;
            }
            results[i] = Some(result);
        }
        if gating {
            let category = &cases[batch[0]].spec.category;
            let failed =
                batch.iter().any(|&i| results[i].as_ref().is_some_and(|r| r.verdict != Verdict::Pass));
            if failed && scored.contains(&category.as_str()) {
                gate = Some(format!(
                    "{} did not pass in full, so later stages cannot count (--stop-at-gate)",
                    category::label(category)
                ));
            }
        }
    }
    // Every position belongs to exactly one group, so every result is set.
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| not_run(cases[i], bot, options, "not scheduled".to_string())))
        .collect()
}

/// Runs the cases at `positions` (in that order of starting), `options.jobs` at a time.
/// With `budget` timeouts allowed, a case is not started once `budget` cases before it (in
/// `positions` order) have timed out: it could not count. Returns each position's result, None
/// when not started.
fn run_batch(
    cases: &[&ReadyCase],
    positions: &[usize],
    bot: &Bot,
    options: &VerifyOptions,
    budget: Option<usize>,
    progress: &(dyn Fn(usize, &CaseResult) + Sync),
) -> Vec<Option<CaseResult>> {
    let slots: Mutex<Vec<Option<CaseResult>>> = Mutex::new(vec![None; positions.len()]);
    let next = AtomicUsize::new(0);
    let workers = options.jobs.clamp(1, positions.len().max(1));
    // Workers take cases in order from a shared counter, so the cases run first are the first
    // in run order: a `--max-timeouts` stop wastes at most the cases already running. Each case
    // holds one of the command's `--jobs` slots while it runs (other submissions' cases and
    // games take the others). Plain threads, not rayon's: a rayon thread waiting for its
    // workers would take up other work meanwhile, a second bot beside the first.
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = positions.get(k) else { break };
            if let Some(n) = budget {
                let slots = slots.lock().unwrap_or_else(|e| e.into_inner());
                let earlier = slots[..k].iter().flatten().filter(|r| r.verdict == Verdict::Timeout).count();
                if earlier >= n {
                    continue;
                }
            }
            let slot = runner::slots::take();
            let result = run_case_settled(cases[i], bot, options);
            drop(slot);
            let mut slots = slots.lock().unwrap_or_else(|e| e.into_inner());
            // Called under the lock: progress output from several threads stays whole.
            progress(i, &result);
            slots[k] = Some(result);
        }
    };
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(work);
        }
    });
    slots.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One submission of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The name of its row and of its report folder: the folder's name, or the command made
    /// safe as a file name.
    pub name: String,
    /// What was given on the command line.
    pub given: String,
    /// The folder holding `run`, when the submission is a folder.
    pub folder: Option<PathBuf>,
}

/// A name safe as a folder name and a spreadsheet cell: letters, digits, `.`, `_` and `-`,
/// anything else `_`, never starting with `.` or `-`, at most 80 characters.
pub fn safe_name(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .take(80)
        .collect();
    if name.starts_with(['.', '-']) || name.is_empty() {
        name.insert(0, '_');
    }
    name
}

/// The submissions named on the command line, sorted by name, and a note for each name that
/// is skipped. A folder (an existing directory) is a submission named after it; an existing
/// file is a submission (a bot program given directly) only if it is executable, and otherwise
/// a stray file among the submissions (a README, a spreadsheet, an archive) that is skipped
/// with a note rather than graded as a bot; anything else is a bot command. Two submissions
/// with the same name are an error naming both.
pub fn submissions(given: &[String]) -> Result<(Vec<Submission>, Vec<String>), String> {
    let mut list: Vec<Submission> = Vec::new();
    let mut skipped = Vec::new();
    for g in given {
        let path = Path::new(g);
        let submission = if path.is_dir() {
            // `.` or `../x/` have a name only once made absolute.
            let absolute =
                std::fs::canonicalize(path).map_err(|e| format!("cannot read the folder {g}: {e}"))?;
            let base = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Submission { name: safe_name(&base), given: g.clone(), folder: Some(absolute) }
        } else if path.symlink_metadata().is_ok() && !super::bot::is_executable(path) {
            skipped.push(format!(
                "{g} is a file, not a submission: a submission is a folder with a `{RUN_FILE}` file, an executable program, or a bot command"
            ));
            continue;
        } else {
            Submission { name: safe_name(g), given: g.clone(), folder: None }
        };
        if let Some(other) = list.iter().find(|s| s.name == submission.name) {
            return Err(format!(
                "two submissions would share the name `{}`: `{}` and `{}` (rename a folder)",
                submission.name, other.given, submission.given
            ));
        }
        list.push(submission);
    }
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((list, skipped))
}

/// The submission's bot, and why it is refused if it cannot be started (see
/// [`super::bot::check_command`]: a missing program or script, no execute bit, a `#!` line
/// naming no interpreter or ending in a carriage return). The bot is made even when refused, so
/// that its reports can show the command a student would run.
pub fn open_bot(
    submission: &Submission,
    referee: &dyn Referee,
    limits: &runner::Limits,
    host: &super::host::HostOptions,
) -> Result<(Bot, Option<String>), String> {
    if Bot::needs_open(&submission.given, referee) {
        // A hosted game's submission is the folder itself (Java sources, a Python module):
        // compiled and loaded here, refused with the compiler's or the import's words.
        let given = submission.folder.as_ref().map_or(submission.given.clone(), |f| f.display().to_string());
        return match Bot::open(&given, referee, limits, host) {
            Ok(bot) => Ok((bot, None)),
            Err(why) => {
                let placeholder = BotCommand::parse(&runner::quote(given.as_ref()))
                    .map_err(|e| format!("cannot name the submission {given}: {e}"))?;
                Ok((Bot::Command(placeholder, referee.protocol()), Some(why)))
            }
        };
    }
    let Some(folder) = &submission.folder else {
        // A command: `builtin:NAME` or a program, checked as `verify` checks it.
        return match Bot::parse(&submission.given, referee) {
            Ok(Bot::Command(command, protocol)) => {
                let refusal = super::sandbox::refusal(&command, limits);
                Ok((Bot::Command(command, protocol), refusal))
            }
            Ok(bot) => Ok((bot, None)),
            Err(why) => match BotCommand::parse(&submission.given) {
                Ok(command) => Ok((Bot::Command(command, referee.protocol()), Some(why))),
                Err(_) => Err(why),
            },
        };
    };
    let run = folder.join(RUN_FILE);
    // Typed as a student types it in their folder, so that reproduce lines say `./run`.
    let command = BotCommand::parse_in(&format!("./{RUN_FILE}"), folder)
        .map_err(|e| format!("cannot make a command of {}: {e}", run.display()))?;
    // The submission's own file: found without following a link out of its folder; then
    // whether the sandbox will run it at all.
    let refusal = check_submission_program(folder, RUN_FILE)
        .err()
        .or_else(|| super::sandbox::refusal(&command, limits));
    Ok((Bot::Command(command, referee.protocol()), refusal))
}

/// The bot's answer to `BOT name` (games whose bots take arguments only), at most
/// [`NAME_TIMEOUT`] or the move timeout if shorter: its first line, control characters escaped,
/// at most 64 characters; empty if it gave none.
pub fn bot_name(bot: &Bot, limits: &runner::Limits) -> String {
    let name = match bot {
        Bot::Builtin { bot, .. } => bot.name(),
        Bot::Command(_, Protocol::FixedFiles { .. } | Protocol::Hosted(_)) | Bot::Hosted(_) => {
            return String::new();
        }
        Bot::Command(command, Protocol::SideInOut) => {
            let Ok(dir) = tempfile::Builder::new().prefix("arbiter-name-").tempdir() else {
                return String::new();
            };
            let mut limits = limits.clone();
            limits.timeout = limits.timeout.min(NAME_TIMEOUT);
            let report = runner::run(command, &["name".into()], dir.path(), &limits);
            if report.outcome != Outcome::Exited(0) {
                return String::new();
            }
            String::from_utf8_lossy(&report.stdout).lines().next().unwrap_or_default().trim().to_string()
        }
    };
    super::escape::escape_controls(&name).chars().take(64).collect()
}

/// Everything a submission's grading shares with the others'.
pub struct Setup<'a> {
    pub referee: &'a dyn Referee,
    pub profile: &'a Profile,
    pub cases: &'a [ReadyCase],
    pub options: VerifyOptions,
    pub rules: StopRules,
    /// The final games stage of a gated profile, when asked for (`--games N`).
    pub games: Option<Games>,
    /// The games stages listed among the profile's stages (`profile.game_stages`, in order).
    pub game_stages: Vec<Games>,
    /// The corpus folder, as reports name it.
    pub corpus: String,
    pub sandbox: &'a super::sandbox::Summary,
    /// The folder of every submission's reports.
    pub reports: PathBuf,
    /// What a grading depends on apart from the bot and its own options, as plain JSON with
    /// no absolute path: a submission graded with other settings is graded again.
    pub settings: serde_json::Value,
    /// Categories whose cases students do not see (`--hidden`).
    pub hidden: Vec<String>,
    /// Failures shown in full in `report.txt`.
    pub details: usize,
    /// The bad-input checks to run after the cases (`--robustness`).
    pub robustness: Option<RobustnessBoards>,
    /// The longest timeout, in seconds, a submission's `arbiter.toml` may ask for.
    pub timeout_cap: f64,
    /// The grader's per-submission options (`--overrides`).
    pub overrides: Overrides,
    /// The share of the class this run grades (`--shard`), as `K/N`.
    pub shard: Option<String>,
    /// Where each submission's web page goes (`--html`), beside the class page.
    pub html: Option<PathBuf>,
    /// Whether to run each submission's calibrate program first (`--calibrate`).
    pub calibrate: bool,
    /// How hosted submissions are prepared: the grader's support files (`--support`).
    pub host: super::host::HostOptions,
    /// The note every submission's row carries about the grader's support files, if any.
    pub support_note: Option<String>,
}

/// A games stage: `games` games against `opponent`.
pub struct Games {
    pub games: usize,
    pub opponent: Bot,
    /// Games played at once for one submission.
    pub jobs: usize,
    /// Which games the submission plays white.
    pub colours: super::matches::Colours,
    /// Each side's starting clock, for a game with a clock; `None`: the game's own.
    pub clock: Option<f64>,
    /// Each game's starting clock drawn from this range instead (see `MatchOptions`).
    pub clock_range: Option<[f64; 2]>,
}

/// What became of one submission.
pub enum Graded {
    /// Graded now.
    Graded(Row),
    /// Graded by an earlier run with the same settings: its row, as then.
    Skipped(Row),
}

/// What a complete earlier grading of the submission left: its row, when `grade.json` is there
/// with the same settings and submission options and `report.json` says the run was complete.
pub fn earlier_grading(
    folder: &Path,
    settings: &serde_json::Value,
    options: &SubmissionOptions,
) -> Result<Row, String> {
    let text = files::read_capped_text(&folder.join(ROW_FILE), files::PROFILE).map_err(|e| e.to_string())?;
    let saved: SavedRow = serde_json::from_str(&text).map_err(|e| format!("{ROW_FILE}: {e}"))?;
    if &saved.settings != settings {
        return Err("it was graded with other settings".to_string());
    }
    if &saved.options != options {
        return Err("it was graded with other options of its own".to_string());
    }
    let report =
        files::read_capped_text(&folder.join(JSON_REPORT), files::GOLDEN).map_err(|e| e.to_string())?;
    let report: serde_json::Value =
        serde_json::from_str(&report).map_err(|e| format!("{JSON_REPORT}: {e}"))?;
    if report["complete"] != serde_json::Value::Bool(true) {
        return Err(format!("its {JSON_REPORT} is incomplete: the run was interrupted"));
    }
    Ok(saved.row)
}

/// `grade.json`: a gradebook row and what it was graded with, all plain JSON (no absolute
/// path: the reports folder can be moved, or shown).
#[derive(Serialize, Deserialize)]
pub struct SavedRow {
    /// The settings shared by the class (see [`Setup::settings`]).
    pub settings: serde_json::Value,
    /// The submission's own options (`arbiter.toml`, `--overrides`).
    #[serde(default)]
    pub options: SubmissionOptions,
    /// The share of the class it was graded in (`2/4`), if the class was split.
    #[serde(default)]
    pub shard: Option<String>,
    /// How busy the machine was while it was graded.
    pub machine: Option<Load>,
    pub row: Row,
}

/// Reads every complete `grade.json` in the submission folders of a reports folder.
pub fn saved_rows(reports: &Path) -> Result<Vec<SavedRow>, String> {
    let entries =
        std::fs::read_dir(reports).map_err(|e| format!("cannot read {}: {e}", reports.display()))?;
    let mut rows = Vec::new();
    for entry in entries.flatten() {
        let file = entry.path().join(ROW_FILE);
        if !file.is_file() {
            continue;
        }
        let text = files::read_capped_text(&file, files::PROFILE).map_err(|e| e.to_string())?;
        let saved: SavedRow = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        rows.push(saved);
    }
    Ok(rows)
}

/// The submission's own options (see [`super::submission_options`]), or why they cannot be
/// used: a refusal.
pub fn submission_options(submission: &Submission, setup: &Setup) -> Result<SubmissionOptions, String> {
    let from_file = match &submission.folder {
        Some(folder) => SubmissionOptions::from_folder(folder, setup.timeout_cap)?,
        None => SubmissionOptions::default(),
    };
    from_file.with_overrides(&setup.overrides, &submission.name)
}

/// Why the submission will be refused before any case runs, if it will: its program cannot
/// start, or its options cannot be read. Cheap: nothing is run.
pub fn precheck(submission: &Submission, setup: &Setup) -> Option<String> {
    if Bot::needs_open(&submission.given, setup.referee) {
        // A hosted submission is checked by compiling and loading it, which is not cheap: that
        // happens when it is graded.
        return submission_options(submission, setup).err();
    }
    let refusal = match open_bot(submission, setup.referee, &setup.options.limits, &setup.host) {
        Ok((_, refusal)) => refusal,
        Err(e) => Some(e),
    };
    refusal.or_else(|| submission_options(submission, setup).err())
}

/// `options` with a submission's own laid over them.
fn apply(options: &VerifyOptions, own: &SubmissionOptions) -> VerifyOptions {
    let mut options = options.clone();
    if let Some(s) = &own.same_file {
        options.same_file = s.value;
        if s.value {
            options.create_output = false;
        }
    }
    if let Some(s) = &own.create_output {
        options.create_output = s.value;
        if s.value {
            options.same_file = false;
        }
    }
    if let Some(s) = &own.timeout {
        options.limits.timeout = Duration::from_secs_f64(s.value);
    }
    options
}

/// Grades one submission into `setup.reports/<name>/` (skipping it if an earlier run with the
/// same settings completed it, unless `force`), calling `progress` with each case that finishes
/// (the case's position in `setup.cases`; None for a case not run).
pub fn grade(
    submission: &Submission,
    setup: &Setup,
    force: bool,
    progress: &(dyn Fn(Option<&CaseResult>) + Sync),
) -> Result<Graded, String> {
    let folder = setup.reports.join(&submission.name);
    let own = submission_options(submission, setup);
    // Options that cannot be read are recorded as such, so that fixing the file (even to no
    // option at all) makes the submission count as changed and graded again.
    let recorded = own.clone().unwrap_or_else(|why| SubmissionOptions {
        notes: vec![format!("unreadable: {why}")],
        ..SubmissionOptions::default()
    });
    if !force && let Ok(row) = earlier_grading(&folder, &setup.settings, &recorded) {
        return Ok(Graded::Skipped(row));
    }
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    // The old row goes first: until the new one is written the submission counts as not done.
    match std::fs::remove_file(folder.join(ROW_FILE)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot remove {}: {e}", folder.join(ROW_FILE).display()));
        }
        _ => {}
    }
    let start = Instant::now();
    let machine = Snapshot::take();
    let options = apply(&setup.options, &recorded);
    // The class the submission (or the grader) names, for a game whose submissions name theirs.
    let host = super::host::HostOptions {
        class: recorded.class.as_ref().map(|c| c.value.clone()),
        ..setup.host.clone()
    };
    // Compiling and loading a hosted submission runs it: one of the `--jobs` bots.
    let slot = runner::slots::take();
    let (mut bot, refusal) = open_bot(submission, setup.referee, &options.limits, &host)?;
    drop(slot);
    let refusal = refusal.or_else(|| own.as_ref().err().cloned());
    // The submission's calibrate program, once, before anything of its bot runs.
    let mut calibration_note = None;
    if setup.calibrate
        && refusal.is_none()
        && let (Some(calibration), Some(own_folder)) = (setup.referee.calibration(), &submission.folder)
    {
        calibration_note =
            Some(calibrate_submission(&mut bot, own_folder, &folder, &calibration, &options.limits));
    }
    // A profile of games alone runs no case.
    let all: Vec<&ReadyCase> =
        if setup.profile.has_case_stages() { setup.cases.iter().collect() } else { Vec::new() };
    // Paths in the reports are relative to the submission (a student reads them), the corpus's
    // relative to the corpus, and arbiter's own path is `arbiter`.
    let base = match &submission.folder {
        Some(folder) => folder.clone(),
        None => std::env::current_dir().unwrap_or_default(),
    };
    let exe = std::env::current_exe().ok();
    let info = RunInfo {
        bot: bot.label(),
        corpus: setup.corpus.clone(),
        paths: RelativePaths::new(Path::new(&setup.corpus), &base, exe.as_deref()),
        hidden: setup.hidden.clone(),
        seed: options.seed,
        profile: setup.profile,
        disagreements: Vec::new(),
        categories: setup.cases.iter().map(|c| c.spec.category.clone()).collect(),
        start,
        sandbox: setup.sandbox.clone(),
        machine,
        refused: refusal.clone(),
    };
    let report_files = ReportFiles {
        gradescope: Some(folder.join("results.json")),
        junit: Some(folder.join("junit.xml")),
        json: Some(folder.join(JSON_REPORT)),
        text: Some((folder.join("report.txt"), setup.details)),
    };
    let (bot_name, results) = match &refusal {
        Some(why) => {
            let reason = format!("the submission was refused before any case ran: {why}");
            let results: Vec<CaseResult> =
                all.iter().map(|c| not_run(c, &bot, &options, reason.clone())).collect();
            for _ in &results {
                progress(None);
            }
            (String::new(), results)
        }
        None => {
            let name = bot_name(&bot, &options.limits);
            let live = LiveFiles::new(&info, &report_files, all.len(), all.len());
            live.write_now()?;
            let results = std::thread::scope(|scope| {
                scope.spawn(|| live.keep_writing());
                let results = run_ladder(&all, setup.profile, &bot, &options, &setup.rules, &|i, r| {
                    live.record(i, r);
                    progress(Some(r));
                });
                for _ in results.iter().filter(|r| r.verdict == Verdict::NotRun) {
                    progress(None);
                }
                // A failed partial write is made good by the complete write below.
                let _ = live.finish();
                results
            });
            (name, results)
        }
    };

    // The bad-input checks, beside the cases: reported, not scored.
    let checks = match (&setup.robustness, &refusal) {
        (Some(boards), None) => {
            run_checks(&bot.as_command(options.seed), &setup.referee.protocol(), boards, &options.limits)
        }
        _ => Vec::new(),
    };
    let counts = pass_counts(&info.categories, &results);
    let mut score = setup.profile.score(&counts, None);
    let mut notes: Vec<String> = Vec::new();
    if let Some(why) = &refusal {
        notes.push(format!("refused: {why}"));
    }
    notes.extend(calibration_note.clone());
    if Bot::needs_open(&submission.given, setup.referee) {
        notes.extend(setup.support_note.clone());
    }
    if own.is_ok() && (!recorded.is_empty() || !recorded.notes.is_empty()) {
        notes.push(format!("options: {}", recorded.describe()));
    }
    let mut games_summary = None;
    // Games lost by forfeit in every games stage: counted in the row, said in the reports.
    let mut final_forfeits = None;
    let mut game_timeouts = 0;
    let mut game_crashes = 0;
    let mut count_forfeits = |name: &str, records: &[GameRecord], notes: &mut Vec<String>| {
        let forfeits = super::matches::forfeits(records);
        game_timeouts += forfeits.timeouts();
        game_crashes += forfeits.crashes();
        let sentence = forfeits.sentence()?;
        notes.push(format!("{name}: {} of {} won; {sentence}", tally(records).0, records.len()));
        Some(forfeits)
    };
    if let Some(games) = &setup.games
        && refusal.is_none()
    {
        if score.stopped_at.is_some() {
            notes.push(
                "games not played: the games stage is reached only when every stage passes".to_string(),
            );
        } else {
            let records = play_games(setup, &options, &bot, games)?;
            write_atomic(
                &folder.join("games.json"),
                &pretty(&serde_json::to_value(&records).unwrap_or_default()),
            )
            .map_err(|e| format!("cannot write {}: {e}", folder.join("games.json").display()))?;
            let (won, _, _) = tally(&records);
            final_forfeits =
                count_forfeits(&format!("games vs {}", games.opponent.label()), &records, &mut notes);
            let stage = setup.profile.games.as_ref().map(|g| games_stage_score(g, &records));
            let games_score = match stage {
                Some(Ok(s)) => {
                    score = setup.profile.score(&counts, Some(won));
                    Some(s)
                }
                Some(Err(why)) => {
                    // As if the stage had not been played: the base is not earned by forfeits.
                    notes.push(format!("no games-stage score: the bot {why}"));
                    None
                }
                None => None,
            };
            games_summary = Some((records.len(), won, games_score));
        }
    }

    // The games stages among the profile's stages, each when reached.
    let mut played: Vec<Option<Played>> = vec![None; setup.game_stages.len()];
    let mut stage_notes: Vec<Option<String>> = vec![None; setup.game_stages.len()];
    let mut stage_forfeits = vec![None; setup.game_stages.len()];
    if refusal.is_none() {
        for (j, games) in setup.game_stages.iter().enumerate() {
            let stage = &setup.profile.game_stages[j];
            if !setup.profile.reaches_games_stage(&counts, &played, j) {
                stage_notes[j] = Some("not played: an earlier stage did not pass in full".to_string());
                continue;
            }
            let records = play_games(setup, &options, &bot, games)?;
            let file = folder.join(format!("{}.json", safe_name(&stage.label())));
            write_atomic(&file, &pretty(&serde_json::to_value(&records).unwrap_or_default()))
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            stage_forfeits[j] = count_forfeits(&stage.label(), &records, &mut notes);
            if let Err(why) = games_stage_score(stage, &records) {
                stage_notes[j] = Some(format!("the bot {why}"));
                notes.push(format!("{}: the bot {why}", stage.label()));
            }
            played[j] = Some(super::matches::played(&records));
        }
    }
    if !setup.game_stages.is_empty() {
        let won = score.games_won;
        score = setup.profile.score_all(&counts, &played, won);
        for ((g, note), forfeits) in score.game_stages.iter_mut().zip(stage_notes).zip(stage_forfeits) {
            g.note = note;
            g.forfeits = forfeits;
        }
    }
    score.games_forfeits = final_forfeits;

    let mut report = info.report(&results, &[], true);
    report.score = score.clone();
    report.robustness = &checks;
    // How the calibration went belongs where the student reads, not only in the row.
    report.notes.extend(calibration_note);
    report_files.write(&report)?;
    if let Some(dir) = &setup.html {
        let page = super::html::verify::submission_page(setup.referee, &report, Some("index.html"));
        super::html::write(&dir.join(super::html::class::page_name(&submission.name)), &page)?;
    }
    if !checks.is_empty() {
        let passed = checks.iter().filter(|c| c.passed).count();
        notes.push(format!("bad inputs handled: {passed} of {}", checks.len()));
    }
    if !report.course_score() {
        notes.push(format!(
            "not a course score: the corpus is not the profile's ({})",
            report.corpus_mismatch().unwrap_or_default()
        ));
    }

    let count = |v: Verdict| results.iter().filter(|r| r.verdict == v).count();
    if refusal.is_none() && count(Verdict::NotRun) > 0 {
        let reasons: std::collections::BTreeSet<&str> =
            results.iter().filter(|r| r.verdict == Verdict::NotRun).map(|r| r.reason.as_str()).collect();
        notes.push(format!(
            "{} case(s) not run: {}",
            count(Verdict::NotRun),
            reasons.into_iter().collect::<Vec<_>>().join("; ")
        ));
    }
    if count(Verdict::GraderError) > 0 {
        let first = results.iter().find(|r| r.verdict == Verdict::GraderError).map(|r| r.reason.as_str());
        notes.push(format!(
            "GRADER ERROR: {} case(s) not run because the grader failed, not the bot (grade again): {}",
            count(Verdict::GraderError),
            first.unwrap_or_default()
        ));
    }
    // A games stage is a column pair too: games won of games played.
    let stages = score
        .stages
        .iter()
        .map(|s| StageCell {
            category: s.category.clone(),
            passed: s.passed,
            total: s.total,
            reached: s.reached,
        })
        .chain(score.game_stages.iter().map(|g| StageCell {
            category: safe_name(&g.name).replace(['-', ' '], "_"),
            passed: g.played.map_or(0, |p| p.won),
            total: g.played.map_or(0, |p| p.games),
            reached: g.reached,
        }))
        .collect();
    let row = Row {
        submission: submission.name.clone(),
        bot_name,
        status: if refusal.is_some() { "refused" } else { "graded" }.to_string(),
        score: score.percent,
        stages,
        stopped_at: score.stopped_at.clone(),
        games_played: games_summary.map(|g| g.0),
        games_won: games_summary.map(|g| g.1),
        games_score: games_summary.and_then(|g| g.2),
        cases_run: results.len() - count(Verdict::NotRun) - count(Verdict::GraderError),
        not_run: count(Verdict::NotRun),
        grader_errors: count(Verdict::GraderError),
        timeouts: count(Verdict::Timeout) + game_timeouts,
        crashes: count(Verdict::Crash) + game_crashes,
        wall_seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        note: notes.join("; "),
    };
    let saved = SavedRow {
        settings: setup.settings.clone(),
        options: recorded,
        shard: setup.shard.clone(),
        machine: Some(report.machine.clone()),
        row: row.clone(),
    };
    write_atomic(&folder.join(ROW_FILE), &pretty(&serde_json::to_value(&saved).unwrap_or_default()))
        .map_err(|e| format!("cannot write {}: {e}", folder.join(ROW_FILE).display()))?;
    Ok(Graded::Graded(row))
}

/// Runs the submission's calibrate program (in `own_folder`) and gives its file to `bot` in
/// every run, keeping a copy in the submission's report folder; says what happened, for the
/// report's notes. A submission without the program, or whose program fails, plays without the
/// file: calibrating is optional.
fn calibrate_submission(
    bot: &mut Bot,
    own_folder: &Path,
    reports: &Path,
    calibration: &super::referee::Calibration,
    limits: &runner::Limits,
) -> String {
    let Bot::Command(command, protocol) = bot else {
        return "calibrate: only a program bot can be calibrated".to_string();
    };
    if !own_folder.join(calibration.program).is_file() {
        return format!("no `{}` program to calibrate with", calibration.program);
    }
    let program = match BotCommand::parse_in(&format!("./{}", calibration.program), own_folder) {
        Ok(program) => program,
        Err(e) => return format!("calibrate: {e}"),
    };
    match super::calibrate::run_calibration(&program, calibration, limits) {
        Ok(done) => {
            let _ = write_atomic(&reports.join(calibration.file), &done.bytes);
            let note = format!(
                "calibrated: `{}` left {} ({} bytes) in {:.1} s of CPU",
                calibration.program,
                calibration.file,
                done.bytes.len(),
                done.cpu_seconds
            );
            *bot = Bot::Command(command.clone().with_file(calibration.file, done.bytes), protocol.clone());
            note
        }
        Err(why) => format!("calibration failed, so the bot plays without {}: {why}", calibration.file),
    }
}

/// Plays the games stage for `bot`, run with `options`.
fn play_games(
    setup: &Setup,
    options: &VerifyOptions,
    bot: &Bot,
    games: &Games,
) -> Result<Vec<GameRecord>, String> {
    let options = MatchOptions {
        games: games.games,
        seed: options.seed,
        jobs: games.jobs,
        limits: options.limits.clone(),
        same_file: options.same_file,
        starts: Vec::new(),
        colours: games.colours,
        clock: games.clock,
        clock_range: games.clock_range,
        clock_counts_system: false,
    };
    play_match(setup.referee, bot, &games.opponent, &options, &|_| {})
}

fn pretty(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(value).unwrap_or_default();
    text.push(b'\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_are_plain_file_names() {
        assert_eq!(safe_name("alice"), "alice");
        assert_eq!(safe_name("Alice Smith"), "Alice_Smith");
        assert_eq!(safe_name("../etc"), "_.._etc");
        assert_eq!(safe_name("-rf"), "_-rf");
        assert_eq!(safe_name("=HYPERLINK(1)"), "_HYPERLINK_1_");
        assert_eq!(safe_name(""), "_");
        assert_eq!(safe_name(&"x".repeat(200)).len(), 80);
    }
}
