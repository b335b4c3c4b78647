//! The machine-readable report: everything, with `score` (the gated percentage) and `cases`.
//! `complete` is false in a report written while the run was still going (`--json-out`); its
//! `cases` are those finished by then, of `planned_cases`. Its layout is versioned
//! (`schema_version`, [`super::SCHEMA_VERSION`]) and documented in docs/REPORTS.md; paths in it
//! are relative to the corpus and the submission ([`super::paths`]).

use serde_json::{Value, json};

use super::VerifyReport;
use crate::harness::category;

/// The report as one JSON object.
pub fn render(report: &VerifyReport) -> Value {
    let counts: serde_json::Map<String, Value> = report
        .verdict_counts()
        .iter()
        .map(|(g, vs)| {
            (
                // A grade keeps the number it had before games had categories.
                category::grade_number(g).map_or_else(|| g.clone(), |n| n.to_string()),
                json!(vs.iter().map(|(v, n)| (v.as_str(), n)).collect::<std::collections::BTreeMap<_, _>>()),
            )
        })
        .collect();
    let mut value = json!({
        "schema_version": super::SCHEMA_VERSION,
        "bot": report.bot,
        "corpus": report.paths.corpus_label(std::path::Path::new(&report.corpus)),
        "seed": report.seed,
        "sandbox": report.sandbox,
        "profile": report.profile.name,
        "complete": report.complete,
        "refused": report.refused,
        "notes": report.notes,
        "planned_cases": report.planned_cases,
        "score": report.score.percent,
        // False when the corpus is not the profile's: `score` is then the profile's arithmetic
        // on another corpus, not a grade.
        "course_score": report.course_score(),
        "corpus_mismatch": report.corpus_mismatch(),
        "passed": report.passes().0,
        // Cases the grader, not the bot, failed to run: counted apart, to be graded again.
        "grader_errors": report.grader_errors().0,
        "stopped_at": report.score.stopped_at.as_deref().map(|c| {
            category::grade_number(c).map_or_else(|| json!(c), |n| json!(n))
        }),
        "stages": report.score.stages,
        "games_won": report.score.games_won,
        // The games stages among the stages (wins, draws, points, forfeits by cause) and the
        // final games stage's forfeits.
        "game_stages": report.score.game_stages,
        "games_forfeits": report.score.games_forfeits,
        "warnings": report.score.warnings,
        "verdicts": counts,
        "disagreements": report.disagreements,
        "elapsed_ms": u64::try_from(report.elapsed.as_millis()).unwrap_or(u64::MAX),
        "machine": report.machine,
        "timeout_reruns": {
            "rerun": report.timeout_reruns().0,
            "timed_out_again": report.timeout_reruns().1,
        },
        "hidden": report
            .hidden
            .iter()
            .map(|c| category::grade_number(c).map_or_else(|| json!(c), |n| json!(n)))
            .collect::<Vec<_>>(),
        "cases": report.cases,
        // The failures grouped into bugs, in the order to fix them (`cases` keeps corpus order).
        "failures": super::failures::json(&super::failures::in_fix_order(
            report.cases,
            &report.score.stages.iter().map(|s| s.category.clone()).collect::<Vec<_>>(),
        )),
        "variants": report.variants,
        "suspicious": report.suspicious,
        "robustness": report.robustness,
    });
    report.paths.json(&mut value);
    value
}
