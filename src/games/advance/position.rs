//! A position (a board and the side to move) and what makes one well-formed.

use std::fmt;

use super::board::Board;
use super::piece::Piece;
use super::reference::danger;
use super::square::Square;
use crate::side::Side;

/// A board and the side to move: the reference engine's position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub turn: Side,
}

/// Why a position is not a well-formed test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no General.
    NoGeneral(Side),
    /// A side has more than one General.
    ManyGenerals(Side, Vec<Square>),
    /// The side not to move is in danger: the side to move could take its General.
    WaitingSideInDanger { side: Side, general: Square, attackers: Vec<(Square, Piece)> },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoGeneral(side) => {
                write!(f, "{side} has no General; a position needs exactly one each")
            }
            PositionError::ManyGenerals(side, squares) => {
                let list: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "{side} has {} Generals (on {}); a position needs exactly one each",
                    squares.len(),
                    list.join(", ")
                )
            }
            PositionError::WaitingSideInDanger { side, general, attackers } => {
                let list: Vec<String> =
                    attackers.iter().map(|&(sq, p)| danger::describe_attacker(sq, p)).collect();
                write!(
                    f,
                    "{side} is not to move, yet its General on {general} is in danger from {}; \
                     such a position cannot arise in a game",
                    list.join(" and ")
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The position with `board` and `turn` to move.
    pub fn new(board: Board, turn: Side) -> Position {
        Position { board, turn }
    }

    /// Checks that the position is a well-formed test position for the side to move: both
    /// sides have exactly one General, and the side that is not to move is not in danger.
    pub fn validate(&self) -> Result<(), PositionError> {
        for side in Side::BOTH {
            let generals = self.board.generals(side);
            match generals.len() {
                0 => return Err(PositionError::NoGeneral(side)),
                1 => {}
                _ => return Err(PositionError::ManyGenerals(side, generals)),
            }
        }
        let waiting = self.turn.opponent();
        let general = self.board.generals(waiting)[0];
        let attackers = danger::attackers_of(&self.board, general);
        if !attackers.is_empty() {
            return Err(PositionError::WaitingSideInDanger { side: waiting, general, attackers });
        }
        Ok(())
    }
}
