//! Writing one submission's results: its reports and web page, then its gradebook row with
//! the notes that explain it (`grade.json`, last).

use std::collections::BTreeSet;

use crate::harness::gradebook::{Row, StageCell};
use crate::harness::profile::Score;
use crate::harness::report::VerifyReport;
use crate::harness::robustness::Check;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

use super::games::Scored;
use super::plan::Plan;
use super::saved::{SavedRow, write_saved};
use super::setup::Setup;
use super::submission::{Submission, safe_name};

/// Writes the complete reports (and the web page, with `--html`); gives the report written.
pub(super) fn write_reports<'r>(
    plan: &'r Plan,
    setup: &Setup,
    submission: &Submission,
    results: &'r [CaseResult],
    checks: &'r [Check],
    score: &Score,
) -> Result<VerifyReport<'r>, String> {
    let mut report = plan.info.report(results, &[], true);
    report.score = score.clone();
    report.robustness = checks;
    // How the calibration went belongs where the student reads, not only in the row.
    report.notes.extend(plan.calibration_note.clone());
    plan.files.write(&report)?;
    if let Some(dir) = &setup.html {
        let page = crate::harness::html::verify::submission_page(setup.referee, &report, Some("index.html"));
        crate::harness::html::write(
            &dir.join(crate::harness::html::class::page_name(&submission.name)),
            &page,
        )?;
    }
    Ok(report)
}

/// The row's last notes, on what the cases and checks did: bad inputs handled, a corpus that is
/// not the profile's, cases not run and grader errors.
fn result_notes(plan: &Plan, report: &VerifyReport) -> Vec<String> {
    let (results, checks) = (report.cases, report.robustness);
    let mut notes = Vec::new();
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
    let not_run = count(results, Verdict::NotRun);
    if plan.refusal.is_none() && not_run > 0 {
        let reasons: BTreeSet<&str> =
            results.iter().filter(|r| r.verdict == Verdict::NotRun).map(|r| r.reason.as_str()).collect();
        notes.push(format!(
            "{not_run} case(s) not run: {}",
            reasons.into_iter().collect::<Vec<_>>().join("; ")
        ));
    }
    let grader_errors = count(results, Verdict::GraderError);
    if grader_errors > 0 {
        let first = results.iter().find(|r| r.verdict == Verdict::GraderError).map(|r| r.reason.as_str());
        notes.push(format!(
            "GRADER ERROR: {grader_errors} case(s) not run because the grader failed, not the bot (grade again): {}",
            first.unwrap_or_default()
        ));
    }
    notes
}

/// How many of `results` have `verdict`.
fn count(results: &[CaseResult], verdict: Verdict) -> usize {
    results.iter().filter(|r| r.verdict == verdict).count()
}

/// The gradebook's stage columns: a case stage's cases passed of its cases, and a games
/// stage's games won of games played.
fn stage_cells(score: &Score) -> Vec<StageCell> {
    score
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
        .collect()
}

/// Writes the submission's gradebook row (`grade.json`, last) for the `report` written, and
/// gives it.
pub(super) fn write_row(
    plan: &Plan,
    setup: &Setup,
    submission: &Submission,
    bot_name: String,
    report: &VerifyReport,
    scored: Scored,
) -> Result<Row, String> {
    let results = report.cases;
    let mut notes = plan.notes.clone();
    notes.extend(scored.notes);
    notes.extend(result_notes(plan, report));
    let score = &scored.score;
    let summary = scored.summary;
    let row = Row {
        submission: submission.name.clone(),
        bot_name,
        status: if plan.refusal.is_some() { "refused" } else { "graded" }.to_string(),
        score: score.percent,
        stages: stage_cells(score),
        stopped_at: score.stopped_at.clone(),
        games_played: summary.map(|g| g.0),
        games_won: summary.map(|g| g.1),
        games_score: summary.and_then(|g| g.2),
        cases_run: results.len() - count(results, Verdict::NotRun) - count(results, Verdict::GraderError),
        not_run: count(results, Verdict::NotRun),
        grader_errors: count(results, Verdict::GraderError),
        timeouts: count(results, Verdict::Timeout) + scored.timeouts,
        crashes: count(results, Verdict::Crash) + scored.crashes,
        wall_seconds: (plan.info.start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        note: notes.join("; "),
    };
    let saved = SavedRow {
        settings: setup.settings.clone(),
        options: plan.recorded.clone(),
        shard: setup.shard.clone(),
        machine: Some(report.machine.clone()),
        row: row.clone(),
    };
    write_saved(&plan.folder, &saved)?;
    Ok(row)
}
