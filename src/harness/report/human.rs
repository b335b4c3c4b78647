//! The report a person reads: stage table, score, the slowest cases, and the failures with what
//! to do about them.
//!
//! It fits 80 columns: long lines are folded (shell lines with ` \` continuations, so they stay
//! one command), and identical failures are grouped, the first few shown in full. Colour is
//! added last, by [`paint`], only when the caller asks for it; the text itself never depends on
//! the terminal.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use super::VerifyReport;
use crate::harness::category;
use crate::harness::escape::escape_controls;
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

pub use super::width::WIDTH;

/// How many of the slowest cases the timing summary lists.
const SLOWEST: usize = 5;

/// The whole report, without colour. Failures are grouped into bugs and listed in the order to
/// fix them ([`super::failures`]); the first `detailed` are shown in full (reason, expected
/// moves, diff or board, bot output, how to reproduce), a few of each group at most; the rest
/// one line each or by name. Nothing is cut: long lines are folded. Control characters from the bot (its stderr,
/// what it wrote) are shown escaped, so the bot cannot rewrite the terminal, say to fake a
/// score.
pub fn render(report: &VerifyReport, detailed: usize) -> String {
    let text = report.paths.text(&unescaped(report, detailed)).into_owned();
    fit(&escape_controls(&text), WIDTH)
}

/// [`render`], coloured with ANSI styles when `color` is true.
pub fn render_colored(report: &VerifyReport, detailed: usize, color: bool) -> String {
    let text = render(report, detailed);
    if color { paint(&text) } else { text }
}

/// Folds every line longer than `width` at spaces, continuation lines indented like the line
/// plus two spaces; a word longer than the width is cut. Shell lines were folded before (with
/// continuations), so this only catches what is left: a bot's long stderr line, a long name.
fn fit(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, newline) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        let body = body.replace('\t', "    ");
        for folded in fold_line(&body, width) {
            out.push_str(&folded);
            out.push('\n');
        }
        if newline.is_empty() {
            out.pop();
        }
    }
    out
}

/// One line folded to `width` (see [`fit`]).
fn fold_line(body: &str, width: usize) -> Vec<String> {
    if body.chars().count() <= width {
        return vec![body.to_string()];
    }
    let lead = body.chars().take_while(|c| *c == ' ').count().min(width / 2);
    let indent = " ".repeat(lead + 2);
    let mut lines = Vec::new();
    let mut current = " ".repeat(lead);
    for word in body.trim_start().split(' ') {
        let mut word: String = word.to_string();
        loop {
            let used = current.chars().count();
            let bare = current.trim().is_empty();
            let sep = usize::from(!bare);
            if used + sep + word.chars().count() <= width {
                if !bare {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if !bare {
                lines.push(current.trim_end().to_string());
                current = indent.clone();
                continue;
            }
            // A word longer than a whole line: cut it.
            let room = width.saturating_sub(used).max(1);
            current.push_str(&word.chars().take(room).collect::<String>());
            word = word.chars().skip(room).collect();
            lines.push(std::mem::replace(&mut current, indent.clone()));
            if word.is_empty() {
                break;
            }
        }
    }
    if !current.trim().is_empty() {
        lines.push(current.trim_end().to_string());
    }
    lines
}

/// Adds colour to a rendered report: the score line, verdicts in failure headings, warnings,
/// diff lines. Works on the finished text, after the bot's control characters were escaped, so
/// the only escape sequences in the output are these.
pub fn paint(text: &str) -> String {
    let bold = Style::new().bold();
    let red = AnsiColor::Red.on_default().bold();
    let green = AnsiColor::Green.on_default();
    let yellow = AnsiColor::Yellow.on_default().bold();
    let styled = |style: Style, s: &str| format!("{style}{s}{style:#}");
    let verdicts: Vec<String> = Verdict::ALL.iter().map(|v| v.as_str().to_uppercase()).collect();
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.split_inclusive('\n') {
        let (body, newline) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        let painted = if body.starts_with("score ") || body.starts_with("not a course score") {
            styled(bold, body)
        } else if body.starts_with("warning:") || body.starts_with("SUSPICIOUS") {
            styled(yellow, body)
        } else if let Some(v) = verdicts.iter().find(|v| body.ends_with(&format!("  {v}"))) {
            let name = &body[..body.len() - v.len()];
            format!("{}{}", styled(bold, name), styled(red, v))
        } else if body.starts_with("    -") && !body.starts_with("    ---") {
            styled(AnsiColor::Red.on_default(), body)
        } else if body.starts_with("    +") && !body.starts_with("    +++") {
            styled(green, body)
        } else if body.ends_with("in the order to fix them:") || is_group_heading(body) {
            styled(bold, body)
        } else {
            body.to_string()
        };
        out.push_str(&painted);
        out.push_str(newline);
    }
    out
}

/// A failure group's heading: `2. illegal-move (...): 3 cases`.
fn is_group_heading(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].starts_with(". ") && (line.ends_with(" case") || line.ends_with(" cases"))
}

/// Short column names so the table fits 80 columns; passes have their own column.
fn short(v: Verdict) -> &'static str {
    match v {
        Verdict::WrongMove => "wrong",
        Verdict::IllegalMove => "illegal",
        Verdict::MalformedOutput => "malformed",
        Verdict::NoOutput => "no-out",
        Verdict::WrongAnswer => "answer",
        Verdict::GraderError => "grader",
        other => other.as_str(),
    }
}

