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

    /// Advance: show only what grade N expects (4, 5, 6 or 7).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7), conflicts_with = "category")]
    grade: Option<u8>,

    /// Show only what one category expects (Advance: grade4..grade7; Pente: opening, legal,
    /// win, block, capture).
    #[arg(long, value_name = "NAME")]
    category: Option<String>,

    /// Advance: how grade 7 combines the values over the opponent's tied replies (min, the
    /// default; max; mean).
    #[arg(long, value_parser = ["min", "max", "mean"])]
    agg: Option<String>,

    /// Explain one move in full. Advance: its gain, and for grade 7 every predicted reply and
    /// our best answer to each. Pente: what it does and why it is or is not right.
    #[arg(long, value_name = "MOVE")]
    why: Option<String>,

    /// Print one JSON object. Advance: "legal", "winning", "grades" {"4".."7"},
    /// "grade7_values", "sensitive", and more. Pente: "legal", "category", "sets", and more.
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
