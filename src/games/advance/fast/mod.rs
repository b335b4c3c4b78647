//! The fast engine: bitboards over the 81 squares, attack tables built at compile time, move
//! generation by sets of targets, and a legality test that avoids playing most moves.
//!
//! It answers exactly as the [reference](super::reference) engine on every position, valid or
//! not (the agreement tests in `tests/fast_agreement.rs` hold it to that), and is built for the
//! inner loops of the oracle and perft.
//!
//! - [`bitboard`]: the square set type.
//! - [`tables`]: per-square patterns and rays.
//! - [`attacks`]: slider rays and "does this army strike that square?".
//! - [`position`]: the position type and making moves.
//! - [`safety`]: danger, and which moves need a legality test.
//! - [`movegen`]: target sets per piece; listing and single-move legality.
//! - [`count`]: counting legal moves by set sizes, for the last ply of perft.
//! - [`perft`]: counting move sequences.

pub mod attacks;
pub mod bitboard;
pub mod count;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod safety;
pub mod tables;

pub use position::Pos;

use super::board::Board;
use super::engine::Engine;
use super::notation::Move;
use crate::side::Side;
use movegen::Generator;

/// The fast engine, for code that is generic over engines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fast;

impl Engine for Fast {
    type Pos = Pos;

    fn name(&self) -> &'static str {
        "fast"
    }

    fn load(&self, board: &Board, turn: Side) -> Pos {
        Pos::from_board(board, turn)
    }

    fn board(&self, pos: &Pos) -> Board {
        pos.to_board()
    }

    fn turn(&self, pos: &Pos) -> Side {
        pos.turn()
    }

    fn legal_moves(&self, pos: &Pos, out: &mut Vec<Move>) {
        out.clear();
        Generator::new(pos).list(out);
    }

    fn has_legal_move(&self, pos: &Pos) -> bool {
        Generator::new(pos).any()
    }

    fn play(&self, pos: &Pos, mv: Move) -> Pos {
        let mut after = *pos;
        after.make(mv);
        after
    }

    fn advantage(&self, pos: &Pos, side: Side) -> i32 {
        pos.material(side) - pos.material(side.opponent())
    }

    fn advantage_after(&self, before: &Pos, before_advantage: i32, after: &Pos, side: Side) -> i32 {
        let change = after.material_change(before, side) - after.material_change(before, side.opponent());
        debug_assert_eq!(before_advantage + change, self.advantage(after, side), "material change");
        before_advantage + change
    }

    fn best_gain(&self, pos: &Pos) -> Option<i32> {
        Generator::new(pos).best_gain()
    }

    fn in_danger(&self, pos: &Pos, side: Side) -> bool {
        safety::in_danger(pos, side)
    }

    fn is_legal(&self, pos: &Pos, mv: Move) -> bool {
        movegen::is_legal(pos, mv)
    }

    fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        perft::perft(pos, depth)
    }
}