fn unescaped(report: &VerifyReport, detailed: usize) -> String {
    let mut out = String::new();
    let counts = report.verdict_counts();
    if report.planned_cases == 0 && report.score.stages.is_empty() {
        // A grade by games alone has no corpus to name.
        let _ = writeln!(
            out,
            "bot {}  seed {}  (games only, in {:.1} s)",
            report.bot,
            report.seed,
            report.elapsed.as_secs_f64()
        );
    } else {
        let _ = writeln!(
            out,
            "bot {}  corpus {}  seed {}  ({} cases in {:.1} s)",
            report.bot,
            report.paths.corpus_label(std::path::Path::new(&report.corpus)),
            report.seed,
            report.cases.len(),
            report.elapsed.as_secs_f64()
        );
    }
    if !report.complete {
        let _ = writeln!(
            out,
            "INCOMPLETE: {} of {} cases had run when this was written (the run was stopped, or is still going)",
            report.cases.len(),
            report.planned_cases
        );
    }
    if let Some(why) = report.refused {
        let _ = writeln!(out, "REFUSED before any case ran: {why}");
    }
    for note in &report.notes {
        let _ = writeln!(out, "{note}");
    }
    if let Some(note) = report.grader_error_note() {
        let _ = writeln!(out, "{note}");
    }
    // What the sandbox did is one line here, named by its layers; the details (limits, the
    // uid, each layer's reach) close the report, with a pointer to docs/SANDBOX.md.
    let _ = writeln!(out, "{}", sandbox_brief(report.sandbox));
    let _ = writeln!(out, "{}", report.machine.line());
    let (rerun, again) = report.timeout_reruns();
    if rerun > 0 {
        let _ = writeln!(
            out,
            "timeouts: {rerun} case(s) timed out and were run again, fresh; {again} timed out again and count as timeouts"
        );
    }
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
    // A column for each verdict that happened, and for the verdicts about output files unless
    // the bot is hosted (judged by calls), so that the table fits 80 columns.
    let happened = |v: Verdict| counts.values().any(|row| row.get(&v).is_some_and(|&n| n > 0));
    let hosted = happened(Verdict::WrongAnswer);
    // A submission refused before any case ran shows only what happened (not-run): columns about
    // output files would be another protocol's words for a hosted game.
    let ran = report.cases.iter().any(|c| c.verdict != Verdict::NotRun);
    let about_files = |v: Verdict| {
        matches!(
            v,
            Verdict::WrongMove
                | Verdict::IllegalMove
                | Verdict::MalformedOutput
                | Verdict::NoOutput
                | Verdict::Unchanged
        )
    };
    let failing: Vec<Verdict> = Verdict::ALL[1..]
        .iter()
        .copied()
        .filter(|&v| {
            happened(v)
                || (ran
                    && v != Verdict::WrongAnswer
                    && v != Verdict::GraderError
                    && !(hosted && about_files(v)))
        })
        .collect();
    let header: String = failing.iter().map(|&v| format!(" {:>w$}", short(v), w = short(v).len())).collect();
    // The stage column is as wide as the game's longest label (`grade 4*`, `interaction*`).
    let width = report
        .score
        .stages
        .iter()
        .map(|s| category::label(&s.category).chars().count() + usize::from(!s.reached))
        .chain([5])
        .max()
        .unwrap_or(5);
    if !report.score.stages.is_empty() {
        let _ = writeln!(out, "{:<width$} {:>7}{header}", "stage", "passed");
    }
    let mut unreached = Vec::new();
    for stage in &report.score.stages {
        let row = counts.get(&stage.category);
        let cells: String = failing
            .iter()
            .map(|&v| {
                let n = row.and_then(|r| r.get(&v)).copied().unwrap_or(0);
                format!(" {:>w$}", n, w = short(v).len())
            })
            .collect();
        let mut label = category::label(&stage.category);
        if !stage.reached {
            label.push('*');
            unreached.push(category::label(&stage.category));
        }
        let passed = format!("{}/{}", stage.passed, stage.total);
        let _ = writeln!(out, "{label:<width$} {passed:>7}{cells}");
    }
    for g in &report.score.game_stages {
        let result = match (g.played, &g.note) {
            (Some(p), _) => {
                format!("{} of {} won, {} drawn, {:.2} points", p.won, p.games, p.drawn, g.points)
            }
            (None, Some(note)) => note.clone(),
            (None, None) => "not played".to_string(),
        };
        // Games lost by forfeit, beside the wins: "9 of 20 won; 11 lost by exception: ...".
        let forfeits = g.forfeits.as_ref().and_then(|f| f.sentence()).map(|f| format!("; {f}"));
        let result = result + &forfeits.unwrap_or_default();
        let _ = writeln!(out, "{}{}: {result}", g.name, if g.reached { "" } else { "*" });
        if let (Some(_), Some(note)) = (g.played, &g.note) {
            let _ = writeln!(out, "  {note}");
        }
        if let Some(rate) = &g.win_rate {
            let _ = writeln!(out, "  {}", rate.sentence());
        }
    }
    if !unreached.is_empty() {
        let _ = writeln!(out, "* not reached: an earlier stage did not pass in full, so not scored");
    }
    let _ = writeln!(out);
    match &report.score.stopped_at {
        _ if !report.profile.gated && report.course_score() => {
            let _ = writeln!(
                out,
                "score {:.2}% by profile `{}`: every stage adds its points",
                report.score.percent, report.profile.name
            );
        }
        _ if !report.course_score() => {
            // The profile's arithmetic on another corpus is no grade: say what passed instead.
            let (passed, planned) = report.passes();
            let _ = writeln!(out, "not a course score: {passed} of {planned} cases passed");
            let _ = writeln!(
                out,
                "(the corpus is not the profile `{}`'s: {})",
                report.profile.name,
                report.corpus_mismatch().unwrap_or_default()
            );
        }
        Some(c) => {
            let _ = writeln!(
                out,
                // Short enough for 80 columns with a profile name of 20 characters.
                "score {:.2}% by profile `{}`: stopped at {}, not all passed",
                report.score.percent,
                report.profile.name,
                category::label(c)
            );
        }
        None => {
            let forfeits = report.score.games_forfeits.as_ref().and_then(|f| f.sentence());
            let games = match (report.score.games_won, forfeits) {
                (Some(w), Some(f)) => format!(" with {w} games won\n(games: {f})"),
                (Some(w), None) => format!(" with {w} games won"),
                (None, _) => "\n(the games stage was not played; `arbiter match` plays it)".to_string(),
            };
            let _ = writeln!(
                out,
                "score {:.2}% by profile `{}`: every case passed{games}",
                report.score.percent, report.profile.name
            );
        }
    }
    // The corpus's differences from the profile are the headline's to say when there is one.
    for w in report.score.warnings.iter().filter(|_| report.course_score()) {
        let _ = writeln!(out, "warning: {w}");
    }
    if !report.robustness.is_empty() {
        let passed = report.robustness.iter().filter(|c| c.passed).count();
        let _ = writeln!(out, "\nbad inputs (not scored): {passed} of {} handled", report.robustness.len());
        for c in report.robustness {
            let mark = if c.passed { "ok  " } else { "FAIL" };
            let _ = writeln!(out, "  {mark} {}: {}", c.name, c.note);
        }
    }
    slowest(&mut out, report.cases);
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
        let _ = writeln!(out, "\nin full (docs/SANDBOX.md): {}", report.sandbox.line());
        return out;
    }
    // Only a bot that ended normally and changed its input file may have written its answer
    // there: a crash or a refusal to start has another cause, and a bot that printed its
    // answer is told so with the group.
    if failures.len() == report.cases.len()
        && failures.iter().all(|f| {
            matches!(f.verdict, Verdict::NoOutput | Verdict::Unchanged)
                && f.reason == failures[0].reason
                && f.input_changed
        })
    {
        let _ = writeln!(
            out,
            "\nevery case failed the same way and the bot changed its input file: a bot that\nwrites its answer into its input file needs --same-file"
        );
    }
    super::failures::render(&mut out, report, detailed);
    let _ = writeln!(out, "\nin full (docs/SANDBOX.md): {}", report.sandbox.line());
    out
}

