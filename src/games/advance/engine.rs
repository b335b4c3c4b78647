//! The interface every Advance engine offers, so that the oracle, verifier, generator, match
//! runner and fuzzer can run on either engine.

use super::board::Board;
use super::notation::Move;
use crate::side::Side;

/// A move generator for Advance. Each engine keeps positions in its own form (`Pos`), loaded
/// from and turned back into a plain [`Board`]. All methods are pure: positions are values.
pub trait Engine: Sync + Send {
    /// A position in the engine's own representation: a board and the side to move.
    type Pos: Clone + Send + Sync;

    /// Short name for reports: `reference` or `fast`.
    fn name(&self) -> &'static str;

    /// The position with `board` and `turn` to move.
    fn load(&self, board: &Board, turn: Side) -> Self::Pos;

    /// The board of a position.
    fn board(&self, pos: &Self::Pos) -> Board;

    /// The side to move.
    fn turn(&self, pos: &Self::Pos) -> Side;

    /// Replaces `out` with every legal move of the side to move, in [`Move`]'s order.
    fn legal_moves(&self, pos: &Self::Pos, out: &mut Vec<Move>);

    /// True when the side to move has a legal move.
    fn has_legal_move(&self, pos: &Self::Pos) -> bool;

    /// The position after `mv` (which must be legal), with the other side to move.
    fn play(&self, pos: &Self::Pos, mv: Move) -> Self::Pos;

    /// `side`'s material minus the opponent's.
    fn advantage(&self, pos: &Self::Pos, side: Side) -> i32;

    /// `side`'s advantage in `after`, a position reached from `before` by one move, where it
    /// was `before_advantage`: always equal to `advantage(after, side)`, which an engine may
    /// find faster from what the move changed (the oracle's inner loop asks it for every move).
    fn advantage_after(
        &self,
        before: &Self::Pos,
        before_advantage: i32,
        after: &Self::Pos,
        side: Side,
    ) -> i32 {
        let _ = (before, before_advantage);
        self.advantage(after, side)
    }

    /// The greatest gain in material advantage the side to move can make with one legal move
    /// (never negative: no move loses material), or `None` when it has no legal move. The same
    /// as the greatest `advantage(play(pos, m)) - advantage(pos)` over the legal moves, which an
    /// engine may find without playing each move (the grade-7 choice asks it after every reply).
    fn best_gain(&self, pos: &Self::Pos) -> Option<i32> {
        let side = self.turn(pos);
        let before = self.advantage(pos, side);
        self.moves(pos)
            .iter()
            .map(|&m| self.advantage_after(pos, before, &self.play(pos, m), side) - before)
            .max()
    }

    /// True when `side`'s General is in danger.
    fn in_danger(&self, pos: &Self::Pos, side: Side) -> bool;

    /// Whether `mv` is a legal move of the side to move, answered without listing every move
    /// where the engine can.
    fn is_legal(&self, pos: &Self::Pos, mv: Move) -> bool;

    /// Legal moves as a fresh vector.
    fn moves(&self, pos: &Self::Pos) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves(pos, &mut out);
        out
    }

    /// The number of move sequences of length `depth` (moves, not distinct boards; perft(0) = 1).
    fn perft(&self, pos: &Self::Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.perft(&self.play(pos, mv), depth - 1)).sum()
    }
}
