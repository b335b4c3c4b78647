//! `arbiter moves`: every legal move with its notation and the board after it.

use serde_json::json;

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::harness::referee::Referee;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// Print one JSON object: {"side", "count", "moves": [{"notation", "board"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, referee: &dyn Referee) -> CommandResult {
    let input = args.position.read()?;
    let (side, moves) = referee.analyst().moves(&input.view())?;
    if args.json {
        let list: Vec<_> = moves
            .iter()
            .map(|m| json!({"notation": m.notation, "board": m.board.trim_end_matches('\n')}))
            .collect();
        let out = json!({"side": side, "count": moves.len(), "moves": list});
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let plural = if moves.len() == 1 { "" } else { "s" };
        println!("{side} has {} legal move{plural}", moves.len());
        for m in &moves {
            println!("\n{}", m.notation);
            for line in m.board.lines() {
                println!("  {line}");
            }
        }
    }
    Ok(Outcome::Success)
}
