//! A position: what input.txt describes. The board, whose turn it is, the time left and how
//! many pieces each player has captured.

use super::board::Board;
use super::color::Color;
use super::point::Point;

/// Everything input.txt says. Reading and writing the file is in [`text`](super::text).
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The colour to play (input.txt's first line).
    pub to_move: Color,
    /// Seconds of play time the player to move has left (second line); strictly positive.
    /// The rules never look at it; bots may (the graders' minimax picks its depth by it).
    pub seconds_left: f64,
    /// Pieces captured BY White (`captured[0]`) and BY Black (`captured[1]`), as on the third
    /// line; index with [`Color::index`]. Pieces, not pairs: always even in a readable file.
    pub captured: [u32; 2],
    /// The stones on the board.
    pub board: Board,
}

impl Position {
    /// Seconds left in positions made up by [`Position::new`] and [`Position::start`]: the
    /// assignment's likely total play time.
    pub const DEFAULT_SECONDS: f64 = 300.0;

    /// `to_move` to play on `board`, nothing captured yet, [`Self::DEFAULT_SECONDS`] left.
    pub fn new(to_move: Color, board: Board) -> Position {
        Position { to_move, seconds_left: Self::DEFAULT_SECONDS, captured: [0, 0], board }
    }

    /// The start of a game: an empty board, White to play.
    pub fn start() -> Position {
        Position::new(Color::White, Board::empty())
    }

    /// Pieces captured by `color` (not from it).
    pub fn captured_by(&self, color: Color) -> u32 {
        self.captured[color.index()]
    }

    /// How many stones `color` has placed in the game so far: its stones on the board plus those
    /// the opponent captured. This is how the opening rule knows which of White's moves is next.
    pub fn placed(&self, color: Color) -> u64 {
        self.board.count(color) as u64 + u64::from(self.captured_by(color.opponent()))
    }

    /// What cannot have come from a real game, each as a sentence; empty when nothing is wrong.
    /// The rules and the oracle work on any position; a harness may refuse these.
    ///
    /// Checked: White moves first and the players alternate, so White has placed as many stones
    /// as Black when White is to move and one more when Black is; White's first stone is on the
    /// centre, so while White has lost no stone and has placed one, `10K` holds White's stone.
    pub fn inconsistencies(&self) -> Vec<String> {
        let mut found = Vec::new();
        let (white, black) = (self.placed(Color::White), self.placed(Color::Black));
        let expected_white = match self.to_move {
            Color::White => black,
            Color::Black => black + 1,
        };
        if white != expected_white {
            found.push(format!(
                "with {} to play White should have placed {expected_white} stones (Black has placed {black}: \
                 {} on the board + {} captured by White), but has placed {white} ({} on the board + {} captured \
                 by Black)",
                self.to_move,
                self.board.count(Color::Black),
                self.captured_by(Color::White),
                self.board.count(Color::White),
                self.captured_by(Color::Black),
            ));
        }
        if white >= 1
            && self.captured_by(Color::Black) == 0
            && self.board.get(Point::CENTRE) != Some(Color::White)
        {
            found.push(
                "White's first stone must be on the centre 10K and none of White's stones was captured, \
                 but 10K does not hold a white stone"
                    .to_string(),
            );
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_counts_stones_on_the_board_and_those_the_opponent_took() {
        let mut pos = Position::new(Color::Black, Board::from_points("10K 10L", "11L").unwrap());
        pos.captured = [0, 2];
        assert_eq!(pos.placed(Color::White), 4);
        assert_eq!(pos.placed(Color::Black), 1);
        assert_eq!(pos.inconsistencies().len(), 1, "{:?}", pos.inconsistencies());
        pos.captured = [2, 2];
        assert_eq!(pos.inconsistencies(), Vec::<String>::new());
    }

    #[test]
    fn the_first_white_stone_must_be_on_the_centre() {
        let pos = Position::new(Color::Black, Board::from_points("10L", "").unwrap());
        let found = pos.inconsistencies();
        assert_eq!(found.len(), 1);
        assert!(found[0].contains("10K"), "{found:?}");
        assert!(Position::start().inconsistencies().is_empty());
    }
}
