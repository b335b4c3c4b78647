//! `arbiter perft`: the number of move sequences of a given length.

use anyhow::bail;
use serde_json::json;

use super::bounds::{self, MAX_PERFT_DEPTH};
use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::harness::referee::Referee;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// Number of plies (half-moves) to count, 0 up to the game's own limit (6 or fewer).
    #[arg(long, short = 'd', value_parser = bounds::whole::<u32>(0, MAX_PERFT_DEPTH))]
    depth: u32,

    /// List the count under each first move.
    #[arg(long)]
    divide: bool,

    /// Print one JSON object: {"depth", "nodes", "divide": {"MOVE": count}}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, referee: &dyn Referee) -> CommandResult {
    let analyst = referee.analyst();
    let max = analyst.max_perft_depth();
    if args.depth > max {
        bail!("--depth {}: {} allows 0 to {max}", args.depth, referee.game());
    }
    let input = args.position.read()?;
    let (nodes, divide) = if args.divide && args.depth > 0 {
        let divide = analyst.perft_divide(&input.view(), args.depth)?;
        (divide.iter().map(|(_, n)| n).sum(), divide)
    } else {
        (analyst.perft(&input.view(), args.depth)?, Vec::new())
    };
    if args.json {
        let mut out = json!({"depth": args.depth, "nodes": nodes});
        if args.divide {
            let map: serde_json::Map<String, serde_json::Value> =
                divide.iter().map(|(m, n)| (m.clone(), json!(n))).collect();
            out["divide"] = serde_json::Value::Object(map);
        }
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for (mv, count) in &divide {
            println!("{mv} {count}");
        }
        if args.divide {
            println!();
        }
        println!("{nodes}");
    }
    Ok(Outcome::Success)
}
