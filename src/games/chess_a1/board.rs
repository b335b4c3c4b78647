//! The assignment's board: a tuple of eight strings of eight characters, row 0 = rank 8,
//! positions `(row, col)` with `(0, 0)` the top-left square (a8).

use std::fmt;

/// The number of rows and columns.
pub const SIZE: i64 = 8;

/// The empty square.
pub const EMPTY: u8 = b'.';

/// A `(row, col)` position; it may lie off the board (the assignment's `out_of_bounds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub row: i64,
    pub col: i64,
}

impl Pos {
    /// The position `(row, col)`.
    pub const fn new(row: i64, col: i64) -> Pos {
        Pos { row, col }
    }

    /// Whether the position exists on the board.
    pub fn on_board(self) -> bool {
        (0..SIZE).contains(&self.row) && (0..SIZE).contains(&self.col)
    }

    /// The square's name, `e2` for `(6, 4)`; `None` off the board.
    pub fn square(self) -> Option<String> {
        self.on_board().then(|| format!("{}{}", (b'a' + self.col as u8) as char, SIZE - self.row))
    }

    /// `(row, col)` moved by `(dr, dc)`.
    pub fn offset(self, dr: i64, dc: i64) -> Pos {
        Pos::new(self.row + dr, self.col + dc)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A move: from, to.
pub type Move = (Pos, Pos);

/// Whether `piece` is one of White's (`PKQBNR`).
pub fn is_white(piece: u8) -> bool {
    b"PKQBNR".contains(&piece)
}

/// Whether `piece` is one of Black's (`pkqbnr`).
pub fn is_black(piece: u8) -> bool {
    b"pkqbnr".contains(&piece)
}

/// Whether `piece` belongs to the player to move (`is_current_players_piece`).
pub fn belongs_to(piece: u8, white: bool) -> bool {
    if white { is_white(piece) } else { is_black(piece) }
}

/// The board: eight rows of eight characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board(pub [[u8; 8]; 8]);

impl Board {
    /// The board of a new game (`initial_state()`).
    pub fn initial() -> Board {
        Board::from_rows(&[
            "rnbqkbnr", "pppppppp", "........", "........", "........", "........", "PPPPPPPP", "RNBQKBNR",
        ])
        .expect("the initial board is well-formed")
    }

    /// A board from eight strings of eight characters from `PKQBNRpkqbnr.`.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, String> {
        if rows.len() != 8 {
            return Err(format!("a board has 8 rows, this one has {}", rows.len()));
        }
        let mut cells = [[EMPTY; 8]; 8];
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref().as_bytes();
            if row.len() != 8 {
                return Err(format!("row {r} has {} characters, not 8", row.len()));
            }
            for (c, &ch) in row.iter().enumerate() {
                if ch != EMPTY && !is_white(ch) && !is_black(ch) {
                    return Err(format!("row {r} column {c}: `{}` is not a piece or `.`", ch as char));
                }
                cells[r][c] = ch;
            }
        }
        Ok(Board(cells))
    }

    /// The rows as strings.
    pub fn rows(&self) -> Vec<String> {
        self.0.iter().map(|r| String::from_utf8_lossy(r).into_owned()).collect()
    }

    /// The character at an on-board position.
    pub fn at(&self, pos: Pos) -> u8 {
        self.0[pos.row as usize][pos.col as usize]
    }

    /// A copy with `ch` at `pos` (`change_position`).
    pub fn with(&self, pos: Pos, ch: u8) -> Board {
        let mut b = *self;
        b.0[pos.row as usize][pos.col as usize] = ch;
        b
    }

    /// The board after moving the piece at `from` to `to`, whatever was there
    /// (`update_board`).
    pub fn moved(&self, (from, to): Move) -> Board {
        self.with(to, self.at(from)).with(from, EMPTY)
    }

    /// The first square holding `piece`, scanning rows then columns (`find_piece`).
    pub fn find(&self, piece: u8) -> Option<Pos> {
        (0..SIZE).flat_map(|r| (0..SIZE).map(move |c| Pos::new(r, c))).find(|&p| self.at(p) == piece)
    }

    /// Every on-board position, row by row.
    pub fn squares() -> impl Iterator<Item = Pos> {
        (0..SIZE).flat_map(|r| (0..SIZE).map(move |c| Pos::new(r, c)))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.rows().join("/"))
    }
}

/// Reads a square such as `e2` (`square_to_position`): a letter `a`-`h` (either case, as the
/// support module's `valid_position_format` accepts) and a digit `1`-`8`.
pub fn parse_square(text: &str) -> Option<Pos> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let letter = b[0].to_ascii_lowercase();
    if !(b'a'..=b'h').contains(&letter) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(Pos::new(SIZE - i64::from(b[1] - b'0'), i64::from(letter - b'a')))
}

/// Reads a move as the support module's `valid_move_format` accepts it: the text up to the
/// first space and the text after it, each a square. `None` for any other text.
pub fn parse_move(text: &str) -> Option<Move> {
    let (from, to) = text.split_once(' ').unwrap_or((text, ""));
    Some((parse_square(from)?, parse_square(to)?))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The board of eight rows of eight cells, top row first, separated by spaces (as the
    /// assignment draws them: `....k... ........ ...`): the rules' tests write boards so.
    pub(crate) fn board(rows: &str) -> Board {
        Board::from_rows(&rows.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    /// The move written as the assignment does: `e2 e4`.
    pub(crate) fn mv(text: &str) -> Move {
        parse_move(text).unwrap()
    }

    #[test]
    fn squares_read_as_the_assignment_says() {
        assert_eq!(parse_square("a8"), Some(Pos::new(0, 0)));
        assert_eq!(parse_square("a1"), Some(Pos::new(7, 0)));
        assert_eq!(parse_square("e2"), Some(Pos::new(6, 4)));
        assert_eq!(parse_square("h1"), Some(Pos::new(7, 7)));
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(parse_move("e2 e4"), Some((Pos::new(6, 4), Pos::new(4, 4))));
        assert_eq!(parse_move("e2e4"), None);
        assert_eq!(parse_move("e2  e4"), None);
        assert_eq!(parse_move("e2 e4 "), None);
    }

    #[test]
    fn the_initial_board_and_a_move() {
        let b = Board::initial();
        assert_eq!(b.rows()[0], "rnbqkbnr");
        let after = b.moved((Pos::new(6, 4), Pos::new(4, 4)));
        assert_eq!(after.rows()[4], "....P...");
        assert_eq!(after.rows()[6], "PPPP.PPP");
        assert_eq!(b.find(b'K'), Some(Pos::new(7, 4)));
    }
}
