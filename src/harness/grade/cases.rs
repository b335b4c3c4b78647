//! Running one submission's cases (as the ladder, its reports written as they finish) and its
//! bad-input checks.

use crate::harness::report::live::LiveFiles;
use crate::harness::robustness::{Check, run_checks};
use crate::harness::verdict::Verdict;
use crate::harness::verify::{CaseResult, not_run};

use super::ladder::run_ladder;
use super::plan::Plan;
use super::setup::Setup;
use super::submission::bot_name;

/// Runs the planned cases, calling `progress` with each that finishes (None for a case not
/// run); gives the bot's own name (empty for a refused submission) and every case's result, in
/// the plan's order. A refused submission runs none: each is not run, with the reason.
pub(super) fn run_cases(
    plan: &Plan,
    setup: &Setup,
    progress: &(dyn Fn(Option<&CaseResult>) + Sync),
) -> Result<(String, Vec<CaseResult>), String> {
    if let Some(why) = &plan.refusal {
        let reason = format!("the submission was refused before any case ran: {why}");
        let results: Vec<CaseResult> =
            plan.cases.iter().map(|c| not_run(c, &plan.bot, &plan.options, reason.clone())).collect();
        for _ in &results {
            progress(None);
        }
        return Ok((String::new(), results));
    }
    let name = bot_name(&plan.bot, setup.referee, &plan.options.limits);
    let all = &plan.cases;
    let live = LiveFiles::new(&plan.info, &plan.files, all.len(), all.len());
    live.write_now()?;
    let results = std::thread::scope(|scope| {
        scope.spawn(|| live.keep_writing());
        let results = run_ladder(all, setup.profile, &plan.bot, &plan.options, &setup.rules, &|i, r| {
            live.record(i, r);
            progress(Some(r));
        });
        for _ in results.iter().filter(|r| r.verdict == Verdict::NotRun) {
            progress(None);
        }
        // A failed partial write is made good by the complete write that follows.
        let _ = live.finish();
        results
    });
    Ok((name, results))
}

/// The bad-input checks, beside the cases: reported, not scored (none for a refused submission).
pub(super) fn robustness_checks(plan: &Plan, setup: &Setup) -> Vec<Check> {
    match (&setup.robustness, &plan.refusal) {
        (Some(boards), None) => run_checks(
            &plan.bot.as_command(plan.options.seed),
            &setup.referee.protocol(),
            boards,
            &plan.options.limits,
        ),
        _ => Vec::new(),
    }
}
