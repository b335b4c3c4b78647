//! `arbiter merge`: one gradebook from the outputs of `grade --shard` runs, saying which shards
//! are missing.

use std::path::PathBuf;

use anyhow::bail;

use super::{CommandResult, Outcome};
use crate::harness::files::write_atomic;
use crate::harness::grade::saved_rows;
use crate::harness::gradebook::Table;
use crate::harness::shard::{self, Shard, ShardManifest};

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
                        arbiter merge out                   # every grade.json under out/\n  \
                        arbiter merge out1 out2 --csv all.csv --require-complete\n  \
                        arbiter merge out/gradebook-1-of-2.csv out/gradebook-2-of-2.csv")]
pub struct Args {
    /// Reports folders of `grade` runs (each submission's grade.json is read) or gradebook CSV
    /// files; any mix. A submission found twice must have the same row (wall time aside).
    #[arg(value_name = "DIR|CSV", required = true)]
    inputs: Vec<PathBuf>,

    /// Write the merged gradebook here (default: standard output).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,

    /// Fail, writing nothing, when a shard is missing or unfinished, rather than warn. A shard
    /// is known from the `grade --shard K/N` runs' grade.json files, their shard-K-of-N.json
    /// files and gradebook-K-of-N.csv names: every K of 1..N must be there, with each of its
    /// submissions graded.
    #[arg(long)]
    require_complete: bool,
}

pub fn run(args: Args) -> CommandResult {
    let mut tables = Vec::new();
    let mut seen: Vec<Shard> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for input in &args.inputs {
        let table = if input.is_dir() {
            let saved = saved_rows(input).map_err(anyhow::Error::msg)?;
            let manifests = ShardManifest::read_all(input).map_err(anyhow::Error::msg)?;
            if saved.is_empty() && manifests.is_empty() {
                bail!("{} holds no graded submission (no */grade.json)", input.display());
            }
            seen.extend(saved.iter().filter_map(|s| s.shard.as_deref()?.parse::<Shard>().ok()));
            let graded: Vec<&str> = saved.iter().map(|s| s.row.submission.as_str()).collect();
            for m in &manifests {
                seen.extend(m.shard.parse::<Shard>().ok());
                let ungraded: Vec<&str> =
                    m.submissions.iter().map(String::as_str).filter(|n| !graded.contains(n)).collect();
                if !ungraded.is_empty() {
                    problems.push(format!(
                        "shard {} in {} has {} submission(s) not graded: {}{}",
                        m.shard,
                        input.display(),
                        ungraded.len(),
                        ungraded.join(", "),
                        if m.complete { "" } else { " (its run did not finish: run it again)" }
                    ));
                }
            }
            let rows: Vec<_> = saved.into_iter().map(|s| s.row).collect();
            if rows.is_empty() {
                // A shard with nothing graded (yet): its manifest is all it adds.
                continue;
            }
            Table::from_rows(&rows).map_err(anyhow::Error::msg)?
        } else {
            let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            seen.extend(shard::from_file_name(&name));
            Table::read(input).map_err(anyhow::Error::msg)?
        };
        tables.push((input.display().to_string(), table));
    }
    seen.sort_by_key(|s| (s.count, s.index));
    seen.dedup();
    let missing = shard::missing(&seen);
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|s| s.to_string()).collect();
        problems.insert(
            0,
            format!(
                "{} shard(s) missing: {} (no grade.json, shard-K-of-N.json or gradebook-K-of-N.csv from them)",
                missing.len(),
                list.join(", ")
            ),
        );
    }
    if args.require_complete && !problems.is_empty() {
        bail!("the merge is not complete (--require-complete):\n  {}", problems.join("\n  "));
    }
    for p in &problems {
        eprintln!("warning: {p}");
    }
    let merged = Table::merge(tables).map_err(anyhow::Error::msg)?;
    let csv = merged.to_csv().map_err(anyhow::Error::msg)?;
    match &args.csv {
        Some(path) => {
            write_atomic(path, &csv).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            eprintln!("{} submission(s) merged into {}", merged.records.len(), path.display());
        }
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&csv)?;
        }
    }
    Ok(Outcome::Success)
}
