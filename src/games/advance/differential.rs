//! Differential checking of the fast engine against the reference: on one position, every answer
//! the oracle and the verifier depend on must be the same.

use super::board::Board;
use super::engine::Engine;
use super::fast::Fast;
use super::grades::{Aggregation, grade_report};
use super::notation::Move;
use super::reference::Reference;
use super::shrink::shrink_while;
use crate::side::Side;

/// The first difference between the engines on `board` with `side` to move, in words, or `None`
/// when they agree: legal moves and the boards after them, winning moves, every grade's set
/// under every aggregation, grade-7 values, and perft 2.
pub fn disagreement(board: &Board, side: Side) -> Option<String> {
    let (fast, reference) = (Fast.load(board, side), Reference.load(board, side));
    let names = |moves: &[Move]| moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" ");
    let (fast_moves, reference_moves) = (Fast.moves(&fast), Reference.moves(&reference));
    if fast_moves != reference_moves {
        return Some(format!(
            "legal moves: fast {}; reference {}",
            names(&fast_moves),
            names(&reference_moves)
        ));
    }
    for &mv in &fast_moves {
        let (a, b) = (Fast.board(&Fast.play(&fast, mv)), Reference.board(&Reference.play(&reference, mv)));
        if a != b {
            return Some(format!("the board after {mv}: fast\n{a}reference\n{b}"));
        }
    }
    let (f, r) = (grade_report(&Fast, &fast), grade_report(&Reference, &reference));
    if f.winning != r.winning {
        return Some(format!("winning moves: fast {}; reference {}", names(&f.winning), names(&r.winning)));
    }
    for agg in Aggregation::ALL {
        for grade in 4..=7 {
            if f.expected(grade, agg) != r.expected(grade, agg) {
                return Some(format!(
                    "grade {grade} ({}): fast {}; reference {}",
                    agg.name(),
                    names(f.expected(grade, agg)),
                    names(r.expected(grade, agg))
                ));
            }
        }
    }
    if f.candidates != r.candidates {
        return Some("grade-7 values differ".to_string());
    }
    let (a, b) = (Fast.perft(&fast, 2), Reference.perft(&reference, 2));
    (a != b).then(|| format!("perft 2: fast {a}, reference {b}"))
}

/// Shrinks a position on which the engines disagree while they still do.
pub fn shrink_disagreement(board: &Board, side: Side) -> Board {
    shrink_while(board, side, |b| disagreement(b, side).is_some())
}
