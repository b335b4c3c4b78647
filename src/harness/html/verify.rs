//! One submission's page: the score stage by stage, then its failures grouped and ordered as
//! the text report groups them, each failing case drawn as the bot's board beside the nearest
//! expected one.

use std::fmt::Write as _;

use super::{case, escape, page};
use crate::harness::category;
use crate::harness::referee::Referee;
use crate::harness::report::VerifyReport;
use crate::harness::report::failures::{cases_count, in_fix_order, summary_lines};

/// Cases of a group drawn in full; the others are listed by name, so that a bot failing
/// hundreds of cases still gets a page a browser opens at once.
const DRAWN_PER_GROUP: usize = 4;

/// The page of one verification run. `back` links to the class page, when there is one.
pub fn submission_page(referee: &dyn Referee, report: &VerifyReport, back: Option<&str>) -> String {
    let mut body = String::new();
    if let Some(link) = back {
        let _ = write!(body, "<p><a href=\"{}\">&larr; the class</a></p>", escape(link));
    }
    let _ = write!(body, "<h1>{}</h1>", escape(&report.bot));
    let _ = write!(
        body,
        "<p>{} on <code>{}</code>, seed {}</p>",
        escape(referee.game()),
        escape(&report.corpus),
        report.seed
    );
    if let Some(why) = report.refused {
        let _ = write!(body, "<p class=\"fail\"><b>Refused:</b> {}</p>", escape(why));
    }
    for note in &report.notes {
        let _ = write!(body, "<p class=\"note\">{}</p>", escape(note));
    }
    let score = if report.course_score() {
        format!("{:.2}%", report.score.percent)
    } else {
        "not a course score (the corpus does not match the profile)".to_string()
    };
    let _ = write!(body, "<p class=\"score\"><b>Score:</b> <span id=\"score\">{}</span></p>", escape(&score));
    body.push_str("<table class=\"stages\"><tr><th>stage</th><th class=\"num\">passed</th><th class=\"num\">of</th><th>reached</th></tr>");
    for s in &report.score.stages {
        // A stage not reached (a gate before it, or no case of it ran) is neither passed nor
        // failed: grey, and its counts say so rather than `0 of 0`.
        let ran = s.reached && s.total > 0;
        let class = match (ran, s.passed == s.total) {
            (false, _) => "unreached",
            (true, true) => "pass",
            (true, false) => "fail",
        };
        let (passed, total) = if ran {
            (s.passed.to_string(), s.total.to_string())
        } else {
            ("&ndash;".to_string(), "&ndash;".to_string())
        };
        let _ = write!(
            body,
            "<tr class=\"{class}\"><td>{}</td><td class=\"num\">{passed}</td><td class=\"num\">{total}</td><td>{}</td></tr>",
            escape(&category::label(&s.category)),
            match (s.reached, ran) {
                (false, _) => "not reached",
                (true, false) => "no cases",
                (true, true) => "yes",
            }
        );
    }
    body.push_str("</table>");
    let categories: Vec<String> = report.score.stages.iter().map(|s| s.category.clone()).collect();
    let groups = in_fix_order(report.cases, &categories);
    if groups.is_empty() {
        body.push_str("<h2>Every case passes</h2>");
    } else {
        let failing: usize = groups.iter().map(|g| g.cases.len()).sum();
        let _ = write!(
            body,
            "<h2>Failures: {failing} cases from {} cause{}, to fix in this order</h2><ol id=\"causes\">",
            groups.len(),
            if groups.len() == 1 { "" } else { "s" }
        );
        for (i, g) in groups.iter().enumerate() {
            let _ = write!(
                body,
                "<li><a href=\"#cause-{}\">{}</a>: {}</li>",
                i + 1,
                escape(&g.describe()),
                cases_count(g.cases.len())
            );
        }
        body.push_str("</ol>");
    }
    for (i, g) in groups.iter().enumerate() {
        let _ = write!(
            body,
            "<section class=\"group\" id=\"cause-{}\"><h2>{}. {}: {}</h2>",
            i + 1,
            i + 1,
            escape(&g.describe()),
            cases_count(g.cases.len())
        );
        for line in summary_lines(g) {
            let _ = write!(body, "<p>{}</p>", escape(&line));
        }
        let drawn = g.examples(DRAWN_PER_GROUP);
        for c in &drawn {
            body.push_str(&case::failing_case(referee, c));
        }
        let rest: Vec<&str> = g
            .cases
            .iter()
            .filter(|c| !drawn.iter().any(|d| std::ptr::eq(*d, **c)))
            .map(|c| c.name.as_str())
            .collect();
        if !rest.is_empty() {
            let _ = write!(body, "<p>Also: {}</p>", escape(&rest.join(", ")));
        }
        body.push_str("</section>");
    }
    page(&format!("arbiter: {}", report.bot), &body)
}
