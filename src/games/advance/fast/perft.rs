//! Perft: the number of move sequences of a given length, counted without allocating.
//!
//! The last ply is counted, not played: [`Generator::count`] adds up the sizes of the legal
//! target sets. Earlier plies list their moves into one buffer per ply, allocated once per call
//! and reused by every node at that ply.
//!
//! Counting is mostly popcounts, and the baseline x86-64 target has no popcount instruction, so
//! on x86-64 the whole recursion is compiled a second time with the instruction enabled and
//! chosen at run time when the processor has it.

use super::movegen::Generator;
use super::position::Pos;
use crate::advance::notation::Move;

/// The number of move sequences of length `depth` from `pos` (perft(0) = 1).
pub fn perft(pos: &Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<Move>> = (1..depth).map(|_| Vec::with_capacity(256)).collect();
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has just been seen to support the instruction.
        return unsafe { count_with_popcnt(pos, depth, &mut buffers) };
    }
    count(pos, depth, &mut buffers)
}

/// Perft below `pos`, with `buffers[i]` free for the moves `i + 1` plies down.
fn count(pos: &Pos, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    node(pos, depth, buffers, count)
}

/// [`count`], compiled with the popcount instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_with_popcnt(pos: &Pos, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    node(pos, depth, buffers, |pos, depth, buffers| count_with_popcnt(pos, depth, buffers))
}

/// One node of the recursion; `below` counts each child.
#[inline(always)]
fn node<F>(pos: &Pos, depth: u32, buffers: &mut [Vec<Move>], below: F) -> u64
where
    F: Fn(&Pos, u32, &mut [Vec<Move>]) -> u64,
{
    let generator = Generator::new(pos);
    if depth == 1 {
        return generator.count();
    }
    let (moves, deeper) = buffers.split_first_mut().expect("one buffer per ply above the last");
    moves.clear();
    generator.list(moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.make(mv);
            below(&child, depth - 1, deeper)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Side;
    use crate::advance::board::Board;

    #[test]
    fn the_portable_recursion_counts_like_the_dispatched_one() {
        let pos = Pos::from_board(&Board::initial(), Side::White);
        let mut buffers = vec![Vec::new(); 2];
        assert_eq!(count(&pos, 3, &mut buffers), 80482);
        assert_eq!(perft(&pos, 3), 80482);
    }
}
