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
    pub elapsed: Duration,
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
