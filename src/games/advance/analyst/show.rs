//! `show` for Advance: the board drawn with labels, material and danger.

use std::fmt::Write as _;

use crate::advance::Position;
use crate::advance::labelled_board::draw;
use crate::advance::reference::danger::{dangers, describe_attacker};
use crate::advance::reference::legal_moves;
use crate::side::Side;

/// The board drawn, each side's material, who is in danger and how many moves the side to move has.
pub fn show(position: &Position) -> String {
    let board = &position.board;
    let mut out = draw(board);
    out.push('\n');
    for side in Side::BOTH {
        let material = board.material(side);
        let pieces = board.pieces().filter(|(_, p)| p.side == side).count();
        let _ = writeln!(out, "{side:5}  material {material:3}  ({pieces} pieces)");
    }
    let _ = writeln!(out, "advantage of {}: {:+}", position.turn, board.advantage(position.turn));
    for side in Side::BOTH {
        let list = dangers(board, side);
        if list.is_empty() {
            let _ = writeln!(out, "{side} General: not in danger");
        } else {
            for (general, sq, piece) in list {
                let _ = writeln!(
                    out,
                    "{side} General on {general}: in danger from {}",
                    describe_attacker(sq, piece)
                );
            }
        }
    }
    let count = legal_moves(board, position.turn).len();
    let _ =
        writeln!(out, "{} to move, {count} legal move{}", position.turn, if count == 1 { "" } else { "s" });
    out
}
