//! `arbiter coverage`: which piece kinds and move kinds a corpus's answers exercise.

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::input::{EngineChoice, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::coverage::Coverage;
use crate::advance::{Board, Engine, Strictness};
use crate::harness::corpus::find_cases;
use crate::harness::files;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The corpus folder.
    #[arg(value_name = "CORPUS", default_value = "corpus")]
    corpus: PathBuf,

    /// Print JSON instead of Markdown tables.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    let cases = find_cases(&args.corpus, crate::advance::referee::CATEGORIES)
        .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))?;
    if cases.is_empty() {
        bail!("no test cases under {}", args.corpus.display());
    }
    let mut coverage = Coverage::default();
    for case in &cases {
        let bytes = files::read_capped(&case.path, files::BOARD)?;
        let board = Board::parse(&bytes, &case.path.display().to_string(), Strictness::Lenient)?;
        coverage.add(
            engine,
            &case.name,
            &board,
            case.side,
            crate::harness::category::grade_number(&case.category).unwrap_or(4),
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&coverage)?);
    } else {
        print!("{}", coverage.markdown());
    }
    Ok(Outcome::Success)
}
