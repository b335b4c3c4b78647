//! JUnit XML: one test suite per grade, one test case per case, failures with their reason.
//! A file written while the run goes on holds the cases finished so far, and says so in a
//! comment and in the name of the top element.

use std::fmt::Write as _;

use super::VerifyReport;
use crate::harness::verdict::Verdict;

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

/// The XML document.
pub fn render(report: &VerifyReport) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failures = report.failures().count();
    let mut name = "arbiter verify".to_string();
    if !report.complete {
        let progress = format!("{} of {} cases run", report.cases.len(), report.planned_cases);
        let _ = writeln!(out, "<!-- INCOMPLETE: {progress}; the run was stopped, or is still going -->");
        name = format!("arbiter verify (incomplete: {progress})");
    }
    let _ = writeln!(
        out,
        "<testsuites name=\"{name}\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">",
        report.cases.len(),
        report.elapsed.as_secs_f64()
    );
    for stage in &report.score.stages {
        let cases: Vec<_> = report.cases.iter().filter(|c| c.category == stage.category).collect();
        let failed = cases.iter().filter(|c| c.verdict != Verdict::Pass).count();
        let time: u64 = cases.iter().map(|c| c.elapsed_ms).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" time=\"{:.3}\">",
            stage.category,
            cases.len(),
            time as f64 / 1000.0
        );
        for c in cases {
            let class = format!("{}.{}", c.category, c.side);
            let short = c.name.rsplit('/').next().unwrap_or(&c.name);
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                escape(&class),
                escape(short),
                c.elapsed_ms as f64 / 1000.0
            );
            if c.verdict == Verdict::Pass {
                out.push_str("/>\n");
                continue;
            }
            let mut body = c.reason.clone();
            if let Some(diff) = &c.diff {
                body.push('\n');
                body.push_str(diff);
            }
            body.push_str(&format!("\nreproduce: {}", c.reproduce));
            let _ = writeln!(
                out,
                ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
                c.verdict,
                escape(&c.reason),
                escape(&body)
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(super::escape("a<b & \"c\" \u{1}"), "a&lt;b &amp; &quot;c&quot; ?");
    }
}
