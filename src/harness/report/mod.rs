//! Reports of a verification run: for people ([`human`]), for machines ([`json`]), for
//! Gradescope ([`gradescope`]) and for CI tools ([`junit`]). All are built from one
//! [`VerifyReport`], made by [`RunInfo::report`] at the end of a run or, for the result files
//! kept up to date while it goes on ([`live`]), from the cases finished so far.

pub mod files;
pub mod gradescope;
pub mod human;
pub mod json;
pub mod junit;
pub mod live;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

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
}

impl VerifyReport<'_> {
    /// How many cases of each grade got each verdict.
    pub fn verdict_counts(&self) -> BTreeMap<String, BTreeMap<Verdict, usize>> {
        let mut counts: BTreeMap<String, BTreeMap<Verdict, usize>> = BTreeMap::new();
        for case in self.cases {
            *counts.entry(case.category.clone()).or_default().entry(case.verdict).or_default() += 1;
        }
        counts
    }

    /// The cases that did not pass.
    pub fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| c.verdict != Verdict::Pass)
    }
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
