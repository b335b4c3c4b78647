//! `arbiter show`: a board drawn with labels, material and danger.

use super::input::PositionArgs;
use super::{CommandResult, Outcome};
use crate::advance::Board;
use crate::advance::reference::danger::{dangers, describe_attacker};
use crate::advance::reference::legal_moves;
use crate::side::Side;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
}

/// The board with file letters above and below and rank numbers on both sides.
pub fn draw(board: &Board) -> String {
    let files = "    a b c d e f g h i\n";
    let mut out = String::from(files);
    for (i, line) in board.lines().iter().enumerate() {
        let rank = 9 - i;
        let cells: Vec<String> = line.chars().map(|c| c.to_string()).collect();
        out.push_str(&format!(" {rank}  {}  {rank}\n", cells.join(" ")));
    }
    out.push_str(files);
    out
}

pub fn run(args: Args) -> CommandResult {
    let position = args.position.load()?;
    let board = &position.board;
    print!("{}", draw(board));
    println!();
    for side in Side::BOTH {
        let material = board.material(side);
        let pieces = board.pieces().filter(|(_, p)| p.side == side).count();
        println!("{side:5}  material {material:3}  ({pieces} pieces)");
    }
    println!("advantage of {}: {:+}", position.turn, board.advantage(position.turn));
    for side in Side::BOTH {
        let list = dangers(board, side);
        if list.is_empty() {
            println!("{side} General: not in danger");
        } else {
            for (general, sq, piece) in list {
                println!("{side} General on {general}: in danger from {}", describe_attacker(sq, piece));
            }
        }
    }
    let count = legal_moves(board, position.turn).len();
    println!("{} to move, {count} legal move{}", position.turn, if count == 1 { "" } else { "s" });
    Ok(Outcome::Success)
}
