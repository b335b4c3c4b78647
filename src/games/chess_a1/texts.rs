//! The fixed texts the game prints (prompts, help, messages, the board's layout): one profile
//! file, `corpus/chess-a1/texts.json` by default, that a grader can replace with
//! `--rule texts=FILE` when their course's gameplay files say otherwise.

use serde::{Deserialize, Serialize};

use super::board::{Board, SIZE};

/// The default profile, written from the assignment (docs/games/chess-a1/RULES.md).
pub const DEFAULT: &str = include_str!("../../../corpus/chess-a1/texts.json");

/// Every fixed text, exactly as printed (a `print`'s newline included).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texts {
    /// The profile's name.
    pub name: String,
    /// Where its texts come from.
    #[serde(default)]
    pub about: String,
    /// `input()`'s prompt for White's move.
    pub white_prompt: String,
    /// `input()`'s prompt for Black's move.
    pub black_prompt: String,
    /// `input()`'s prompt after `q`/`Q`.
    pub quit_prompt: String,
    /// What `h`/`H` prints.
    pub help: String,
    /// What an invalid move prints.
    pub invalid_move: String,
    /// One row of `print_board`: `{row}` is the row's string, `{number}` its rank.
    pub board_row: String,
    /// What `print_board` prints after the rows.
    pub board_footer: String,
    /// What `check_game_over` prints when the player is in check but can move; `{player}` is
    /// [`Texts::white`] or [`Texts::black`].
    pub in_check: String,
    /// What `check_game_over` prints at checkmate.
    pub checkmate: String,
    /// What `check_game_over` prints at stalemate.
    pub stalemate: String,
    /// White's name in messages.
    pub white: String,
    /// Black's name in messages.
    pub black: String,
    /// CSSE7030: `attempt_promotion`'s prompt for the piece replacing a pawn.
    #[serde(default = "promotion_prompt")]
    pub promotion_prompt: String,
    /// CSSE7030: what comes before the promotion prompt again after a choice that is not one
    /// of the pieces.
    #[serde(default = "invalid_piece")]
    pub invalid_piece: String,
    /// Where each text comes from (not compared; for the grader reading the file).
    #[serde(default)]
    pub sources: std::collections::BTreeMap<String, String>,
}

fn promotion_prompt() -> String {
    "What piece would you like (q, n, r, b)? ".to_string()
}

fn invalid_piece() -> String {
    "Not a valid piece. ".to_string()
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::parse(DEFAULT, "corpus/chess-a1/texts.json").expect("the default texts read")
    }
}

impl Texts {
    /// Reads a profile; errors name `origin`.
    pub fn parse(text: &str, origin: &str) -> Result<Texts, String> {
        serde_json::from_str(text).map_err(|e| format!("{origin}: {e}"))
    }

    /// Reads a profile file.
    pub fn load(path: &str) -> Result<Texts, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Texts::parse(&text, path)
    }

    /// What `print_board(board)` prints.
    pub fn board(&self, board: &Board) -> String {
        let mut out = String::new();
        for (i, row) in board.rows().iter().enumerate() {
            out.push_str(
                &self.board_row.replace("{row}", row).replace("{number}", &(SIZE - i as i64).to_string()),
            );
        }
        out.push_str(&self.board_footer);
        out
    }

    /// The prompt for the player to move.
    pub fn prompt(&self, white: bool) -> &str {
        if white { &self.white_prompt } else { &self.black_prompt }
    }

    /// The in-check message for the player.
    pub fn check(&self, white: bool) -> String {
        self.in_check.replace("{player}", if white { &self.white } else { &self.black })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_prints_with_two_spaces_and_a_blank_line() {
        let text = Texts::default().board(&Board::initial());
        assert_eq!(
            text,
            "rnbqkbnr  8\npppppppp  7\n........  6\n........  5\n........  4\n........  3\nPPPPPPPP  2\nRNBQKBNR  1\n\nabcdefgh\n"
        );
    }
}
