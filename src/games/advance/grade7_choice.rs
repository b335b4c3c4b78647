//! The grade-7 answer under the rules page's reading (the `min` aggregation) alone, found
//! without computing every value: what the built-in `grade7` bot plays on every move of a game.
//!
//! It gives exactly [`grade_report`](super::grades::grade_report)`.expected(7, Min)`, the same
//! moves in the same order (so a bot choosing among them with a seed chooses the same move), and
//! the same best value; a property test holds it to that on random positions. It is faster
//! because the rules page's values have a shape it can use, for a candidate m with the
//! opponent's material-best replies R (no winning move for them) and v(r) = +1000 when P wins
//! after r, else P's greatest advantage A(r):
//! - value(m) = min over R of v(r), and v(r) is either +1000 or A(r). So taking R by rising A(r),
//!   the first reply after which P cannot win gives value(m) = A(r); earlier replies are worth
//!   +1000. P's winning moves are looked for after one reply, or a few, instead of after all.
//! - A(r) needs no list of moves and no position after each: it is P's advantage plus the
//!   greatest gain of a legal move ([`Engine::best_gain`]), and no move loses material.
//! - A candidate is only needed when it can still reach the best value found so far: as soon as
//!   one reply after which P cannot win has A(r) below it, the candidate is out, whatever the
//!   rest (an opponent's winning move would give it -1000, lower still). Only the candidates
//!   that stay in have the opponent's winning moves looked for.
//!
//! Every value is exact where it decides; nothing is cached between positions, so no table can
//! change which of equal moves is chosen.

use super::engine::Engine;
use super::grades::{LOSS, WIN, grade6};
use super::notation::Move;

/// The grade-7 answer (min aggregation) and the value that chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade7Choice {
    /// The expected-answer set: every move of greatest value, in [`Move`]'s order.
    pub moves: Vec<Move>,
    /// Their value (-1000 to +1000), when grade 7 valued moves at all: `None` when the side to
    /// move has a winning move or a single grade-6 move.
    pub value: Option<i64>,
}

/// The grade-7 answer of the side to move in `pos` under the `min` aggregation.
pub fn grade7_min<E: Engine>(engine: &E, pos: &E::Pos) -> Grade7Choice {
    let g6 = grade6(engine, pos);
    if !g6.winning.is_empty() || g6.set.len() <= 1 {
        return Grade7Choice { moves: g6.set, value: None };
    }
    let mut best: Option<i64> = None;
    let mut moves = Vec::new();
    let mut scratch = Scratch::default();
    for &m in &g6.set {
        let s1 = engine.play(pos, m);
        let Some(value) = candidate_value(engine, &s1, best, &mut scratch) else { continue };
        match best {
            Some(b) if value < b => {}
            Some(b) if value == b => moves.push(m),
            _ => {
                best = Some(value);
                moves.clear();
                moves.push(m);
            }
        }
    }
    Grade7Choice { moves, value: best }
}

/// Buffers reused across the candidates of one position.
#[derive(Default)]
struct Scratch {
    /// The opponent's legal moves after the candidate.
    theirs: Vec<Move>,
    /// Their material-best replies, each with P's greatest gain after it.
    replies: Vec<(i32, Move)>,
    /// P's legal moves after a reply.
    ours: Vec<Move>,
}

/// The value of the candidate that led to `s1` (the opponent to move) under `min`, when it is at
/// least `floor`; `None` when it is certainly below `floor`.
fn candidate_value<E: Engine>(
    engine: &E,
    s1: &E::Pos,
    floor: Option<i64>,
    scratch: &mut Scratch,
) -> Option<i64> {
    let below = |value: i64| floor.is_some_and(|f| value < f);
    let at_least = |value: i64| (!below(value)).then_some(value);
    let them = engine.turn(s1);
    engine.legal_moves(s1, &mut scratch.theirs);
    // The opponent's material-best replies R. The advantage after a reply is the same for every
    // member of R, so P's greatest advantage after r orders R as P's greatest gain does.
    let before = engine.advantage(s1, them);
    let mut top = i32::MIN;
    scratch.replies.clear();
    for &r in &scratch.theirs {
        let after = engine.play(s1, r);
        let advantage = engine.advantage_after(s1, before, &after, them);
        if advantage < top {
            continue;
        }
        if advantage > top {
            top = advantage;
            scratch.replies.clear();
        }
        scratch.replies.push((0, r));
    }
    for entry in scratch.replies.iter_mut() {
        match engine.best_gain(&engine.play(s1, entry.1)) {
            Some(gain) => entry.0 = gain,
            // P has no legal move after r: the opponent wins, and the candidate is worth -1000.
            None => return at_least(LOSS),
        }
    }
    // Stable, so that equal gains keep R's order (it does not change the value, only the work).
    scratch.replies.sort_by_key(|&(gain, _)| gain);
    // P's advantage after r, before its answer, is -top for every r of R.
    let mut value = WIN;
    for &(gain, r) in &scratch.replies {
        let greatest = i64::from(gain) - i64::from(top);
        let s2 = engine.play(s1, r);
        if wins(engine, &s2, &mut scratch.ours) {
            continue;
        }
        if below(greatest) {
            return None;
        }
        value = greatest;
        break;
    }
    // The value stands unless the opponent has a winning move (then -1000). The replies of R
    // are known not to win (P had a legal move after each); every other move is tried.
    let opponent_wins = scratch.theirs.iter().any(|&r| {
        !scratch.replies.iter().any(|&(_, known)| known == r) && !engine.has_legal_move(&engine.play(s1, r))
    });
    at_least(if opponent_wins { LOSS } else { value })
}

/// True when the side to move in `pos` has a winning move (one that leaves the other side no
/// legal move). `moves` is a buffer.
fn wins<E: Engine>(engine: &E, pos: &E::Pos, moves: &mut Vec<Move>) -> bool {
    engine.legal_moves(pos, moves);
    moves.iter().any(|&m| !engine.has_legal_move(&engine.play(pos, m)))
}
