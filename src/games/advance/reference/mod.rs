//! The reference engine: the rules page turned into code as directly as possible.
//!
//! Plain data (a [`Board`] of 81 cells), one function per piece ([`reach`]), danger as "some
//! enemy piece strikes the General's square" ([`danger`]), and a move is legal when the mover's
//! General is not in danger afterwards. Nothing is cached and nothing is clever: this engine is
//! the one to read when in doubt, and the fast engine is tested against it.

pub mod danger;
pub mod geometry;
pub mod reach;

use super::board::Board;
use super::engine::Engine;
use super::notation::{Action, Move};
use super::piece::{Cell, Piece};
use super::position::Position;
use super::square::Square;
use crate::side::Side;

/// Every move `side`'s pieces can make by their own rules, before the danger test: each quiet
/// action, and each strike whose target may be taken. Listed in [`Move`]'s order.
pub fn pseudo_legal_moves(board: &Board, side: Side) -> Vec<Move> {
    let mut moves: Vec<Move> = board
        .pieces()
        .filter(|(_, p)| p.side == side)
        .flat_map(|(from, _)| piece_moves(board, from))
        .collect();
    moves.sort();
    moves
}

/// The moves of the piece on `from` by its own rules, before the danger test (none if the square
/// holds no piece).
pub fn piece_moves(board: &Board, from: Square) -> Vec<Move> {
    let Some(piece) = board.piece(from) else {
        return Vec::new();
    };
    let r = reach::reach(board, from, piece);
    let quiet = r.quiet.into_iter();
    let captures = r.strikes.into_iter().filter(|&(_, to)| reach::may_take(board, piece, to));
    quiet.chain(captures).map(|(action, to)| Move::new(piece.kind, from, action, to)).collect()
}

/// The board after `mv`, which must be one of the mover's moves by its piece's rules.
pub fn apply(board: &Board, mv: Move) -> Board {
    let mut after = board.clone();
    let mover: Piece = board.piece(mv.from).expect("a move starts from a piece");
    match mv.action {
        Action::Move | Action::Capture | Action::Leap => {
            after.set(mv.to, Cell::Piece(mover));
            after.set(mv.from, Cell::Empty);
        }
        Action::Build => after.set(mv.to, Cell::Wall),
        Action::Swap => {
            after.set(mv.to, board[mv.from]);
            after.set(mv.from, board[mv.to]);
        }
        Action::Convert => {
            let target = board.piece(mv.to).expect("a conversion targets a piece");
            after.set(mv.to, Cell::Piece(Piece::new(mover.side, target.kind)));
        }
        Action::Shoot => after.set(mv.to, Cell::Empty),
    }
    after
}

/// A move is legal when, in the position after it, the mover's General is not in danger.
pub fn is_legal_after(after: &Board, side: Side) -> bool {
    !danger::in_danger(after, side)
}

/// Every legal move of `side`, in [`Move`]'s order.
pub fn legal_moves(board: &Board, side: Side) -> Vec<Move> {
    pseudo_legal_moves(board, side)
        .into_iter()
        .filter(|&mv| is_legal_after(&apply(board, mv), side))
        .collect()
}

/// True when `side` has at least one legal move (stops at the first).
pub fn has_legal_move(board: &Board, side: Side) -> bool {
    board.pieces().filter(|(_, p)| p.side == side).any(|(from, _)| {
        piece_moves(board, from).into_iter().any(|mv| is_legal_after(&apply(board, mv), side))
    })
}

/// The reference engine, for code that is generic over engines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Engine for Reference {
    type Pos = Position;

    fn name(&self) -> &'static str {
        "reference"
    }

    fn load(&self, board: &Board, turn: Side) -> Position {
        Position { board: board.clone(), turn }
    }

    fn board(&self, pos: &Position) -> Board {
        pos.board.clone()
    }

    fn turn(&self, pos: &Position) -> Side {
        pos.turn
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        out.clear();
        out.extend(legal_moves(&pos.board, pos.turn));
    }

    fn has_legal_move(&self, pos: &Position) -> bool {
        has_legal_move(&pos.board, pos.turn)
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        Position { board: apply(&pos.board, mv), turn: pos.turn.opponent() }
    }

    fn advantage(&self, pos: &Position, side: Side) -> i32 {
        pos.board.advantage(side)
    }

    fn in_danger(&self, pos: &Position, side: Side) -> bool {
        danger::in_danger(&pos.board, side)
    }

    fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        let Some(piece) = pos.board.piece(mv.from) else {
            return false;
        };
        piece.side == pos.turn
            && piece.kind == mv.kind
            && piece_moves(&pos.board, mv.from).contains(&mv)
            && is_legal_after(&apply(&pos.board, mv), pos.turn)
    }
}
