//! Advance as the harness sees it: the referee, its game's facts, and reading a bot's board file.
//!
//! Each concern lives in its own file: [`super::cases`], [`super::builtins`], [`super::fuzzing`],
//! [`super::game_state`] (games), [`super::symmetry`] and [`super::drawing`].

use super::board::Board;
use super::engine::Engine;
use super::position::Position;
use super::text::Strictness;
use crate::harness::referee::{GameInfo, Referee};
use crate::side::Side;

/// The Advance referee, computing with engine `E`.
#[derive(Clone, Debug, Default)]
pub struct AdvanceReferee<E> {
    pub engine: E,
}

/// Reads a board file's bytes as a well-formed position with `side` to move.
pub(super) fn read_position(input: &[u8], origin: &str, side: Side) -> Result<Position, String> {
    let board = read_board(input, origin)?;
    let position = Position::new(board, side);
    position
        .validate()
        .map_err(|e| format!("{origin}: not a well-formed position with {side} to move: {e}"))?;
    Ok(position)
}

/// Reads a board file's bytes as a bot reads them (leniently).
pub(super) fn read_board(input: &[u8], origin: &str) -> Result<Board, String> {
    Board::parse(input, origin, Strictness::Lenient).map_err(|e| e.to_string())
}

/// Advance's case categories: the assignment's grades.
pub const CATEGORIES: &[&str] = &["grade4", "grade5", "grade6", "grade7"];

impl<E: Engine + Clone + 'static> Referee for AdvanceReferee<E> {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/advance/game.toml"))
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        self
    }

    fn categories(&self) -> &'static [&'static str] {
        CATEGORIES
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![include_str!("../../../corpus/marking-profile.json")]
    }

    crate::concerns!(cases, builtins, fuzzing, games, symmetry, drawing);
}
