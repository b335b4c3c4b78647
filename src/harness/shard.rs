//! `--shard K/N`: a deterministic share of a class, so that N machines (a Slurm array, a CI
//! matrix, GNU parallel) each grade one share and `arbiter merge` joins their gradebooks.
//!
//! The split is round-robin over the submissions sorted by name: shard K (1-based) takes the
//! submissions at positions K-1, K-1+N, K-1+2N, ... Neighbours in name order land on different
//! machines, so a run of slow submissions is spread out, and every machine computes the same
//! split from the same list without talking to the others.

use std::fmt;
use std::str::FromStr;

/// One share of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

/// The most shards a class is split into.
pub const MAX_SHARDS: usize = 10_000;

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let usage =
            || format!("`{text}` is not a shard: expected K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 2/4");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let (index, count) = (
            k.trim().parse::<usize>().map_err(|_| usage())?,
            n.trim().parse::<usize>().map_err(|_| usage())?,
        );
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// This shard's share of `sorted` (already sorted by name), round-robin.
    pub fn select<T: Clone>(&self, sorted: &[T]) -> Vec<T> {
        sorted.iter().skip(self.index - 1).step_by(self.count).cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_round_robin_and_cover_everything_once() {
        let all: Vec<u32> = (0..7).collect();
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        assert_eq!(shards[0].select(&all), vec![0, 3, 6]);
        assert_eq!(shards[1].select(&all), vec![1, 4]);
        assert_eq!(shards[2].select(&all), vec![2, 5]);
        let one: Shard = "1/1".parse().unwrap();
        assert_eq!(one.select(&all), all);
        for bad in ["0/2", "3/2", "1/0", "x", "1/", "1/100000"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let many: Shard = "8/9".parse().unwrap();
        assert!(many.select(&all).is_empty(), "more shards than submissions: some are empty");
    }
}
