//! The 64 squares of the board, named `xy` as the assignment draws them: `x` the column (0 left
//! to 7 right), `y` the row (0 top to 7 bottom), so `00` is the top-left corner and `70` the
//! top-right one.

use std::fmt;
use std::str::FromStr;

use super::color::Color;

/// The board's width and height.
pub const SIZE: u8 = 8;

/// One square. Squares order as their names do, `01` < `02` < ... < `10` (by column, then row):
/// every list of squares or moves arbiter prints is in that order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// How many squares there are.
    pub const COUNT: usize = 64;

    /// The square in column `x`, row `y`, when both are 0..=7.
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < SIZE && y < SIZE { Some(Square(x * SIZE + y)) } else { None }
    }

    /// The square in column `x & 7`, row `y & 7`: for loops over `0..8`.
    pub const fn at(x: u8, y: u8) -> Square {
        Square((x & 7) * SIZE + (y & 7))
    }

    /// The square with index `i` (0..64, see [`Square::index`]).
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < Self::COUNT { Some(Square(i as u8)) } else { None }
    }

    /// The column, 0 (left) to 7 (right).
    pub const fn x(self) -> u8 {
        self.0 / SIZE
    }

    /// The row, 0 (top) to 7 (bottom).
    pub const fn y(self) -> u8 {
        self.0 % SIZE
    }

    /// `8x + y`: 0..64, in the order squares are listed. Also the square's bit in a bitboard.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's bit in a bitboard (`1 << index`).
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Every square, `00` first, in listing order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// The squares whose bits are set in `bits`, in listing order.
    pub fn in_bits(bits: u64) -> impl Iterator<Item = Square> {
        let mut rest = bits;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let i = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            Some(Square(i))
        })
    }

    /// The square `dx` columns and `dy` rows away, if it is on the board.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let x = self.x() as i8 + dx;
        let y = self.y() as i8 + dy;
        if (0..SIZE as i8).contains(&x) && (0..SIZE as i8).contains(&y) {
            Square::new(x as u8, y as u8)
        } else {
            None
        }
    }

    /// Whether this is one of the four dead corners `00`, `70`, `07`, `77`.
    pub fn is_corner(self) -> bool {
        CORNERS & self.bit() != 0
    }

    /// The player whose goal area holds this square: Black for the top and bottom rows, White
    /// for the left and right columns, nobody for the corners and the 36 inner squares.
    pub fn goal_of(self) -> Option<Color> {
        if goal_mask(Color::Black) & self.bit() != 0 {
            Some(Color::Black)
        } else if goal_mask(Color::White) & self.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// A bitboard of the squares in columns `x0..=x1` and rows `y0..=y1`.
const fn rect(x0: u8, x1: u8, y0: u8, y1: u8) -> u64 {
    let mut bits = 0u64;
    let mut x = x0;
    while x <= x1 {
        let mut y = y0;
        while y <= y1 {
            bits |= 1 << (x * SIZE + y);
            y += 1;
        }
        x += 1;
    }
    bits
}

/// The four dead corners.
pub const CORNERS: u64 = rect(0, 0, 0, 0) | rect(7, 7, 0, 0) | rect(0, 0, 7, 7) | rect(7, 7, 7, 7);
/// Black's first goal area, the top row `10`..`60`.
pub const BLACK_TOP: u64 = rect(1, 6, 0, 0);
/// Black's second goal area, the bottom row `17`..`67`.
pub const BLACK_BOTTOM: u64 = rect(1, 6, 7, 7);
/// White's first goal area, the left column `01`..`06`.
pub const WHITE_LEFT: u64 = rect(0, 0, 1, 6);
/// White's second goal area, the right column `71`..`76`.
pub const WHITE_RIGHT: u64 = rect(7, 7, 1, 6);
/// The 36 squares off the border, where either player may go.
pub const INNER: u64 = rect(1, 6, 1, 6);

/// `color`'s two goal areas: Black's top then bottom row, White's left then right column.
pub const fn goals(color: Color) -> [u64; 2] {
    match color {
        Color::Black => [BLACK_TOP, BLACK_BOTTOM],
        Color::White => [WHITE_LEFT, WHITE_RIGHT],
    }
}

/// Both of `color`'s goal areas as one bitboard.
pub const fn goal_mask(color: Color) -> u64 {
    let [a, b] = goals(color);
    a | b
}

/// The squares `color` may ever hold: all but the corners and the opponent's goals.
pub const fn allowed_mask(color: Color) -> u64 {
    !(CORNERS | goal_mask(color.opponent()))
}

/// The squares of `squares` separated by spaces: `20 25 35`.
pub fn list(squares: &[Square]) -> String {
    squares.iter().map(Square::to_string).collect::<Vec<_>>().join(" ")
}

/// `xy`: the column digit, then the row digit.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.x(), self.y())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Reads `xy` (two digits 0..7). Errors say which digit is wrong; [`super::text::parse_move`]
/// gives them a line and column.
impl FromStr for Square {
    type Err = String;

    fn from_str(s: &str) -> Result<Square, String> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(format!("expected a square such as 34 (column digit, then row digit), found `{s}`"));
        }
        let digit = |c: u8, what: &str| match c {
            b'0'..=b'7' => Ok(c - b'0'),
            b'8' | b'9' => {
                Err(format!("the {what} {} is off the board: columns and rows run 0..7", c as char))
            }
            _ => Err(format!("expected a {what} digit 0..7, found `{}`", c as char)),
        };
        let x = digit(b[0], "column")?;
        let y = digit(b[1], "row")?;
        Square::new(x, y).ok_or_else(|| format!("`{s}` is not a square"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The square named `s` (`"34"`): the other files' tests write squares so.
    pub(crate) fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn names_are_column_then_row_with_00_top_left() {
        let sq: Square = "34".parse().unwrap();
        assert_eq!((sq.x(), sq.y()), (3, 4));
        assert_eq!(sq.to_string(), "34");
        assert!("00".parse::<Square>().unwrap().is_corner());
        assert!("77".parse::<Square>().unwrap().is_corner());
        assert_eq!(
            "80".parse::<Square>().unwrap_err(),
            "the column 8 is off the board: columns and rows run 0..7"
        );
        assert!("3".parse::<Square>().is_err());
        assert!("3a".parse::<Square>().is_err());
    }

    #[test]
    fn goal_areas_are_as_the_assignment_lists_them() {
        let names = |bits: u64| Square::in_bits(bits).map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(names(BLACK_TOP), "10 20 30 40 50 60");
        assert_eq!(names(BLACK_BOTTOM), "17 27 37 47 57 67");
        assert_eq!(names(WHITE_LEFT), "01 02 03 04 05 06");
        assert_eq!(names(WHITE_RIGHT), "71 72 73 74 75 76");
        assert_eq!(names(CORNERS), "00 07 70 77");
        assert_eq!(INNER.count_ones(), 36);
        assert_eq!(allowed_mask(Color::Black).count_ones(), 48);
        assert_eq!("10".parse::<Square>().unwrap().goal_of(), Some(Color::Black));
        assert_eq!("75".parse::<Square>().unwrap().goal_of(), Some(Color::White));
        assert_eq!("33".parse::<Square>().unwrap().goal_of(), None);
    }

    #[test]
    fn squares_list_in_name_order() {
        let all: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(all, sorted);
    }
}
