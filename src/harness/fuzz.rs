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
//! none does or the shrink budget (runs and time) is spent. Kinds are reported in the order to
//! fix them ([`super::failure::urgency`]: illegal moves and crashes first), each with the case
//! and the time at which it was first found.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::bot::Bot;
pub use super::failure::Signature;
use super::interrupt::interrupted;
use super::referee::{CaseSpec, Cases, Fuzzing, Referee, SoleAnswer};
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
    /// ([`Referee::auto_category`]), else `category`.
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
    /// Time allowed for shrinking all kinds of failure together.
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

/// When a kind of failure was first found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FirstFound {
    /// The lowest index of the cases that failed this way: how many cases it took to find.
    pub case: usize,
    /// Seconds from the start of the run until the first of those cases had run (cases run in
    /// parallel, so with several jobs this may be a case other than `case`).
    pub seconds: f64,
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
struct Drawn {
    source: String,
    name: String,
    input: Vec<u8>,
    side: Side,
    category: String,
}

/// What fuzzing needs of a game: its position sources and its judge of cases.
#[derive(Clone, Copy)]
pub struct FuzzGame<'a> {
    pub fuzzing: &'a dyn Fuzzing,
    pub cases: &'a dyn Cases,
}

impl<'a> FuzzGame<'a> {
    /// The game's fuzzing sources and cases, or an error naming what it lacks.
    pub fn of(referee: &'a dyn Referee) -> Result<FuzzGame<'a>, String> {
        Ok(FuzzGame { fuzzing: referee.require_fuzzing()?, cases: referee.require_cases()? })
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
    let spec = CaseSpec {
        path: format!("{name}.txt").into(),
        name: name.to_string(),
        category: category.to_string(),
        side,
        answer: None,
        golden: None,
    };
    let prepared = game.cases.prepare(&spec, input, None)?;
    let check_args = game.cases.check_args(&spec);
    let ready = ReadyCase { spec, check_args, input: input.to_vec(), prepared };
    let mut result = run_case(&ready, bot, &options.run);
    if result.expected.is_empty() {
        // No board to judge (a crash, no output): the expected moves are still worth showing,
        // and judging the unchanged input gives them.
        result.expected = ready.prepared.judge(input, "input", false).expected;
    }
    Ok(result)
}

/// The signature of a failed run: the kind of the move it played when illegal, else of the
/// single answer it missed.
fn signature_of(result: &CaseResult, sole: Option<&SoleAnswer>) -> Signature {
    Signature::of(result.verdict, result.rule.as_deref(), result.played_kind.as_ref(), sole.map(|s| &s.kind))
}

/// When shrinking and reruns must stop.
struct Budget {
    runs: usize,
    deadline: Instant,
}

impl Budget {
    fn spent(&self, runs: usize) -> bool {
        runs >= self.runs || Instant::now() >= self.deadline || interrupted()
    }
}

/// Shrinks a failing position while it keeps failing the same way; returns the smallest
/// position, the run on it, its single answer, and the runs spent.
fn shrink(
    game: FuzzGame<'_>,
    bot: &Bot,
    options: &FuzzOptions,
    drawn: &Drawn,
    first: &Ran,
    signature: &Signature,
    budget: &Budget,
) -> (Vec<u8>, CaseResult, Option<SoleAnswer>, usize) {
    let side = drawn.side;
    let (mut current, mut result, mut sole, mut runs) =
        (drawn.input.clone(), first.result.clone(), first.sole.clone(), 0);
    'smaller: while !budget.spent(runs) {
        for candidate in game.fuzzing.shrink_steps(&current, side) {
            if budget.spent(runs) {
                break 'smaller;
            }
            runs += 1;
            let Ok(r) = run_position(game, bot, options, &drawn.name, &drawn.category, &candidate, side)
            else {
                continue;
            };
            if interrupted() {
                break 'smaller;
            }
            let s = game.fuzzing.sole_answer(&candidate, side, &drawn.category);
            if signature_of(&r, s.as_ref()) == *signature {
                current = candidate;
                result = r;
                sole = s;
                continue 'smaller;
            }
        }
        break;
    }
    (current, result, sole, runs)
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
    let results: Vec<Option<Result<Ran, String>>> = pool.install(|| {
        (0..options.cases)
            .into_par_iter()
            .map(|i| {
                if interrupted() || out_of_time() {
                    return None;
                }
                let drawn = draw(game, options, &plan, i);
                let r =
                    run_position(game, bot, options, &drawn.name, &drawn.category, &drawn.input, drawn.side);
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
            })
            .collect()
    });
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
    // Group failures by signature, in case order.
    let mut groups: BTreeMap<Signature, Vec<(usize, Ran)>> = BTreeMap::new();
    for (i, r) in ran {
        if r.result.verdict == Verdict::Pass {
            continue;
        }
        groups.entry(signature_of(&r.result, r.sole.as_ref())).or_default().push((i, r));
    }
    let budget = Budget { runs: options.max_shrink_runs, deadline: Instant::now() + options.shrink_time };
    let failures: Vec<Failure> = pool.install(|| {
        groups
            .into_par_iter()
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
                        signature_of(&r, s.as_ref()) == signature
                    }) {
                        reproduction.failed += 1;
                    }
                }
                let (minimal, result, missed, shrink_runs) = if reproduction.intermittent() {
                    (drawn.input.clone(), first.result.clone(), first.sole.clone(), 0)
                } else {
                    shrink(game, bot, options, drawn, first, &signature, &budget)
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
                let first_found = FirstFound {
                    case: members[0].0,
                    seconds: members.iter().map(|(_, r)| r.finished).min().unwrap_or_default().as_secs_f64(),
                };
                Failure {
                    count: members.len(),
                    first_found,
                    first_case: *first_case,
                    source: drawn.source.clone(),
                    category: drawn.category.clone(),
                    original_board: String::from_utf8_lossy(&drawn.input).into_owned(),
                    original_size: game.fuzzing.size(&drawn.input),
                    side: game.fuzzing.side_of(&minimal).unwrap_or(drawn.side),
                    minimal_size: game.fuzzing.size(&minimal),
                    minimal_board: String::from_utf8_lossy(&minimal).into_owned(),
                    shrink_runs,
                    reproduction,
                    missed,
                    result,
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
