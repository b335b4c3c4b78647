//! Reports of a verification run: for people ([`human`]), for machines ([`json`]), for
//! Gradescope ([`gradescope`]) and for CI tools ([`junit`]). All are built from one
//! [`VerifyReport`], made by [`RunInfo::report`] at the end of a run or, for the result files
//! kept up to date while it goes on ([`live`]), from the cases finished so far.

pub mod failures;
pub mod files;
pub mod gradescope;
pub mod human;
pub mod json;
pub mod junit;
pub mod live;
pub mod paths;
pub mod width;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use self::paths::RelativePaths;
use super::category;
use super::machine::{Load, Snapshot};
use super::profile::{Profile, Score};
use super::verdict::Verdict;
use super::verify::CaseResult;

/// Everything a report shows.
pub struct VerifyReport<'a> {
    /// The bot, as given on the command line.
    pub bot: String,
    /// The corpus folder.
    pub corpus: String,
    pub seed: u64,
    pub profile: &'a Profile,
    /// The score of the cases in `cases`, those not run (in a partial report) counting as failed.
    pub score: Score,
    /// The cases run so far, in corpus order: all of them when `complete`.
    pub cases: &'a [CaseResult],
    /// Whether every case was run. A partial report is written while the run goes on, so that a
    /// run that is killed still leaves valid result files.
    pub complete: bool,
    /// How many cases the run has in all (twins not counted).
    pub planned_cases: usize,
    /// Cases where the corpus's own answer and the oracle disagree.
    pub disagreements: &'a [String],
    /// The cases' symmetric twins, when they were run (`--variants`); not scored.
    pub variants: &'a [CaseResult],
    /// Cases that pass while one of their twins fails: a sign of answers recognised, not played.
    pub suspicious: Vec<String>,
    pub elapsed: Duration,
    /// What the sandbox could do on this machine.
    pub sandbox: &'a crate::harness::sandbox::Summary,
    /// How absolute paths are shown (relative to the corpus and the submission).
    pub paths: &'a RelativePaths,
    /// Categories whose cases students do not see (Gradescope's `hidden` visibility).
    pub hidden: &'a [String],
    /// How busy the machine was over the run.
    pub machine: Load,
    /// The bad-input checks, when they were run beside the cases (`grade --robustness`).
    pub robustness: &'a [crate::harness::robustness::Check],
    /// Why the bot was refused before any case ran, if it was (`grade`).
    pub refused: Option<&'a str>,
    /// What was done for the submission before its cases, said at the top of the reports
    /// (`grade`: how its calibrate program went).
    pub notes: Vec<String>,
}

