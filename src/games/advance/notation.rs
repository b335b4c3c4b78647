//! Moves and their notation: the piece's capital letter, the from-square, a sign, the target.
//!
//! `Zf3xf4` (capture by moving; also a Zombie leap and a Miner taking a wall), `Be7-d8` (move to
//! an empty square), `Bc2#c3` (build a wall), `Jd4~d5` (Jester swap), `Jd4^e5` (Jester
//! converts), `Ce2*e5` (Catapult shot).

use std::fmt;
use std::str::FromStr;

use super::piece::Kind;
use super::square::Square;

/// What a move does to its target square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Move to an empty square (`-`).
    Move,
    /// Capture by moving onto the target (`x`), including a Miner taking a wall.
    Capture,
    /// A Zombie's capture two squares away over an empty square (`x`, like any capture).
    Leap,
    /// A Builder puts a wall on the target without moving (`#`).
    Build,
    /// A Jester changes places with a friendly piece (`~`).
    Swap,
    /// A Jester turns an enemy piece into a friendly one without moving (`^`).
    Convert,
    /// A Catapult removes the target without moving (`*`).
    Shoot,
}

impl Action {
    /// Every action, in a fixed order.
    pub const ALL: [Action; 7] = [
        Action::Move,
        Action::Capture,
        Action::Leap,
        Action::Build,
        Action::Swap,
        Action::Convert,
        Action::Shoot,
    ];

    /// The sign written between the squares.
    pub fn sign(self) -> char {
        match self {
            Action::Move => '-',
            Action::Capture | Action::Leap => 'x',
            Action::Build => '#',
            Action::Swap => '~',
            Action::Convert => '^',
            Action::Shoot => '*',
        }
    }

    /// A lower-case word for reports and coverage tables.
    pub fn name(self) -> &'static str {
        match self {
            Action::Move => "move",
            Action::Capture => "capture",
            Action::Leap => "leap",
            Action::Build => "build",
            Action::Swap => "swap",
            Action::Convert => "convert",
            Action::Shoot => "shot",
        }
    }

    /// True when the moving piece ends up on the target square.
    pub fn moves_piece(self) -> bool {
        matches!(self, Action::Move | Action::Capture | Action::Leap | Action::Swap)
    }
}

impl serde::Serialize for Action {
    /// As its word, `leap`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One move: which kind of piece acts, from where, how, and on which square.
///
/// The derived order (from-square, target, action, kind) is the order moves are listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub action: Action,
    /// The kind of the piece that acts (the one on `from`).
    pub kind: Kind,
}

impl Move {
    /// A move of a `kind` piece from `from` to `to` doing `action`.
    pub fn new(kind: Kind, from: Square, action: Action, to: Square) -> Move {
        Move { from, to, action, kind }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}{}", self.kind.letter(), self.from, self.action.sign(), self.to)
    }
}

/// Why a string is not a move in notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a move in notation: {reason} (expected a piece letter, a square, one of - x # ~ ^ *, and a square, like `Zf3xf4`)"
)]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

impl FromStr for Move {
    type Err = NotationError;

    /// Parses notation. `x` means a Leap when a Zombie captures two squares away, else a Capture.
    /// Only the form is checked here; whether the move is possible is the engine's business.
    fn from_str(s: &str) -> Result<Move, NotationError> {
        let fail = |reason: &str| NotationError { text: s.to_string(), reason: reason.to_string() };
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 6 {
            return Err(fail("it should be 6 characters long"));
        }
        let kind = Kind::from_letter(chars[0])
            .ok_or_else(|| fail("the first character should be one of Z B J M S C D G"))?;
        let square = |a: char, b: char| format!("{a}{b}").parse::<Square>().map_err(|e| fail(&e));
        let from = square(chars[1], chars[2])?;
        let to = square(chars[4], chars[5])?;
        let action = match chars[3] {
            '-' => Action::Move,
            'x' if kind == Kind::Zombie && from.distance(to) == 2 => Action::Leap,
            'x' => Action::Capture,
            '#' => Action::Build,
            '~' => Action::Swap,
            '^' => Action::Convert,
            '*' => Action::Shoot,
            _ => return Err(fail("the fourth character should be one of - x # ~ ^ *")),
        };
        Ok(Move { from, to, action, kind })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_page_examples_round_trip() {
        for text in ["Zf3xf4", "Be7-d8", "Bc2#c3", "Jd4~d5", "Jd4^e5", "Ce2*e5", "Ma1xa7", "Mf1-f9"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
    }

    #[test]
    fn zombie_capture_two_away_is_a_leap() {
        assert_eq!("Zf3xf5".parse::<Move>().unwrap().action, Action::Leap);
        assert_eq!("Zf3xg4".parse::<Move>().unwrap().action, Action::Capture);
        assert_eq!("Mf3xf5".parse::<Move>().unwrap().action, Action::Capture);
    }

    #[test]
    fn malformed_notation_says_why() {
        assert!("Xf3xf4".parse::<Move>().unwrap_err().reason.contains("first character"));
        assert!("Zf3?f4".parse::<Move>().unwrap_err().reason.contains("fourth character"));
        assert!("Zf3xf".parse::<Move>().unwrap_err().reason.contains("6 characters"));
        assert!("Zz3xf4".parse::<Move>().unwrap_err().reason.contains("not a square"));
    }
}
