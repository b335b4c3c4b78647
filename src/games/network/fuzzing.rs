//! Network positions for `fuzz`: random games of random length, each a case file (the game's
//! moves and the position after them) asking for a legal move, shrunk by dropping the last
//! moves two at a time (so the same side is to move).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::case_file::CaseFile;
use super::generate::{Game, random_game};
use super::oracle::Oracle;
use super::referee::NetworkReferee;
use crate::harness::referee::Fuzzing;
use crate::side::Side;

/// The longest random game a fuzzed position comes from: past all 20 add moves, into steps.
const MAX_PLIES: usize = 48;

/// The case file of `game`, asking for a legal move.
fn case_of(game: &Game) -> (Vec<u8>, Side) {
    let file = CaseFile { position: game.position, game: game.moves.clone(), offer: None };
    (file.render().into_bytes(), game.position.to_move.side())
}

impl Fuzzing for NetworkReferee {
    fn any_move_category(&self) -> &'static str {
        "legal"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let plies = rng.gen_range(0..=MAX_PLIES);
        case_of(&random_game(&mut rng, &self.rules, plies))
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        let Ok(file) = CaseFile::parse(input, "fuzzed case", &self.rules) else { return Vec::new() };
        // Shorter games first, each ending with the same side to move.
        let n = file.game.len();
        let half = n / 2 + usize::from((n / 2) % 2 != n % 2);
        let mut lengths: Vec<usize> = vec![n % 2, half, n.saturating_sub(2)];
        lengths.retain(|&k| k < n && k % 2 == n % 2);
        lengths.dedup();
        lengths
            .into_iter()
            .map(|k| {
                let mut game = Game::start();
                for &mv in &file.game[..k] {
                    game.push(mv);
                }
                case_of(&game).0
            })
            .collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        CaseFile::parse(input, "fuzzed case", &self.rules).map_or(0, |f| f.game.len())
    }

    fn size_unit(&self) -> &'static str {
        "moves"
    }

    fn auto_category(&self, input: &[u8], _side: Side) -> Option<String> {
        // A position where a move wins, or where the opponent threatens to, asks for that move.
        let file = CaseFile::parse(input, "fuzzed case", &self.rules).ok()?;
        Oracle::new(&file.position, &self.rules).category().map(|c| c.name().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::Rules;

    #[test]
    fn fuzzed_positions_are_reproducible_and_shrink_to_shorter_games_with_the_same_side_to_move() {
        let referee = NetworkReferee::new(Rules::default());
        for seed in 0..20 {
            let (a, side) = referee.random_position(seed);
            assert_eq!((a.clone(), side), referee.random_position(seed));
            let size = referee.size(&a);
            for smaller in referee.shrink_steps(&a, side) {
                let file = CaseFile::parse(&smaller, "shrunk", &Rules::default()).unwrap();
                assert!(file.game.len() < size);
                assert_eq!(file.position.to_move.side(), side);
            }
        }
    }
}
