//! arbiter: says with certainty which answers are right for an Advance bot, and checks real
//! bots against them.
//!
//! The games' rules live in [`games`] (Advance in [`games::advance`]); the harness that runs bots, walks corpora and writes
//! reports lives in [`harness`]; [`cli`] wires them to the `arbiter` command.

pub mod games;
pub mod harness;

/// Advance, the first game, at its historical path.
pub use games::advance;
pub mod side;

pub use side::Side;
pub mod cli;