/// The sandbox in one line for a report's header: its mode and the names of its layers (and
/// of any missing), with where the details are.
fn sandbox_brief(sandbox: &crate::harness::sandbox::Summary) -> String {
    let line = sandbox.line();
    let mode = line.split(':').next().unwrap_or("sandbox");
    let mut names: Vec<String> = sandbox.layers.iter().map(|(name, _)| name.clone()).collect();
    names.extend(sandbox.missing.iter().map(|(name, _)| format!("NO {name}")));
    let layers = if names.is_empty() { String::new() } else { format!(": {}", names.join(", ")) };
    format!("{mode}{layers}")
}

/// The timing summary: the slowest cases, so a grader sees which ones come near the limit.
fn slowest(out: &mut String, cases: &[CaseResult]) {
    // Cases not run took no time: listing them says nothing.
    let cases: Vec<&CaseResult> = cases.iter().filter(|c| c.verdict != Verdict::NotRun).collect();
    if cases.is_empty() {
        return;
    }
    let mut by_time: Vec<&CaseResult> = cases.clone();
    // Ties in corpus order, so the summary does not depend on the job count.
    by_time.sort_by_key(|c| std::cmp::Reverse(c.elapsed_ms));
    let total: u64 = cases.iter().map(|c| c.elapsed_ms).sum();
    let _ = writeln!(
        out,
        "\nslowest cases (bot time {:.1} s in all, {:.3} s a case on average):",
        total as f64 / 1000.0,
        total as f64 / 1000.0 / cases.len() as f64
    );
    for c in by_time.iter().take(SLOWEST) {
        let line = format!("  {:>8.3} s  {:<40} {}", c.elapsed_ms as f64 / 1000.0, c.name, c.verdict);
        let _ = writeln!(out, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_fold_within_the_width() {
        let text = format!("  why:      {}\nshort\n{}\n", "word ".repeat(40), "x".repeat(200));
        let folded = fit(&text, 80);
        for line in folded.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        assert!(folded.contains("\nshort\n"));
        // Nothing is lost but spaces at the folds.
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squeeze(&folded), squeeze(&text));
    }

    #[test]
    fn paint_colours_only_what_it_knows() {
        let painted = paint("score 50.00% by profile `x`\ngrade4/white/a  CRASH\nplain\n");
        assert!(painted.contains("\u{1b}["));
        assert!(painted.contains("\nplain\n"));
        assert_eq!(
            anstream::adapter::strip_str(&painted).to_string(),
            "score 50.00% by profile `x`\ngrade4/white/a  CRASH\nplain\n"
        );
    }
}
