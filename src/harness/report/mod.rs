//! Reports of a verification run: for people ([`human`]), for machines ([`json`]), for
//! Gradescope ([`gradescope`]) and for CI tools ([`junit`]). All are built from one
//! [`VerifyReport`].

pub mod gradescope;
pub mod human;
pub mod json;
pub mod junit;

use std::collections::BTreeMap;
use std::time::Duration;

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
    pub score: Score,
    pub cases: &'a [CaseResult],
    /// Cases where the corpus's own answer and the oracle disagree.
    pub disagreements: Vec<String>,
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
    pub fn verdict_counts(&self) -> BTreeMap<u8, BTreeMap<Verdict, usize>> {
        let mut counts: BTreeMap<u8, BTreeMap<Verdict, usize>> = BTreeMap::new();
        for case in self.cases {
            *counts.entry(case.grade).or_default().entry(case.verdict).or_default() += 1;
        }
        counts
    }

    /// The cases that did not pass.
    pub fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| c.verdict != Verdict::Pass)
    }
}

/// Pass counts per grade: grade -> (passed, total).
pub fn pass_counts(cases: &[CaseResult]) -> BTreeMap<u8, (usize, usize)> {
    let mut counts: BTreeMap<u8, (usize, usize)> = BTreeMap::new();
    for case in cases {
        let entry = counts.entry(case.grade).or_default();
        entry.1 += 1;
        if case.verdict == Verdict::Pass {
            entry.0 += 1;
        }
    }
    counts
}

/// Score per pass in the case's stage, for per-test scores.
pub fn per_pass(profile: &Profile, grade: u8) -> f64 {
    profile.stages.iter().find(|s| s.grade == grade).map_or(0.0, |s| s.per_pass)
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
