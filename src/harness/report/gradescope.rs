//! Gradescope's autograder `results.json`: the gated score on top, one test per case.
//!
//! Each test is worth its stage's `per_pass` and scores it when passed; the top-level `score`
//! is the gated score, which Gradescope uses in place of the sum of the tests.
//!
//! A file written while the run goes on lists the cases finished so far; its `output` starts
//! with "INCOMPLETE" and its score counts the cases not run as failed.

use serde_json::{Value, json};

use super::{VerifyReport, per_pass};
use crate::harness::category;
use crate::harness::verdict::Verdict;

/// The `results.json` object.
pub fn render(report: &VerifyReport) -> Value {
    let tests: Vec<Value> = report
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let max = per_pass(report.profile, &c.category);
            let passed = c.verdict == Verdict::Pass;
            let mut output = format!("{}: {}", c.verdict, c.reason);
            if !passed {
                if !c.expected.is_empty() {
                    output.push_str(&format!("\nexpected: {}", c.expected.join(" ")));
                }
                if let Some(diff) = &c.diff {
                    output.push_str(&format!("\n{diff}"));
                }
                output.push_str(&format!("\nreproduce: {}", c.reproduce));
            }
            json!({
                "name": c.name,
                "number": (i + 1).to_string(),
                "score": if passed { max } else { 0.0 },
                "max_score": max,
                "status": if passed { "passed" } else { "failed" },
                "output": output,
                "tags": [c.category, c.side.name()],
            })
        })
        .collect();
    let stages: Vec<String> = report
        .score
        .stages
        .iter()
        .map(|s| {
            format!(
                "{}: {}/{}{}",
                category::label(&s.category),
                s.passed,
                s.total,
                if s.reached { "" } else { " (not reached)" }
            )
        })
        .collect();
    let mut output =
        format!("{} (profile {}). {}", report.score.percent, report.profile.name, stages.join("; "));
    if !report.complete {
        output = format!(
            "INCOMPLETE: {} of {} cases had run when this was written (the run was stopped, or is still going); \
             the score counts the cases not run as failed.\n{output}",
            report.cases.len(),
            report.planned_cases
        );
    }
    json!({
        "score": report.score.percent,
        "max_score": 100.0,
        "output": output,
        "execution_time": report.elapsed.as_secs(),
        "tests": tests,
    })
}
