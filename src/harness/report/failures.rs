//! A run's failures grouped by cause and put in the order to fix them, for the human report,
//! the HTML page and the JSON's `failures`: a summary line per cause first, then each cause
//! with its symptoms and at least one case in full.
//!
//! Each failure names a few candidate causes ([`candidates`]); the causes that explain the most
//! failures are taken first (a greedy set cover), so one bug that shows as many symptoms is
//! read as one:
//! - the cause the game names (Pente's columns that skip I behind illegal and wrong points,
//!   chess-a1's `print_board` behind `main()`'s transcripts): always taken;
//! - an illegal move: the rule it breaks, whatever piece broke it (one missing check of the
//!   General's safety is one bug, not one per piece);
//! - a wrong move: its category, or the rule edge of the answer missed across categories (a bot
//!   that never plays a swap with the General misses it in every grade);
//! - a failure without a move (a crash, a timeout, no output): the verdict and what the bot
//!   said last or printed.
//!
//! Groups are ordered: illegal moves and crashes first, then what stops a bot from answering,
//! then wrong answers stage by stage (causes in earlier stages before the symptoms in later
//! ones: chess-a1's functions before the `main()` transcripts), a cause the game named before
//! the verdicts it explains, the larger first among equals.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::width::WIDTH;
use super::{VerifyReport, wrap_shell};
use crate::harness::category;
use crate::harness::failure::{Cause, Signature, urgency};
use crate::harness::referee::{named, some_of};
use crate::harness::verdict::Verdict;
use crate::harness::verify::CaseResult;

/// How many cases of a group are shown in full at most, unless `--details` asks for more.
const GROUP_SHOWN: usize = 3;

/// A group's other cases are listed one line each (move and reason) up to this many; beyond,
/// only their names.
const GROUP_LISTED: usize = 6;

/// How many expected moves a failure lists before it gives the count instead.
const EXPECTED_SHOWN: usize = 8;

/// Failures that are one bug.
pub struct Group<'a> {
    /// What they have in common.
    pub cause: Cause,
    /// Whether the game named the cause (rather than the report inferring it from verdicts).
    pub stated: bool,
    /// The cases, in corpus order.
    pub cases: Vec<&'a CaseResult>,
}

impl<'a> Group<'a> {
    /// The signature of the group's first case (what the group was, before groups were causes).
    pub fn signature(&self) -> Signature {
        signature(self.cases[0])
    }

    /// The category all the cases share, when they are wrong answers of one stage; else `None`.
    pub fn category(&self) -> Option<&str> {
        let first = &self.cases[0].category;
        (self.cases.iter().all(|c| is_wrong(c.verdict) && c.category == *first)).then_some(first.as_str())
    }

    /// The distinct symptoms (signatures in words, with the category for wrong answers), most
    /// frequent first, with their counts.
    pub fn symptoms(&self) -> Vec<(String, usize)> {
        counted(self.cases.iter().map(|c| symptom(c)))
    }

    /// The categories the cases are in, in the order met, with their counts.
    pub fn categories(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for c in &self.cases {
            let label = category::label(&c.category);
            match counts.iter_mut().find(|(name, _)| *name == label) {
                Some((_, n)) => *n += 1,
                None => counts.push((label, 1)),
            }
        }
        counts
    }

    /// For a group of failures without a move (a crash, a timeout, no output), or of wrong
    /// moves with several kinds of answer: the kinds of the answers missed, most frequent
    /// first, with their counts (empty when no case had a single answer).
    pub fn missed(&self) -> Vec<(String, usize)> {
        counted(
            self.cases
                .iter()
                .filter(|c| c.verdict != Verdict::IllegalMove)
                .filter_map(|c| c.expected_kind.as_ref().map(|k| k.name.clone())),
        )
    }

    /// For illegal moves: the kinds of the moves played, most frequent first.
    pub fn played(&self) -> Vec<(String, usize)> {
        counted(
            self.cases
                .iter()
                .filter(|c| c.verdict == Verdict::IllegalMove)
                .filter_map(|c| c.played_kind.as_ref().map(|k| k.name.clone())),
        )
    }