impl VerifyReport<'_> {
    /// Whether the score is one the course would give: the corpus has as many cases of each
    /// stage as the profile counts on. A corpus of one grade (`verify corpus/grade4`), or of a
    /// few cases, scores by the profile's arithmetic a number that means nothing: the reports
    /// say "not a course score" and show pass counts instead.
    pub fn course_score(&self) -> bool {
        // A profile of games alone asks for no case.
        if !self.profile.has_case_stages() {
            return true;
        }
        self.planned_cases > 0
            && self.profile.stages.len() == self.score.stages.len()
            && self
                .profile
                .stages
                .iter()
                .zip(&self.score.stages)
                .all(|(p, s)| s.total == p.tests && s.total > 0)
    }

    /// How the corpus differs from the profile, when it does: "grade 4: 1 case(s), not 50,
    /// grade 5: 0 case(s), not 50".
    pub fn corpus_mismatch(&self) -> Option<String> {
        if !self.profile.has_case_stages() {
            return None;
        }
        if self.planned_cases == 0 {
            return Some("no case ran".to_string());
        }
        let differences: Vec<String> = self
            .profile
            .stages
            .iter()
            .zip(&self.score.stages)
            .filter(|(p, s)| s.total != p.tests || s.total == 0)
            .map(|(p, s)| format!("{}: {} case(s), not {}", category::label(&s.category), s.total, p.tests))
            .collect();
        (!differences.is_empty()).then(|| differences.join(", "))
    }

    /// Pass counts of the cases run: (passed, total planned).
    pub fn passes(&self) -> (usize, usize) {
        (self.cases.iter().filter(|c| c.verdict == Verdict::Pass).count(), self.planned_cases)
    }

    /// The cases that timed out once and were run again: (how many, how many timed out again).
    pub fn timeout_reruns(&self) -> (usize, usize) {
        let rerun: Vec<&CaseResult> = self.cases.iter().filter(|c| c.timeout_rerun.is_some()).collect();
        (rerun.len(), rerun.iter().filter(|c| c.verdict == Verdict::Timeout).count())
    }

    /// How many cases of each grade got each verdict.
    pub fn verdict_counts(&self) -> BTreeMap<String, BTreeMap<Verdict, usize>> {
        let mut counts: BTreeMap<String, BTreeMap<Verdict, usize>> = BTreeMap::new();
        for case in self.cases {
            *counts.entry(case.category.clone()).or_default().entry(case.verdict).or_default() += 1;
        }
        counts
    }

    /// The cases the grader, not the bot, failed to run ([`Verdict::GraderError`]): how many,
    /// and the first one's reason.
    pub fn grader_errors(&self) -> (usize, Option<&str>) {
        let mut errors = self.cases.iter().filter(|c| c.verdict == Verdict::GraderError);
        let first = errors.next().map(|c| c.reason.as_str());
        (first.map_or(0, |_| 1 + errors.count()), first)
    }

    /// The sentence a report gives grader errors, if there were any.
    pub fn grader_error_note(&self) -> Option<String> {
        let (n, first) = self.grader_errors();
        first.map(|why| {
            format!(
                "GRADER ERROR: {n} case(s) could not be run because the grader failed, not the bot; \
                 they score nothing and are counted apart (grade this submission again). The first: {why}"
            )
        })
    }

    /// The cases that did not pass.
    pub fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| c.verdict != Verdict::Pass)
    }

    /// Whether students must not see the case's details.
    pub fn is_hidden(&self, case: &CaseResult) -> bool {
        self.hidden.contains(&case.category)
    }

    /// The wall-clock time the run started, in UTC, as `YYYY-MM-DDTHH:MM:SS` (the form JUnit's
    /// schema demands: no time zone, no fractions).
    pub fn started_at(&self) -> String {
        let now = std::time::SystemTime::now();
        let start = now.checked_sub(self.elapsed).unwrap_or(now);
        let secs = start.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        utc_timestamp(secs)
    }
}

