//! arbiter: says with certainty which answers are right for an Advance bot, and checks real
//! bots against them.
//!
//! The games' rules live in [`games`] (Advance in [`games::advance`]); the harness that runs bots, walks corpora and writes
//! reports lives in [`harness`]; [`cli`] wires them to the `arbiter` command.

// The crate's documentation is its developers': `.ci/run` builds it with
// `--document-private-items`, where a module's overview may name its private files.
#![allow(rustdoc::private_intra_doc_links)]

pub mod games;
pub mod harness;

/// Advance, the first game, at its historical path.
pub use games::advance;
pub mod side;

pub use side::Side;
pub mod cli;
