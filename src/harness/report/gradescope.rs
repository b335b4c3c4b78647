//! Gradescope's autograder `results.json`, as its specification describes it
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>): a top-level `score`, and
//! one test per case whose scores add up to it.
//!
//! The profile's score is gated: a stage counts only when every stage before it passed in full,
//! so a case's worth depends on the others. The tests share the score out as follows:
//! - a stage passed in full, below the stage the run stopped at, is worth what reaching the next
//!   stage adds (the next stage's `base` less its own), split evenly among its cases;
//! - in the stage the run stopped at, each case passed is worth the stage's `per_pass`;
//! - a stage not reached is ONE test scoring 0, whose output says which stage stopped it (and,
//!   for information, how its cases went), not a failed test per case;
//! - cases not run (`--max-timeouts`, a submission refused) are one test per stage and reason;
//! - the games stage, once played (every case passed), is a test of its own;
//! - whatever the profile's arithmetic leaves over (a first stage with a base, a score held to
//!   [0, 100]) is one last test, "marking profile", so the sum is always the score.
//!
//! Cases of a category given to `--hidden` get `"visibility": "hidden"`: Gradescope shows them
//! to the course staff and never to students (their points still count). Their output is the
//! verdict alone: no board, move, expected answer or reproduce line is in the file at all, as a
//! student may get hold of it. Nor is any expected answer of a case not run. Outputs are
//! Markdown (`output_format: "md"`): diffs, stderr and the reproduce line in fenced code blocks.
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

/// A test of `results.json`: a case, or cases told as one.
enum Item {
    /// One case, by its position in the report.
    Case(usize),
    /// Every case of a stage the gate did not reach.
    Unreached { category: String, cases: Vec<usize> },
    /// The cases of one stage not run for one reason.
    NotRun { category: String, reason: String, cases: Vec<usize> },
}

/// The report's cases as tests, in the order of their first case.
fn items(report: &VerifyReport) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    for (i, c) in report.cases.iter().enumerate() {
        let reached = report.score.stages.iter().find(|s| s.category == c.category).is_none_or(|s| s.reached);
        let group = items.iter_mut().find_map(|item| match item {
            Item::Unreached { category, cases } if !reached && *category == c.category => Some(cases),
            Item::NotRun { category, reason, cases }
                if reached
                    && c.verdict == Verdict::NotRun
                    && *category == c.category
                    && *reason == c.reason =>
            {
                Some(cases)
            }
            _ => None,
        });
        match group {
            Some(cases) => cases.push(i),
            None if !reached => items.push(Item::Unreached { category: c.category.clone(), cases: vec![i] }),
            None if c.verdict == Verdict::NotRun => items.push(Item::NotRun {
                category: c.category.clone(),
                reason: c.reason.clone(),
                cases: vec![i],
            }),
            None => items.push(Item::Case(i)),
        }
    }
    items
}

