//! JUnit XML, valid against the Apache Ant schema as Windy Road published it (JUnit.xsd, kept in
//! tests/data/ with its source): a `<testsuites>` root holding one `<testsuite>` per stage, each
//! with the attributes that schema requires (`name`, `package`, `id`, `tests`, `failures`,
//! `errors`, `time`, `timestamp`, `hostname`), its `<properties>`, its test cases, then
//! `<system-out>` and `<system-err>`.
//!
//! It is also valid against the two schemas Jenkins readers use: JUnit 5's copy of Jenkins'
//! (`jenkins-junit.xsd`, where `<skipped>` takes no attribute, so its reason is its text) and
//! the xUnit plugin's `junit-10.xsd`; all three are in tests/data/, and the tests check every
//! JUnit file they write against each.
//!
//! Each case is a `<testcase>`: a crash or a timeout is an `<error>` (the bot did not answer), any
//! other wrong answer a `<failure>`. A stage the gate did not reach is ONE `<skipped>` test
//! saying so, and the cases not run of a stage one `<skipped>` test per reason (they are not
//! scored). A case of a `--hidden` category shows its verdict only. The bots' stdout and stderr
//! go to the suite's `<system-out>` and `<system-err>` (the schema allows them only there), each
//! block headed by its case's name.
//!
//! A file written while the run goes on holds the cases finished so far, and says so in a
//! comment and in a `complete` property of each suite.
use std::fmt::Write as _;

use super::VerifyReport;
use crate::harness::escape::escape_markup;
use crate::harness::profile::StageScore;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// Escapes text for XML attributes and content; characters XML 1.0 cannot hold become `?`.
fn escape(text: &str) -> String {
    escape_markup(text, "&apos;", |c| match c {
        '\t' | '\n' | '\r' => c,
        c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => '?',
        c => c,
    })
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
        let cases: Vec<&CaseResult> = report.cases.iter().filter(|c| c.category == stage.category).collect();
        let tests = testcases(report, stage, stopped, &cases);
        let count = |kind: Kind| tests.iter().filter(|t| t.kind == kind).count();
        let time: u64 = cases.iter().map(|c| c.elapsed_ms).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" package=\"arbiter\" id=\"{id}\" tests=\"{}\" failures=\"{}\" \
             errors=\"{}\" skipped=\"{}\" time=\"{:.3}\" timestamp=\"{timestamp}\" hostname=\"{host}\">",
            escape(&stage.category),
            tests.len(),
            count(Kind::Failure),
            count(Kind::Error),
            count(Kind::Skipped),
            time as f64 / 1000.0
        );
        out.push_str("    <properties>\n");
        let properties = [
            ("bot", report.bot.clone()),
            ("corpus", report.paths.corpus_label(std::path::Path::new(&report.corpus))),
            ("profile", report.profile.name.clone()),
            ("score", report.score.percent.to_string()),
            ("course_score", report.course_score().to_string()),
            ("seed", report.seed.to_string()),
            ("complete", report.complete.to_string()),
            ("planned_cases", report.planned_cases.to_string()),
            ("grader_errors", report.grader_errors().0.to_string()),
            ("machine", report.machine.line()),
        ];
        for (name, value) in properties {
            let _ = writeln!(out, "      <property name=\"{name}\" value=\"{}\"/>", text(&value));
        }
        out.push_str("    </properties>\n");
        let mut stdout = String::new();
        let mut stderr = String::new();
        for c in &cases {
            for (stream, said) in [(&mut stdout, &c.stdout_head), (&mut stderr, &c.stderr_tail)] {
                if !said.is_empty() {
                    let _ = writeln!(stream, "--- {} ---\n{}", c.name, said.trim_end());
                }
            }
        }
        for t in &tests {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                escape(&t.class),
                escape(&t.name),
                t.millis as f64 / 1000.0
            );
            match t.kind {
                Kind::Pass => out.push_str("/>\n"),
                // The Jenkins schemas allow no attribute on <skipped>: the reason is its text.
                Kind::Skipped => {
                    let _ =
                        writeln!(out, ">\n      <skipped>{}</skipped>\n    </testcase>", text(&t.message));
                }
                Kind::Failure | Kind::Error => {
                    let element = if t.kind == Kind::Error { "error" } else { "failure" };
                    let _ = writeln!(
                        out,
                        ">\n      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n    </testcase>",
                        escape(&t.verdict),
                        text(&t.message),
                        text(&t.body)
                    );
                }
            }
        }
        let _ = writeln!(out, "    <system-out>{}</system-out>", text(&stdout));
        let _ = writeln!(out, "    <system-err>{}</system-err>", text(&stderr));
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// What a test case says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pass,
    Failure,
    Error,
    Skipped,
}

