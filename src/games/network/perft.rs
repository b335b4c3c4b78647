//! Perft: how many move sequences of a given length the rules allow from a position. A position
//! where the game is over has no moves, so sequences stop there. For pinning the rules with
//! numbers and cross-checking other implementations.

use super::moves::Move;
use super::position::Position;
use super::rules::{Rules, legal_moves, play};

/// The number of sequences of `depth` legal moves from `pos` (1 for depth 0).
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    crate::harness::perft::perft(pos, depth, &|p: &Position| legal_moves(p, rules), &play)
}

/// [`perft`] split by first move: each legal move with the number of sequences of `depth` moves
/// that start with it, in the order of [`legal_moves`].
pub fn perft_divide(pos: &Position, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    crate::harness::perft::perft_divide(pos, depth, &|p: &Position| legal_moves(p, rules), &play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start() {
        let rules = Rules::default();
        let start = Position::start();
        // White may add on the 36 inner squares and its own 12 goal squares.
        assert_eq!(perft(&start, &rules, 1), 48);
        // Black may use 48 squares too, less the one White took when it is one of Black's: the
        // 36 inner squares are shared, White's goals are not.
        assert_eq!(perft(&start, &rules, 2), 36 * 47 + 12 * 48);
        let divided = perft_divide(&start, &rules, 2);
        assert_eq!(divided.iter().map(|&(_, n)| n).sum::<u64>(), perft(&start, &rules, 2));
    }
}
