//! Gradescope's autograder `results.json`, as its specification describes it
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>): a top-level `score`, and
//! one test per case whose scores add up to it.
//!
//! The profile's score is gated: a stage counts only when every stage before it passed in full,
//! so a case's worth depends on the others. The tests share the score out as follows:
//! - a stage passed in full, below the stage the run stopped at, is worth what reaching the next
//!   stage adds (the next stage's `base` less its own), split evenly among its cases;
//! - in the stage the run stopped at, each case passed is worth the stage's `per_pass`;
//! - a case in a stage not reached scores 0, and its output says which stage stopped it;
//! - the games stage, once played (every case passed), is a test of its own;
//! - whatever the profile's arithmetic leaves over (a first stage with a base, a score held to
//!   [0, 100]) is one last test, "marking profile", so the sum is always the score.
//!
//! Cases of a category given to `--hidden` get `"visibility": "hidden"`: Gradescope shows them
//! to the course staff and never to students (their points still count). Outputs are Markdown
//! (`output_format: "md"`): diffs, stderr and the reproduce line in fenced code blocks.
//!
//! A file written while the run goes on lists the cases finished so far; its `output` starts
//! with "INCOMPLETE" and its score counts the cases not run as failed.

use serde_json::{Value, json};

use super::{VerifyReport, per_pass, wrap_shell};
use crate::harness::category;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// Residuals smaller than this are the float noise of adding shares (0.3 + 0.3 + ...) and of
/// rounding the score to hundredths: they go to the last test that scored, not a test of
/// their own.
const ROUNDING: f64 = 0.005;

