//! Fuzzing a bot: positions from several sources, each answer judged as `verify` judges it,
//! failures grouped by kind and each kind shrunk to a small position a person can read.
//!
//! Sources: uniform random positions, and the game's own sources: positions where one kind of
//! move is the only legal move or the unique best answer (catching a bot that never considers
//! some move), and positions where a forbidden move is within reach of a plausible bug
//! (catching a bot that plays it). Case `i` takes its source from a fixed rotation that gives
//! each source an equal share (random positions a larger one), so the mix depends only on the
//! seed.
//!
//! Two failures are the same bug when they have the same verdict, break the same rule, and
//! involve the same kind of move ([`Signature`], shared with `verify`'s report): for an illegal
//! move the move the bot played; for any other failure in a position with a single answer (a
//! wrong move, no output, a crash) the answer it did not play. The first failure of each kind
//! is run again to tell a bug that reproduces from an intermittent one, and each kind is shrunk:
//! the game offers one-step simplifications of the position (a piece or wall removed, a piece
//! made simpler, always well-formed), and the first that still fails the same way is kept, until
//! none does or the shrink budget is spent. The shrink time is shared out: kinds are shrunk in the
//! order to fix them, and each kind, when its turn comes, gets an equal share of the time left
//! (so a run that found forty kinds shrinks every one a little rather than the first few fully),
//! and each report says whether its position is minimal or the budget ran out first. Kinds are
//! reported in the order to fix them ([`super::failure::urgency`]: illegal moves and crashes
//! first), each with the case that found it first and when.
//!
//! A case that asks many questions (a hosted game of calls) may fail in several ways at once: the
//! game's judge reports the first failure and the others after it ([`super::verdict::Judgement::also`]),
//! and each counts towards its own kind, so that an early crash does not hide a later bug.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::bot::Bot;
pub use super::failure::Signature;
use super::interrupt::interrupted;
use super::referee::{CaseSpec, Cases, Fuzzing, PlayedCase, Referee, SoleAnswer};
use super::verdict::Verdict;
use super::verify::{CaseResult, ReadyCase, VerifyOptions, case_seed, run_case};
use crate::side::Side;

/// The name of the uniform random source.
pub const RANDOM: &str = "random";

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// Positions to try at most.
    pub cases: usize,
    /// The category whose answer is demanded (Advance's `grade4`: any legal move).
    pub category: String,
    /// Let the game pick each position's category: the strictest with a single answer
    /// ([`Fuzzing::auto_category`]), else `category`.
    pub auto_category: bool,
    /// Draw from the game's edge sources as well as random positions.
    pub edges: bool,
    /// Keep only the sources whose names start with one of these (`tempt/`, `random`); all
    /// when empty.
    pub only_sources: Vec<String>,
    /// Stop starting new cases after this long.
    pub time: Option<Duration>,
    /// Bot runs allowed for shrinking each kind of failure.
    pub max_shrink_runs: usize,
    /// Time allowed for shrinking all kinds of failure together, shared out among them.
    pub shrink_time: Duration,
    /// Times the first failure of each kind is run again to see whether it reproduces.
    pub reruns: usize,
    /// Limits, seed, jobs, same file.
    pub run: VerifyOptions,
}

/// One failing case, as kept in reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FailedCase {
    pub case: usize,
    /// The source the position came from.
    pub source: String,
    pub board: String,
    pub side: Side,
    /// The category it was judged in.
    #[serde(rename = "grade", serialize_with = "super::category::serialize")]
    pub category: String,
    pub verdict: Verdict,
    /// The bot's move, when there is one.
    #[serde(rename = "move")]
    pub played: Option<String>,
    /// The expected moves.
    pub expected: Vec<String>,
    /// The single expected answer, when there was one, and the sentence naming it.
    pub missed: Option<SoleAnswer>,
    pub reason: String,
    pub stdout_head: String,
    pub stderr_tail: String,
}

/// Whether a failure happens every time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Reproduction {
    /// Runs of the first failing case, the first included.
    pub runs: usize,
    /// Those that failed the same way.
    pub failed: usize,
}

impl Reproduction {
    /// True when some run did not fail the same way.
    pub fn intermittent(&self) -> bool {
        self.failed < self.runs
    }
}

/// When a kind of failure was first found: the lowest case that failed this way, and when it
/// had run. Cases start in order, so with several jobs another case of the kind may have
/// finished a little earlier, but both numbers always belong to this case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FirstFound {
    /// The lowest index of the cases that failed this way: how many cases it took to find.
    pub case: usize,
    /// Seconds from the start of the run until that case had run.
    pub seconds: f64,
}

