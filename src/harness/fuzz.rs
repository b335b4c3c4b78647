//! Fuzzing a bot: random positions, each answer judged as `verify` judges it, failures grouped
//! by kind and each kind shrunk to a small position a person can read.
//!
//! Two failures are the same bug when they have the same verdict and break the same rule
//! ([`Signature`]). The first failure of each kind is shrunk: the game offers one-step
//! simplifications of the position (a piece or wall removed, a piece made simpler, always
//! well-formed), and the first that still fails the same way is kept, until none does.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::bot::Bot;
use super::referee::{CaseSpec, Referee};
use super::verdict::Verdict;
use super::verify::{CaseResult, ReadyCase, VerifyOptions, case_seed, run_case};
use crate::side::Side;

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    pub cases: usize,
    /// The category whose answer is demanded (Advance's `grade4`: any legal move).
    pub category: String,
    /// Bot runs allowed for shrinking each kind of failure.
    pub max_shrink_runs: usize,
    /// Limits, seed, jobs.
    pub run: VerifyOptions,
}

/// What makes two failures the same bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Signature {
    pub verdict: Verdict,
    pub rule: Option<String>,
}

impl Signature {
    fn of(result: &CaseResult) -> Signature {
        Signature { verdict: result.verdict, rule: result.rule.clone() }
    }

    /// A short name for files: the rule, or the verdict.
    pub fn slug(&self) -> String {
        self.rule.clone().unwrap_or_else(|| self.verdict.to_string())
    }
}

/// One kind of failure, shrunk.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Failure {
    pub signature: Signature,
    /// How many fuzzed cases failed this way.
    pub count: usize,
    /// The index of the first of them.
    pub first_case: usize,
    pub original_board: String,
    pub original_size: usize,
    pub side: Side,
    pub minimal_board: String,
    pub minimal_size: usize,
    /// Bot runs spent shrinking.
    pub shrink_runs: usize,
    /// The bot's run on the minimal position: its move, the legal (or expected) alternatives,
    /// the reason, what it wrote, and how to reproduce it.
    pub result: CaseResult,
}

/// The outcome of a fuzzing run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FuzzReport {
    pub cases: usize,
    pub passed: usize,
    pub failures: Vec<Failure>,
}

/// Runs the bot on one position.
fn run_position(
    referee: &dyn Referee,
    bot: &Bot,
    options: &FuzzOptions,
    name: &str,
    input: &[u8],
    side: Side,
) -> Result<CaseResult, String> {
    let spec = CaseSpec {
        path: format!("{name}.txt").into(),
        name: name.to_string(),
        category: options.category.clone(),
        side,
        answer: None,
        golden: None,
    };
    let prepared = referee.prepare(&spec, input, None)?;
    let check_args = referee.check_args(&spec);
    Ok(run_case(&ReadyCase { spec, check_args, input: input.to_vec(), prepared }, bot, &options.run))
}

/// Shrinks a failing position while it keeps failing the same way; returns the smallest
/// position, the run on it, and the runs spent.
pub fn shrink(
    referee: &dyn Referee,
    bot: &Bot,
    options: &FuzzOptions,
    name: &str,
    input: &[u8],
    side: Side,
    first: CaseResult,
) -> (Vec<u8>, CaseResult, usize) {
    let signature = Signature::of(&first);
    let (mut current, mut result, mut runs) = (input.to_vec(), first, 0);
    'smaller: while runs < options.max_shrink_runs {
        for candidate in referee.shrink_steps(&current, side) {
            if runs >= options.max_shrink_runs {
                break 'smaller;
            }
            runs += 1;
            if let Ok(r) = run_position(referee, bot, options, name, &candidate, side)
                && Signature::of(&r) == signature
            {
                current = candidate;
                result = r;
                continue 'smaller;
            }
        }
        break;
    }
    (current, result, runs)
}

/// Fuzzes `bot` on `options.cases` random positions; `progress` is called after each case.
pub fn fuzz(
    referee: &dyn Referee,
    bot: &Bot,
    options: &FuzzOptions,
    progress: &(dyn Fn(bool) + Sync),
) -> Result<FuzzReport, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.run.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let positions: Vec<(String, Vec<u8>, Side)> = (0..options.cases)
        .map(|i| {
            let (input, side) =
                referee.random_position(case_seed(options.run.seed, &format!("fuzz position {i}")));
            (format!("fuzz-{i}"), input, side)
        })
        .collect();
    let results: Vec<Result<CaseResult, String>> = pool.install(|| {
        positions
            .par_iter()
            .map(|(name, input, side)| {
                let r = run_position(referee, bot, options, name, input, *side);
                progress(r.as_ref().is_ok_and(|r| r.verdict == Verdict::Pass));
                r
            })
            .collect()
    });
    // Group failures by signature, in case order.
    let mut groups: BTreeMap<Signature, (usize, usize, CaseResult)> = BTreeMap::new();
    let mut passed = 0;
    for (i, r) in results.into_iter().enumerate() {
        let r = r?;
        if r.verdict == Verdict::Pass {
            passed += 1;
            continue;
        }
        groups.entry(Signature::of(&r)).and_modify(|g| g.0 += 1).or_insert((1, i, r));
    }
    let failures: Vec<Failure> = pool.install(|| {
        groups
            .into_par_iter()
            .map(|(signature, (count, first_case, first))| {
                let (name, input, side) = &positions[first_case];
                let (minimal, result, shrink_runs) = shrink(referee, bot, options, name, input, *side, first);
                Failure {
                    signature,
                    count,
                    first_case,
                    original_board: String::from_utf8_lossy(input).into_owned(),
                    original_size: referee.size(input),
                    side: *side,
                    minimal_size: referee.size(&minimal),
                    minimal_board: String::from_utf8_lossy(&minimal).into_owned(),
                    shrink_runs,
                    result,
                }
            })
            .collect()
    });
    Ok(FuzzReport { cases: options.cases, passed, failures })
}
