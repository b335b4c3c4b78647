//! The games arbiter knows, one module tree each. A game plugs into the harness by
//! implementing [`crate::harness::referee::Referee`] and its companion traits; the harness and
//! the command line know nothing of any game's rules.

pub mod advance;
pub mod chess_a1;
pub mod network;
pub mod pente;
pub mod planetwars;
