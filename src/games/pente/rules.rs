//! The rules of Pente, written to be read next to `docs/games/pente/RULES.md`.
//!
//! Plain data and one function per rule: the opening rule ([`Rules::allows`]), captures
//! ([`captures`]), rows of five ([`five_through`], [`five_on_board`]), what a move does
//! ([`play`], [`effect`]) and when the game is over ([`status`]). Nothing is cached.

use crate::harness::rule_option;

use super::board::Board;
use super::color::Color;
use super::point::{AXES, DIRECTIONS, Point};
use super::position::Position;

/// How many stones in a row win: five or more.
pub const ROW_TO_WIN: usize = 5;

/// How many captured pieces win: 10, that is 5 pairs.
pub const CAPTURES_TO_WIN: u32 = 10;

/// The distance from the centre that the opening rule measures White's second stone against.
pub const OPENING_DISTANCE: usize = 3;

/// Where White's second stone may go. Distances are Chebyshev distances from the centre `10K`
/// (the larger of the row and column differences).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opening {
    /// The assignment's rule: "no more than 3 intersections away" from the centre, distance <= 3.
    #[default]
    Seed,
    /// The tournament rule of the real game: at least 3 intersections away, distance >= 3.
    Tournament,
}

/// The choices the rules leave open. Everything else is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// Where White's second stone may go.
    pub opening: Opening,
}

/// Which of White's two restricted moves is next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningMove {
    /// White has placed no stone: it must go on the centre.
    First,
    /// White has placed one stone: the second goes where [`Opening`] allows.
    Second,
}

/// Which of White's restricted opening moves the player to move is making, if any. White's
/// stones placed so far are those on the board plus those Black has captured.
pub fn opening_move(pos: &Position) -> Option<OpeningMove> {
    if pos.to_move != Color::White {
        return None;
    }
    match pos.placed(Color::White) {
        0 => Some(OpeningMove::First),
        1 => Some(OpeningMove::Second),
        _ => None,
    }
}

impl Rules {
    /// These rules with one option changed, given as `KEY=VALUE` (`opening=seed` or
    /// `opening=tournament`); an error says what is accepted.
    pub fn with_option(self, option: &str) -> Result<Rules, String> {
        match rule_option::split(option, "opening=tournament")? {
            ("opening", "seed") => Ok(Rules { opening: Opening::Seed }),
            ("opening", "tournament") => Ok(Rules { opening: Opening::Tournament }),
            ("opening", other) => Err(rule_option::bad_value("opening", &["seed", "tournament"], other)),
            (other, _) => Err(rule_option::unknown_key("Pente", &["opening"], other)),
        }
    }

    /// Whether the opening rule lets the player to move play on `p` (whether `p` is empty is
    /// not asked here). Black is never restricted; nor is White after its second stone.
    pub fn allows(&self, pos: &Position, p: Point) -> bool {
        self.allows_on(opening_move(pos), p)
    }

    /// Whether the opening rule lets a player play on `p` when `opening` is the restricted
    /// opening move being made, if any (see [`opening_move`]). Lets callers that try many points
    /// count the stones once.
    pub fn allows_on(&self, opening: Option<OpeningMove>, p: Point) -> bool {
        let distance = p.distance(Point::CENTRE);
        match opening {
            None => true,
            Some(OpeningMove::First) => p == Point::CENTRE,
            Some(OpeningMove::Second) => match self.opening {
                Opening::Seed => distance <= OPENING_DISTANCE,
                Opening::Tournament => distance >= OPENING_DISTANCE,
            },
        }
    }

