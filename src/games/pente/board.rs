//! The board: which stone, if any, lies on each of the 361 points.

use super::color::Color;
use super::point::{Point, SIZE};

/// The stones on the board. Whose turn it is and the capture counts live in
/// [`Position`](super::Position).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Color>; Point::COUNT],
}

impl Board {
    /// A board with no stones.
    pub fn empty() -> Board {
        Board { cells: [None; Point::COUNT] }
    }

    /// A board with White's stones on the points named in `white` and Black's on those in
    /// `black`, each a space-separated list like `"10K 10L"`. For tests and examples.
    pub fn from_points(white: &str, black: &str) -> Result<Board, String> {
        let mut board = Board::empty();
        for (color, names) in [(Color::White, white), (Color::Black, black)] {
            for name in names.split_whitespace() {
                let p: Point = name.parse()?;
                if board.get(p).is_some() {
                    return Err(format!("{p} is named twice"));
                }
                board.set(p, Some(color));
            }
        }
        Ok(board)
    }

    /// The stone on `p`, if any.
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.index()]
    }

    /// Put `stone` on `p` (or clear it with `None`).
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        self.cells[p.index()] = stone;
    }

    /// Whether `p` holds a stone of `color`; false off the board (`None`).
    pub fn holds(&self, p: Option<Point>, color: Color) -> bool {
        p.is_some_and(|p| self.get(p) == Some(color))
    }

    /// Whether `p` is empty.
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.get(p).is_none()
    }

    /// The points holding `color`'s stones, `1A` first.
    pub fn stones(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(move |&p| self.get(p) == Some(color))
    }

    /// The empty points, `1A` first.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(move |&p| self.is_empty_at(p))
    }

    /// How many stones `color` has on the board.
    pub fn count(&self, color: Color) -> usize {
        self.cells.iter().filter(|&&c| c == Some(color)).count()
    }

    /// How many stones of either colour are on the board.
    pub fn stone_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// The 19 lines of the board as input.txt writes them: row 19 first, `w`, `b` and `.`.
    pub fn lines(&self) -> Vec<String> {
        (1..=SIZE)
            .map(|line| {
                (1..=SIZE)
                    .map(|column| {
                        let p = Point::from_board_text(line, column).expect("on the board");
                        self.get(p).map_or('.', Color::stone_char)
                    })
                    .collect()
            })
            .collect()
    }

    /// The 19 board lines, each ending in `\n`.
    pub fn to_text(&self) -> String {
        self.lines().into_iter().map(|l| l + "\n").collect()
    }
}

crate::board_text_fmt!(Board);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_land_where_input_txt_shows_them() {
        let b = Board::from_points("10K 1A", "19T").unwrap();
        let lines = b.lines();
        assert_eq!(lines.len(), 19);
        assert_eq!(&lines[0], "..................b");
        assert_eq!(&lines[9], ".........w.........");
        assert_eq!(&lines[18], "w..................");
        assert_eq!((b.count(Color::White), b.count(Color::Black), b.stone_count()), (2, 1, 3));
        assert!(!b.is_full());
    }

    #[test]
    fn from_points_rejects_bad_and_repeated_names() {
        assert!(Board::from_points("10I", "").is_err());
        assert!(Board::from_points("10K", "10K").is_err());
    }
}