    /// For wrong moves of graded categories: how many of the moves played are the answer of
    /// another grade, by grade, highest first (`grade 6: 26` says the bot answers grade 7 as
    /// grade 6 does).
    pub fn answers_of_other_grades(&self) -> Vec<(String, usize)> {
        counted(self.cases.iter().filter(|c| c.verdict == Verdict::WrongMove).filter_map(|c| {
            let own = category::grade_number(&c.category)?;
            let best = c.satisfies.iter().copied().filter(|&g| g != own).max()?;
            Some(format!("grade {best}"))
        }))
    }

    /// The group in words, as its heading says it: the signature of its cases when they share
    /// one (`illegal-move (protected-by-sentinel; Catapult shot)`, `wrong-move
    /// (missed-zombie-leap; Zombie leap) in grade 7`), else its cause (`illegal-move
    /// (general-in-danger)`, `the columns skip I: ...`).
    pub fn describe(&self) -> String {
        let symptoms = self.symptoms();
        if !self.stated && symptoms.len() == 1 {
            return symptoms[0].0.clone();
        }
        self.cause.text.clone()
    }

    /// The cases shown in full: the first of each symptom (most frequent first), then the
    /// others in corpus order, `at_most` in all (and at least one).
    pub fn examples(&self, at_most: usize) -> Vec<&'a CaseResult> {
        let at_most = at_most.max(1).min(self.cases.len());
        let mut shown: Vec<&'a CaseResult> = Vec::new();
        for (s, _) in self.symptoms() {
            if shown.len() == at_most {
                break;
            }
            if let Some(c) = self.cases.iter().find(|c| symptom(c) == s) {
                shown.push(c);
            }
        }
        for c in &self.cases {
            if shown.len() == at_most {
                break;
            }
            if !shown.iter().any(|s| std::ptr::eq(*s, *c)) {
                shown.push(c);
            }
        }
        // In corpus order, as the list of the others is.
        shown.sort_by_key(|s| self.cases.iter().position(|c| std::ptr::eq(*c, *s)));
        shown
    }
}

/// Items counted, most frequent first, ties in the order first met.
fn counted(items: impl Iterator<Item = String>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for item in items {
        match counts.iter_mut().find(|(name, _)| *name == item) {
            Some((_, n)) => *n += 1,
            None => counts.push((item, 1)),
        }
    }
    // A stable sort: ties stay in the order first met.
    counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    counts
}

/// A wrong answer (a legal move or a returned value), judged against its category.
fn is_wrong(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::WrongMove | Verdict::WrongAnswer)
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

/// A case's symptom in words: its signature, and its category for a wrong answer.
fn symptom(case: &CaseResult) -> String {
    let s = signature(case).describe();
    if is_wrong(case.verdict) { format!("{s} in {}", category::label(&case.category)) } else { s }
}

