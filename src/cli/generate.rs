//! `arbiter generate`: test positions for one grade, with unique and robust answers.

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::bounds::{self, MAX_CANDIDATES, MAX_GENERATE_COUNT, MAX_POOL_FACTOR};
use super::input::{EngineChoice, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::Engine;
use crate::advance::generate::{GenerateOptions, generate};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The grade whose criteria the positions meet (4, 5, 6 or 7).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7))]
    grade: u8,

    /// How many cases, half with white to move and half with black: 1 to 10000.
    #[arg(long, default_value_t = 50, value_parser = bounds::whole::<usize>(1, MAX_GENERATE_COUNT))]
    count: usize,

    /// Seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Write `OUT/grade<N>/white|black/NN.txt` here.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Replace the .txt files already in the grade's folders.
    #[arg(long)]
    force: bool,

    /// Candidates found per case wanted, to choose among for coverage: 1 to 100.
    #[arg(long, default_value_t = 4, value_parser = bounds::whole::<usize>(1, MAX_POOL_FACTOR))]
    pool_factor: usize,

    /// Candidates drawn per side before giving up, 1 to 100000000.
    #[arg(long, default_value_t = 2_000_000, value_parser = bounds::whole::<usize>(1, MAX_CANDIDATES))]
    max_candidates: usize,

    /// Candidates drawn per side, once enough cases are found, in search of answers by rare
    /// piece or move kinds (wall builds, swaps, ...): 0 to 100000000.
    #[arg(long, default_value_t = 200_000, value_parser = bounds::whole::<usize>(0, MAX_CANDIDATES))]
    rare_budget: usize,

    /// Print the cases as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    let options = GenerateOptions {
        grade: args.grade,
        count: args.count,
        seed: args.seed,
        pool_factor: args.pool_factor,
        max_candidates: args.max_candidates,
        rare_budget: args.rare_budget,
    };
    let grade_dir = args.out.join(format!("grade{}", args.grade));
    for side in ["white", "black"] {
        let dir = grade_dir.join(side);
        let existing: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                    .collect()
            })
            .unwrap_or_default();
        if !existing.is_empty() && !args.force {
            bail!("{} already holds {} case(s); use --force to replace them", dir.display(), existing.len());
        }
        for path in existing {
            std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    let (cases, stats) = generate(engine, &options).map_err(anyhow::Error::msg)?;
    let mut listed = Vec::new();
    let mut index = std::collections::HashMap::new();
    for case in &cases {
        let n = index.entry(case.side).or_insert(0);
        *n += 1;
        let path = grade_dir.join(case.side.name()).join(format!("{:02}.txt", n));
        std::fs::create_dir_all(path.parent().expect("a case has a folder"))
            .with_context(|| format!("cannot create {}", grade_dir.display()))?;
        std::fs::write(&path, case.board.to_text())
            .with_context(|| format!("cannot write {}", path.display()))?;
        listed.push(serde_json::json!({
            "path": path.display().to_string(),
            "side": case.side,
            "answer": case.answer.to_string(),
            "source": case.source.name(),
        }));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({"cases": listed, "search": stats}))?);
    } else {
        for l in &listed {
            println!(
                "{}  {}  answer {}  ({})",
                l["path"].as_str().unwrap_or(""),
                l["side"].as_str().unwrap_or(""),
                l["answer"].as_str().unwrap_or(""),
                l["source"].as_str().unwrap_or("")
            );
        }
    }
    if !args.json {
        let per_source: Vec<String> = crate::advance::generate::Source::ALL
            .iter()
            .map(|s| {
                format!(
                    "{} {}/{}",
                    s.name(),
                    stats.found.get(s).unwrap_or(&0),
                    stats.drawn.get(s).unwrap_or(&0)
                )
            })
            .collect();
        eprintln!(
            "search: found/drawn by source: {} ({} draws gave no well-formed position)",
            per_source.join(", "),
            stats.discarded
        );
    }
    Ok(Outcome::Success)
}
