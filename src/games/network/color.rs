//! The two players of Network. White moves first.

use std::fmt;

use crate::side::Side;

/// One of the two players. The course numbers them `0` (Black) and `1` (White), as
/// [`Color::course_number`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Plays second; its goals are the top and bottom rows; `b` in a position file.
    Black,
    /// Moves first; its goals are the left and right columns; `w` in a position file.
    White,
}

impl Color {
    /// Both colours, Black first (the course's numbering).
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: for arrays indexed by colour.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The number the course's `MachinePlayer(int color)` constructor takes: 0 black, 1 white.
    pub fn course_number(self) -> i32 {
        self as i32
    }

    /// The colour the course numbers `n` (0 black, 1 white).
    pub fn from_course_number(n: i32) -> Option<Color> {
        match n {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// The word naming the side to move in a position file: `black` or `white`.
    pub fn word(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The character of this colour's chips in a position file: `b` or `w`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The harness's name for this player.
    pub fn side(self) -> Side {
        match self {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }

    /// The colour the harness calls `side`.
    pub fn from_side(side: Side) -> Color {
        match side {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// `Black` or `White`.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}
