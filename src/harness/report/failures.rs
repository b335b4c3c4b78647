//! A run's failures grouped into bugs and put in the order to fix them, for the human report
//! and the JSON's `failures`: illegal moves and crashes first, then what stops a bot from
//! answering, then wrong answers grade by grade (category by category), largest first among
//! equals.
//!
//! Illegal and wrong moves are grouped as `fuzz` groups them ([`Signature`]): one rule and one
//! kind of move each (the move played when illegal, the answer missed when wrong). A failure
//! without a move (a crash, a timeout, no output) is grouped by what the bot said last, and the
//! group lists the kinds of answer it missed: the same crash message over every kind of move is
//! one problem to fix, and `fuzz`, which shrinks each group, is where such failures are split by
//! the missed move.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::human::WIDTH;
use super::{VerifyReport, wrap_shell};
use crate::harness::category;
use crate::harness::failure::Signature;
use crate::harness::referee::{named, some_of};
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// How many cases of a group are shown in full at most.
const GROUP_SHOWN: usize = 3;

/// A group's other cases are listed one line each (move and reason) up to this many; beyond,
/// only their names.
const GROUP_LISTED: usize = 6;

/// How many expected moves a failure lists before it gives the count instead.
const EXPECTED_SHOWN: usize = 8;

/// Failures that are one bug.
pub struct Group<'a> {
    pub signature: Signature,
    /// The category, for wrong answers: they are grouped grade by grade.
    pub category: Option<String>,
    /// The cases, in corpus order.
    pub cases: Vec<&'a CaseResult>,
}

impl<'a> Group<'a> {
    /// For a group of failures without a move: the kinds of the answers missed, most frequent
    /// first, with their counts (empty when no case had a single answer).
    pub fn missed(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        if matches!(self.signature.verdict, Verdict::IllegalMove | Verdict::WrongMove) {
            return counts;
        }
        for kind in self.cases.iter().filter_map(|c| c.expected_kind.as_ref()) {
            match counts.iter_mut().find(|(name, _)| *name == kind.name) {
                Some((_, n)) => *n += 1,
                None => counts.push((kind.name.clone(), 1)),
            }
        }
        // A stable sort: ties stay in the order first met.
        counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        counts
    }

    /// The group in words: `illegal-move (protected-by-sentinel; Catapult shot)`,
    /// `wrong-move (missed-zombie-leap; Zombie leap) in grade 7`.
    pub fn describe(&self) -> String {
        match &self.category {
            Some(c) => format!("{} in {}", self.signature.describe(), category::label(c)),
            None => self.signature.describe(),
        }
    }
}

/// The signature of a case's failure: [`Signature::of`] for a move (illegal or wrong), the
/// verdict and rule alone for a failure without one.
pub fn signature(case: &CaseResult) -> Signature {
    if matches!(case.verdict, Verdict::IllegalMove | Verdict::WrongMove) {
        Signature::of(
            case.verdict,
            case.rule.as_deref(),
            case.played_kind.as_ref(),
            case.expected_kind.as_ref(),
        )
    } else {
        Signature::of(case.verdict, case.rule.as_deref(), None, None)
    }
}

/// What a crash said last on stderr, which tells two crashes apart.
fn last_words(case: &CaseResult) -> Option<&str> {
    if case.verdict != Verdict::Crash {
        return None;
    }
    case.stderr_tail.lines().rev().map(str::trim).find(|l| !l.is_empty())
}

/// The failing `cases` grouped and in the order to fix them. `categories` gives the order of
/// categories (the profile's stages); wrong answers in a category not listed come last.
pub fn in_fix_order<'a>(cases: &'a [CaseResult], categories: &[String]) -> Vec<Group<'a>> {
    let mut groups: Vec<(Group<'a>, Option<&'a str>)> = Vec::new();
    for case in cases.iter().filter(|c| c.verdict != Verdict::Pass) {
        let signature = signature(case);
        let category = (case.verdict == Verdict::WrongMove).then(|| case.category.clone());
        let words = last_words(case);
        match groups
            .iter_mut()
            .find(|(g, w)| g.signature == signature && g.category == category && *w == words)
        {
            Some((g, _)) => g.cases.push(case),
            None => groups.push((Group { signature, category, cases: vec![case] }, words)),
        }
    }
    let rank = |c: &Option<String>| {
        c.as_ref().map_or(0, |c| categories.iter().position(|k| k == c).unwrap_or(categories.len()))
    };
    // A stable sort: among equals, the group found first in corpus order stays first.
    let mut groups: Vec<Group<'a>> = groups.into_iter().map(|(g, _)| g).collect();
    groups.sort_by_key(|g| (g.signature.urgency(), rank(&g.category), std::cmp::Reverse(g.cases.len())));
    groups
}