/// The `results.json` object.
pub fn render(report: &VerifyReport) -> Value {
    let shares = shares(report);
    let mut tests: Vec<Value> = report
        .cases
        .iter()
        .zip(&shares.cases)
        .enumerate()
        .map(|(i, (c, share))| test(report, i, c, share))
        .collect();
    let first_extra = tests.len() + 1;
    tests.extend(shares.extra.iter().enumerate().map(|(i, extra)| {
        json!({
            "name": extra.name,
            "number": (first_extra + i).to_string(),
            "score": extra.score,
            "max_score": extra.max,
            "output": extra.output,
            "output_format": "md",
            "visibility": "visible",
        })
    }));
    // The last score that is not zero absorbs the float noise, so the sum is the score.
    let total: f64 = tests.iter().filter_map(|t| t["score"].as_f64()).sum();
    let residual = report.score.percent - total;
    if residual.abs() > 0.0
        && let Some(last) = tests.iter_mut().rev().find(|t| t["score"].as_f64().is_some_and(|s| s != 0.0))
    {
        let fixed = last["score"].as_f64().unwrap_or(0.0) + residual;
        last["score"] = json!(fixed);
        if last["max_score"].as_f64().is_some_and(|m| m < fixed) {
            last["max_score"] = json!(fixed);
        }
    }
    let mut value = json!({
        "score": report.score.percent,
        "execution_time": (report.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
        "output": summary(report),
        "output_format": "md",
        "test_output_format": "md",
        "visibility": "visible",
        // The autograder's stdout holds the grader's report, hidden cases and all.
        "stdout_visibility": "hidden",
        "extra_data": {
            "schema_version": super::SCHEMA_VERSION,
            "max_score": 100.0,
            "profile": report.profile.name,
            "complete": report.complete,
            "planned_cases": report.planned_cases,
        },
        "tests": tests,
    });
    report.paths.json(&mut value);
    value
}

/// A case's share of the score.
struct Share {
    score: f64,
    max: f64,
    /// Why the case scores what it does, when that is not obvious from its verdict.
    note: Option<String>,
}

/// A test that is not a case: the games stage, what the profile's arithmetic leaves over.
struct Extra {
    name: String,
    score: f64,
    max: f64,
    output: String,
}

struct Shares {
    cases: Vec<Share>,
    extra: Vec<Extra>,
}

/// Shares the gated score out among the cases (see the module's documentation).
fn shares(report: &VerifyReport) -> Shares {
    let profile = report.profile;
    let stages = &report.score.stages;
    let stopped = stages.iter().position(|s| Some(&s.category) == report.score.stopped_at.as_ref());
    let mut extra = Vec::new();
    // What each stage passed in full is worth: what reaching the next stage adds.
    let next_base = |i: usize| -> f64 {
        match profile.stages.get(i + 1) {
            Some(next) => next.base,
            None => match &profile.games {
                Some(g) => g.base,
                None => report.score.percent,
            },
        }
    };
    let mut cases: Vec<Share> = Vec::with_capacity(report.cases.len());
    for c in report.cases {
        let index = profile.stages.iter().position(|s| s.category == c.category);
        let passed = c.verdict == Verdict::Pass;
        let share = match (index, stopped) {
            (None, _) => Share { score: 0.0, max: 0.0, note: Some("not scored by the profile".into()) },
            (Some(i), Some(k)) if i > k => Share {
                score: 0.0,
                max: per_pass(profile, &c.category),
                note: Some(format!(
                    "not scored: {} was not reached, as {} did not pass in full ({} of {} passed)",
                    category::label(&c.category),
                    category::label(&stages[k].category),
                    stages[k].passed,
                    stages[k].total
                )),
            },
            (Some(i), Some(k)) if i == k => {
                let worth = per_pass(profile, &c.category);
                Share { score: if passed { worth } else { 0.0 }, max: worth, note: None }
            }
            (Some(i), _) => {
                let stage_total = stages.get(i).map_or(1, |s| s.total.max(1));
                let worth = (next_base(i) - profile.stages[i].base) / stage_total as f64;
                Share { score: if passed { worth } else { 0.0 }, max: worth, note: None }
            }
        };
        cases.push(share);
    }
    // The games stage is a test of its own once played. Before that it scores nothing: a run
    // that passed every case gets the games stage's base through the last stage's share.
    if let (Some(games), None, Some(won)) = (&profile.games, stopped, report.score.games_won) {
        let score = report.score.percent - games.base;
        extra.push(Extra {
            name: "games stage".to_string(),
            score,
            max: (games.max - games.base).max(score),
            output: format!("{won} games won against {}", games.opponent),
        });
    }
    let total: f64 = cases.iter().map(|s| s.score).sum::<f64>() + extra.iter().map(|e| e.score).sum::<f64>();
    let residual = report.score.percent - total;
    if residual.abs() >= ROUNDING {
        extra.push(Extra {
            name: "marking profile".to_string(),
            score: residual,
            max: residual.max(0.0),
            output: format!(
                "what the profile `{}` gives beyond the cases' shares: a first stage's base, or a \
                 score held to 0..100",
                profile.name
            ),
        });
    }
    Shares { cases, extra }
}

/// One case as a Gradescope test.
fn test(report: &VerifyReport, index: usize, c: &CaseResult, share: &Share) -> Value {
    let passed = c.verdict == Verdict::Pass;
    let mut output = format!("**{}**: {}\n", c.verdict, c.reason);
    if let Some(note) = &share.note {
        output.push_str(&format!("\n_{note}_\n"));
    }
    if !passed {
        if let Some(m) = &c.played {
            output.push_str(&format!("\nplayed: `{m}`"));
        }
        output.push_str(&format!("\nexpected: {}\n", inline_list(&c.expected)));
        if !c.stderr_tail.is_empty() {
            output
                .push_str(&format!("\nthe bot's stderr (last lines):\n\n{}", fenced("text", &c.stderr_tail)));
        }
        if let Some(diff) = &c.diff {
            output.push_str(&format!("\n{}", fenced("diff", diff)));
        }
        output.push_str(&format!(
            "\nto reproduce, in your submission's folder:\n\n{}",
            fenced("sh", &wrap_shell(&report.paths.text(&c.reproduce), 78))
        ));
    }
    json!({
        "name": c.name,
        "number": (index + 1).to_string(),
        "score": share.score,
        "max_score": share.max,
        "status": if passed { "passed" } else { "failed" },
        "output": output,
        "output_format": "md",
        "tags": [c.category, c.side.name(), c.verdict.as_str()],
        "visibility": if report.is_hidden(c) { "hidden" } else { "visible" },
        "extra_data": {
            "elapsed_ms": c.elapsed_ms,
            "cpu_ms": c.cpu_ms,
            "path": c.path,
        },
    })
}

/// Moves as inline code, `a` or `b`; "none" for an empty list.
fn inline_list(moves: &[String]) -> String {
    if moves.is_empty() {
        return "none".to_string();
    }
    moves.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" or ")
}

/// `text` in a fenced code block: the fence is longer than any run of backticks in the text, so
/// what a bot printed cannot end the block early and turn into Markdown.
pub fn fenced(language: &str, text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{language}\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

/// The submission's summary: the score, the profile, and each stage's passes.
fn summary(report: &VerifyReport) -> String {
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
    if let Some(c) = &report.score.stopped_at {
        output.push_str(&format!(
            "\n\nStopped at {}: a stage counts only when every case of the stages before it passed.",
            category::label(c)
        ));
    }
    if !report.complete {
        output = format!(
            "INCOMPLETE: {} of {} cases had run when this was written (the run was stopped, or is still going); \
             the score counts the cases not run as failed.\n\n{output}",
            report.cases.len(),
            report.planned_cases
        );
    }
    output
}

#[cfg(test)]
mod tests {
    #[test]
    fn fences_outgrow_the_backticks_inside() {
        assert_eq!(super::fenced("text", "a\n"), "```text\na\n```\n");
        assert_eq!(super::fenced("", "x ```` y"), "`````\nx ```` y\n`````\n");
    }
}
