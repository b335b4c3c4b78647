//! PlanetWars' built-in strategies as bots: each reads a view and writes order lines.

use std::fmt::Write as _;

use super::bots;
use super::games::PlanetwarsGame;
use super::referee::PlanetwarsReferee;
use super::visibility::View;
use crate::harness::referee::{BuiltinBot, Builtins, GameState};
use crate::side::Side;

impl Builtins for PlanetwarsReferee {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        let name = bots::NAMES.iter().find(|n| **n == name)?;
        Some(Box::new(Strategy { name }))
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        bots::NAMES.to_vec()
    }
}

/// A built-in strategy as a bot: reads a view, writes orders.
struct Strategy {
    name: &'static str,
}

impl BuiltinBot for Strategy {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let view = View::parse(&String::from_utf8_lossy(input), origin)?;
        Ok(self.answer(&view, seed))
    }

    fn play_game(&self, game: &dyn GameState, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        // The view the board file's text would give, taken from the state itself: the text
        // round trip was about a sixth of arbiter's own time in a course's 400 games.
        match game.as_any().and_then(|g| g.downcast_ref::<PlanetwarsGame>()) {
            Some(g) => Ok(self.answer(&View::of(&g.state, g.state.to_move), seed)),
            None => self.play(&game.board_file(), "input.txt", side, seed),
        }
    }
}

impl Strategy {
    /// The orders the strategy gives for `view`, as order lines (`pass` for none).
    fn answer(&self, view: &View, seed: u64) -> Vec<u8> {
        let orders = bots::orders(self.name, view, seed).expect("a known strategy");
        let mut out = String::new();
        for o in &orders {
            let amount = match &o.amount {
                super::turn::Amount::Whole(n) => n.to_string(),
                super::turn::Amount::Fraction(t) => t.clone(),
            };
            let _ = writeln!(out, "send {} {} {amount}", o.from, o.to);
        }
        if orders.is_empty() {
            out.push_str("pass\n");
        }
        out.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::referee::Games;

    #[test]
    fn a_builtin_answers_the_same_from_the_state_as_from_the_board_text() {
        let referee = PlanetwarsReferee::default();
        for name in bots::NAMES {
            let bot = referee.builtin(name).expect("a known strategy");
            let mut game = referee.new_game_seeded(None, 7).expect("a random map");
            for ply in 0..60u64 {
                if game.ending().is_some() {
                    break;
                }
                let side = game.to_move();
                let from_state = bot.play_game(game.as_ref(), side, ply).expect("an answer");
                let from_text = bot.play(&game.board_file(), "input.txt", side, ply).expect("an answer");
                assert_eq!(from_state, from_text, "{name} at ply {ply}");
                game.play_output(&from_state).expect("the bot's own orders are read");
            }
        }
    }
}
