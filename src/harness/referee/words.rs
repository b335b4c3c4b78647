//! The words a game speaks: its sides' names, what its position files hold, its rule options,
//! and the words only it uses. `--help` is written in them (`src/cli/game_help.rs`), and
//! `tests/words.rs` fails when one game's help or report shows another game's own words.

/// A game's own words (see the module comment).
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// The two sides as the game names them, the first mover first: `["white", "black"]`, or
    /// `["player 1", "player 2"]` where the game has no colours. Help texts written with
    /// white/black are given these names instead.
    pub sides: [&'static str; 2],
    /// What a position file holds, for the BOARD argument of `moves`, `apply`, `show` ...:
    /// "9 lines of 9 characters from `ZBJMSCDGzbjmscdg.#`".
    pub board_file: &'static str,
    /// Where the side to move comes from, for `--side`'s help ("Required: the board file does
    /// not say").
    pub side_to_move: &'static str,
    /// What makes a position not well-formed, for `--allow-invalid`'s help.
    pub invalid_position: &'static str,
    /// The game's rule options for `--rule`'s help; empty when it has none.
    pub rule_options: &'static str,
    /// A move in the game's notation, for `apply`'s and `check`'s help: "`Zf3xf4`, `Be7-d8`".
    pub move_examples: &'static str,
    /// Whether `--engine` chooses between engines of this game (Advance's bitboards and its
    /// reference engine); the option is hidden from the help of a game with one engine.
    pub engines: bool,
    /// Words and phrases only this game uses (case-sensitive): "General", "input.txt",
    /// "chooseMove". Another game's help text or report that shows one speaks the wrong game.
    pub own: &'static [&'static str],
}

impl Words {
    /// The words of a game that declares none of its own: white and black, and position files
    /// described by the game's analyst.
    pub const PLAIN: Words = Words {
        sides: ["white", "black"],
        board_file: "the game's position file",
        side_to_move: "The side to move, where the position file does not say it",
        invalid_position: "",
        rule_options: "",
        move_examples: "",
        engines: false,
        own: &[],
    };

    /// `text` with the white/black of a help text written for games with colours put into this
    /// game's side names ("White moves first" -> "Player 1 moves first"); unchanged for a game
    /// whose sides are white and black.
    pub fn with_sides(&self, text: &str) -> String {
        if self.sides == ["white", "black"] {
            return text.to_string();
        }
        let capital = |s: &str| {
            let mut chars = s.chars();
            chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        };
        let [first, second] = self.sides;
        text.replace("white|black", &format!("{first}|{second}"))
            .replace("White", &capital(first))
            .replace("Black", &capital(second))
            .replace("white", first)
            .replace("black", second)
    }
}

#[cfg(test)]
mod tests {
    use super::Words;

    #[test]
    fn sides_are_renamed_only_for_games_without_colours() {
        let players = Words { sides: ["player 1", "player 2"], ..Words::PLAIN };
        assert_eq!(
            players.with_sides("White moves first; --side white|black"),
            "Player 1 moves first; --side player 1|player 2"
        );
        assert_eq!(Words::PLAIN.with_sides("White moves first"), "White moves first");
    }
}
