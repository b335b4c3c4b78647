//! Shuttles: population in flight between two neighbouring planets.

use super::planet::Player;

/// A shuttle in flight. "During that time, no population growth occurs on the shuttle."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shuttle {
    /// The player who sent it.
    pub owner: Player,
    /// The planet it left.
    pub from: usize,
    /// The planet it is bound for.
    pub to: usize,
    /// The people on board (at least 1).
    pub population: i64,
    /// Units of time until it lands (at least 1 while in flight).
    pub remaining: u32,
}
