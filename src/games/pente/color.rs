//! The two players of Pente. White always opens the game.

use std::fmt;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Plays first; its stones are `w` in input.txt.
    White,
    /// Plays second; its stones are `b` in input.txt.
    Black,
}

impl Color {
    /// Both colours, White first (the order of input.txt's capture counts).
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The harness's name for this player.
    pub fn side(self) -> crate::side::Side {
        match self {
            Color::White => crate::side::Side::White,
            Color::Black => crate::side::Side::Black,
        }
    }

    /// 0 for White, 1 for Black: for arrays indexed by colour, such as `Position::captured`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The word on input.txt's first line: `WHITE` or `BLACK`.
    pub fn input_word(self) -> &'static str {
        match self {
            Color::White => "WHITE",
            Color::Black => "BLACK",
        }
    }

    /// The character of this colour's stones in input.txt: `w` or `b`.
    pub fn stone_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour whose stones are written `c` in input.txt, if any.
    pub fn from_stone_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }
}

/// `White` or `Black`, as explanations name the players.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}
