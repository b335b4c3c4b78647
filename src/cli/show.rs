//! `arbiter show`: a board drawn with labels and what a player wants to know about it.

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::harness::referee::Referee;

pub use crate::advance::analyst::draw;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: Args, referee: &dyn Referee) -> CommandResult {
    let input = args.position.read()?;
    print!("{}", referee.analyst().show(&input.view())?);
    Ok(Outcome::Success)
}