/// One `<testcase>`: a case, or the cases of a stage told as one.
struct Test {
    class: String,
    name: String,
    millis: u64,
    kind: Kind,
    verdict: String,
    message: String,
    body: String,
}

/// The test cases of one stage's suite: a stage the gate did not reach is ONE skipped test
/// saying so; cases not run are one skipped test per reason; every other case is its own test,
/// a hidden one showing its verdict only.
fn testcases(
    report: &VerifyReport,
    stage: &StageScore,
    stopped: Option<&StageScore>,
    cases: &[&CaseResult],
) -> Vec<Test> {
    let label = crate::harness::category::label;
    let skipped = |name: String, message: String| Test {
        class: stage.category.clone(),
        name,
        millis: 0,
        kind: Kind::Skipped,
        verdict: String::new(),
        message,
        body: String::new(),
    };
    if !stage.reached {
        if cases.is_empty() {
            // A partial report before any of the stage's cases ran: nothing to say yet.
            return Vec::new();
        }
        let mut why = match stopped {
            Some(s) => format!(
                "not scored: {} did not pass in full ({} of {}), so {} was not reached",
                label(&s.category),
                s.passed,
                s.total,
                label(&stage.category)
            ),
            None => "not scored".to_string(),
        };
        let mut counts: std::collections::BTreeMap<Verdict, usize> = Default::default();
        for c in cases {
            *counts.entry(c.verdict).or_default() += 1;
        }
        if counts.keys().any(|v| *v != Verdict::NotRun) {
            let list: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
            why.push_str(&format!("; for information, its cases: {}", list.join(", ")));
        }
        return vec![skipped(format!("{} case(s) not reached", cases.len()), why)];
    }
    let mut tests: Vec<Test> = Vec::new();
    let mut not_run: Vec<(String, usize)> = Vec::new();
    for c in cases {
        if c.verdict == Verdict::NotRun {
            match not_run.iter_mut().find(|(reason, _)| *reason == c.reason) {
                Some((_, n)) => *n += 1,
                None => not_run.push((c.reason.clone(), 1)),
            }
            continue;
        }
        let kind = match c.verdict {
            Verdict::Pass => Kind::Pass,
            v if is_error(v) => Kind::Error,
            _ => Kind::Failure,
        };
        let (message, body) = if report.is_hidden(c) {
            // A hidden case's answer stays with the grader, whoever reads this file.
            (c.verdict.to_string(), "a hidden test: its details are in the grader's report".to_string())
        } else {
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
            (c.reason.clone(), body)
        };
        tests.push(Test {
            class: format!("{}.{}", c.category, c.side),
            name: c.name.rsplit('/').next().unwrap_or(&c.name).to_string(),
            millis: c.elapsed_ms,
            kind,
            verdict: c.verdict.to_string(),
            message,
            body,
        });
    }
    for (reason, n) in not_run {
        tests.push(skipped(format!("{n} case(s) not run"), format!("not run: {reason}")));
    }
    tests
}

/// Whether a verdict is an error (the bot gave no answer) rather than a wrong answer.
fn is_error(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Crash | Verdict::Timeout | Verdict::GraderError)
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(super::escape("a<b & \"c\" \u{1}"), "a&lt;b &amp; &quot;c&quot; ?");
    }
}
