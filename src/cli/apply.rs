//! `arbiter apply`: play one move and print the board after it.

use anyhow::Context;

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::advance::Move;
use crate::advance::explain::diagnose;
use crate::advance::reference::apply;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// The move in notation, e.g. `Zf3xf4`, `Be7-d8`, `Bc2#c3`, `Jd4~d5`, `Jd4^e5`, `Ce2*e5`.
    #[arg(value_name = "MOVE")]
    mv: String,
}

pub fn run(args: Args) -> CommandResult {
    let position = args.position.load()?;
    let mv: Move = args.mv.parse().context("cannot read the move")?;
    match diagnose(&position.board, position.turn, mv) {
        Ok(()) => {
            print!("{}", apply(&position.board, mv).to_text());
            Ok(Outcome::Success)
        }
        Err(violation) => {
            eprintln!("{mv} is not a legal move for {}: {violation}", position.turn);
            Ok(Outcome::Failure)
        }
    }
}
