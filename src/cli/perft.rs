//! `arbiter perft`: the number of move sequences of a given length.

use serde_json::json;

use super::bounds::{self, MAX_PERFT_DEPTH};
use super::input::{EngineChoice, PositionArgs, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::Engine;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// Number of plies (half-moves) to count, 0 to 6.
    #[arg(long, short = 'd', value_parser = bounds::whole::<u32>(0, MAX_PERFT_DEPTH))]
    depth: u32,

    /// List the count under each first move.
    #[arg(long)]
    divide: bool,

    /// Print one JSON object: {"depth", "nodes", "divide": {"<move>": count}}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    let position = args.position.load()?;
    let pos = engine.load(&position.board, position.turn);
    let mut divide = Vec::new();
    let nodes = if args.divide && args.depth > 0 {
        for mv in engine.moves(&pos) {
            let count = engine.perft(&engine.play(&pos, mv), args.depth - 1);
            divide.push((mv.to_string(), count));
        }
        divide.iter().map(|(_, n)| n).sum()
    } else {
        engine.perft(&pos, args.depth)
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
