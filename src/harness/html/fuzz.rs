//! A fuzzing run's page: each kind of failure in the order to fix it, its minimal position drawn
//! as the bot's board beside the nearest expected one (as on a submission's page).

use std::fmt::Write as _;
use std::path::Path;

use super::{case, escape, page};
use crate::harness::fuzz::FuzzReport;
use crate::harness::referee::Referee;

/// The page of `report` for `bot`. Each failure's minimal board must be readable at
/// `boards/<index>.txt` under `dir` (written by [`write_page`]), so that it can be drawn.
fn fuzz_page(referee: &dyn Referee, bot: &str, seed: u64, report: &FuzzReport, dir: &Path) -> String {
    let mut body = String::new();
    let _ = write!(body, "<h1>fuzz: {}</h1>", escape(bot));
    let failed = report.cases - report.passed;
    let _ = write!(
        body,
        "<p>{} positions of {} (seed {seed}): <span id=\"passed\">{}</span> passed, {failed} failed in {} distinct way(s)</p>",
        report.cases,
        escape(referee.game()),
        report.passed,
        report.failures.len()
    );
    if let Some(why) = &report.stopped {
        let _ = write!(body, "<p>Stopped early ({}): what was found so far.</p>", escape(why));
    }
    let sources: Vec<String> = report.sources.iter().map(|(s, n)| format!("{s} {n}")).collect();
    let _ =
        write!(body, "<details><summary>sources</summary><p>{}</p></details>", escape(&sources.join(", ")));
    if report.failures.is_empty() {
        body.push_str("<h2>No failure found</h2>");
    }
    for (i, f) in report.failures.iter().enumerate() {
        let _ = write!(
            body,
            "<section class=\"group\" data-failure=\"{}\"><h2>{}. {}: {} case{}</h2>",
            i + 1,
            i + 1,
            escape(&f.signature.describe()),
            f.count,
            if f.count == 1 { "" } else { "s" }
        );
        let _ = write!(
            body,
            "<p>First found at case #{} after {:.1} s; from <code>{}</code>; {}.</p>",
            f.first_found.case,
            f.first_found.seconds,
            escape(&f.source),
            escape(&f.shrink_sentence(report.size_unit)),
        );
        let mut shown = f.result.clone();
        shown.name = format!("minimal position {}", i + 1);
        shown.path = dir.join("boards").join(format!("{}.txt", i + 1)).display().to_string();
        body.push_str(&case::failing_case(referee, &shown));
        body.push_str("</section>");
    }
    page(&format!("fuzz: {bot}"), &body)
}

/// Writes `dir/index.html` and the minimal boards it draws (`dir/boards/N.txt`).
pub fn write_page(
    referee: &dyn Referee,
    bot: &str,
    seed: u64,
    report: &FuzzReport,
    dir: &Path,
) -> Result<(), String> {
    let boards = dir.join("boards");
    std::fs::create_dir_all(&boards).map_err(|e| format!("cannot create {}: {e}", boards.display()))?;
    for (i, f) in report.failures.iter().enumerate() {
        let path = boards.join(format!("{}.txt", i + 1));
        crate::harness::files::write_atomic(&path, f.minimal_board.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    super::write(&dir.join("index.html"), &fuzz_page(referee, bot, seed, report, dir))
}
