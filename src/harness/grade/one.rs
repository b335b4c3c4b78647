//! Grading one submission: planned (its bot opened and calibrated), its cases run as the
//! ladder, its games stages played when reached, then its reports, web page and gradebook row
//! written. Each step has its own file; this one puts them in order.

use crate::harness::gradebook::Row;
use crate::harness::report::pass_counts;
use crate::harness::verify::CaseResult;

use super::cases::{robustness_checks, run_cases};
use super::games::score_with_games;
use super::plan::{Plan, recorded_options};
use super::saved::{earlier_grading, forget_earlier};
use super::setup::Setup;
use super::submission::{Submission, submission_options};
use super::write::{write_reports, write_row};

/// What became of one submission.
pub enum Graded {
    /// Graded now.
    Graded(Row),
    /// Graded by an earlier run with the same settings: its row, as then.
    Skipped(Row),
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
    let recorded = recorded_options(&own);
    if !force && let Ok(row) = earlier_grading(&folder, &setup.settings, &recorded) {
        return Ok(Graded::Skipped(row));
    }
    forget_earlier(&folder)?;
    let plan = Plan::open(submission, setup, folder, &own, recorded)?;
    let (bot_name, results) = run_cases(&plan, setup, progress)?;
    let checks = robustness_checks(&plan, setup);
    let counts = pass_counts(&plan.info.categories, &results);
    let scored = score_with_games(&plan, setup, &counts)?;
    let report = write_reports(&plan, setup, submission, &results, &checks, &scored.score)?;
    let row = write_row(&plan, setup, submission, bot_name, &report, scored)?;
    Ok(Graded::Graded(row))
}