/// How shrinking a kind of failure ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShrinkEnd {
    /// No one-step simpler position failed the same way: as small as shrinking gets it.
    Minimal,
    /// The budget (its share of the time, or the runs) ran out with simpler positions untried.
    BudgetSpent,
    /// The first case did not fail the same way every time: not shrunk (it would chase noise).
    Intermittent,
    /// Stopped by Ctrl-C.
    Interrupted,
}

/// One kind of failure, shrunk.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Failure {
    pub signature: Signature,
    /// How many fuzzed cases failed this way.
    pub count: usize,
    /// When this kind was first found.
    pub first_found: FirstFound,
    /// The index of the case shrunk: the smallest of them (the first among equals).
    pub first_case: usize,
    /// Where its position came from.
    pub source: String,
    /// The category it was judged in.
    #[serde(rename = "grade", serialize_with = "super::category::serialize")]
    pub category: String,
    pub original_board: String,
    pub original_size: usize,
    pub side: Side,
    pub minimal_board: String,
    pub minimal_size: usize,
    /// Bot runs spent shrinking.
    pub shrink_runs: usize,
    /// How shrinking ended: minimal, or stopped by the budget.
    pub shrink_end: ShrinkEnd,
    /// How the reruns of the first case went; an intermittent failure is not shrunk.
    pub reproduction: Reproduction,
    /// The single answer of the minimal position that the bot did not play, if there is one.
    pub missed: Option<SoleAnswer>,
    /// The bot's run on the minimal position: its move, the legal (or expected) alternatives,
    /// the reason, what it wrote, and how to reproduce it.
    pub result: CaseResult,
    /// Every case that failed this way.
    pub cases: Vec<FailedCase>,
}

impl Failure {
    /// What shrinking did, for reports: `shrunk from 23 to 4 pieces and walls in 57 bot runs
    /// (minimal)`, or `not shrunk: budget spent` when it never got a smaller position.
    pub fn shrink_sentence(&self, unit: &str) -> String {
        let (from, to, runs) = (self.original_size, self.minimal_size, self.shrink_runs);
        let runs_text = if runs == 1 { "1 bot run".to_string() } else { format!("{runs} bot runs") };
        match self.shrink_end {
            ShrinkEnd::Intermittent => format!(
                "intermittent: the first case failed this way in {} of {} runs; not shrunk ({from} {unit})",
                self.reproduction.failed, self.reproduction.runs
            ),
            ShrinkEnd::Minimal if from == to => {
                format!("{to} {unit}: already minimal (no simpler position fails this way; {runs_text})")
            }
            ShrinkEnd::Minimal => {
                format!(
                    "shrunk from {from} to {to} {unit} in {runs_text} (minimal: no simpler position fails this way)"
                )
            }
            ShrinkEnd::BudgetSpent | ShrinkEnd::Interrupted if from == to => {
                let why =
                    if self.shrink_end == ShrinkEnd::Interrupted { "interrupted" } else { "budget spent" };
                format!("not shrunk: {why} ({from} {unit}, {runs_text})")
            }
            ShrinkEnd::BudgetSpent | ShrinkEnd::Interrupted => {
                let why =
                    if self.shrink_end == ShrinkEnd::Interrupted { "interrupted" } else { "budget spent" };
                format!(
                    "shrunk from {from} to {to} {unit} in {runs_text}, then stopped: {why} (maybe not minimal)"
                )
            }
        }
    }
}

/// The outcome of a fuzzing run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FuzzReport {
    /// Cases run.
    pub cases: usize,
    /// Cases asked for.
    pub requested: usize,
    pub passed: usize,
    /// Why the run stopped before all cases ran: `time` or `interrupted`.
    pub stopped: Option<String>,
    /// Cases run from each source.
    pub sources: BTreeMap<String, usize>,
    /// What the sizes of positions count (`pieces and walls`, `stones`).
    pub size_unit: &'static str,
    /// The kinds of failure, in the order to fix them: by urgency, then as first found.
    pub failures: Vec<Failure>,
}

/// A position to try.
#[derive(Clone)]
struct Drawn {
    source: String,
    name: String,
    input: Vec<u8>,
    side: Side,
    category: String,
}

