//! A move as the course's `player.Move` holds it: an add, a step or a quit.
//!
//! The course's `Move` has a `moveKind` (`QUIT = 0`, `ADD = 1`, `STEP = 2`) and four ints: for an
//! add, `x1, y1` is the square the chip goes to; for a step, `x1, y1` is the **new** square and
//! `x2, y2` the **old** one. arbiter writes moves in that field order: `add 34` (`x1 y1`),
//! `step 34 56` (`x1 y1`, then `x2 y2`: to 34, from 56), `quit`. The course's own `toString`
//! forms, `[add to 34]`, `[step from 56 to 34]` and `[quit]`, are read too.

use std::fmt;

use super::square::Square;

/// One move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Put a new chip on `to`.
    Add {
        /// Where the chip goes (`x1, y1`).
        to: Square,
    },
    /// Move the chip on `from` to `to`.
    Step {
        /// The chip's new square (`x1, y1`).
        to: Square,
        /// The chip's old square (`x2, y2`).
        from: Square,
    },
    /// Give up: the game ends and the opponent wins. Never among the legal moves.
    Quit,
}

/// The course's `Move.QUIT`.
pub const KIND_QUIT: i32 = 0;
/// The course's `Move.ADD`.
pub const KIND_ADD: i32 = 1;
/// The course's `Move.STEP`.
pub const KIND_STEP: i32 = 2;

/// The fields of a course `Move` object: `moveKind, x1, y1, x2, y2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MoveFields {
    /// `Move.QUIT`, `Move.ADD` or `Move.STEP` (0, 1, 2), or anything a bot put there.
    pub kind: i32,
    /// `x1`.
    pub x1: i32,
    /// `y1`.
    pub y1: i32,
    /// `x2`.
    pub x2: i32,
    /// `y2`.
    pub y2: i32,
}

impl Move {
    /// The square the move puts a chip on, for adds and steps.
    pub fn to(self) -> Option<Square> {
        match self {
            Move::Add { to } | Move::Step { to, .. } => Some(to),
            Move::Quit => None,
        }
    }

    /// The fields a course `Move` object has for this move (unused fields are 0, as Java leaves
    /// them).
    pub fn fields(self) -> MoveFields {
        let xy = |sq: Square| (i32::from(sq.x()), i32::from(sq.y()));
        match self {
            Move::Add { to } => {
                let (x1, y1) = xy(to);
                MoveFields { kind: KIND_ADD, x1, y1, x2: 0, y2: 0 }
            }
            Move::Step { to, from } => {
                let ((x1, y1), (x2, y2)) = (xy(to), xy(from));
                MoveFields { kind: KIND_STEP, x1, y1, x2, y2 }
            }
            Move::Quit => MoveFields { kind: KIND_QUIT, x1: 0, y1: 0, x2: 0, y2: 0 },
        }
    }

    /// The move a course `Move` object with these fields stands for, or why it stands for none:
    /// an unknown kind, or a coordinate off the board (fields a step or add does not use are
    /// ignored, as the course's players ignore them).
    pub fn from_fields(f: MoveFields) -> Result<Move, String> {
        let square = |x: i32, y: i32, which: &str| {
            u8::try_from(x)
                .ok()
                .zip(u8::try_from(y).ok())
                .and_then(|(x, y)| Square::new(x, y))
                .ok_or_else(|| format!("{which} ({x}, {y}) is off the board: x and y run 0..7"))
        };
        match f.kind {
            KIND_QUIT => Ok(Move::Quit),
            KIND_ADD => Ok(Move::Add { to: square(f.x1, f.y1, "the square x1, y1")? }),
            KIND_STEP => Ok(Move::Step {
                to: square(f.x1, f.y1, "the new square x1, y1")?,
                from: square(f.x2, f.y2, "the old square x2, y2")?,
            }),
            other => Err(format!("moveKind {other} is none of QUIT (0), ADD (1), STEP (2)")),
        }
    }

    /// The course's `toString()` of this move: `[add to 34]`, `[step from 56 to 34]`, `[quit]`.
    pub fn course_string(self) -> String {
        match self {
            Move::Add { to } => format!("[add to {to}]"),
            Move::Step { to, from } => format!("[step from {from} to {to}]"),
            Move::Quit => "[quit]".to_string(),
        }
    }

    /// The move in words for explanations: `add 34`, `step from 56 to 34`, `quit`.
    pub fn words(self) -> String {
        match self {
            Move::Step { to, from } => format!("step from {from} to {to}"),
            other => other.to_string(),
        }
    }
}

/// arbiter's notation, in the course's field order: `add 34`, `step 34 56` (to 34, from 56),
/// `quit`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Add { to } => write!(f, "add {to}"),
            Move::Step { to, from } => write!(f, "step {to} {from}"),
            Move::Quit => f.write_str("quit"),
        }
    }
}

/// The moves of `moves` separated by commas: `add 34, add 35`.
pub fn list(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::square::tests::sq;

    #[test]
    fn a_step_is_written_new_square_first_as_the_fields_are() {
        let step = Move::Step { to: sq("34"), from: sq("56") };
        assert_eq!(step.to_string(), "step 34 56");
        assert_eq!(step.course_string(), "[step from 56 to 34]");
        assert_eq!(step.fields(), MoveFields { kind: 2, x1: 3, y1: 4, x2: 5, y2: 6 });
        assert_eq!(Move::from_fields(step.fields()), Ok(step));
        let add = Move::Add { to: sq("07") };
        assert_eq!(Move::from_fields(add.fields()), Ok(add));
        assert_eq!(Move::from_fields(Move::Quit.fields()), Ok(Move::Quit));
    }

    #[test]
    fn fields_off_the_board_or_of_no_kind_are_refused() {
        let f = MoveFields { kind: 1, x1: 8, y1: 0, x2: 0, y2: 0 };
        assert!(Move::from_fields(f).unwrap_err().contains("off the board"));
        let f = MoveFields { kind: 2, x1: 1, y1: 1, x2: -1, y2: 0 };
        assert!(Move::from_fields(f).unwrap_err().contains("old square"));
        let f = MoveFields { kind: 7, x1: 1, y1: 1, x2: 0, y2: 0 };
        assert!(Move::from_fields(f).unwrap_err().contains("moveKind 7"));
    }
}