    /// The opening rule in words, for the player to move; `None` when no restriction applies.
    pub fn describe_opening(&self, pos: &Position) -> Option<String> {
        Some(match opening_move(pos)? {
            OpeningMove::First => "White's first stone must go on the centre 10K".to_string(),
            OpeningMove::Second => match self.opening {
                Opening::Seed => {
                    "White's second stone must be at most 3 points from the centre 10K".to_string()
                }
                Opening::Tournament => {
                    "White's second stone must be at least 3 points from the centre 10K".to_string()
                }
            },
        })
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// Five or more stones in a row: horizontally, vertically or diagonally.
    FiveInARow,
    /// 10 or more captured pieces (5 pairs).
    Captures,
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Nobody has won and an empty point remains: the player to move plays.
    Ongoing,
    /// The game is over and this player has won.
    Won(Color, WinReason),
    /// The board is full and nobody has won.
    Drawn,
}

/// Whether the game is over in `pos`. A position from a real game is over only because of the
/// move just made, by the player not to move; for any other position, that player is looked at
/// first, then the player to move, each for a row of five, then for 10 captured pieces. A full
/// board where nobody has won is a draw.
pub fn status(pos: &Position) -> Status {
    let last = pos.to_move.opponent();
    for color in [last, pos.to_move] {
        if five_on_board(&pos.board, color).is_some() {
            return Status::Won(color, WinReason::FiveInARow);
        }
        if pos.captured_by(color) >= CAPTURES_TO_WIN {
            return Status::Won(color, WinReason::Captures);
        }
    }
    if pos.board.is_full() { Status::Drawn } else { Status::Ongoing }
}

/// The legal moves of the player to move, `1A` first: every empty point the opening rule
/// allows, and none at all once the game is over.
pub fn legal_moves(pos: &Position, rules: &Rules) -> Vec<Point> {
    if status(pos) != Status::Ongoing {
        return Vec::new();
    }
    let opening = opening_move(pos);
    pos.board.empty_points().filter(|&p| rules.allows_on(opening, p)).collect()
}

/// Whether the player to move may play on `p`: the game is not over, `p` is empty and the
/// opening rule allows it.
pub fn is_legal(pos: &Position, rules: &Rules, p: Point) -> bool {
    pos.board.is_empty_at(p) && rules.allows(pos, p) && status(pos) == Status::Ongoing
}

/// The pair `mover` would capture in `direction` by placing a stone on `p`: the two points next
/// to `p` that way, when both hold the opponent's stones and the point after them holds the
/// mover's. Exactly two: a line of three opponent stones is no capture. The pair is listed `1A`
/// first.
pub fn capture_in(board: &Board, p: Point, mover: Color, direction: (i8, i8)) -> Option<[Point; 2]> {
    let opponent = mover.opponent();
    let first = p.step(direction, 1)?;
    let second = p.step(direction, 2)?;
    let flank = p.step(direction, 3)?;
    (board.get(first) == Some(opponent)
        && board.get(second) == Some(opponent)
        && board.get(flank) == Some(mover))
    .then_some([first.min(second), first.max(second)])
}

/// Every pair `mover` would capture by placing a stone on `p`, in [`DIRECTIONS`] order. Several
/// pairs in several directions are all captured at once.
pub fn captures(board: &Board, p: Point, mover: Color) -> Vec<[Point; 2]> {
    DIRECTIONS.into_iter().filter_map(|d| capture_in(board, p, mover, d)).collect()
}

/// How many pairs `mover` would capture by placing a stone on `p` (as `captures(..).len()`).
pub fn capture_count(board: &Board, p: Point, mover: Color) -> usize {
    DIRECTIONS.into_iter().filter(|&d| capture_in(board, p, mover, d).is_some()).count()
}

/// The unbroken row of `color`'s stones through `p` along `axis`, counting `p` itself as
/// `color`'s whatever lies on it; listed from the end nearest `1A`.
pub fn row_through(board: &Board, p: Point, color: Color, axis: (i8, i8)) -> Vec<Point> {
    let back = (-axis.0, -axis.1);
    let mut start = p;
    while let Some(q) = start.step(back, 1).filter(|&q| board.get(q) == Some(color)) {
        start = q;
    }
    let mut row = vec![start];
    let mut at = start;
    while let Some(q) = at.step(axis, 1).filter(|&q| q == p || board.get(q) == Some(color)) {
        row.push(q);
        at = q;
    }
    row
}

/// How long `color`'s row through `p` along `axis` is (as `row_through(..).len()`).
pub fn row_length(board: &Board, p: Point, color: Color, axis: (i8, i8)) -> usize {
    let count = |direction: (i8, i8)| (1..).take_while(|&k| board.holds(p.step(direction, k), color)).count();
    1 + count(axis) + count((-axis.0, -axis.1))
}

/// The first row of five or more (overlines count) that `color` would have through `p` with a
/// stone there, trying the [`AXES`] in order.
pub fn five_through(board: &Board, p: Point, color: Color) -> Option<Vec<Point>> {
    AXES.into_iter()
        .find(|&axis| row_length(board, p, color, axis) >= ROW_TO_WIN)
        .map(|axis| row_through(board, p, color, axis))
}

/// A row of five or more of `color`'s stones on the board, if there is one (the first found
/// scanning from `1A`).
pub fn five_on_board(board: &Board, color: Color) -> Option<Vec<Point>> {
    board.stones(color).find_map(|p| {
        AXES.into_iter().find_map(|axis| {
            let starts_here = !board.holds(p.step((-axis.0, -axis.1), 1), color);
            (starts_here && row_length(board, p, color, axis) >= ROW_TO_WIN)
                .then(|| row_through(board, p, color, axis))
        })
    })
}

/// The position after the player to move places a stone on `p`: the pairs it captures are
/// removed and added to its count (2 pieces each), and the other player is to move. The time
/// left is unchanged.
///
/// # Panics
/// If `p` is not empty. Legality (the opening rule, the game being over) is the caller's
/// business: see [`legal_moves`].
pub fn play(pos: &Position, p: Point) -> Position {
    assert!(pos.board.is_empty_at(p), "{p} is not empty");
    let mover = pos.to_move;
    let mut after = pos.clone();
    for pair in captures(&pos.board, p, mover) {
        for q in pair {
            after.board.set(q, None);
        }
        after.captured[mover.index()] = after.captured[mover.index()].saturating_add(2);
    }
    after.board.set(p, Some(mover));
    after.to_move = mover.opponent();
    after
}

/// Whether placing the mover's stone on the empty point `p` wins at once: after its captures the
/// mover has five or more in a row, or 10 or more captured pieces. (Captures only remove the
/// opponent's stones, so a new row must pass through `p`.)
pub fn wins_at(pos: &Position, p: Point) -> bool {
    let mover = pos.to_move;
    let pairs = capture_count(&pos.board, p, mover) as u32;
    pos.captured_by(mover).saturating_add(2 * pairs) >= CAPTURES_TO_WIN
        || AXES.into_iter().any(|axis| row_length(&pos.board, p, mover, axis) >= ROW_TO_WIN)
}

/// What one move does, for explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// The point played.
    pub point: Point,
    /// The pairs captured, in [`DIRECTIONS`] order.
    pub captures: Vec<[Point; 2]>,
    /// The mover's captured pieces after the move.
    pub captured_after: u32,
    /// A row of five or more through the point, if the move makes one.
    pub five: Option<Vec<Point>>,
}

impl Effect {
    /// Whether the move wins at once.
    pub fn wins(&self) -> bool {
        self.five.is_some() || self.captured_after >= CAPTURES_TO_WIN
    }

    /// The captured points, pair after pair.
    pub fn captured_points(&self) -> Vec<Point> {
        self.captures.iter().flatten().copied().collect()
    }
}

/// What placing the mover's stone on the empty point `p` would do.
pub fn effect(pos: &Position, p: Point) -> Effect {
    let mover = pos.to_move;
    let captures = captures(&pos.board, p, mover);
    let captured_after = pos.captured_by(mover).saturating_add(2 * captures.len() as u32);
    Effect { point: p, captures, captured_after, five: five_through(&pos.board, p, mover) }
}
