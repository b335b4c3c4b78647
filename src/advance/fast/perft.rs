//! Perft: the number of move sequences of a given length, counted without allocating.
//!
//! The last ply is counted, not played: [`Generator::count`] adds up the sizes of the legal
//! target sets. Earlier plies list their moves into one buffer per ply, allocated once per call
//! and reused by every node at that ply.

use super::movegen::Generator;
use super::position::Pos;
use crate::advance::notation::Move;

/// The number of move sequences of length `depth` from `pos` (perft(0) = 1).
pub fn perft(pos: &Pos, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ => {
            let mut buffers: Vec<Vec<Move>> = (1..depth).map(|_| Vec::with_capacity(256)).collect();
            count(pos, depth, &mut buffers)
        }
    }
}

/// Perft below `pos`, with `buffers[i]` free for the moves `i + 1` plies down.
fn count(pos: &Pos, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let generator = Generator::new(pos);
    if depth == 1 {
        return generator.count();
    }
    let (moves, deeper) = buffers
        .split_first_mut()
        .expect("one buffer per ply above the last");
    moves.clear();
    generator.list(moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.make(mv);
            count(&child, depth - 1, deeper)
        })
        .sum()
}
