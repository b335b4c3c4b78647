//! Points (intersections) of the 19x19 board and their names, row then column: `9N`, `10K`.
//!
//! Columns are the letters `A`..`T` without `I`, left to right; rows are `1`..`19`, bottom to
//! top. Row 19 is the first board line of input.txt and row 1 the last.

use std::fmt;
use std::str::FromStr;

/// Number of rows and of columns.
pub const SIZE: usize = 19;

/// The column letters, left to right. There is no `I`.
pub const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

/// An intersection of the board. Its index is `(row - 1) * 19 + column` with the column counted
/// from 0, so `1A` is 0, `1T` is 18 and `19T` is 360; points order by row, then column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

/// The 8 directions to the neighbouring points, as (rows up, columns right).
pub const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The 4 lines a row of stones can lie along, as (rows up, columns right): horizontal, vertical,
/// and the two diagonals. Each is one of two opposite [`DIRECTIONS`].
pub const AXES: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl Point {
    /// How many points the board has.
    pub const COUNT: usize = SIZE * SIZE;

    /// The centre, `10K`, where White's first stone must go.
    pub const CENTRE: Point = Point(9 * 19 + 9);

    /// The point with the given index (0..361).
    ///
    /// # Panics
    /// If the index is 361 or more: callers hold indices that came from a `Point`.
    pub fn from_index(index: usize) -> Point {
        assert!(index < Self::COUNT, "point index {index} is off the board");
        Point(index as u16)
    }

    /// The point in `row` (1..=19, bottom to top) and `column` (0..=18, `A` to `T`), if both
    /// are on the board.
    pub fn new(row: usize, column: usize) -> Option<Point> {
        ((1..=SIZE).contains(&row) && column < SIZE).then(|| Point(((row - 1) * SIZE + column) as u16))
    }

    /// The point shown at `line` (1 = the first of the 19 board lines, row 19) and `column`
    /// (from 1) of the board in input.txt.
    pub fn from_board_text(line: usize, column: usize) -> Option<Point> {
        if !(1..=SIZE).contains(&line) || column == 0 {
            return None;
        }
        Point::new(SIZE + 1 - line, column - 1)
    }

    /// Index 0..361, for arrays indexed by point.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 1 (bottom) ..= 19 (top).
    pub fn row(self) -> usize {
        self.index() / SIZE + 1
    }

    /// Column, 0 (`A`) ..= 18 (`T`).
    pub fn column(self) -> usize {
        self.index() % SIZE
    }

    /// The column's letter, `A`..`T` (never `I`).
    pub fn column_letter(self) -> char {
        COLUMNS.as_bytes()[self.column()] as char
    }

    /// The point `drow` rows up and `dcol` columns right, if it is on the board.
    pub fn offset(self, drow: i8, dcol: i8) -> Option<Point> {
        let row = self.row() as isize + drow as isize;
        let column = self.column() as isize + dcol as isize;
        if row < 1 || column < 0 {
            return None;
        }
        Point::new(row as usize, column as usize)
    }

    /// The point `k` steps along `direction` (rows up, columns right), if it is on the board.
    pub fn step(self, direction: (i8, i8), k: i8) -> Option<Point> {
        self.offset(direction.0 * k, direction.1 * k)
    }

    /// Chebyshev distance: the larger of the row and column differences. The 8 neighbours are
    /// at distance 1.
    pub fn distance(self, other: Point) -> usize {
        self.row().abs_diff(other.row()).max(self.column().abs_diff(other.column()))
    }

    /// Every point, `1A` first, then along row 1, then up the board.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..Self::COUNT as u16).map(Point)
    }

    /// The points at distance 1 (up to 8 of them).
    pub fn neighbours(self) -> impl Iterator<Item = Point> {
        DIRECTIONS.into_iter().filter_map(move |d| self.step(d, 1))
    }
}

/// Row number then column letter: `9N`.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row(), self.column_letter())
    }
}

/// Reads exactly the form [`Point`]'s `Display` writes: a row number 1..19 without a leading zero,
/// then an upper-case column letter `A`..`T` other than `I`. Nothing else, not even spaces.
impl FromStr for Point {
    type Err = String;

    fn from_str(s: &str) -> Result<Point, String> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let (row, rest) = s.split_at(digits);
        let bad =
            || format!("expected a point like `9N` (row 1..19, then a column A..T without I), found `{s}`");
        if row.is_empty() || row.starts_with('0') || row.len() > 2 {
            return Err(bad());
        }
        let row: usize = row.parse().map_err(|_| bad())?;
        let mut letters = rest.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(bad());
        };
        let column = COLUMNS.find(letter).ok_or_else(bad)?;
        Point::new(row, column).ok_or_else(bad)
    }
}

impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The points written one after another with spaces between: `9J 9K 9L`.
pub fn list(points: &[Point]) -> String {
    points.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
}

/// How many points [`list_some`] writes out before it gives the count instead.
pub const SHOWN_POINTS: usize = 8;

/// [`list`] for a set that may be long: at most [`SHOWN_POINTS`] points, then the count (`any
/// of 340 points, e.g. 1A 1B ...`), so a quiet position's answer does not fill a screen.
pub fn list_some(points: &[Point]) -> String {
    let names: Vec<String> = points.iter().map(Point::to_string).collect();
    crate::harness::referee::some_of(&names, SHOWN_POINTS, "points")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_point() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        assert_eq!(Point::all().count(), 361);
    }

    #[test]
    fn columns_skip_i_and_rows_count_from_the_bottom() {
        assert_eq!(Point::CENTRE.to_string(), "10K");
        assert_eq!(Point::new(1, 0).unwrap().to_string(), "1A");
        assert_eq!(Point::new(19, 18).unwrap().to_string(), "19T");
        assert_eq!(Point::new(9, 8).unwrap().to_string(), "9J");
        assert_eq!(Point::from_board_text(1, 1).unwrap().to_string(), "19A");
        assert_eq!(Point::from_board_text(19, 19).unwrap().to_string(), "1T");
        assert_eq!(Point::from_board_text(10, 10), Some(Point::CENTRE));
        assert_eq!(Point::from_board_text(20, 1), None);
        assert_eq!(Point::from_board_text(1, 20), None);
    }

    #[test]
    fn rejects_other_spellings() {
        for bad in
            ["", "9", "N", "N9", "9n", "9I", "9U", "0A", "09N", "20A", "100A", " 9N", "9N ", "9NN", "-1A"]
        {
            assert!(bad.parse::<Point>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let corner: Point = "1A".parse().unwrap();
        assert_eq!(corner.offset(-1, 0), None);
        assert_eq!(corner.offset(0, -1), None);
        assert_eq!(corner.offset(1, 1).unwrap().to_string(), "2B");
        assert_eq!("19T".parse::<Point>().unwrap().offset(0, 1), None);
        assert_eq!("1T".parse::<Point>().unwrap().offset(0, 1), None);
        assert_eq!(corner.neighbours().count(), 3);
        assert_eq!(Point::CENTRE.neighbours().count(), 8);
        assert_eq!(Point::CENTRE.distance("13N".parse().unwrap()), 3);
        assert_eq!(Point::CENTRE.distance("7G".parse().unwrap()), 3);
    }

    #[test]
    fn serialises_as_its_name() {
        let p: Point = "9N".parse().unwrap();
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"9N\"");
        assert_eq!(serde_json::from_str::<Point>("\"9N\"").unwrap(), p);
        assert!(serde_json::from_str::<Point>("\"9I\"").is_err());
    }
}
