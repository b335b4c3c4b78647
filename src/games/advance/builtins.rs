//! Advance's built-in bots: one per grade, the mutants with a planted rule bug, and the blind bots.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::engine::Engine;
use super::grade7_choice::grade7_min;
use super::grades::grade6;
use super::mutants::{Blind, Mutant};
use super::referee::{AdvanceReferee, read_board};
use crate::harness::referee::{BuiltinBot, Builtins};
use crate::side::Side;

impl<E: Engine + Clone + 'static> Builtins for AdvanceReferee<E> {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        if let Some(mutant) = Mutant::from_name(name) {
            return Some(Box::new(MutantBot { engine: self.engine.clone(), mutant }));
        }
        if let Some(blind) = Blind::from_name(name) {
            return Some(Box::new(BlindBot { engine: self.engine.clone(), blind }));
        }
        let grade = match name {
            "random" | "grade4" => 4,
            "grade5" => 5,
            "grade6" => 6,
            "grade7" => 7,
            _ => return None,
        };
        Some(Box::new(AdvanceBot { engine: self.engine.clone(), grade }))
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        let mut names = vec!["random", "grade5", "grade6", "grade7"];
        names.extend(Mutant::ALL.iter().map(|m| m.name()));
        names.extend(Blind::ALL.iter().map(|b| b.name()));
        names
    }
}

/// What a built-in bot writes: the board file after one of `choices` drawn with `rng`, or why
/// it cannot play.
fn play_one_of<E: Engine>(
    engine: &E,
    pos: &E::Pos,
    choices: &[super::notation::Move],
    rng: &mut ChaCha8Rng,
    side: Side,
) -> Result<Vec<u8>, String> {
    let mv = *choices.choose(rng).ok_or_else(|| format!("{side} has no legal move"))?;
    Ok(engine.board(&engine.play(pos, mv)).to_text().into_bytes())
}

/// A built-in bot: plays uniformly at random among its grade's expected set (grade 4 being every
/// legal move).
pub struct AdvanceBot<E> {
    engine: E,
    grade: u8,
}

impl<E: Engine> BuiltinBot for AdvanceBot<E> {
    fn name(&self) -> String {
        if self.grade == 4 { "arbiter-random".to_string() } else { format!("arbiter-grade{}", self.grade) }
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let pos = self.engine.load(&board, side);
        let choices = match self.grade {
            4 => self.engine.moves(&pos),
            // The same sets as the full report's, without valuing grade 7's candidates.
            5 | 6 => {
                let g6 = grade6(&self.engine, &pos);
                if self.grade == 5 && g6.winning.is_empty() { g6.legal } else { g6.set }
            }
            _ => grade7_min(&self.engine, &pos).moves,
        };
        play_one_of(&self.engine, &pos, &choices, &mut ChaCha8Rng::seed_from_u64(seed), side)
    }
}

/// A bot with a planted rule bug (see [`Mutant`]): plays a move only its bug allows whenever
/// there is one, else a grade-6 move (a winning move, else the greatest material gain).
pub struct MutantBot<E> {
    engine: E,
    mutant: Mutant,
}

impl<E: Engine> BuiltinBot for MutantBot<E> {
    fn name(&self) -> String {
        format!("arbiter-{}", self.mutant.name())
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let buggy = self.mutant.buggy_moves(&board, side);
        if let Some(&mv) = buggy.choose(&mut rng) {
            return Ok(super::reference::apply(&board, mv).to_text().into_bytes());
        }
        let pos = self.engine.load(&board, side);
        let choices = super::grades::grade6_set(&self.engine, &pos);
        play_one_of(&self.engine, &pos, &choices, &mut rng, side)
    }
}

/// A bot with a blind spot (see [`Blind`]): plays the grade-6 choice among the legal moves it
/// sees, and fails with "no legal move" when it sees none.
pub struct BlindBot<E> {
    engine: E,
    blind: Blind,
}

impl<E: Engine> BuiltinBot for BlindBot<E> {
    fn name(&self) -> String {
        format!("arbiter-{}", self.blind.name())
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let pos = self.engine.load(&board, side);
        let seen: Vec<_> =
            self.engine.moves(&pos).into_iter().filter(|&m| self.blind.sees(&board, side, m)).collect();
        let winning: Vec<_> = seen
            .iter()
            .copied()
            .filter(|&m| !self.engine.has_legal_move(&self.engine.play(&pos, m)))
            .collect();
        let choices = if winning.is_empty() {
            let gain = |m| self.engine.advantage(&self.engine.play(&pos, m), side);
            let best = seen.iter().map(|&m| gain(m)).max();
            seen.iter().copied().filter(|&m| Some(gain(m)) == best).collect()
        } else {
            winning
        };
        play_one_of(&self.engine, &pos, &choices, &mut ChaCha8Rng::seed_from_u64(seed), side)
    }
}
