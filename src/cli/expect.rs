//! `arbiter expect`: the expected answers of every category (Advance: grade) for a position,
//! with the numbers behind them.

use anyhow::bail;

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::harness::analyst::ExpectRequest;
use crate::harness::referee::Referee;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// Show only what grade N expects (4, 5, 6 or 7), in a game graded by numbered grades.
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7), conflicts_with = "category")]
    grade: Option<u8>,

    /// Show only what one category expects (one of the game's categories, as `verify --help`
    /// lists them).
    #[arg(long, value_name = "NAME")]
    category: Option<String>,

    /// How the highest grade combines the values over the opponent's tied replies (min, the
    /// default; max; mean).
    #[arg(long, value_parser = ["min", "max", "mean"])]
    agg: Option<String>,

    /// Explain one move in full: what it does, the numbers behind it (every predicted reply and
    /// the best answer to each, where a category looks ahead), and why it is or is not right.
    #[arg(long, value_name = "MOVE")]
    why: Option<String>,

    /// Print one JSON object: "legal", the expected sets by category or grade, and more
    /// (docs/REPORTS.md).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, referee: &dyn Referee) -> CommandResult {
    if let Some(category) = &args.category
        && !referee.categories().contains(&category.as_str())
    {
        bail!("--category {category}: expected one of {}", referee.categories().join(", "));
    }
    let category = args.category.or(args.grade.map(|g| format!("grade{g}")));
    let request = ExpectRequest { category, why: args.why, aggregation: args.agg, json: args.json };
    let input = args.position.read()?;
    print!("{}", referee.analyst().expect(&input.view(), &request)?);
    Ok(Outcome::Success)
}
