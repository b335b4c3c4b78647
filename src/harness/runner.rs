//! Running one bot process safely.
//!
//! This module knows nothing about the game: it runs a command and reports what happened.

mod command;

pub use command::{BotCommand, CommandError};
