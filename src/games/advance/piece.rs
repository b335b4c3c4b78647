//! Pieces, their letters and values, and the contents of a square.

use crate::side::Side;

/// The eight kinds of piece. The order is the order of the rules page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Zombie,
    Builder,
    Jester,
    Miner,
    Sentinel,
    Catapult,
    Dragon,
    General,
}

impl Kind {
    /// Every kind, in the rules page's order.
    pub const ALL: [Kind; 8] = [
        Kind::Zombie,
        Kind::Builder,
        Kind::Jester,
        Kind::Miner,
        Kind::Sentinel,
        Kind::Catapult,
        Kind::Dragon,
        Kind::General,
    ];

    /// Material value; the General has none.
    pub fn value(self) -> i32 {
        match self {
            Kind::Zombie => 1,
            Kind::Builder => 2,
            Kind::Jester => 3,
            Kind::Miner => 4,
            Kind::Sentinel => 5,
            Kind::Catapult => 6,
            Kind::Dragon => 7,
            Kind::General => 0,
        }
    }

    /// The capital letter used in board files (for white) and in move notation (for both sides).
    pub fn letter(self) -> char {
        match self {
            Kind::Zombie => 'Z',
            Kind::Builder => 'B',
            Kind::Jester => 'J',
            Kind::Miner => 'M',
            Kind::Sentinel => 'S',
            Kind::Catapult => 'C',
            Kind::Dragon => 'D',
            Kind::General => 'G',
        }
    }

    /// The kind written with this capital letter.
    pub fn from_letter(letter: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == letter)
    }

    /// The English name, capitalised as the rules page writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Zombie => "Zombie",
            Kind::Builder => "Builder",
            Kind::Jester => "Jester",
            Kind::Miner => "Miner",
            Kind::Sentinel => "Sentinel",
            Kind::Catapult => "Catapult",
            Kind::Dragon => "Dragon",
            Kind::General => "General",
        }
    }
}

impl serde::Serialize for Kind {
    /// As its name, `Dragon`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A piece: a kind and the side that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    /// A piece of `side` and `kind`.
    pub fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The board-file character: capital for white, small for black.
    pub fn to_char(self) -> char {
        match self.side {
            Side::White => self.kind.letter(),
            Side::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }

    /// The piece a board-file character stands for.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c.to_ascii_uppercase())?;
        let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
        Some(Piece { side, kind })
    }

    /// "white Dragon", for messages.
    pub fn describe(self) -> String {
        format!("{} {}", self.side, self.kind.name())
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    #[default]
    Empty,
    /// A wall: nobody's, never protected, removed only by a Miner.
    Wall,
    Piece(Piece),
}

impl Cell {
    /// Every character a board file may hold, in the order the rules page lists them.
    pub const CHARS: &'static str = "ZBJMSCDGzbjmscdg.#";

    /// The board-file character for this cell.
    pub fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Wall => '#',
            Cell::Piece(p) => p.to_char(),
        }
    }

    /// The cell a board-file character stands for, if it is one of [`Cell::CHARS`].
    pub fn from_char(c: char) -> Option<Cell> {
        match c {
            '.' => Some(Cell::Empty),
            '#' => Some(Cell::Wall),
            _ => Piece::from_char(c).map(Cell::Piece),
        }
    }

    /// The piece here, if any.
    pub fn piece(self) -> Option<Piece> {
        match self {
            Cell::Piece(p) => Some(p),
            _ => None,
        }
    }

    /// True when nothing (neither piece nor wall) stands here.
    pub fn is_empty(self) -> bool {
        self == Cell::Empty
    }

    /// "the white Dragon", "a wall" or "nothing", for messages.
    pub fn describe(self) -> String {
        match self {
            Cell::Empty => "nothing".to_string(),
            Cell::Wall => "a wall".to_string(),
            Cell::Piece(p) => format!("the {}", p.describe()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_character_round_trips() {
        for c in Cell::CHARS.chars() {
            assert_eq!(Cell::from_char(c).unwrap().to_char(), c);
        }
        assert_eq!(Cell::from_char('x'), None);
        assert_eq!(Cell::from_char('g'), Some(Cell::Piece(Piece::new(Side::Black, Kind::General))));
    }

    #[test]
    fn values_follow_the_scoring_table() {
        let values: Vec<i32> = Kind::ALL.iter().map(|k| k.value()).collect();
        assert_eq!(values, vec![1, 2, 3, 4, 5, 6, 7, 0]);
    }
}
