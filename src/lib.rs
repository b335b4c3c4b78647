//! arbiter: says with certainty which answers are right for an Advance bot, and checks real
//! bots against them.
//!
//! The game's rules live in [`advance`]; the harness that runs bots, walks corpora and writes
//! reports lives in [`harness`]; [`cli`] wires them to the `arbiter` command.

pub mod advance;
pub mod games;
pub mod harness;
pub mod side;

pub use side::Side;
pub mod cli;