/// A shell command line folded to `width` columns with ` \` continuations, the lines after the
/// first indented by two spaces. It breaks only at spaces outside quotes, so the folded text is
/// the same command to a POSIX shell; a word longer than the width keeps a line of its own.
pub fn wrap_shell(line: &str, width: usize) -> String {
    // Words with their quoting, split at unquoted spaces.
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quote != Some('\'') {
            escaped = true;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == '\'' || c == '"' {
            quote = Some(c);
        } else if c == ' ' {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut out = String::new();
    let mut current = String::new();
    for w in words {
        let indent = if out.is_empty() { 0 } else { 2 };
        // Room for the word, a space before it and " \" after it.
        if !current.is_empty() && indent + current.chars().count() + 1 + w.chars().count() + 2 > width {
            out.push_str(&current);
            out.push_str(" \\\n  ");
            current.clear();
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&w);
    }
    out.push_str(&current);
    out
}

/// The version of the JSON report's layout, written as `schema_version`. Bumped when a field
/// is removed or changes meaning; adding a field does not bump it. See docs/REPORTS.md.
pub const SCHEMA_VERSION: u32 = 1;

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SS` in UTC (Howard Hinnant's days-to-civil
/// algorithm: no date crate needed for one timestamp).
pub fn utc_timestamp(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// What a report says about a run apart from its results: all known before the first case runs.
pub struct RunInfo<'a> {
    /// The bot, as given on the command line.
    pub bot: String,
    /// The corpus folder.
    pub corpus: String,
    pub seed: u64,
    pub profile: &'a Profile,
    /// Cases where the corpus's own answer and the oracle disagree.
    pub disagreements: Vec<String>,
    /// The category of every case to run, in order (twins are not scored, so not listed).
    pub categories: Vec<String>,
    pub start: Instant,
    /// What the sandbox could do on this machine.
    pub sandbox: crate::harness::sandbox::Summary,
    /// How absolute paths are shown in the reports.
    pub paths: RelativePaths,
    /// Categories whose cases students do not see (see [`gradescope`]).
    pub hidden: Vec<String>,
    /// The machine's counters when the run started.
    pub machine: Snapshot,
    /// Why the bot was refused before any case ran, if it was (`grade`).
    pub refused: Option<String>,
}

impl RunInfo<'_> {
    /// The report on `cases` (and twins `variants`) run so far; `complete` when they are all
    /// the cases. The score counts every case not run yet as failed, so a partial report never
    /// gives more than the finished run could.
    pub fn report<'r>(
        &'r self,
        cases: &'r [CaseResult],
        variants: &'r [CaseResult],
        complete: bool,
    ) -> VerifyReport<'r> {
        VerifyReport {
            bot: self.bot.clone(),
            corpus: self.corpus.clone(),
            seed: self.seed,
            profile: self.profile,
            score: self.profile.score(&pass_counts(&self.categories, cases), None),
            cases,
            complete,
            planned_cases: self.categories.len(),
            disagreements: &self.disagreements,
            suspicious: suspicious(cases, variants),
            variants,
            elapsed: self.start.elapsed(),
            sandbox: &self.sandbox,
            paths: &self.paths,
            hidden: &self.hidden,
            machine: self.machine.load(),
            robustness: &[],
            refused: self.refused.as_deref(),
            notes: Vec::new(),
        }
    }
}

/// Pass counts per grade, grade -> (passed, total): the totals are of the cases planned
/// (`grades`, one per case), the passes of those run (`done`).
pub fn pass_counts(categories: &[String], done: &[CaseResult]) -> BTreeMap<String, (usize, usize)> {
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for category in categories {
        counts.entry(category.clone()).or_default().1 += 1;
    }
    for case in done.iter().filter(|c| c.verdict == Verdict::Pass) {
        counts.entry(case.category.clone()).or_default().0 += 1;
    }
    counts
}

/// Score per pass in the case's stage, for per-test scores.
pub fn per_pass(profile: &Profile, category: &str) -> f64 {
    profile.stages.iter().find(|s| s.category == category).map_or(0.0, |s| s.per_pass)
}

/// "NAME passes but its mirror twin fails (wrong-move)" for each case that passes while a twin
/// (named `NAME@label`) does not.
pub fn suspicious(cases: &[CaseResult], variants: &[CaseResult]) -> Vec<String> {
    let mut out = Vec::new();
    for case in cases.iter().filter(|c| c.verdict == Verdict::Pass) {
        let prefix = format!("{}@", case.name);
        for twin in variants.iter().filter(|v| v.name.starts_with(&prefix) && v.verdict != Verdict::Pass) {
            let label = &twin.name[prefix.len()..];
            out.push(format!("{} passes but its {label} twin fails ({})", case.name, twin.verdict));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(super::utc_timestamp(0), "1970-01-01T00:00:00");
        // 2024-02-29 12:34:56 UTC, a leap day.
        assert_eq!(super::utc_timestamp(1_709_210_096), "2024-02-29T12:34:56");
    }

    #[test]
    fn shell_lines_fold_at_unquoted_spaces_only() {
        let line = "printf '%s\\n' 'a b c' 'd e f' > case.txt && sh bot.sh white input.txt output.txt";
        let folded = super::wrap_shell(line, 30);
        for l in folded.lines() {
            assert!(l.chars().count() <= 30, "{l:?}");
        }
        // Undoing the continuations gives the line back: no quote was split.
        assert_eq!(folded.replace(" \\\n  ", " "), line);
        assert_eq!(super::wrap_shell("short line", 80), "short line");
    }
}
