//! `arbiter moves`: every legal move with its notation and the board after it.

use serde_json::json;

use super::input::{EngineChoice, PositionArgs, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::Engine;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// Print one JSON object: {"side", "count", "moves": [{"notation", "board"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    let position = args.position.load()?;
    let pos = engine.load(&position.board, position.turn);
    let moves: Vec<(String, String)> = engine
        .moves(&pos)
        .into_iter()
        .map(|mv| (mv.to_string(), engine.board(&engine.play(&pos, mv)).joined()))
        .collect();
    if args.json {
        let list: Vec<_> = moves.iter().map(|(n, b)| json!({"notation": n, "board": b})).collect();
        let out = json!({"side": position.turn, "count": moves.len(), "moves": list});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let plural = if moves.len() == 1 { "" } else { "s" };
        println!("{} has {} legal move{plural}", position.turn, moves.len());
        for (notation, board) in &moves {
            println!("\n{notation}");
            for line in board.lines() {
                println!("  {line}");
            }
        }
    }
    Ok(Outcome::Success)
}
