//! Random positions from random games, for fuzzing and corpus generation.

use rand::Rng;

use super::bots::adjacent_moves;
use super::position::Position;
use super::rules::{Rules, play, wins_at};

/// Whether playing `p` would end the game: a win, or the last empty point filled.
fn ends_the_game(pos: &Position, p: super::point::Point) -> bool {
    wins_at(pos, p) || pos.board.empty_points().nth(1).is_none()
}

/// The position after up to `stones` random moves from the start of a game, each uniformly
/// random among the legal moves next to a stone (as [`RandomAdjacent`](super::bots::RandomAdjacent)
/// plays) that do not end the game. Stops early when every such move would end it, so the game
/// is never over in the result. Captures may leave fewer than `stones` stones on the board.
pub fn random_position<R: Rng + ?Sized>(rng: &mut R, rules: &Rules, stones: usize) -> Position {
    let mut pos = Position::start();
    for _ in 0..stones {
        let moves: Vec<_> =
            adjacent_moves(&pos, rules).into_iter().filter(|&p| !ends_the_game(&pos, p)).collect();
        if moves.is_empty() {
            break;
        }
        pos = play(&pos, moves[rng.gen_range(0..moves.len())]);
    }
    pos
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::pente::rules::{Status, status};

    #[test]
    fn the_same_seed_gives_the_same_position_and_the_game_goes_on() {
        let rules = Rules::default();
        let a = random_position(&mut ChaCha8Rng::seed_from_u64(5), &rules, 60);
        let b = random_position(&mut ChaCha8Rng::seed_from_u64(5), &rules, 60);
        assert_eq!(a, b);
        assert_eq!(status(&a), Status::Ongoing);
        assert!(a.inconsistencies().is_empty(), "{:?}", a.inconsistencies());
        assert_eq!(a.placed(a.to_move) + a.placed(a.to_move.opponent()), 60);
    }
}
