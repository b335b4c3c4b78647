//! JUnit XML, valid against the Apache Ant schema as Windy Road published it (JUnit.xsd, kept in
//! tests/data/ with its source): a `<testsuites>` root holding one `<testsuite>` per stage, each
//! with the attributes that schema requires (`name`, `package`, `id`, `tests`, `failures`,
//! `errors`, `time`, `timestamp`, `hostname`), its `<properties>`, its test cases, then
//! `<system-out>` and `<system-err>`.
//!
//! Each case is a `<testcase>`: a crash or a timeout is an `<error>` (the bot did not answer), any
//! other wrong answer a `<failure>`, and a case not run or of a stage the gate did not reach
//! `<skipped>` (it is not scored). The bots' stdout and stderr go to the suite's `<system-out>` and
//! `<system-err>` (the schema allows them only there), each block headed by its case's name.
//!
//! A file written while the run goes on holds the cases finished so far, and says so in a
//! comment and in a `complete` property of each suite.
use std::fmt::Write as _;

use super::VerifyReport;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// Escapes text for XML attributes and content; characters XML 1.0 cannot hold become `?`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The name of this machine, for the `hostname` the schema requires; `localhost` when it
/// cannot be read, as the schema suggests.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_string())
}

/// The XML document.
pub fn render(report: &VerifyReport) -> String {
    // Paths are shown relative to the corpus and the submission, as in every report.
    let text = |s: &str| escape(&report.paths.text(s));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if !report.complete {
        let progress = format!("{} of {} cases run", report.cases.len(), report.planned_cases);
        let _ = writeln!(out, "<!-- INCOMPLETE: {progress}; the run was stopped, or is still going -->");
    }
    out.push_str("<testsuites>\n");
    let timestamp = report.started_at();
    let host = escape(&hostname());
    let stopped =
        report.score.stopped_at.as_ref().and_then(|c| report.score.stages.iter().find(|s| &s.category == c));
    for (id, stage) in report.score.stages.iter().enumerate() {
        let cases: Vec<_> = report.cases.iter().filter(|c| c.category == stage.category).collect();
        // A case not run (stopped by --stop-at-gate or --max-timeouts) is skipped, like every
        // case of a stage that was not reached: it has no answer to call wrong.
        let skips = |c: &CaseResult| !stage.reached || c.verdict == Verdict::NotRun;
        let skipped = cases.iter().filter(|c| skips(c)).count();
        let errors = cases.iter().filter(|c| !skips(c) && is_error(c.verdict)).count();
        let failed =
            cases.iter().filter(|c| !skips(c) && c.verdict != Verdict::Pass && !is_error(c.verdict)).count();
        let time: u64 = cases.iter().map(|c| c.elapsed_ms).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" package=\"arbiter\" id=\"{id}\" tests=\"{}\" failures=\"{failed}\" \
             errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\" timestamp=\"{timestamp}\" hostname=\"{host}\">",
            escape(&stage.category),
            cases.len(),
            time as f64 / 1000.0
        );
        out.push_str("    <properties>\n");
        let properties = [
            ("bot", report.bot.clone()),
            ("corpus", report.paths.corpus_label(std::path::Path::new(&report.corpus))),
            ("profile", report.profile.name.clone()),
            ("score", report.score.percent.to_string()),
            ("seed", report.seed.to_string()),
            ("complete", report.complete.to_string()),
            ("planned_cases", report.planned_cases.to_string()),
        ];
        for (name, value) in properties {
            let _ = writeln!(out, "      <property name=\"{name}\" value=\"{}\"/>", text(&value));
        }
        out.push_str("    </properties>\n");
        let mut stdout = String::new();
        let mut stderr = String::new();
        for c in &cases {
            let class = format!("{}.{}", c.category, c.side);
            let short = c.name.rsplit('/').next().unwrap_or(&c.name);
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                escape(&class),
                escape(short),
                c.elapsed_ms as f64 / 1000.0
            );
            for (stream, said) in [(&mut stdout, &c.stdout_head), (&mut stderr, &c.stderr_tail)] {
                if !said.is_empty() {
                    let _ = writeln!(stream, "--- {} ---\n{}", c.name, said.trim_end());
                }
            }
            if !stage.reached {
                let why = match stopped {
                    Some(s) => format!(
                        "not scored: {} did not pass in full ({} of {}), so {} was not reached; the case itself: {}",
                        crate::harness::category::label(&s.category),
                        s.passed,
                        s.total,
                        crate::harness::category::label(&stage.category),
                        c.verdict
                    ),
                    None => format!("not scored; the case itself: {}", c.verdict),
                };
                let _ = writeln!(out, ">\n      <skipped message=\"{}\"/>\n    </testcase>", escape(&why));
                continue;
            }
            if c.verdict == Verdict::NotRun {
                let _ = writeln!(
                    out,
                    ">\n      <skipped message=\"not run: {}\"/>\n    </testcase>",
                    escape(&c.reason)
                );
                continue;
            }
            if c.verdict == Verdict::Pass {
                out.push_str("/>\n");
                continue;
            }
            let mut body = c.reason.clone();
            if let Some(m) = &c.played {
                body.push_str(&format!("\nplayed: {m}"));
            }
            body.push_str(&format!("\nexpected: {}", c.expected.join(" ")));
            if let Some(diff) = &c.diff {
                body.push('\n');
                body.push_str(diff);
            }
            body.push_str(&format!("\nreproduce: {}", c.reproduce));
            let element = if is_error(c.verdict) { "error" } else { "failure" };
            let _ = writeln!(
                out,
                ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
                c.verdict,
                text(&c.reason),
                text(&body)
            );
        }
        let _ = writeln!(out, "    <system-out>{}</system-out>", text(&stdout));
        let _ = writeln!(out, "    <system-err>{}</system-err>", text(&stderr));
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// Whether a verdict is an error (the bot gave no answer) rather than a wrong answer.
fn is_error(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Crash | Verdict::Timeout)
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(super::escape("a<b & \"c\" \u{1}"), "a&lt;b &amp; &quot;c&quot; ?");
    }
}
