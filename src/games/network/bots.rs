//! Built-in players: a random player, as the course's `java Network machine random` opponent,
//! and an alpha-beta player with a fixed depth. Both are deterministic for a given position,
//! rules and seed, and always answer with a legal move when there is one.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::color::Color;
use super::lines::first_seen;
use super::moves::Move;
use super::position::Position;
use super::rules::{Rules, Status, legal_moves, legal_moves_unchecked, play, status};
use super::square::{Square, goals};

/// A player: given a position, picks a move.
pub use crate::harness::referee::Player as Bot;
use crate::harness::referee::{PlayerTable, RandomAmong};

/// A built-in bot of Network's, as [`BOTS`] makes it.
pub type AnyBot = Box<dyn Bot<Position, Rules, Move> + Send + Sync>;

/// The built-in bots by name: `random` and `alphabeta`.
pub const BOTS: PlayerTable<AnyBot> = PlayerTable(&[
    (RandomPlayer.name, || Box::new(RandomPlayer)),
    ("alphabeta", || Box::new(AlphaBeta::default())),
]);

/// Uniformly random among the legal moves.
#[allow(non_upper_case_globals)] // spelt as the unit struct it was: `RandomPlayer.choose(..)`
pub const RandomPlayer: RandomAmong<Position, Rules, Move> =
    RandomAmong { name: "random", moves: legal_moves };

/// Minimax with alpha-beta pruning to a fixed depth: `add_depth` plies when the player to move
/// adds, `step_depth` when it steps (there are about eight times as many step moves; the
/// assignment advises a shallower search for them). A win found sooner scores higher. Among the
/// moves of equal best value the seed picks one uniformly.
#[derive(Clone, Copy, Debug)]
pub struct AlphaBeta {
    /// Plies searched from a position where the player to move adds (at least 1).
    pub add_depth: u32,
    /// Plies searched from a position where the player to move steps (at least 1).
    pub step_depth: u32,
}

impl Default for AlphaBeta {
    /// Depth 3 for adds and 2 for steps: each well within the tournament's 5 s per move.
    fn default() -> AlphaBeta {
        AlphaBeta { add_depth: 3, step_depth: 2 }
    }
}

impl Bot<Position, Rules, Move> for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn choose(&self, pos: &Position, rules: &Rules, seed: u64) -> Option<Move> {
        let depth = if pos.adds() { self.add_depth } else { self.step_depth };
        AlphaBeta::search(pos, rules, depth, seed).map(|(m, _)| m)
    }
}

/// A score that means "the player to move wins"; a win found `ply` plies down is worth
/// `WIN - ply`, so nearer wins are preferred.
pub const WIN: i32 = 1_000_000;

const INFINITY: i32 = i32::MAX / 2;

/// The value, for the player who made the move, of a finished game: `WIN - ply` if it won.
fn finished(status: Status, mover: Color, ply: i32) -> Option<i32> {
    match status {
        Status::Ongoing => None,
        Status::Won { winner, .. } if winner == mover => Some(WIN - ply),
        Status::Won { .. } => Some(-(WIN - ply)),
    }
}

impl AlphaBeta {
    /// Searches `depth` plies (at least 1) and returns the chosen move with its score for the
    /// player to move, or `None` when there is no legal move.
    pub fn search(pos: &Position, rules: &Rules, depth: u32, seed: u64) -> Option<(Move, i32)> {
        let moves = legal_moves(pos, rules);
        if moves.is_empty() {
            return None;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mover = pos.to_move;
        let mut best = -INFINITY;
        let mut tied = Vec::new();
        for (m, after) in ordered(pos, moves) {
            // A window just below the best so far: moves that tie it come back exact.
            let alpha = if best == -INFINITY { -INFINITY } else { best - 1 };
            let value = match finished(status(&after, rules), mover, 1) {
                Some(v) => v,
                None => -negamax(&after, rules, depth.max(1) - 1, -INFINITY, -alpha, 1),
            };
            if value > best {
                best = value;
                tied.clear();
            }
            if value == best {
                tied.push(m);
            }
        }
        tied.sort_unstable();
        Some((tied[rng.gen_range(0..tied.len())], best))
    }
}

/// The value of the ongoing `pos` for the player to move, searching `depth` more plies.
fn negamax(pos: &Position, rules: &Rules, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if depth == 0 {
        return evaluate(pos, pos.to_move);
    }
    let moves = legal_moves_unchecked(pos, rules);
    if moves.is_empty() {
        return 0; // Walled in: no move, no win; call it even.
    }
    let mover = pos.to_move;
    let children =
        if depth >= 2 { ordered(pos, moves) } else { moves.into_iter().map(|m| (m, play(pos, m))).collect() };
    let mut best = -INFINITY;
    for (_, after) in children {
        let value = match finished(status(&after, rules), mover, ply + 1) {
            Some(v) => v,
            None => -negamax(&after, rules, depth - 1, -beta, -alpha, ply + 1),
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// `moves` with the positions after them, the best-looking first for the mover (by
/// [`evaluate`]; ties keep notation order), so that alpha-beta prunes early.
fn ordered(pos: &Position, moves: Vec<Move>) -> Vec<(Move, Position)> {
    let mover = pos.to_move;
    let mut scored: Vec<(i32, Move, Position)> = moves
        .into_iter()
        .map(|m| {
            let after = play(pos, m);
            (evaluate(&after, mover), m, after)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, m, p)| (m, p)).collect()
}

/// How good `pos` looks for `color`: its score minus the opponent's (see [`score`]).
pub fn evaluate(pos: &Position, color: Color) -> i32 {
    score(pos, color) - score(pos, color.opponent())
}

/// One side's prospects, the assignment's suggestions made concrete: 10 for each pair of its
/// chips that see each other, 30 for each of its two goal areas holding a chip, less 10 for
/// each further chip in a goal area (only one per goal can be used).
pub fn score(pos: &Position, color: Color) -> i32 {
    let mine = pos.board.chips(color);
    let occupied = pos.board.occupied();
    let mut pairs = 0;
    for sq in Square::in_bits(mine) {
        // Each pair once: look only in the four directions that raise the index.
        for d in [0, 1, 2, 7] {
            if let Some(seen) = first_seen(occupied, sq.index(), d)
                && mine & (1u64 << seen) != 0
            {
                pairs += 1;
            }
        }
    }
    let mut goal_score = 0;
    for goal in goals(color) {
        let n = (mine & goal).count_ones() as i32;
        if n > 0 {
            goal_score += 30 - 10 * (n - 1);
        }
    }
    10 * pairs + goal_score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_move() {
        let rules = Rules::default();
        let start = Position::start();
        let a = RandomPlayer.choose(&start, &rules, 7);
        assert_eq!(a, RandomPlayer.choose(&start, &rules, 7));
        let bot = AlphaBeta { add_depth: 2, step_depth: 1 };
        assert_eq!(bot.choose(&start, &rules, 3), bot.choose(&start, &rules, 3));
        assert!(BOTS.make("alphabeta").is_some() && BOTS.make("minimax").is_none());
    }
}
