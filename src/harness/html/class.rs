//! The class page of `grade --html`: the score histogram, mean and median, each student's row
//! linking to their page, and every case's pass rate across the class, the cases that catch
//! most students first.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{escape, page};

/// One submission as the class page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Student {
    /// The submission's name.
    pub name: String,
    /// The score in percent.
    pub score: f64,
    /// `graded` or `refused`.
    pub status: String,
    /// The student's page, relative to the class page.
    pub page: Option<String>,
    /// Each case by name and whether it passed.
    pub cases: Vec<(String, bool)>,
}

/// A case's results across the class.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRate {
    pub name: String,
    pub passed: usize,
    pub tried: usize,
    /// The students it failed, by index into the class.
    pub failed_by: Vec<usize>,
}

impl CaseRate {
    /// The share of students who pass it, 0 to 1.
    pub fn rate(&self) -> f64 {
        if self.tried == 0 { 0.0 } else { self.passed as f64 / self.tried as f64 }
    }
}

/// The mean and median of the scores (`None` for an empty class).
pub fn mean_median(scores: &[f64]) -> Option<(f64, f64)> {
    if scores.is_empty() {
        return None;
    }
    let mut sorted = scores.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
    Some((sorted.iter().sum::<f64>() / n as f64, median))
}

/// Every case's pass rate, hardest first (ties by name).
pub fn case_rates(students: &[Student]) -> Vec<CaseRate> {
    let mut rates: BTreeMap<&str, CaseRate> = BTreeMap::new();
    for (i, s) in students.iter().enumerate() {
        for (name, passed) in &s.cases {
            let r = rates.entry(name).or_insert_with(|| CaseRate {
                name: name.clone(),
                passed: 0,
                tried: 0,
                failed_by: Vec::new(),
            });
            r.tried += 1;
            if *passed {
                r.passed += 1;
            } else {
                r.failed_by.push(i);
            }
        }
    }
    let mut rates: Vec<CaseRate> = rates.into_values().collect();
    rates.sort_by(|a, b| a.rate().total_cmp(&b.rate()).then_with(|| a.name.cmp(&b.name)));
    rates
}

/// How many scores fall in each tenth: `[0,10)`, ..., `[90,100)`, and 100 on its own.
pub fn histogram(scores: &[f64]) -> [usize; 11] {
    let mut bins = [0; 11];
    for &s in scores {
        let bin = if s >= 100.0 { 10 } else { ((s.max(0.0) / 10.0).floor() as usize).min(9) };
        bins[bin] += 1;
    }
    bins
}

/// A submission's JSON report: every case with its output's first 4 KiB, so a large corpus
/// makes a large file.
const REPORT: crate::harness::files::Cap =
    crate::harness::files::Cap { bytes: 256 << 20, what: "a JSON report" };

/// The file name of a submission's page beside the class page.
pub fn page_name(submission: &str) -> String {
    format!("{}.html", super::file_name(submission))
}

/// A student as their `report.json` (in `reports/NAME/`) and gradebook row say: each case's
/// verdict, and a link to their page when it is in `html_dir`. A report that cannot be read
/// leaves the student without cases (the row still shows the score).
pub fn student_from_report(
    name: &str,
    score: f64,
    status: &str,
    report: &std::path::Path,
    html_dir: &std::path::Path,
) -> Student {
    let cases = crate::harness::files::read_capped_text(report, REPORT)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|json| json.get("cases").and_then(|c| c.as_array()).cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|c| {
            let name = c.get("name")?.as_str()?.to_string();
            let verdict = c.get("verdict")?.as_str()?;
            // A case a gate stopped (`--stop-at-gate`) was never tried: it is no case the
            // student failed, and no case that catches the class.
            (verdict != "not-run").then_some((name, verdict == "pass"))
        })
        .collect();
    let page = page_name(name);
    Student {
        name: name.to_string(),
        score,
        status: status.to_string(),
        page: html_dir.join(&page).is_file().then_some(page),
        cases,
    }
}

/// Failing students listed for a case at most; the rest are counted.
const FAILED_LISTED: usize = 12;

