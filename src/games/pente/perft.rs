//! Perft: how many move sequences of a given length the rules allow from a position. A position
//! where the game is over has no moves, so sequences stop there. For cross-checking rule code
//! against other implementations.

use super::position::Position;
use super::rules::{Rules, legal_moves, play};

/// The number of sequences of `depth` legal moves from `pos` (1 for depth 0).
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    crate::harness::perft::perft(pos, depth, &|p: &Position| legal_moves(p, rules), &play)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::point::Point;
    use crate::games::pente::rules::Opening;

    #[test]
    fn perft_from_the_empty_board_under_the_assignments_opening() {
        let rules = Rules::default();
        let start = Position::start();
        // White's first stone can only go on the centre.
        assert_eq!(perft(&start, &rules, 1), 1);
        // Black may then play on any of the other 360 points.
        assert_eq!(perft(&start, &rules, 2), 360);
        // White's second stone goes within distance 3 of the centre: the 7x7 square around
        // 10K holds 48 points besides the centre. Black's stone is on one of them in 48 of its
        // 360 replies (leaving 47) and elsewhere in 312 (leaving 48): 48 * 47 + 312 * 48.
        assert_eq!(perft(&start, &rules, 3), 48 * 47 + 312 * 48);
        assert_eq!(perft(&start, &rules, 3), 17_232);
        // Black's second stone: any of the 358 empty points. No capture or win can happen yet
        // (a capture needs two stones of the victim's in a row and two of the captor's).
        assert_eq!(perft(&start, &rules, 4), 17_232 * 358);
        // Depth 5 (too slow for a unit test: 11 s in release) is 2_202_353_024: White's third
        // stone goes on any of 357 empty points, or 359 after one of the 16 four-move sequences
        // in which Black's second stone captures (White's second stone next to 10K, Black's
        // stones on both ends of that pair): 6_169_056 * 357 + 16 * 2.
    }

    #[test]
    fn perft_from_the_empty_board_under_the_tournament_opening() {
        let rules = Rules { opening: Opening::Tournament };
        let start = Position::start();
        assert_eq!(perft(&start, &rules, 2), 360);
        // Distance 3 or more from the centre: all but the 5x5 square around 10K, 361 - 25 = 336
        // points. Black's stone is on one of them in 336 of its replies (leaving 335) and in the
        // square in the other 24 (leaving 336).
        assert_eq!(perft(&start, &rules, 3), 336 * 335 + 24 * 336);
        assert_eq!(perft(&start, &rules, 4), 120_624 * 358);
    }

    #[test]
    fn divide_sums_to_perft() {
        let rules = Rules::default();
        let pos = play(&play(&Position::start(), Point::CENTRE), "11L".parse().unwrap());
        let moves = |p: &Position| legal_moves(p, &rules);
        let divided = crate::harness::perft::perft_divide(&pos, 2, &moves, &play);
        assert_eq!(divided.len(), 47);
        assert_eq!(divided.iter().map(|&(_, n)| n).sum::<u64>(), perft(&pos, &rules, 2));
    }
}
