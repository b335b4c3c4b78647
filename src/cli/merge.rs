//! `arbiter merge`: one gradebook from the outputs of `grade --shard` runs.

use std::path::PathBuf;

use anyhow::bail;

use super::{CommandResult, Outcome};
use crate::harness::files::write_atomic;
use crate::harness::grade::saved_rows;
use crate::harness::gradebook::Table;

#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
                        arbiter merge out                   # every grade.json under out/\n  \
                        arbiter merge out1 out2 --csv all.csv\n  \
                        arbiter merge out/gradebook-1-of-2.csv out/gradebook-2-of-2.csv")]
pub struct Args {
    /// Reports folders of `grade` runs (each submission's grade.json is read) or gradebook CSV
    /// files; any mix. A submission found twice must have the same row (wall time aside).
    #[arg(value_name = "DIR|CSV", required = true)]
    inputs: Vec<PathBuf>,

    /// Write the merged gradebook here (default: standard output).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

pub fn run(args: Args) -> CommandResult {
    let mut tables = Vec::new();
    for input in &args.inputs {
        let table = if input.is_dir() {
            let rows = saved_rows(input).map_err(anyhow::Error::msg)?;
            if rows.is_empty() {
                bail!("{} holds no graded submission (no */grade.json)", input.display());
            }
            Table::from_rows(&rows).map_err(anyhow::Error::msg)?
        } else {
            Table::read(input).map_err(anyhow::Error::msg)?
        };
        tables.push((input.display().to_string(), table));
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