/// What a crash said last, with its numbers and side names blanked: `white has no legal move`
/// and `black has no legal move` are one crash.
fn crash_key(case: &CaseResult) -> String {
    let words = last_words(case).unwrap_or("");
    let sides: Vec<String> =
        [crate::side::Side::White, crate::side::Side::Black].iter().map(|s| s.to_string()).collect();
    words
        .split(|c: char| !c.is_alphanumeric())
        .map(|w| {
            if w.chars().all(|c| c.is_ascii_digit()) || sides.iter().any(|s| s.eq_ignore_ascii_case(w)) {
                "_"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a crash said last on stderr, which tells two crashes apart.
fn last_words(case: &CaseResult) -> Option<&str> {
    if case.verdict != Verdict::Crash {
        return None;
    }
    case.stderr_tail.lines().rev().map(str::trim).find(|l| !l.is_empty())
}

/// Whether a bot that wrote no answer printed something on stdout instead.
fn printed_instead(case: &CaseResult) -> bool {
    matches!(case.verdict, Verdict::NoOutput | Verdict::Crash)
        && case.output.is_none()
        && case.stdout_head.lines().any(|l| !l.trim().is_empty())
}

/// One cause a failure may have.
struct Candidate {
    cause: Cause,
    stated: bool,
}

/// The causes a failure may have, as [the module](self) lists them. A cause the game names as
/// possible only counts when it is among `sure`, the causes some failure shows for sure.
fn candidates(case: &CaseResult, sure: &[&str]) -> Vec<Candidate> {
    let inferred = |key: String, text: String| Candidate { cause: Cause::new(key, text), stated: false };
    if let Some(cause) = case.cause.as_ref().filter(|c| sure.contains(&c.key.as_str())) {
        return vec![Candidate { cause: Cause { sure: true, ..cause.clone() }, stated: true }];
    }
    let rule = case.rule.as_deref().unwrap_or("");
    let verdict = case.verdict;
    let mut out = match verdict {
        Verdict::IllegalMove => {
            return vec![inferred(
                format!("illegal:{rule}"),
                Signature::of(verdict, case.rule.as_deref(), None, None).describe(),
            )];
        }
        Verdict::WrongMove => {
            let mut out = vec![inferred(
                format!("wrong:{}", case.category),
                format!("{verdict} in {}", category::label(&case.category)),
            )];
            if let Some(kind) = &case.expected_kind
                && let Some(edge) = &kind.edge
            {
                out.push(inferred(
                    format!("missed:{edge}"),
                    format!("missed {} answers ({edge})", kind.name),
                ));
            }
            out
        }
        Verdict::WrongAnswer => {
            return vec![inferred(
                format!("answer:{rule}"),
                Signature::of(verdict, case.rule.as_deref(), None, None).describe(),
            )];
        }
        Verdict::Crash if printed_instead(case) => vec![inferred(
            "printed:crash".into(),
            "crash: the bot printed on stdout, wrote no answer, and ended with an error".into(),
        )],
        Verdict::Crash => vec![inferred(format!("crash:{}", crash_key(case)), verdict.to_string())],
        Verdict::NoOutput if printed_instead(case) => vec![inferred(
            "printed:no-output".into(),
            "no-output: the bot printed on stdout instead of writing its answer".into(),
        )],
        Verdict::NotRun => return vec![inferred(format!("not-run:{}", case.reason), verdict.to_string())],
        _ => vec![inferred(
            format!("{verdict}:{rule}"),
            Signature::of(verdict, case.rule.as_deref(), None, None).describe(),
        )],
    };
    // A bot blind to one kind of move fails wherever that move is the answer: wrongly where it
    // has another move, with a crash or no answer where it has none.
    if verdict != Verdict::WrongMove
        && let Some(kind) = &case.expected_kind
        && let Some(edge) = &kind.edge
    {
        out.push(inferred(format!("missed:{edge}"), format!("missed {} answers ({edge})", kind.name)));
    }
    out
}

/// The failing `cases` grouped by cause and in the order to fix them. `categories` gives the
/// order of categories (the profile's stages); a category not listed comes last.
pub fn in_fix_order<'a>(cases: &'a [CaseResult], categories: &[String]) -> Vec<Group<'a>> {
    let failing: Vec<&'a CaseResult> = cases.iter().filter(|c| c.verdict != Verdict::Pass).collect();
    let sure: Vec<&str> =
        failing.iter().filter_map(|c| c.cause.as_ref().filter(|c| c.sure)).map(|c| c.key.as_str()).collect();
    let options: Vec<Vec<Candidate>> = failing.iter().map(|c| candidates(c, &sure)).collect();
    let mut owner: Vec<Option<usize>> = vec![None; failing.len()];
    let mut chosen: Vec<(Cause, bool)> = Vec::new();
    // The causes the game named are taken first; then, while failures are left, the cause that
    // explains most of them (ties: the one met first in corpus order).
    loop {
        let mut best: Option<(&Candidate, usize, bool)> = None;
        for (i, list) in options.iter().enumerate() {
            if owner[i].is_some() {
                continue;
            }
            for candidate in list {
                let n = (0..failing.len())
                    .filter(|&j| {
                        owner[j].is_none() && options[j].iter().any(|o| o.cause.key == candidate.cause.key)
                    })
                    .count();
                let better = match best {
                    None => true,
                    Some((_, m, stated)) => (candidate.stated, n) > (stated, m),
                };
                if better {
                    best = Some((candidate, n, candidate.stated));
                }
            }
        }
        let Some((candidate, _, stated)) = best else { break };
        let index = chosen.len();
        for j in 0..failing.len() {
            if owner[j].is_none() && options[j].iter().any(|o| o.cause.key == candidate.cause.key) {
                owner[j] = Some(index);
            }
        }
        chosen.push((candidate.cause.clone(), stated));
    }
    let mut groups: Vec<Group<'a>> =
        chosen.into_iter().map(|(cause, stated)| Group { cause, stated, cases: Vec::new() }).collect();
    for (case, group) in failing.iter().zip(owner) {
        if let Some(g) = group {
            groups[g].cases.push(case);
        }
    }
    groups.retain(|g| !g.cases.is_empty());
    let rank = |c: &CaseResult| {
        if is_wrong(c.verdict) {
            categories.iter().position(|k| *k == c.category).unwrap_or(categories.len())
        } else {
            0
        }
    };
    // The earliest case in corpus order breaks the last ties, so the order never depends on
    // how the cases were run.
    let first = |g: &Group| cases.iter().position(|c| std::ptr::eq(c, g.cases[0])).unwrap_or(0);
    groups.sort_by_key(|g| {
        (
            g.cases.iter().map(|c| urgency(c.verdict)).min().unwrap_or(u8::MAX),
            !g.stated,
            g.cases.iter().map(|c| rank(c)).min().unwrap_or(0),
            std::cmp::Reverse(g.cases.len()),
            first(g),
        )
    });
    groups
}

/// The groups as JSON, in the order to fix them: what each is and which cases it holds.
pub fn json(groups: &[Group]) -> Value {
    let pairs = |list: Vec<(String, usize)>, name: &str| -> Vec<Value> {
        list.into_iter().map(|(what, n)| json!({name: what, "count": n})).collect()
    };
    Value::Array(
        groups
            .iter()
            .map(|g| {
                json!({
                    "cause": {"key": g.cause.key, "text": g.cause.text, "stated_by_game": g.stated},
                    "signature": g.signature(),
                    "grade": g.category().map(|c| {
                        category::grade_number(c).map_or_else(|| json!(c), |n| json!(n))
                    }),
                    "what": g.describe(),
                    "count": g.cases.len(),
                    "symptoms": pairs(g.symptoms(), "what"),
                    "categories": pairs(g.categories(), "category"),
                    "missed": pairs(g.missed(), "kind"),
                    "played": pairs(g.played(), "kind"),
                    "cases": g.cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// `12 cases` / `1 case`.
pub fn cases_count(n: usize) -> String {
    format!("{n} case{}", if n == 1 { "" } else { "s" })
}

/// `a 3, b 1`.
fn listed(items: &[(String, usize)]) -> String {
    items.iter().map(|(what, n)| format!("{what} {n}")).collect::<Vec<_>>().join(", ")
}

/// The lines under a group's heading that say what its cases have in common and how they
/// differ: what the bot said, the symptoms, the categories, the moves played and missed.
pub fn summary_lines(g: &Group) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(line) = last_words(g.cases[0]) {
        out.push(format!("the bot said: {line}"));
    }
    let symptoms = g.symptoms();
    let verdicts = counted(g.cases.iter().map(|c| c.verdict.to_string()));
    if verdicts.len() > 1 || g.stated {
        out.push(format!("seen as: {}", listed(&verdicts)));
    }
    let categories = g.categories();
    if categories.len() > 1 {
        out.push(format!("in: {}", listed(&categories)));
    }
    let played = g.played();
    if played.len() > 1 {
        out.push(format!("the moves it played: {}", listed(&played)));
    }
    let missed = g.missed();
    let single_kind = symptoms.len() == 1 && g.cases.iter().all(|c| c.verdict == Verdict::WrongMove);
    if !missed.is_empty() && !single_kind {
        out.push(format!("the answers it missed: {}", listed(&missed)));
    }
    let others = g.answers_of_other_grades();
    if !others.is_empty() {
        out.push(format!("its moves are the answer of another grade: {}", listed(&others)));
    }
    out
}

/// The failures section of the human report: a summary line per cause, then each cause with
/// its heading, what its cases share, the first case in full (more, at most `detailed` in all
/// beyond the first of each group, a few of each group), the others a line each or by name.
pub fn render(out: &mut String, report: &VerifyReport, detailed: usize) {
    let categories: Vec<String> = report.score.stages.iter().map(|s| s.category.clone()).collect();
    let groups = in_fix_order(report.cases, &categories);
    let failing: usize = groups.iter().map(|g| g.cases.len()).sum();
    let _ = writeln!(out, "\n{failing} failure(s) from {} cause(s), in the order to fix them:", groups.len());
    for (i, g) in groups.iter().enumerate() {
        let _ = writeln!(out, "  {}. {}: {}", i + 1, g.describe(), cases_count(g.cases.len()));
    }
    let mut extra = detailed;
    let mut held_back = false;
    for (i, g) in groups.iter().enumerate() {
        let n = g.cases.len();
        let _ = writeln!(out, "\n{}. {}: {}", i + 1, g.describe(), cases_count(n));
        for line in summary_lines(g) {
            let _ = writeln!(out, "   {line}");
        }
        // Every group shows one case in full whatever `--details` says; more come from it.
        let wanted = GROUP_SHOWN.min(1 + extra).min(n);
        let full = g.examples(wanted);
        extra = extra.saturating_sub(full.len().saturating_sub(1));
        for f in &full {
            detail(out, f, &report.paths.text(&f.reproduce));
        }
        let rest: Vec<&&CaseResult> =
            g.cases.iter().filter(|c| !full.iter().any(|s| std::ptr::eq(*s, **c))).collect();
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
pub fn expected(f: &CaseResult) -> String {
    match &f.expected[..] {
        [] => "-".to_string(),
        [one] => named(one, f.expected_kind.as_ref()),
        many => some_of(many, EXPECTED_SHOWN, "moves"),
    }
}

/// What the case's category asks for, when the game says: `grade 5 asks for the winning move`.
pub fn asks(f: &CaseResult) -> Option<String> {
    f.asks.as_ref().map(|a| format!("{} asks for {a}", category::label(&f.category)))
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
    if let Some(asks) = asks(f) {
        let _ = writeln!(out, "            ({asks})");
    }
    let _ = writeln!(out, "  why:      {}", f.reason);
    let _ = writeln!(out, "  time:     {:.3} s", f.elapsed_ms as f64 / 1000.0);
    if !f.stderr_tail.is_empty() {
        let _ = writeln!(out, "  stderr:   {}", f.stderr_tail.replace('\n', "\n            "));
    }
    if printed_instead(f) {
        let _ = writeln!(out, "  stdout:   {}", f.stdout_head.replace('\n', "\n            "));
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
    if let Some(explain) = &f.explain {
        let _ = writeln!(out, "  explain (where reproduce wrote case.txt):");
        for line in wrap_shell(explain, WIDTH - 4).lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::failure::tests::kind;
    use crate::harness::referee::MoveKind;

    fn case(name: &str, category: &str, verdict: Verdict) -> CaseResult {
        CaseResult {
            expected: vec!["x".into()],
            ..CaseResult::bare(
                format!("{name}.txt"),
                name.into(),
                category.into(),
                crate::side::Side::White,
                verdict,
                "why".into(),
            )
        }
    }

    fn illegal(name: &str, rule: &str, piece: &str) -> CaseResult {
        let mut c = case(name, "grade5", Verdict::IllegalMove);
        c.rule = Some(rule.into());
        c.played = Some("m".into());
        c.played_kind = Some(kind(piece, "move", None));
        c
    }

    fn wrong(name: &str, category: &str, missed: MoveKind) -> CaseResult {
        let mut c = case(name, category, Verdict::WrongMove);
        c.played = Some("m".into());
        c.expected_kind = Some(missed);
        c
    }

    #[test]
    fn one_rule_broken_by_many_pieces_is_one_cause() {
        let cases = vec![
            illegal("a", "general-in-danger", "Sentinel"),
            illegal("b", "general-in-danger", "Dragon"),
            illegal("c", "general-in-danger", "Sentinel"),
            illegal("d", "occupied", "Miner"),
        ];
        let groups = in_fix_order(&cases, &[]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].describe(), "illegal-move (general-in-danger)");
        assert_eq!(groups[0].cases.len(), 3);
        assert_eq!(
            groups[0].played(),
            vec![("Sentinel move".to_string(), 2), ("Dragon move".to_string(), 1)]
        );
        // A group of one symptom keeps its signature as heading.
        assert_eq!(groups[1].describe(), "illegal-move (occupied; Miner move)");
        // One of each symptom is shown in full first.
        let shown: Vec<&str> = groups[0].examples(2).iter().map(|c| c.name.as_str()).collect();
        assert_eq!(shown, ["a", "b"]);
    }

    #[test]
    fn a_missed_edge_across_grades_outweighs_each_grade_and_a_grade_outweighs_its_kinds() {
        let swap = kind("Jester", "swap", Some("general-swap"));
        let leap = kind("Zombie", "leap", Some("zombie-leap"));
        let plain = kind("Miner", "move", None);
        let categories: Vec<String> = ["grade5", "grade6", "grade7"].map(String::from).to_vec();
        // The swap missed in every grade is one cause, before the grade-7 leap.
        let cases = vec![
            wrong("a", "grade5", swap.clone()),
            wrong("b", "grade6", swap.clone()),
            wrong("c", "grade7", swap.clone()),
            wrong("d", "grade7", leap.clone()),
        ];
        let groups = in_fix_order(&cases, &categories);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].cause.key, "missed:general-swap");
        assert_eq!(groups[0].cases.len(), 3);
        assert_eq!(groups[1].describe(), "wrong-move (missed-zombie-leap; Zombie leap) in grade 7");
        // Misses of many kinds in one grade are one cause, the kinds listed under it.
        let cases = vec![
            wrong("c", "grade7", swap),
            wrong("d", "grade7", leap),
            wrong("e", "grade7", plain.clone()),
            wrong("f", "grade7", plain),
        ];
        let groups = in_fix_order(&cases, &categories);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].describe(), "wrong-move in grade 7");
        assert!(
            summary_lines(&groups[0]).iter().any(|l| l.starts_with("the answers it missed: Miner move 2"))
        );
    }

    #[test]
    fn a_cause_the_game_names_comes_before_the_verdicts_it_explains() {
        let mut skip = illegal("b", "occupied", "stone");
        skip.cause = Some(Cause::new("columns-skip-i", "the columns skip I"));
        let mut malformed = case("c", "legal", Verdict::MalformedOutput);
        malformed.cause = skip.cause.clone();
        let cases =
            vec![illegal("a", "occupied", "stone"), illegal("a2", "occupied", "stone"), skip, malformed];
        let groups = in_fix_order(&cases, &[]);
        assert_eq!(groups[0].describe(), "the columns skip I");
        assert_eq!(groups[0].cases.len(), 2);
        assert!(summary_lines(&groups[0])[0].starts_with("seen as: "), "{:?}", summary_lines(&groups[0]));
        assert_eq!(groups[1].cases.len(), 2);
        // A cause the game only thinks possible counts when a failure shows it for sure.
        let mut maybe = illegal("e", "occupied", "stone");
        maybe.cause = Some(Cause::new("columns-skip-i", "the columns skip I").possible());
        let cases = vec![illegal("a", "occupied", "stone"), maybe];
        let groups = in_fix_order(&cases, &[]);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].describe(), "illegal-move (occupied; stone move)");
    }

    #[test]
    fn wrong_answers_go_stage_by_stage() {
        let mut main = case("m", "main", Verdict::WrongAnswer);
        main.rule = Some("main-transcript".into());
        let mut board = case("p", "interaction", Verdict::WrongAnswer);
        board.rule = Some("print_board-prints".into());
        let cases = vec![main.clone(), main.clone(), main, board];
        let categories: Vec<String> = ["interaction", "main"].map(String::from).to_vec();
        let groups = in_fix_order(&cases, &categories);
        assert_eq!(groups[0].cause.key, "answer:print_board-prints");
        assert_eq!(groups[1].cases.len(), 3);
    }
}
