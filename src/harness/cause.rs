//! What a game says caused a failure, below both the verdict that carries it
//! ([`super::verdict::Judgement::cause`]) and the grouping of failures that reads it
//! ([`super::failure`]), so that neither of those two imports the other.

/// What a game says caused a failure, when it can tell better than the verdict and the rule: a
/// notation error behind an illegal move (Pente's columns that skip I), the function whose
/// mistake a transcript shows (chess-a1's `print_board` behind `main()`'s output). Reports
/// group failures by cause, so one bug that shows as many symptoms is read as one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Cause {
    /// Failures with the same key are one bug (`columns-skip-i`, `print_board-prints`).
    pub key: String,
    /// The cause in words, as the report heads its group: `the columns skip I: ...`.
    pub text: String,
    /// Whether this failure alone shows the cause (the bot wrote a column `I`). A possible
    /// cause (a point one column left of a legal one) counts only when some failure of the same
    /// run shows it for sure; otherwise the failure is grouped as if the game had named none.
    pub sure: bool,
}

impl Cause {
    /// A cause with `key`, said as `text`, shown for sure.
    pub fn new(key: impl Into<String>, text: impl Into<String>) -> Cause {
        Cause { key: key.into(), text: text.into(), sure: true }
    }

    /// The cause, as possible only.
    pub fn possible(self) -> Cause {
        Cause { sure: false, ..self }
    }
}
