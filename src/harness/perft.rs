//! Perft over any game's positions: how many move sequences of a given length the rules allow.
//! A position where the game is over has no moves, so sequences stop there. A game gives its
//! legal moves and the position after a move; the counting is the same for every game.

/// The number of sequences of `depth` legal moves from `pos` (1 for depth 0).
pub fn perft<P, M>(pos: &P, depth: u32, moves: &impl Fn(&P) -> Vec<M>, play: &impl Fn(&P, M) -> P) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = moves(pos);
    if depth == 1 {
        return legal.len() as u64;
    }
    legal.into_iter().map(|m| perft(&play(pos, m), depth - 1, moves, play)).sum()
}

/// [`perft`] split by first move: each legal move, in the order `moves` gives them, with the
/// number of sequences of `depth` moves that start with it (none for depth 0).
pub fn perft_divide<P, M: Clone>(
    pos: &P,
    depth: u32,
    moves: &impl Fn(&P) -> Vec<M>,
    play: &impl Fn(&P, M) -> P,
) -> Vec<(M, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    moves(pos).into_iter().map(|m| (m.clone(), perft(&play(pos, m), depth - 1, moves, play))).collect()
}

/// [`perft_divide`] as the position commands show it: each first move in the game's notation,
/// at `depth` plies but at least 1 ([`crate::harness::analyst::Analyst::perft_divide`]).
pub fn divide_notated<P, M: Clone + ToString>(
    pos: &P,
    depth: u32,
    moves: &impl Fn(&P) -> Vec<M>,
    play: &impl Fn(&P, M) -> P,
) -> Vec<(String, u64)> {
    perft_divide(pos, depth.max(1), moves, play).into_iter().map(|(m, n)| (m.to_string(), n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pile of `n` stones from which each move takes one or two.
    fn takes(n: &u32) -> Vec<u32> {
        (1..=2).filter(|t| t <= n).collect()
    }

    #[test]
    fn perft_counts_sequences_and_divide_splits_them() {
        let take = |n: &u32, t: u32| n - t;
        // Compositions of 4 into ones and twos number Fibonacci(5) = 5, all at most 4 moves.
        assert_eq!(perft(&4, 1, &takes, &take), 2);
        assert_eq!(perft(&4, 2, &takes, &take), 4);
        assert_eq!(perft(&4, 0, &takes, &take), 1);
        let divided = perft_divide(&4, 2, &takes, &take);
        assert_eq!(divided, vec![(1, 2), (2, 2)]);
        assert!(perft_divide(&4, 0, &takes, &take).is_empty());
        let notated = divide_notated(&4, 0, &takes, &take);
        assert_eq!(notated, vec![("1".to_string(), 1), ("2".to_string(), 1)]);
    }
}
