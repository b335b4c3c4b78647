//! Running a submission's cases as the marking profile's ladder: stage by stage in the
//! profile's order, stopping early under `--stop-at-gate` and `--max-timeouts` (decided in run
//! order, so that results do not depend on the job count), at most `--jobs` cases at a time.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use crate::harness::bot::Bot;
use crate::harness::category;
use crate::harness::profile::Profile;
use crate::harness::runner::{self};
use crate::harness::verdict::Verdict;
use crate::harness::verify::{CaseResult, ReadyCase, VerifyOptions, not_run, run_case_settled};

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