/// What fuzzing needs of a game: its position sources and its judge of cases (none for a game
/// that plays its fuzzed cases itself, [`Fuzzing::plays_cases`]).
#[derive(Clone, Copy)]
pub struct FuzzGame<'a> {
    pub fuzzing: &'a dyn Fuzzing,
    pub cases: Option<&'a dyn Cases>,
}

impl<'a> FuzzGame<'a> {
    /// The game's fuzzing sources and cases, or an error naming what it lacks.
    pub fn of(referee: &'a dyn Referee) -> Result<FuzzGame<'a>, String> {
        let fuzzing = referee.require_fuzzing()?;
        let cases = if fuzzing.plays_cases() { referee.cases() } else { Some(referee.require_cases()?) };
        Ok(FuzzGame { fuzzing, cases })
    }
}

/// One case's run.
struct Ran {
    drawn: Drawn,
    result: CaseResult,
    sole: Option<SoleAnswer>,
    /// Time from the start of the run until this case had run.
    finished: Duration,
}

/// The rotation of sources: each edge source once, and random positions a third as often as
/// all edge sources together (at least once), so every source gets its share of the cases.
/// `only` keeps the sources whose names start with one of its prefixes (all when empty); an
/// error lists the sources when it keeps none.
pub fn source_plan(game: FuzzGame<'_>, edges: bool, only: &[String]) -> Result<Vec<String>, String> {
    let kept = |name: &str| only.is_empty() || only.iter().any(|p| name.starts_with(p.as_str()));
    let all_edges = if edges { game.fuzzing.edge_sources() } else { Vec::new() };
    let edge: Vec<String> = all_edges.iter().filter(|e| kept(e)).cloned().collect();
    let with_random = kept(RANDOM);
    let randoms = if with_random { (edge.len() / 3).max(1) } else { 0 };
    let mut plan = Vec::new();
    // Random positions spread through the rotation rather than in one block.
    let every = edge.len().div_ceil(randoms.max(1)).max(1);
    for (i, e) in edge.into_iter().enumerate() {
        if with_random && i % every == 0 {
            plan.push(RANDOM.to_string());
        }
        plan.push(e);
    }
    if plan.is_empty() && with_random {
        plan.push(RANDOM.to_string());
    }
    if plan.is_empty() {
        let mut names = vec![RANDOM.to_string()];
        names.extend(all_edges);
        return Err(format!(
            "no source starts with {}; the sources are {}",
            only.join(" or "),
            names.join(", ")
        ));
    }
    Ok(plan)
}

/// Case `i`'s position: from the source its place in the rotation gives (rotated by the seed),
/// falling back to a random position if that source finds none.
fn draw(game: FuzzGame<'_>, options: &FuzzOptions, plan: &[String], i: usize) -> Drawn {
    let seed = case_seed(options.run.seed, &format!("fuzz position {i}"));
    let offset = (case_seed(options.run.seed, "fuzz sources") % plan.len() as u64) as usize;
    let planned = &plan[(i + offset) % plan.len()];
    let edge = (planned != RANDOM).then(|| game.fuzzing.edge_position(planned, seed)).flatten();
    let (source, (input, side)) = match edge {
        Some(p) => (planned.clone(), p),
        None => (RANDOM.to_string(), game.fuzzing.random_position(seed)),
    };
    let category = if options.auto_category {
        game.fuzzing.auto_category(&input, side).unwrap_or_else(|| options.category.clone())
    } else {
        options.category.clone()
    };
    Drawn { source, name: format!("fuzz-{i}"), input, side, category }
}

/// Runs the bot on one position, judged in `category`.
fn run_position(
    game: FuzzGame<'_>,
    bot: &Bot,
    options: &FuzzOptions,
    name: &str,
    category: &str,
    input: &[u8],
    side: Side,
) -> Result<CaseResult, String> {
    if game.fuzzing.plays_cases() {
        let seed = case_seed(options.run.seed, name);
        let played = game.fuzzing.play_case(input, bot, &options.run.limits, seed)?;
        return Ok(played_result(name, category, side, played, seed));
    }
    let cases = game.cases.ok_or("this game has no test cases to fuzz")?;
    let spec = CaseSpec {
        path: format!("{name}.txt").into(),
        name: name.to_string(),
        category: category.to_string(),
        side,
        answer: None,
        golden: None,
    };
    let prepared = cases.prepare(&spec, input, None)?;
    let check_args = cases.check_args(&spec);
    let ready = ReadyCase { spec, check_args, input: input.to_vec(), prepared };
    let mut result = run_case(&ready, bot, &options.run);
    if result.expected.is_empty() {
        // No board to judge (a crash, no output): the expected moves are still worth showing,
        // and judging the unchanged input gives them.
        result.expected = ready.prepared.judge(input, "input", false).expected;
    }
    Ok(result)
}

/// The result of a case the game played itself.
fn played_result(name: &str, category: &str, side: Side, played: PlayedCase, seed: u64) -> CaseResult {
    let mut j = played.judgement;
    let verdict = j.verdict.unwrap_or(Verdict::Crash);
    let reason = std::mem::take(&mut j.reason);
    let mut result = CaseResult {
        process: played.process,
        stderr_tail: played.stderr_tail,
        stdout_head: played.stdout_head,
        elapsed_ms: played.elapsed_ms,
        cpu_ms: played.cpu_ms,
        reproduce: played.reproduce,
        seed,
        picture: played.picture,
        ..CaseResult::bare(
            format!("{name}.txt"),
            name.to_string(),
            category.to_string(),
            side,
            verdict,
            reason,
        )
    };
    result.take_judgement(j);
    result
}

/// The signature of a failed run: the kind of the move it played when illegal, else of the
/// single answer it missed.
fn signature_of(result: &CaseResult, sole: Option<&SoleAnswer>) -> Signature {
    Signature::of(result.verdict, result.rule.as_deref(), result.played_kind.as_ref(), sole.map(|s| &s.kind))
}

/// The failures one run shows, each as a result of its own: the first, then those the game's
/// judge found after it ([`CaseResult::also`]). None for a pass.
fn failures_of(result: &CaseResult) -> Vec<CaseResult> {
    if result.verdict == Verdict::Pass {
        return Vec::new();
    }
    let mut first = result.clone();
    first.also.clear();
    let mut out = vec![first.clone()];
    for j in &result.also {
        let mut r = first.clone();
        r.verdict = j.verdict.unwrap_or(Verdict::WrongAnswer);
        r.rule = j.rule.clone();
        r.played = j.played.clone();
        r.played_kind = None;
        r.reason = j.reason.clone();
        r.diff = j.diff.clone();
        if !j.expected.is_empty() {
            r.expected = j.expected.clone();
            r.expected_kind = None;
        }
        out.push(r);
    }
    out
}

/// The failure of `result` that has `signature`, if it has one.
fn failing_as(result: &CaseResult, sole: Option<&SoleAnswer>, signature: &Signature) -> Option<CaseResult> {
    failures_of(result).into_iter().find(|f| signature_of(f, sole) == *signature)
}

/// The shrink budget of one kind of failure: its runs, and its share of the time.
struct Budget {
    runs: usize,
    deadline: Instant,
}

impl Budget {
    fn spent(&self, runs: usize) -> bool {
        runs >= self.runs || Instant::now() >= self.deadline || interrupted()
    }
}

/// Shares the shrink time among the kinds of failure: each, when its turn comes, gets the time
/// left divided by the rounds still to come (kinds not yet started, `jobs` at a time), so time a
/// kind did not need goes to those after it.
struct ShrinkClock {
    deadline: Instant,
    /// Kinds not yet started.
    left: std::sync::atomic::AtomicUsize,
    jobs: usize,
    runs: usize,
}

impl ShrinkClock {
    /// The budget of the next kind to start.
    fn next(&self) -> Budget {
        let left = self.left.fetch_sub(1, std::sync::atomic::Ordering::SeqCst).max(1);
        let now = Instant::now();
        let remaining = self.deadline.saturating_duration_since(now);
        let rounds = left.div_ceil(self.jobs.max(1)).max(1) as u32;
        Budget { runs: self.runs, deadline: now + remaining / rounds }
    }
}

/// What shrinking gave: the smallest position, the run on it, its single answer, the runs
/// spent and how it ended.
struct Shrunk {
    input: Vec<u8>,
    result: CaseResult,
    sole: Option<SoleAnswer>,
    runs: usize,
    end: ShrinkEnd,
}

/// Shrinks a failing position while it keeps failing the same way.
fn shrink(
    game: FuzzGame<'_>,
    bot: &Bot,
    options: &FuzzOptions,
    first: &Ran,
    signature: &Signature,
    budget: &Budget,
) -> Shrunk {
    let drawn = &first.drawn;
    let side = drawn.side;
    let mut shrunk = Shrunk {
        input: drawn.input.clone(),
        result: first.result.clone(),
        sole: first.sole.clone(),
        runs: 0,
        end: ShrinkEnd::Minimal,
    };
    let stop = |runs: usize| {
        if interrupted() {
            Some(ShrinkEnd::Interrupted)
        } else {
            budget.spent(runs).then_some(ShrinkEnd::BudgetSpent)
        }
    };
    'smaller: loop {
        for candidate in game.fuzzing.shrink_steps(&shrunk.input, side) {
            if let Some(end) = stop(shrunk.runs) {
                shrunk.end = end;
                break 'smaller;
            }
            shrunk.runs += 1;
            let Ok(r) = run_position(game, bot, options, &drawn.name, &drawn.category, &candidate, side)
            else {
                continue;
            };
            if interrupted() {
                shrunk.end = ShrinkEnd::Interrupted;
                break 'smaller;
            }
            let s = game.fuzzing.sole_answer(&candidate, side, &drawn.category);
            if let Some(failure) = failing_as(&r, s.as_ref(), signature) {
                shrunk.input = candidate;
                shrunk.result = failure;
                shrunk.sole = s;
                continue 'smaller;
            }
        }
        // Every simpler position was tried and none failed this way.
        break;
    }
    shrunk
}

