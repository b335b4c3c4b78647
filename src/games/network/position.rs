//! A position: the chips on the board and whose turn it is. How many chips each player still
//! has to add follows from the board (chips never leave it), so nothing else is needed.

use super::board::Board;
use super::color::Color;
use super::connection::has_network;
use super::square::{Square, goal_mask};

/// Each player's chips.
pub const CHIPS_PER_PLAYER: u32 = 10;

/// The board and the player to move. Reading and writing position files is in
/// [`text`](super::text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The chips.
    pub board: Board,
    /// The player whose turn it is.
    pub to_move: Color,
}

impl Position {
    /// `to_move` to play on `board`.
    pub fn new(board: Board, to_move: Color) -> Position {
        Position { board, to_move }
    }

    /// The start of a game: an empty board, White to move ("White moves first").
    pub fn start() -> Position {
        Position::new(Board::empty(), Color::White)
    }

    /// The chips `color` has not yet added.
    pub fn in_hand(&self, color: Color) -> u32 {
        CHIPS_PER_PLAYER.saturating_sub(self.board.count(color))
    }

    /// Whether the player to move adds (it has a chip left) rather than steps.
    pub fn adds(&self) -> bool {
        self.in_hand(self.to_move) > 0
    }

    /// What cannot have come from a game, each as a sentence; empty when nothing is wrong. The
    /// rules and the oracle work on any position with at most 10 chips a side; a harness may
    /// refuse the others.
    ///
    /// Checked: at most 10 chips a side; no chip in the opponent's goal; no group of three or
    /// more; the turn order (White first, then alternately, so while chips remain to be added
    /// White has as many chips as Black when White is to move and one more when Black is); and,
    /// while chips remain to be added, no network for the player to move (the opponent's last
    /// move was an add, which cannot complete one for it, so the game would have ended before).
    pub fn inconsistencies(&self) -> Vec<String> {
        let mut found = Vec::new();
        for color in Color::BOTH {
            let n = self.board.count(color);
            if n > CHIPS_PER_PLAYER {
                found.push(format!("{color} has {n} chips on the board; each player has {CHIPS_PER_PLAYER}"));
            }
            let trespass = self.board.chips(color) & goal_mask(color.opponent());
            for sq in Square::in_bits(trespass) {
                found.push(format!("{color}'s chip on {sq} is in {}'s goal area", color.opponent()));
            }
            let clustered = self.board.clustered(color);
            if clustered != 0 {
                let squares: Vec<String> = Square::in_bits(clustered).map(|s| s.to_string()).collect();
                found.push(format!(
                    "{color}'s chips {} are in a connected group of three or more",
                    squares.join(" ")
                ));
            }
        }
        let (white, black) = (self.board.count(Color::White), self.board.count(Color::Black));
        let both_placed = white >= CHIPS_PER_PLAYER && black >= CHIPS_PER_PLAYER;
        if !both_placed {
            let expected_white = match self.to_move {
                Color::White => black,
                Color::Black => black + 1,
            };
            if white != expected_white {
                found.push(format!(
                    "White has {white} chips and Black {black} with {} to move: White moves first and the \
                     players alternate, so White has as many chips as Black when White is to move and one \
                     more when Black is",
                    self.to_move
                ));
            } else if has_network(&self.board, self.to_move) {
                found.push(format!(
                    "{} has a network, but {}'s last move was an add, which cannot complete a network for \
                     its opponent: the game would have ended earlier",
                    self.to_move,
                    self.to_move.opponent()
                ));
            }
        }
        found
    }
}
