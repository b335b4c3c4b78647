//! Fuzzing a bot: positions from several sources, each answer judged as `verify` judges it,
//! failures grouped by kind and each kind shrunk to a small position a person can read.
//!
//! Sources: uniform random positions, and the game's edge sources (positions where one kind of
//! move is the only legal move or the unique best answer), which catch a bot that never
//! considers some move. Case `i` takes its source from a fixed rotation that gives each source
//! an equal share (random positions a larger one), so the mix depends only on the seed.
//!
//! Two failures are the same bug when they have the same verdict, break the same rule, and
//! involve the same kind of move ([`Signature`]): for an illegal move the move the bot played,
//! for a missed move the single answer it did not play. The first failure of each kind is run
//! again to tell a bug that reproduces from an intermittent one, and only the first kind is
//! shrunk: the game offers one-step simplifications of the position (a piece or wall removed, a
//! piece made simpler, always well-formed), and the first that still fails the same way is kept,
//! until none does or the shrink budget (runs and time) is spent.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::bot::Bot;
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

/// What makes two failures the same bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Signature {
    pub verdict: Verdict,
    /// The rule broken (`protected-by-sentinel`), or for a missed move `missed-` and the kind
    /// of move missed (`missed-general-swap`).
    pub rule: Option<String>,
    /// The piece of the move concerned: played (illegal move) or missed.
    pub piece: Option<String>,
    /// The action of that move (`swap`, `convert`).
    pub move_kind: Option<String>,
}

impl Signature {
    /// A short name for files: verdict, rule, piece and move, as far as known.
    pub fn slug(&self) -> String {
        let mut parts = vec![self.verdict.to_string()];
        parts.extend(self.rule.iter().cloned());
        parts.extend(self.piece.iter().map(|p| p.to_lowercase()));
        parts.extend(self.move_kind.iter().cloned());
        parts.join("-").chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
    }
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

/// One kind of failure, shrunk.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Failure {
    pub signature: Signature,
    /// How many fuzzed cases failed this way.
    pub count: usize,
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
}

/// The rotation of sources: each edge source once, and random positions a third as often as
/// all edge sources together (at least once), so every source gets its share of the cases.
pub fn source_plan(game: FuzzGame<'_>, edges: bool) -> Vec<String> {
    let edge = if edges { game.fuzzing.edge_sources() } else { Vec::new() };
    let randoms = (edge.len() / 3).max(1);
    let mut plan = Vec::new();
    // Random positions spread through the rotation rather than in one block.
    let every = edge.len().div_ceil(randoms).max(1);
    for (i, e) in edge.into_iter().enumerate() {
        if i % every == 0 {
            plan.push(RANDOM.to_string());
        }
        plan.push(e);
    }
    if plan.is_empty() {
        plan.push(RANDOM.to_string());
    }
    plan
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

/// The signature of a failed run. `general` holds the verdicts that also happen where no single
/// answer was expected: those are not about a missed move, so they are not split by one.
fn signature_of(
    game: FuzzGame<'_>,
    input: &[u8],
    side: Side,
    result: &CaseResult,
    sole: Option<&SoleAnswer>,
    general: &HashSet<Verdict>,
) -> Signature {
    let mut s =
        Signature { verdict: result.verdict, rule: result.rule.clone(), piece: None, move_kind: None };
    if result.verdict == Verdict::IllegalMove {
        if let Some(kind) = result.played.as_deref().and_then(|m| game.fuzzing.move_kind(input, side, m)) {
            s.piece = Some(kind.piece);
            s.move_kind = Some(kind.action);
        }
    } else if let Some(sole) = sole.filter(|_| !general.contains(&result.verdict)) {
        let what = sole.kind.edge.clone().unwrap_or_else(|| sole.kind.action.clone());
        s.rule = Some(format!("missed-{what}"));
        s.piece = Some(sole.kind.piece.clone());
        s.move_kind = Some(sole.kind.action.clone());
    }
    s
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
#[allow(clippy::too_many_arguments)]
fn shrink(
    game: FuzzGame<'_>,
    bot: &Bot,
    options: &FuzzOptions,
    drawn: &Drawn,
    first: &Ran,
    signature: &Signature,
    general: &HashSet<Verdict>,
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
            if signature_of(game, &candidate, side, &r, s.as_ref(), general) == *signature {
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
    let plan = source_plan(game, options.edges);
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
                progress(r.as_ref().is_ok_and(|r| r.verdict == Verdict::Pass));
                Some(r.map(|result| {
                    let sole = (result.verdict != Verdict::Pass)
                        .then(|| game.fuzzing.sole_answer(&drawn.input, drawn.side, &drawn.category))
                        .flatten();
                    Ran { drawn, result, sole }
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
    let general: HashSet<Verdict> = ran
        .iter()
        .filter(|(_, r)| r.result.verdict != Verdict::Pass && r.sole.is_none())
        .map(|(_, r)| r.result.verdict)
        .collect();
    // Group failures by signature, in case order.
    let mut groups: BTreeMap<Signature, Vec<(usize, Ran)>> = BTreeMap::new();
    for (i, r) in ran {
        if r.result.verdict == Verdict::Pass {
            continue;
        }
        let s = signature_of(game, &r.drawn.input, r.drawn.side, &r.result, r.sole.as_ref(), &general);
        groups.entry(s).or_default().push((i, r));
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
                        signature_of(game, &drawn.input, drawn.side, &r, s.as_ref(), &general) == signature
                    }) {
                        reproduction.failed += 1;
                    }
                }
                let (minimal, result, missed, shrink_runs) = if reproduction.intermittent() {
                    (drawn.input.clone(), first.result.clone(), first.sole.clone(), 0)
                } else {
                    shrink(game, bot, options, drawn, first, &signature, &general, &budget)
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
                Failure {
                    count: members.len(),
                    first_case: *first_case,
                    source: drawn.source.clone(),
                    category: drawn.category.clone(),
                    original_board: String::from_utf8_lossy(&drawn.input).into_owned(),
                    original_size: game.fuzzing.size(&drawn.input),
                    side: drawn.side,
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
    Ok(FuzzReport {
        cases: sources.values().sum(),
        requested: options.cases,
        passed,
        stopped,
        sources,
        failures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_name_every_part_and_only_safe_characters() {
        let s = Signature {
            verdict: Verdict::Unchanged,
            rule: Some("missed-general-swap".into()),
            piece: Some("Jester".into()),
            move_kind: Some("swap".into()),
        };
        assert_eq!(s.slug(), "unchanged-missed-general-swap-jester-swap");
        let s = Signature { verdict: Verdict::Crash, rule: None, piece: None, move_kind: None };
        assert_eq!(s.slug(), "crash");
    }
}