/// Fuzzes `bot` on up to `options.cases` positions; `progress` is called after each case with
/// whether it passed. Stops starting cases when the time budget is spent or on Ctrl-C (see
/// [`super::interrupt`]), and reports what was found so far.
pub fn fuzz(
    game: FuzzGame<'_>,
    bot: &Bot,
    options: &FuzzOptions,
    progress: &(dyn Fn(bool) + Sync),
) -> Result<FuzzReport, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.run.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let out_of_time = || options.time.is_some_and(|t| started.elapsed() >= t);
    let plan = source_plan(game, options.edges, &options.only_sources)?;
    let run_one = |i: usize| -> Option<Result<Ran, String>> {
        if interrupted() || out_of_time() {
            return None;
        }
        let drawn = draw(game, options, &plan, i);
        let r = run_position(game, bot, options, &drawn.name, &drawn.category, &drawn.input, drawn.side);
        // A run cut short by Ctrl-C (its bot killed) says nothing about the bot.
        if interrupted() {
            return None;
        }
        let finished = started.elapsed();
        progress(r.as_ref().is_ok_and(|r| r.verdict == Verdict::Pass));
        Some(r.map(|result| {
            let sole = (result.verdict != Verdict::Pass)
                .then(|| game.fuzzing.sole_answer(&drawn.input, drawn.side, &drawn.category))
                .flatten();
            Ran { drawn, result, sole, finished }
        }))
    };
    // Cases are started in order (par_bridge hands them out one by one), so that a run cut
    // short by --time has run the first cases, and a kind's lowest case is among its first
    // found.
    let mut results: Vec<(usize, Option<Result<Ran, String>>)> =
        pool.install(|| (0..options.cases).par_bridge().map(|i| (i, run_one(i))).collect());
    results.sort_by_key(|(i, _)| *i);
    let results: Vec<Option<Result<Ran, String>>> = results.into_iter().map(|(_, r)| r).collect();
    let stopped = if results.iter().all(Option::is_some) {
        None
    } else if interrupted() {
        Some("interrupted".to_string())
    } else {
        Some("time".to_string())
    };
    let mut ran: Vec<(usize, Ran)> = Vec::new();
    for (i, r) in results.into_iter().enumerate() {
        if let Some(r) = r {
            ran.push((i, r?));
        }
    }
    let mut sources: BTreeMap<String, usize> = BTreeMap::new();
    for (_, r) in &ran {
        *sources.entry(r.drawn.source.clone()).or_default() += 1;
    }
    let passed = ran.iter().filter(|(_, r)| r.result.verdict == Verdict::Pass).count();
    // Group failures by signature, in case order; a case that failed in several ways counts
    // in each of its kinds.
    let mut groups: BTreeMap<Signature, Vec<(usize, Ran)>> = BTreeMap::new();
    for (i, r) in ran {
        for failure in failures_of(&r.result) {
            let signature = signature_of(&failure, r.sole.as_ref());
            let one =
                Ran { drawn: r.drawn.clone(), result: failure, sole: r.sole.clone(), finished: r.finished };
            groups.entry(signature).or_default().push((i, one));
        }
    }
    // Shrink in the order to fix them, so the time goes first to what matters most.
    let mut groups: Vec<(Signature, Vec<(usize, Ran)>)> = groups.into_iter().collect();
    groups.sort_by_key(|(s, members)| (s.urgency(), members.iter().map(|(i, _)| *i).min()));
    let clock = ShrinkClock {
        deadline: Instant::now() + options.shrink_time,
        left: std::sync::atomic::AtomicUsize::new(groups.len()),
        jobs: options.run.jobs.max(1),
        runs: options.max_shrink_runs,
    };
    let failures: Vec<Failure> = pool.install(|| {
        // Taken in order (par_bridge), so each kind's share of the time is set when it starts.
        groups
            .into_iter()
            .par_bridge()
            .map(|(signature, members)| {
                // Shrinking starts from the smallest case that failed this way (the first of
                // those): the smaller the start, the smaller the end.
                let smallest = (0..members.len())
                    .min_by_key(|&k| (game.fuzzing.size(&members[k].1.drawn.input), k))
                    .expect("a group has a member");
                let (first_case, first) = &members[smallest];
                let drawn = &first.drawn;
                // Run the first case again: a failure that does not come back every time is
                // reported as intermittent and not shrunk (shrinking would chase noise).
                let mut reproduction = Reproduction { runs: 1, failed: 1 };
                for _ in 0..options.reruns {
                    if interrupted() {
                        break;
                    }
                    let again = run_position(
                        game,
                        bot,
                        options,
                        &drawn.name,
                        &drawn.category,
                        &drawn.input,
                        drawn.side,
                    );
                    reproduction.runs += 1;
                    if again.is_ok_and(|r| {
                        let s = game.fuzzing.sole_answer(&drawn.input, drawn.side, &drawn.category);
                        failing_as(&r, s.as_ref(), &signature).is_some()
                    }) {
                        reproduction.failed += 1;
                    }
                }
                let budget = clock.next();
                let shrunk = if reproduction.intermittent() {
                    Shrunk {
                        input: drawn.input.clone(),
                        result: first.result.clone(),
                        sole: first.sole.clone(),
                        runs: 0,
                        end: ShrinkEnd::Intermittent,
                    }
                } else {
                    shrink(game, bot, options, first, &signature, &budget)
                };
                let cases = members
                    .iter()
                    .map(|(i, r)| FailedCase {
                        case: *i,
                        source: r.drawn.source.clone(),
                        board: String::from_utf8_lossy(&r.drawn.input).into_owned(),
                        side: r.drawn.side,
                        category: r.drawn.category.clone(),
                        verdict: r.result.verdict,
                        played: r.result.played.clone(),
                        expected: r.result.expected.clone(),
                        missed: r.sole.clone(),
                        reason: r.result.reason.clone(),
                        stdout_head: r.result.stdout_head.clone(),
                        stderr_tail: r.result.stderr_tail.clone(),
                    })
                    .collect();
                // The lowest case that failed this way (how many cases it took: the same for
                // the same seed), with its own time.
                let (found_case, found) =
                    members.iter().map(|(i, r)| (*i, r.finished)).min().expect("a group has a member");
                let first_found = FirstFound { case: found_case, seconds: found.as_secs_f64() };
                Failure {
                    count: members.iter().map(|(i, _)| *i).collect::<std::collections::BTreeSet<_>>().len(),
                    first_found,
                    first_case: *first_case,
                    source: drawn.source.clone(),
                    category: drawn.category.clone(),
                    original_board: String::from_utf8_lossy(&drawn.input).into_owned(),
                    original_size: game.fuzzing.size(&drawn.input),
                    side: game.fuzzing.side_of(&shrunk.input).unwrap_or(drawn.side),
                    minimal_size: game.fuzzing.size(&shrunk.input),
                    minimal_board: String::from_utf8_lossy(&shrunk.input).into_owned(),
                    shrink_runs: shrunk.runs,
                    shrink_end: shrunk.end,
                    reproduction,
                    missed: shrunk.sole,
                    result: shrunk.result,
                    cases,
                    signature,
                }
            })
            .collect()
    });
    let mut failures = failures;
    failures.sort_by_key(|f| (f.signature.urgency(), f.first_found.case));
    Ok(FuzzReport {
        cases: sources.values().sum(),
        requested: options.cases,
        passed,
        stopped,
        sources,
        size_unit: game.fuzzing.size_unit(),
        failures,
    })
}
