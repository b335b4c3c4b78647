//! The two sides of a two-player game, as a bot's command line names them.

use std::fmt;
use std::str::FromStr;

/// One of the two players. Bots are told which one they play with the words `white` and `black`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// Both sides, white first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The word a bot is given on its command line: `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// 0 for white, 1 for black: for arrays indexed by side.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = String;

    fn from_str(s: &str) -> Result<Side, String> {
        // A game without colours (PlanetWars) names its sides player 1 and player 2: the first
        // mover is White.
        match s {
            "white" | "1" => Ok(Side::White),
            "black" | "2" => Ok(Side::Black),
            other => Err(format!("expected `white` or `black` (or `1` or `2`), found `{other}`")),
        }
    }
}
