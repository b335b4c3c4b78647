//! The report a person reads: stage table, score, and the failures with what to do about them.

use std::fmt::Write as _;

use super::VerifyReport;
use crate::harness::category;
use crate::harness::escape::escape_controls;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// The whole report. The first `detailed` failures are shown in full (reason, diff, bot output,
/// how to reproduce); the rest one line each. Control characters from the bot (its stderr, what
/// it wrote) are shown escaped, so the bot cannot rewrite the terminal, say to fake a score.
pub fn render(report: &VerifyReport, detailed: usize) -> String {
    escape_controls(&unescaped(report, detailed)).into_owned()
}

fn unescaped(report: &VerifyReport, detailed: usize) -> String {
    let mut out = String::new();
    let counts = report.verdict_counts();
    let _ = writeln!(
        out,
        "bot {}  corpus {}  seed {}  ({} cases in {:.1} s)",
        report.bot,
        report.corpus,
        report.seed,
        report.cases.len(),
        report.elapsed.as_secs_f64()
    );
    let _ = writeln!(out, "{}", report.sandbox.line());
    if !report.disagreements.is_empty() {
        let _ = writeln!(
            out,
            "\nThe corpus's own answers disagree with the rules in {} case(s):",
            report.disagreements.len()
        );
        for d in report.disagreements {
            let _ = writeln!(out, "  {d}");
        }
    }
    let _ = writeln!(out);
    // Short column names so the table fits 100 columns.
    let short = |v: Verdict| match v {
        Verdict::WrongMove => "wrong",
        Verdict::IllegalMove => "illegal",
        Verdict::MalformedOutput => "malformed",
        other => other.as_str(),
    };
    let header: Vec<String> = Verdict::ALL.iter().map(|&v| format!("{:>10}", short(v))).collect();
    let _ = writeln!(out, "{:<8} {:>7} {}", "stage", "passed", header.join(""));
    for stage in &report.score.stages {
        let row = counts.get(&stage.category);
        let cells: Vec<String> = Verdict::ALL
            .iter()
            .map(|v| format!("{:>10}", row.and_then(|r| r.get(v)).copied().unwrap_or(0)))
            .collect();
        let gate = if stage.reached { "" } else { "  (not reached)" };
        let passed = format!("{}/{}", stage.passed, stage.total);
        let _ = writeln!(out, "{:<8} {passed:>7} {}{gate}", category::label(&stage.category), cells.join(""));
    }
    let _ = writeln!(out);
    match &report.score.stopped_at {
        Some(c) => {
            let _ = writeln!(
                out,
                "score {:.2}% by profile `{}`: stopped at {}, whose cases did not all pass",
                report.score.percent,
                report.profile.name,
                category::label(c)
            );
        }
        None => {
            let games = match report.score.games_won {
                Some(w) => format!(" with {w} games won"),
                None => " (the games stage was not played; `arbiter match` plays it)".to_string(),
            };
            let _ = writeln!(
                out,
                "score {:.2}% by profile `{}`: every case passed{games}",
                report.score.percent, report.profile.name
            );
        }
    }
    for w in &report.score.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    if !report.variants.is_empty() {
        let passed = report.variants.iter().filter(|v| v.verdict == Verdict::Pass).count();
        let _ = writeln!(
            out,
            "\ntwins (mirror and colour swap, not scored): {passed} of {} passed",
            report.variants.len()
        );
        if report.suspicious.is_empty() {
            let _ = writeln!(out, "no case passes while its twin fails");
        } else {
            let _ = writeln!(
                out,
                "SUSPICIOUS: {} case(s) pass while a twin fails, as if answers were recognised rather than played:",
                report.suspicious.len()
            );
            for s in &report.suspicious {
                let _ = writeln!(out, "  {s}");
            }
        }
    }
    let failures: Vec<&CaseResult> = report.failures().collect();
    if failures.is_empty() {
        return out;
    }
    let _ = writeln!(out, "\n{} failure(s):", failures.len());
    if failures.len() == report.cases.len()
        && failures.iter().all(|f| {
            matches!(f.verdict, Verdict::Crash | Verdict::NoOutput | Verdict::Unchanged)
                && f.reason == failures[0].reason
        })
    {
        let _ = writeln!(
            out,
            "every case failed the same way; a bot that writes its answer into its input file needs --same-file"
        );
    }
    for f in failures.iter().take(detailed) {
        let _ = writeln!(out, "\n{}  {}", f.name, f.verdict.as_str().to_uppercase());
        if let Some(m) = &f.played {
            let _ = writeln!(out, "  played:   {m}");
        }
        if !f.expected.is_empty() {
            let _ = writeln!(out, "  expected: {}", f.expected.join(" "));
        }
        let _ = writeln!(out, "  why:      {}", f.reason);
        if !f.stderr_tail.is_empty() {
            let _ = writeln!(out, "  stderr:   {}", f.stderr_tail.replace('\n', "\n            "));
        }
        if let Some(diff) = &f.diff {
            for line in diff.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        let _ = writeln!(out, "  reproduce: {}", f.reproduce);
    }
    if failures.len() > detailed {
        let heading = if detailed == 0 { "in brief" } else { "the others" };
        let _ = writeln!(out, "\n{heading}:");
        for f in failures.iter().skip(detailed) {
            let mv = f.played.as_deref().unwrap_or("-");
            let _ = writeln!(out, "  {:<22} {:<16} {:<8} {}", f.name, f.verdict.as_str(), mv, f.reason);
        }
        let _ = writeln!(out, "(--details N shows more in full; --json has everything)");
    }
    out
}
