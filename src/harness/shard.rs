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

/// What one `grade --shard K/N` run was given, written to `REPORTS/shard-K-of-N.json` when it
/// starts (`complete` false) and again when it ends: `arbiter merge` reads it to name the shards
/// missing from a merge, or left unfinished, even a shard that had no submission to grade.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardManifest {
    /// `K/N`.
    pub shard: String,
    /// How many submissions the whole class has.
    pub class: usize,
    /// This shard's submissions, by name.
    pub submissions: Vec<String>,
    /// Whether the run ended with every one of them graded.
    pub complete: bool,
}

impl ShardManifest {
    /// The file name of shard K of N's manifest.
    pub fn file_name(shard: &Shard) -> String {
        format!("shard-{}-of-{}.json", shard.index, shard.count)
    }

    /// Writes the manifest into the reports folder `dir`, atomically.
    pub fn write(&self, dir: &std::path::Path) -> Result<(), String> {
        let shard: Shard = self.shard.parse()?;
        let path = dir.join(Self::file_name(&shard));
        let mut text = serde_json::to_vec_pretty(self).map_err(|e| e.to_string())?;
        text.push(b'\n');
        super::files::write_atomic(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Every manifest in the reports folder `dir`.
    pub fn read_all(dir: &std::path::Path) -> Result<Vec<ShardManifest>, String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("shard-") && name.ends_with(".json")) {
                continue;
            }
            let text = super::files::read_capped_text(&entry.path(), super::files::PROFILE)
                .map_err(|e| e.to_string())?;
            let manifest: ShardManifest =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", entry.path().display()))?;
            out.push(manifest);
        }
        Ok(out)
    }
}

/// The shard a gradebook file's name says it holds: `gradebook-K-of-N.csv`.
pub fn from_file_name(name: &str) -> Option<Shard> {
    let middle = name.strip_prefix("gradebook-")?.strip_suffix(".csv")?;
    let (k, n) = middle.split_once("-of-")?;
    format!("{k}/{n}").parse().ok()
}

/// What is missing from a set of shards: for each split into N seen, the shards of 1..=N not
/// among `seen`, as `K/N`.
pub fn missing(seen: &[Shard]) -> Vec<Shard> {
    let counts: std::collections::BTreeSet<usize> = seen.iter().map(|s| s.count).collect();
    let mut out = Vec::new();
    for count in counts {
        for index in 1..=count {
            let shard = Shard { index, count };
            if !seen.contains(&shard) {
                out.push(shard);
            }
        }
    }
    out
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
        assert_eq!(from_file_name("gradebook-2-of-4.csv"), Some(Shard { index: 2, count: 4 }));
        assert_eq!(from_file_name("gradebook.csv"), None);
        assert_eq!(
            missing(&[Shard { index: 1, count: 3 }, Shard { index: 3, count: 3 }]),
            vec![Shard { index: 2, count: 3 }]
        );
        let many: Shard = "8/9".parse().unwrap();
        assert!(many.select(&all).is_empty(), "more shards than submissions: some are empty");
    }
}
