//! Games a bot lost by forfeit (by what it did on its own turn, not by the game's rules),
//! counted by cause for the reports and the gradebook: a strategy that threw in 11 of 20 games
//! must say so beside "9 of 20 won". [`crate::harness::matches::forfeits`] counts them.

/// The longest reason kept for a cause.
pub const REASON_CHARS: usize = 160;

/// The games bot A lost by forfeit, by cause, for reports and the gradebook.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Forfeits {
    /// Games bot A lost by forfeit.
    pub lost: usize,
    /// The causes, most games first.
    pub causes: Vec<ForfeitCause>,
}

/// Games lost by forfeit for one cause.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ForfeitCause {
    /// `timeout` (its CPU time, its idle time or its clock ran out), `exception` (its code
    /// threw), `crash` (it died, or gave no answer), or the verdict of an unusable answer
    /// (`illegal-move`, `malformed-output`, `no-output`, `unchanged`).
    pub cause: String,
    /// How many games.
    pub games: usize,
    /// The first such game's number.
    pub first_game: usize,
    /// Its reason in one line (an exception with where it was thrown).
    pub first: String,
}

impl Forfeits {
    /// Counts a game, number `game`, lost for `cause` (its reason `why` kept if it is the
    /// first of its cause, cut to [`REASON_CHARS`]). Causes stay in order, most games first,
    /// ties in the order they first happened.
    pub fn add(&mut self, cause: &str, game: usize, why: String) {
        self.lost += 1;
        match self.causes.iter_mut().find(|c| c.cause == cause) {
            Some(c) => c.games += 1,
            None => {
                let first = if why.chars().count() > REASON_CHARS {
                    why.chars().take(REASON_CHARS - 3).collect::<String>() + "..."
                } else {
                    why
                };
                self.causes.push(ForfeitCause {
                    cause: cause.to_string(),
                    games: 1,
                    first_game: game,
                    first,
                });
            }
        }
        self.causes.sort_by(|a, b| b.games.cmp(&a.games).then(a.first_game.cmp(&b.first_game)));
    }

    /// Games lost by running out of time (CPU, idle time or clock).
    pub fn timeouts(&self) -> usize {
        self.count("timeout")
    }

    /// Games lost by a crash or an exception.
    pub fn crashes(&self) -> usize {
        self.count("crash") + self.count("exception")
    }

    fn count(&self, cause: &str) -> usize {
        self.causes.iter().filter(|c| c.cause == cause).map(|c| c.games).sum()
    }

    /// One plain line for a report, `11 lost by exception: takeTurn threw
    /// NullPointerException at Strategy.takeTurn(Strategy.java:12) (first in game 3)`; `None`
    /// without forfeits.
    pub fn sentence(&self) -> Option<String> {
        if self.lost == 0 {
            return None;
        }
        let parts: Vec<String> = self
            .causes
            .iter()
            .map(|c| format!("{} lost by {}: {} (first in game {})", c.games, c.cause, c.first, c.first_game))
            .collect();
        Some(parts.join("; "))
    }
}