/// The class page.
pub fn class_page(game: &str, students: &[Student]) -> String {
    let mut body = String::new();
    let _ = write!(body, "<h1>{} class: {} submissions</h1>", escape(game), students.len());
    let scores: Vec<f64> = students.iter().map(|s| s.score).collect();
    if let Some((mean, median)) = mean_median(&scores) {
        let _ = write!(
            body,
            "<p>Mean <b id=\"mean\">{mean:.2}%</b>, median <b id=\"median\">{median:.2}%</b></p>"
        );
    }
    body.push_str(&histogram_svg(&histogram(&scores)));
    body.push_str("<h2>Students</h2><table id=\"students\"><tr><th>submission</th><th class=\"num\">score</th><th>status</th><th class=\"num\">cases passed</th></tr>");
    for s in students {
        let name = match &s.page {
            Some(p) => format!("<a href=\"{}\">{}</a>", escape(p), escape(&s.name)),
            None => escape(&s.name),
        };
        let passed = s.cases.iter().filter(|(_, p)| *p).count();
        let _ = write!(
            body,
            "<tr><td>{name}</td><td class=\"num\">{:.2}</td><td>{}</td><td class=\"num\">{passed} / {}</td></tr>",
            s.score,
            escape(&s.status),
            s.cases.len()
        );
    }
    body.push_str("</table><h2>Cases, hardest first</h2><table id=\"cases\"><tr><th>case</th><th class=\"num\">pass rate</th><th class=\"num\">passed</th><th>failed by</th></tr>");
    for r in case_rates(students) {
        let mut failed: Vec<String> = r
            .failed_by
            .iter()
            .take(FAILED_LISTED)
            .map(|&i| {
                let s = &students[i];
                match &s.page {
                    Some(p) => format!("<a href=\"{}\">{}</a>", escape(p), escape(&s.name)),
                    None => escape(&s.name),
                }
            })
            .collect();
        if r.failed_by.len() > FAILED_LISTED {
            failed.push(format!("and {} more", r.failed_by.len() - FAILED_LISTED));
        }
        let _ = write!(
            body,
            "<tr><td>{}</td><td class=\"num\">{:.0}%</td><td class=\"num\">{} / {}</td><td>{}</td></tr>",
            escape(&r.name),
            100.0 * r.rate(),
            r.passed,
            r.tried,
            failed.join(", ")
        );
    }
    body.push_str("</table>");
    page(&format!("arbiter: {game} class"), &body)
}

/// The histogram as an SVG bar chart, each bar carrying its count in `data-count`.
fn histogram_svg(bins: &[usize; 11]) -> String {
    let (bar, gap, height) = (40usize, 6usize, 160usize);
    let top = bins.iter().copied().max().unwrap_or(0).max(1);
    let width = bins.len() * (bar + gap) + 40;
    let mut out = format!(
        r#"<svg class="histogram" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{}" viewBox="0 0 {width} {}" role="img"><title>Scores</title>"#,
        height + 40,
        height + 40
    );
    for (i, &n) in bins.iter().enumerate() {
        let h = n * height / top;
        let x = 20 + i * (bar + gap);
        let label = if i == 10 { "100".to_string() } else { format!("{}-{}", i * 10, i * 10 + 9) };
        let _ = write!(
            out,
            r#"<rect class="bar" data-count="{n}" x="{x}" y="{}" width="{bar}" height="{h}"><title>{label}: {n}</title></rect><text x="{}" y="{}" font-size="10" text-anchor="middle">{label}</text>"#,
            10 + height - h,
            x + bar / 2,
            height + 25
        );
        if n > 0 {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="11" text-anchor="middle">{n}</text>"#,
                x + bar / 2,
                6 + height - h
            );
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn student(name: &str, score: f64, cases: &[(&str, bool)]) -> Student {
        Student {
            name: name.into(),
            score,
            status: "graded".into(),
            page: Some(format!("{name}.html")),
            cases: cases.iter().map(|(c, p)| (c.to_string(), *p)).collect(),
        }
    }

    #[test]
    fn mean_and_median_of_even_and_odd_classes() {
        assert_eq!(mean_median(&[10.0, 40.0, 20.0]), Some((70.0 / 3.0, 20.0)));
        assert_eq!(mean_median(&[10.0, 40.0, 20.0, 30.0]), Some((25.0, 25.0)));
        assert_eq!(mean_median(&[]), None);
    }

    #[test]
    fn histogram_puts_100_alone_and_0_first() {
        let h = histogram(&[0.0, 9.99, 10.0, 99.5, 100.0]);
        assert_eq!(h, [2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    }

    #[test]
    fn the_case_that_catches_most_students_comes_first() {
        let class = [
            student("a", 50.0, &[("easy", true), ("hard", false)]),
            student("b", 90.0, &[("easy", true), ("hard", true)]),
            student("<c>", 10.0, &[("easy", false), ("hard", false)]),
        ];
        let rates = case_rates(&class);
        assert_eq!(rates[0].name, "hard");
        assert_eq!(rates[0].failed_by, vec![0, 2]);
        let html = class_page("advance", &class);
        assert!(html.contains("href=\"a.html\""));
        assert!(html.contains("&lt;c&gt;") && !html.contains("<c>"));
        let hard = html.find("<td>hard</td>").expect("hard listed");
        assert!(hard < html.find("<td>easy</td>").expect("easy listed"));
    }

    #[test]
    fn cases_a_gate_stopped_are_not_counted() {
        let dir = tempfile::tempdir().expect("temp dir");
        let report = dir.path().join("report.json");
        let json = r#"{"cases":[{"name":"g4","verdict":"wrong-move"},{"name":"g5","verdict":"not-run"}]}"#;
        std::fs::write(&report, json).expect("write report");
        let s = student_from_report("a", 0.0, "graded", &report, dir.path());
        assert_eq!(s.cases, vec![("g4".to_string(), false)]);
        let rates = case_rates(&[s]);
        assert_eq!(rates.len(), 1, "only the case that ran is rated");
        assert_eq!(rates[0].tried, 1);
    }
}