/// The `results.json` object.
pub fn render(report: &VerifyReport) -> Value {
    let shares = shares(report);
    let mut tests: Vec<Value> = items(report)
        .iter()
        .enumerate()
        .map(|(number, item)| match item {
            Item::Case(i) => test(report, number, &report.cases[*i], &shares.cases[*i]),
            Item::Unreached { category, cases } => unreached(report, number, category, cases, &shares),
            Item::NotRun { category, reason, cases } => {
                not_run(report, number, category, reason, cases, &shares)
            }
        })
        .collect();
    // The bad-input checks (`grade --robustness`) are worth nothing but tell the student.
    for check in report.robustness {
        let mut output =
            format!("**{}**: {}\n", if check.passed { "handled" } else { "not handled" }, check.note);
        output.push_str(&format!("\narguments: `{}`; the bot {}\n", check.args.join(" "), check.process));
        if !check.message.is_empty() {
            output.push_str(&format!("\nit said:\n\n{}", fenced("text", &check.message)));
        }
        tests.push(json!({
            "name": format!("robustness: {}", check.name),
            "number": (tests.len() + 1).to_string(),
            "score": 0.0,
            "max_score": 0.0,
            "status": if check.passed { "passed" } else { "failed" },
            "output": output,
            "output_format": "md",
            "tags": ["robustness"],
            "visibility": "visible",
        }));
    }
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
            "course_score": report.course_score(),
            "complete": report.complete,
            "planned_cases": report.planned_cases,
            "machine": report.machine,
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
            // Stages that add up: a case is worth its stage's per_pass.
            (Some(_), _) if !profile.gated => {
                let worth = per_pass(profile, &c.category);
                Share { score: if passed { worth } else { 0.0 }, max: worth, note: None }
            }
            (None, _) => Share { score: 0.0, max: 0.0, note: Some("not scored by the profile".into()) },
            (Some(i), Some(k)) if i > k => {
                Share { score: 0.0, max: per_pass(profile, &c.category), note: None }
            }
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
            output: format!("{won} games won against {}", games.opponent)
                + &report
                    .score
                    .games_forfeits
                    .as_ref()
                    .and_then(|f| f.sentence())
                    .map(|f| format!("; {f}"))
                    .unwrap_or_default(),
        });
    }
    // Games stages among the stages, each a test of its own.
    for (g, stage) in report.score.game_stages.iter().zip(&profile.game_stages) {
        let output = match (g.played, &g.note) {
            (Some(p), note) => {
                format!(
                    "{} of {} games won, {} drawn, against {}{}",
                    p.won,
                    p.games,
                    p.drawn,
                    g.opponent,
                    note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default()
                ) + &g
                    .forfeits
                    .as_ref()
                    .and_then(|f| f.sentence())
                    .map(|f| format!("; {f}"))
                    .unwrap_or_default()
                    + &g.win_rate.map(|r| format!("; {}", r.sentence())).unwrap_or_default()
            }
            (None, Some(note)) => note.clone(),
            (None, None) => "not played".to_string(),
        };
        let score = if profile.gated { 0.0 } else { g.points };
        extra.push(Extra {
            name: g.name.clone(),
            score,
            max: if profile.gated { 0.0 } else { stage.most() },
            output,
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

/// A stage the gate did not reach, as one test that says so.
fn unreached(report: &VerifyReport, index: usize, category: &str, cases: &[usize], shares: &Shares) -> Value {
    let stopped =
        report.score.stopped_at.as_ref().and_then(|c| report.score.stages.iter().find(|s| &s.category == c));
    let mut output = match stopped {
        Some(s) => format!(
            "**not reached**: {} counts only once {} passes in full, and {} of its {} cases passed. \
             The {} case(s) of {} are not scored.\n",
            category::label(category),
            category::label(&s.category),
            s.passed,
            s.total,
            cases.len(),
            category::label(category)
        ),
        None => format!(
            "**not reached**: the {} case(s) of {} are not scored.\n",
            cases.len(),
            category::label(category)
        ),
    };
    let mut counts: std::collections::BTreeMap<Verdict, usize> = Default::default();
    for &i in cases {
        *counts.entry(report.cases[i].verdict).or_default() += 1;
    }
    if counts.keys().any(|v| *v != Verdict::NotRun) {
        let list: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
        output.push_str(&format!("\nFor information, how they went: {}.\n", list.join(", ")));
    }
    group_test(report, index, category, "not reached", cases, shares, output)
}

/// Cases of one stage not run for one reason, as one test.
fn not_run(
    report: &VerifyReport,
    index: usize,
    category: &str,
    reason: &str,
    cases: &[usize],
    shares: &Shares,
) -> Value {
    let mut output =
        format!("**not run**: {} case(s) of {}: {reason}.\n", cases.len(), category::label(category));
    if !report.hidden.iter().any(|h| h == category) && report.refused.is_none() {
        const NAMED: usize = 10;
        let names: Vec<&str> = cases.iter().take(NAMED).map(|&i| report.cases[i].name.as_str()).collect();
        let more = cases.len().saturating_sub(NAMED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        output.push_str(&format!("\n{}{more}\n", names.join(", ")));
    }
    group_test(report, index, category, "not run", cases, shares, output)
}

/// A test standing for several cases: scored as their sum, with no `status` (nothing was
/// judged), named after the stage.
fn group_test(
    report: &VerifyReport,
    index: usize,
    category: &str,
    what: &str,
    cases: &[usize],
    shares: &Shares,
    output: String,
) -> Value {
    // Sums of shares like 0.3 carry float noise (15.000000000000014): to a millionth.
    let millionth = |x: f64| (x * 1e6).round() / 1e6;
    let score = millionth(cases.iter().map(|&i| shares.cases[i].score).sum());
    let max = millionth(cases.iter().map(|&i| shares.cases[i].max).sum());
    json!({
        "name": format!("{}: {} case(s) {what}", category::label(category), cases.len()),
        "number": (index + 1).to_string(),
        "score": score,
        "max_score": max,
        "output": output,
        "output_format": "md",
        "tags": [category, what.replace(' ', "-")],
        "visibility": if report.hidden.iter().any(|h| h == category) { "hidden" } else { "visible" },
        "extra_data": {"cases": cases.len()},
    })
}

/// One case as a Gradescope test.
fn test(report: &VerifyReport, index: usize, c: &CaseResult, share: &Share) -> Value {
    let passed = c.verdict == Verdict::Pass;
    if report.is_hidden(c) {
        // The file may reach a student: a hidden case shows its verdict and nothing else.
        return json!({
            "name": c.name,
            "number": (index + 1).to_string(),
            "score": share.score,
            "max_score": share.max,
            "status": if passed { "passed" } else { "failed" },
            "output": format!("**{}**\n\n_A hidden test: its details are in the grader's report._\n", c.verdict),
            "output_format": "md",
            "tags": [c.category, c.verdict.as_str()],
            "visibility": "hidden",
            "extra_data": {"elapsed_ms": c.elapsed_ms, "cpu_ms": c.cpu_ms},
        });
    }
    let mut output = format!("**{}**: {}\n", c.verdict, c.reason);
    if let Some(note) = &share.note {
        output.push_str(&format!("\n_{note}_\n"));
    }
    if let Some(first) = &c.timeout_rerun {
        output.push_str(&format!(
            "\n_The bot {} on a first run; the case was run again, fresh, and only a second timeout counts._\n",
            first.process
        ));
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
        "visibility": "visible",
        "extra_data": {
            "elapsed_ms": c.elapsed_ms,
            "cpu_ms": c.cpu_ms,
            "timeout_rerun": c.timeout_rerun,
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
    let mut output = if report.course_score() {
        format!("{} (profile {}). {}", report.score.percent, report.profile.name, stages.join("; "))
    } else {
        let (passed, planned) = report.passes();
        format!(
            "Not a course score: {passed} of {planned} cases passed ({}). The corpus is not the profile `{}`'s: {}.",
            stages.join("; "),
            report.profile.name,
            report.corpus_mismatch().unwrap_or_default()
        )
    };
    if let Some(why) = report.refused {
        output = format!("**Refused before any case ran**: {why}\n\n{output}");
    }
    if let Some(note) = report.grader_error_note() {
        output = format!("**{note}**\n\n{output}");
    }
    for note in &report.notes {
        output.push_str(&format!("\n\n{note}"));
    }
    let (rerun, again) = report.timeout_reruns();
    if rerun > 0 {
        output.push_str(&format!(
            "\n\n{rerun} case(s) timed out and were run again, fresh; {again} timed out again and count as timeouts."
        ));
    }
    if let Some(c) = report.score.stopped_at.as_ref().filter(|_| report.course_score()) {
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