/// The groups as JSON, in the order to fix them: what each is and which cases it holds.
pub fn json(groups: &[Group]) -> Value {
    Value::Array(
        groups
            .iter()
            .map(|g| {
                json!({
                    "signature": g.signature,
                    "grade": g.category.as_deref().map(|c| {
                        category::grade_number(c).map_or_else(|| json!(c), |n| json!(n))
                    }),
                    "what": g.describe(),
                    "count": g.cases.len(),
                    "missed": g.missed().into_iter().map(|(kind, n)| json!({"kind": kind, "count": n})).collect::<Vec<_>>(),
                    "cases": g.cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// The failures section of the human report: each group with a heading, the first cases in full
/// (at most `detailed` in all), the others a line each or by name.
pub fn render(out: &mut String, report: &VerifyReport, detailed: usize) {
    let categories: Vec<String> = report.score.stages.iter().map(|s| s.category.clone()).collect();
    let groups = in_fix_order(report.cases, &categories);
    let mut shown = 0;
    let mut held_back = false;
    for (i, g) in groups.iter().enumerate() {
        let n = g.cases.len();
        let _ = writeln!(out, "\n{}. {}: {n} case{}", i + 1, g.describe(), if n == 1 { "" } else { "s" });
        if let Some(line) = last_words(g.cases[0]) {
            let _ = writeln!(out, "   the bot said: {line}");
        }
        let missed = g.missed();
        if !missed.is_empty() {
            let list: Vec<String> = missed.iter().map(|(kind, n)| format!("{kind} {n}")).collect();
            let _ = writeln!(out, "   the answers it missed: {}", list.join(", "));
        }
        let full = GROUP_SHOWN.min(detailed.saturating_sub(shown)).min(n);
        for f in &g.cases[..full] {
            detail(out, f, &report.paths.text(&f.reproduce));
        }
        shown += full;
        let rest = &g.cases[full..];
        held_back |= !rest.is_empty();
        if rest.len() <= GROUP_LISTED {
            for f in rest {
                let mv = f.played.as_deref().map_or("-".to_string(), |m| named(m, f.played_kind.as_ref()));
                let _ = writeln!(out, "   {}  {}  {mv}: {}", f.name, f.verdict, f.reason);
            }
        } else {
            let names: Vec<&str> = rest.iter().map(|c| c.name.as_str()).collect();
            let listed = names.iter().take(GROUP_LISTED).copied().collect::<Vec<_>>().join(", ");
            let _ = writeln!(out, "   also {listed} and {} more", names.len() - GROUP_LISTED);
        }
    }
    if held_back {
        let _ = writeln!(out, "\n(--details N shows more in full; --json has everything)");
    }
}

/// The expected answers: the single one named with its kind, or at most a handful with the
/// count.
fn expected(f: &CaseResult) -> String {
    match &f.expected[..] {
        [] => "-".to_string(),
        [one] => named(one, f.expected_kind.as_ref()),
        many => some_of(many, EXPECTED_SHOWN, "moves"),
    }
}

/// One failure in full; `reproduce` is its reproduce line with paths already made relative
/// (before folding, so the folds are where the shown line needs them). The position is drawn
/// when the game draws it and there is no diff of boards to show it.
fn detail(out: &mut String, f: &CaseResult, reproduce: &str) {
    let _ = writeln!(out, "\n{}  {}", f.name, f.verdict.as_str().to_uppercase());
    if let Some(m) = &f.played {
        let _ = writeln!(out, "  played:   {}", named(m, f.played_kind.as_ref()));
    }
    let _ = writeln!(out, "  expected: {}", expected(f));
    let _ = writeln!(out, "  why:      {}", f.reason);
    let _ = writeln!(out, "  time:     {:.3} s", f.elapsed_ms as f64 / 1000.0);
    if !f.stderr_tail.is_empty() {
        let _ = writeln!(out, "  stderr:   {}", f.stderr_tail.replace('\n', "\n            "));
    }
    match (&f.diff, &f.picture) {
        (Some(diff), _) => {
            for line in diff.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        (None, Some(picture)) => {
            for line in picture.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        (None, None) => {}
    }
    let _ = writeln!(out, "  reproduce:");
    for line in wrap_shell(reproduce, WIDTH - 4).lines() {
        let _ = writeln!(out, "    {line}");
    }
}
