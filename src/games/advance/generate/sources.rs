//! Where candidate test positions come from: playouts from the initial position by a mix of
//! simple bots, sparse random placements with walls, and small edits of either. Each candidate
//! is drawn from its own random stream, so candidates can be drawn in parallel and still be the
//! same for a seed.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::advance::board::Board;
use crate::advance::engine::Engine;
use crate::advance::grades::grade6_set;
use crate::advance::notation::{Action, Move};
use crate::advance::piece::{Cell, Kind, Piece};
use crate::advance::square::Square;
use crate::side::Side;

/// Where a position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Moves played from the initial position.
    Playout,
    /// A few pieces and walls placed at random.
    Sparse,
    /// A playout or sparse position with one to three small edits.
    Edit,
}

impl Source {
    /// All sources.
    pub const ALL: [Source; 3] = [Source::Playout, Source::Sparse, Source::Edit];

    /// `playout`, `sparse` or `edit`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Playout => "playout",
            Source::Sparse => "sparse",
            Source::Edit => "edit",
        }
    }
}

/// The kinds other than the General.
const KINDS: [Kind; 7] =
    [Kind::Zombie, Kind::Builder, Kind::Jester, Kind::Miner, Kind::Sentinel, Kind::Catapult, Kind::Dragon];

/// A board with `side` to move from `source` (not yet checked to be well-formed), or `None` when
/// a playout ended early.
pub fn draw<E: Engine>(engine: &E, rng: &mut ChaCha8Rng, side: Side, source: Source) -> Option<Board> {
    match source {
        Source::Playout => playout(engine, rng, side),
        Source::Sparse => Some(sparse(rng, side)),
        Source::Edit => {
            let mut board = if rng.gen_bool(0.5) { playout(engine, rng, side)? } else { sparse(rng, side) };
            for _ in 0..rng.gen_range(1..=3) {
                edit(rng, &mut board);
            }
            Some(board)
        }
    }
}

/// Plays from the initial position until `side` is to move after 4 to 90 plies. Each ply is
/// played by one of: a random legal move, a random capture (if any), or the grade-6 choice.
fn playout<E: Engine>(engine: &E, rng: &mut ChaCha8Rng, side: Side) -> Option<Board> {
    let mut plies = rng.gen_range(4..=90usize);
    // White moves first: after an even number of plies white is to move again.
    if (plies % 2 == 0) != (side == Side::White) {
        plies += 1;
    }
    let mut pos = engine.load(&Board::initial(), Side::White);
    for _ in 0..plies {
        let moves = engine.moves(&pos);
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m.action, Action::Capture | Action::Leap | Action::Shoot | Action::Convert))
            .collect();
        let choice = match rng.gen_range(0..10) {
            0..=4 => moves.choose(rng).copied(),
            5..=7 => captures.choose(rng).or_else(|| moves.choose(rng)).copied(),
            _ => grade6_set(engine, &pos).choose(rng).copied(),
        }?;
        pos = engine.play(&pos, choice);
    }
    Some(engine.board(&pos))
}

/// A random piece that is not a General.
fn random_piece(rng: &mut ChaCha8Rng, side: Side) -> Cell {
    Cell::Piece(Piece::new(side, *KINDS.choose(rng).expect("kinds")))
}

/// A random empty square, if there is one.
fn empty_square(rng: &mut ChaCha8Rng, board: &Board) -> Option<Square> {
    let empty: Vec<Square> = Square::all().filter(|&s| board[s].is_empty()).collect();
    empty.choose(rng).copied()
}

/// Both Generals, 0 to 6 pieces for the side to move, 1 to 8 for the other, 0 to 12 walls.
fn sparse(rng: &mut ChaCha8Rng, side: Side) -> Board {
    let mut board = Board::empty();
    for s in Side::BOTH {
        let sq = empty_square(rng, &board).expect("an empty board has room");
        board.set(sq, Cell::Piece(Piece::new(s, Kind::General)));
    }
    let own = rng.gen_range(0..=6);
    let other = rng.gen_range(1..=8);
    let walls = rng.gen_range(0..=12);
    for (count, cell) in [(own, Some(side)), (other, Some(side.opponent())), (walls, None)] {
        for _ in 0..count {
            let sq = empty_square(rng, &board).expect("a sparse board has room");
            board.set(sq, cell.map_or(Cell::Wall, |s| random_piece(rng, s)));
        }
    }
    board
}

/// One small change: remove, add, step, re-kind or flip a piece (never a General), or add a wall.
fn edit(rng: &mut ChaCha8Rng, board: &mut Board) {
    let movable: Vec<Square> = Square::all()
        .filter(|&s| match board[s] {
            Cell::Wall => true,
            Cell::Piece(p) => p.kind != Kind::General,
            Cell::Empty => false,
        })
        .collect();
    let target = movable.choose(rng).copied();
    match (rng.gen_range(0..6), target) {
        (0, Some(sq)) => board.set(sq, Cell::Empty),
        (1, Some(sq)) => {
            let steps: Vec<Square> =
                Square::all().filter(|&t| t.distance(sq) == 1 && board[t].is_empty()).collect();
            if let Some(&to) = steps.choose(rng) {
                board.set(to, board[sq]);
                board.set(sq, Cell::Empty);
            }
        }
        (2, Some(sq)) => {
            if let Cell::Piece(p) = board[sq] {
                board.set(sq, random_piece(rng, p.side));
            }
        }
        (3, Some(sq)) => {
            if let Cell::Piece(p) = board[sq] {
                board.set(sq, Cell::Piece(Piece::new(p.side.opponent(), p.kind)));
            }
        }
        (4, _) => {
            if let Some(sq) = empty_square(rng, board) {
                board.set(sq, Cell::Wall);
            }
        }
        _ => {
            if let Some(sq) = empty_square(rng, board) {
                let side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
                board.set(sq, random_piece(rng, side));
            }
        }
    }
}
