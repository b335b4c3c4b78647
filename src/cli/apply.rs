//! `arbiter apply`: play one move and print the board after it.

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::harness::referee::Referee;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// The move in the game's notation. Advance: `Zf3xf4`, `Be7-d8`, `Bc2#c3`, `Jd4~d5`,
    /// `Jd4^e5`, `Ce2*e5`. Pente: a point such as `10K`.
    #[arg(value_name = "MOVE")]
    mv: String,

    /// Print `{"board": ..., "winner": ...}` (`winner` null while play goes on) instead of the
    /// board.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, referee: &dyn Referee) -> CommandResult {
    let input = args.position.read()?;
    match referee.analyst().apply(&input.view(), &args.mv)? {
        Ok(board) => {
            let winner = referee.analyst().winner_after(&input.view(), &args.mv)?;
            if args.json {
                println!("{}", serde_json::json!({"board": board, "winner": winner}));
            } else {
                print!("{board}");
                if let Some(winner) = winner {
                    println!("game over: {winner}");
                }
            }
            Ok(Outcome::Success)
        }
        Err(why) => {
            eprintln!("{why}");
            Ok(Outcome::Failure)
        }
    }
}
