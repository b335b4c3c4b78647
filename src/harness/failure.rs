//! What makes two failures the same bug, and which bug to fix first. `verify`'s report and `fuzz`
//! group failures alike: by verdict, by the rule broken, and by the kind of move concerned (the
//! illegal move the bot played, or the single answer it missed), so a grader reads one line per
//! bug rather than one per case, and two bugs are never merged.

use super::referee::MoveKind;
use super::verdict::Verdict;

pub use super::cause::Cause;

/// What makes two failures the same bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Signature {
    pub verdict: Verdict,
    /// The rule broken (`protected-by-sentinel`), or for a missed move `missed-` and the kind
    /// of move missed (`missed-general-swap`).
    pub rule: Option<String>,
    /// The piece of the move concerned: played (illegal move) or missed.
    pub piece: Option<String>,
    /// The action of that move (`swap`, `convert`).
    pub move_kind: Option<String>,
}

impl Signature {
    /// The signature of a failure with `verdict` and the rule the game named (`rule`), given the
    /// kind of the move the bot played (`played`) and of the single answer it should have
    /// played (`missed`), when known. An illegal move is about the move played. Any other
    /// failure with a single answer is about that answer, whatever the verdict: a bot that
    /// writes nothing or crashes where the only move is a protected conversion has a different
    /// bug from one that does so where it is a swap with the General.
    pub fn of(
        verdict: Verdict,
        rule: Option<&str>,
        played: Option<&MoveKind>,
        missed: Option<&MoveKind>,
    ) -> Signature {
        let mut s = Signature { verdict, rule: rule.map(str::to_string), piece: None, move_kind: None };
        if verdict == Verdict::IllegalMove {
            if let Some(kind) = played {
                s.piece = Some(kind.piece.clone());
                s.move_kind = Some(kind.action.clone());
            }
        } else if let Some(kind) = missed.filter(|_| verdict != Verdict::Pass) {
            let what = kind.edge.clone().unwrap_or_else(|| kind.action.clone());
            s.rule = Some(format!("missed-{what}"));
            s.piece = Some(kind.piece.clone());
            s.move_kind = Some(kind.action.clone());
        }
        s
    }

    /// A short name for files: verdict, rule, piece and move, as far as known.
    pub fn slug(&self) -> String {
        let mut parts = vec![self.verdict.to_string()];
        parts.extend(self.rule.iter().cloned());
        parts.extend(self.piece.iter().map(|p| p.to_lowercase()));
        parts.extend(self.move_kind.iter().cloned());
        parts.join("-").chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
    }

    /// The signature in words for a heading: `illegal-move (protected-by-sentinel; Catapult
    /// shot)`, `crash (missed-general-swap; Jester swap)`, `timeout`.
    pub fn describe(&self) -> String {
        match (&self.rule, &self.piece, &self.move_kind) {
            (Some(r), Some(p), Some(k)) => format!("{} ({r}; {p} {k})", self.verdict),
            (Some(r), _, _) => format!("{} ({r})", self.verdict),
            _ => self.verdict.to_string(),
        }
    }

    /// How soon this failure should be fixed; see [`urgency`].
    pub fn urgency(&self) -> u8 {
        urgency(self.verdict)
    }
}

/// How soon a failure with `verdict` should be fixed, 0 first. An illegal move loses every game
/// it is played in and a crash every game it happens in: those come first. Then what stops a
/// bot from answering at all (a timeout, an output that cannot be read, none, the board
/// unchanged), then legal but wrong answers, and last the cases that never ran.
pub fn urgency(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::IllegalMove => 0,
        Verdict::Crash => 1,
        Verdict::Timeout => 2,
        Verdict::MalformedOutput => 3,
        Verdict::NoOutput => 4,
        Verdict::Unchanged => 5,
        Verdict::WrongMove | Verdict::WrongAnswer => 6,
        Verdict::NotRun | Verdict::GraderError => 7,
        Verdict::Pass => 8,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A move kind named `PIECE ACTION` (the report's tests use it too).
    pub(crate) fn kind(piece: &str, action: &str, edge: Option<&str>) -> MoveKind {
        MoveKind {
            piece: piece.into(),
            action: action.into(),
            edge: edge.map(str::to_string),
            name: format!("{piece} {action}"),
        }
    }

    #[test]
    fn slugs_name_every_part_and_only_safe_characters() {
        let s = Signature {
            verdict: Verdict::Unchanged,
            rule: Some("missed-general-swap".into()),
            piece: Some("Jester".into()),
            move_kind: Some("swap".into()),
        };
        assert_eq!(s.slug(), "unchanged-missed-general-swap-jester-swap");
        let s = Signature { verdict: Verdict::Crash, rule: None, piece: None, move_kind: None };
        assert_eq!(s.slug(), "crash");
    }

    #[test]
    fn an_illegal_move_is_about_the_move_played_and_anything_else_about_the_answer_missed() {
        let shot = kind("Catapult", "shot", Some("catapult-shot"));
        let swap = kind("Jester", "swap", Some("general-swap"));
        let illegal =
            Signature::of(Verdict::IllegalMove, Some("protected-by-sentinel"), Some(&shot), Some(&swap));
        assert_eq!(illegal.describe(), "illegal-move (protected-by-sentinel; Catapult shot)");
        // No output and crashes are split by the move missed, as wrong moves are.
        for verdict in [Verdict::NoOutput, Verdict::Crash, Verdict::WrongMove, Verdict::Timeout] {
            let s = Signature::of(verdict, None, None, Some(&swap));
            assert_eq!(s.rule.as_deref(), Some("missed-general-swap"), "{verdict}");
            assert_ne!(s, Signature::of(verdict, None, None, Some(&shot)));
        }
        // Without a single answer the verdict alone groups.
        assert_eq!(Signature::of(Verdict::Crash, None, None, None).describe(), "crash");
    }

    #[test]
    fn illegal_moves_and_crashes_come_before_wrong_answers() {
        let mut verdicts = Verdict::ALL.to_vec();
        verdicts.sort_by_key(|&v| urgency(v));
        assert_eq!(&verdicts[..2], &[Verdict::IllegalMove, Verdict::Crash]);
        assert!(urgency(Verdict::WrongMove) > urgency(Verdict::NoOutput));
        assert_eq!(verdicts.last(), Some(&Verdict::Pass));
    }
}
