//! When a game is over. The seed's object is "to expand and eventually take over all of the
//! opponent's planets"; it states no turn limit, so arbiter sets one.

use super::planet::Player;
use super::rules::{COURSE_TURN_LIMIT, End};
use super::state::State;

/// Plies (turns of either player) after which the game stops and is decided on total
/// population: 500 turns each.
pub const TURN_LIMIT: u32 = 1000;

impl State {
    /// The plies after which this game stops: [`TURN_LIMIT`], or [`COURSE_TURN_LIMIT`] with
    /// `end=course`.
    pub fn turn_limit(&self) -> u32 {
        match self.rules.end {
            End::Arbiter => TURN_LIMIT,
            End::Course => COURSE_TURN_LIMIT,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; `None` for a draw.
    pub winner: Option<Player>,
    /// A short name: `conquest` or `turn-limit`.
    pub name: &'static str,
    /// A sentence.
    pub detail: String,
}

/// The game's end, if it has come: a player with no planet and no shuttle in flight has lost
/// (both at once: a draw); at the turn limit the player with more people (on planets and in
/// flight) wins, equal totals draw. With `end=course` a double wipe-out is Player 1's win and
/// the turn limit gives no winner.
pub fn ending(state: &State, limit: u32) -> Option<Ending> {
    let alive = Player::BOTH
        .map(|p| state.planets_of(p).next().is_some() || state.shuttles.iter().any(|s| s.owner == p));
    let totals = Player::BOTH.map(|p| state.total_population(p));
    let refusals = format!(
        "; refused orders: player 1 {}, player 2 {}",
        state.refused_summary(Player::One),
        state.refused_summary(Player::Two)
    );
    match alive {
        [true, true] => {}
        [false, false] if state.rules.end == End::Course => {
            return Some(Ending {
                winner: Some(Player::One),
                name: "conquest",
                detail: format!(
                    "both players lost everything at ply {}; player 1 wins, as the course's engine checks player 1's win first{refusals}",
                    state.ply
                ),
            });
        }
        [false, false] => {
            return Some(Ending {
                winner: None,
                name: "conquest",
                detail: format!("both players lost everything at ply {}{refusals}", state.ply),
            });
        }
        [one, _] => {
            let (winner, loser) = if one { (Player::One, Player::Two) } else { (Player::Two, Player::One) };
            return Some(Ending {
                winner: Some(winner),
                name: "conquest",
                detail: format!(
                    "{loser} has no planet and no shuttle after {} plies; {winner} has {} people{refusals}",
                    state.ply,
                    totals[winner.index()]
                ),
            });
        }
    }
    if state.ply < limit {
        return None;
    }
    if state.rules.end == End::Course {
        return Some(Ending {
            winner: None,
            name: "turn-limit",
            detail: format!(
                "{} turns each and no conquest: no winner, as in the course's ranker; people {} to {}{refusals}",
                limit / 2,
                totals[0],
                totals[1]
            ),
        });
    }
    let winner = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => Some(Player::One),
        std::cmp::Ordering::Less => Some(Player::Two),
        std::cmp::Ordering::Equal => None,
    };
    Some(Ending {
        winner,
        name: "turn-limit",
        detail: format!("{} turns each; people {} to {}{refusals}", limit / 2, totals[0], totals[1]),
    })
}
