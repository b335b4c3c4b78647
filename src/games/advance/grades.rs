//! The grade oracle: the expected-answer set of each grade, exactly as the rules page defines
//! them, with the numbers behind each (material gains, grade-7 values and the replies that give
//! them) so every answer can be explained.
//!
//! With L the legal moves of the side to move P and W its winning moves:
//! - grade 4: L;
//! - grade 5: W if non-empty, else L;
//! - grade 6: W if non-empty, else the moves of L that maximise P's advantage;
//! - grade 7: W if non-empty; else T = the grade-6 set; if |T| = 1, T; else the moves of T with
//!   the greatest value, where a move's value looks at the opponent's grade-6 replies R (its
//!   winning moves if it has any) and P's best answer to each (see [`CandidateValue`]).

use std::cmp::Ordering;

use super::engine::Engine;
use super::notation::Move;
use crate::side::Side;

/// The value given to a move after which the opponent can win at once.
pub const LOSS: i64 = -1000;
/// The value of a reply after which P can win at once.
pub const WIN: i64 = 1000;

/// How a candidate's values over the opponent's tied replies are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aggregation {
    /// The worst case: what every reply still allows (the rules page's reading).
    Min,
    /// The best case.
    Max,
    /// The average over the replies.
    Mean,
}

impl Aggregation {
    /// All three, the rules page's default first.
    pub const ALL: [Aggregation; 3] = [Aggregation::Min, Aggregation::Max, Aggregation::Mean];

    /// `min`, `max` or `mean`.
    pub fn name(self) -> &'static str {
        match self {
            Aggregation::Min => "min",
            Aggregation::Max => "max",
            Aggregation::Mean => "mean",
        }
    }
}

/// An exact value: `sum / count` (count > 0), so that means compare without rounding.
/// Equality is equality of the fractions (10/1 == 20/2), consistent with the ordering.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub sum: i64,
    pub count: i64,
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl Value {
    /// A whole number.
    pub fn whole(v: i64) -> Value {
        Value { sum: v, count: 1 }
    }

    /// As a float, for display and JSON.
    pub fn as_f64(self) -> f64 {
        self.sum as f64 / self.count as f64
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        // Cross-multiplication is exact: sums are at most a few thousand times a few hundred.
        (self.sum * other.count).cmp(&(other.sum * self.count))
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.sum % self.count == 0 {
            write!(f, "{}", self.sum / self.count)
        } else {
            write!(f, "{:.2}", self.as_f64())
        }
    }
}

/// One of the opponent's predicted replies to a candidate, and what P can do after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The opponent's move r (one of its grade-6 set).
    pub reply: Move,
    /// P's winning move after r, if it has one (then v(r) = +1000).
    pub our_win: Option<Move>,
    /// P's best material answer after r (one of them), if P does not win.
    pub our_best: Option<Move>,
    /// v(r): +1000 if P wins, else P's greatest advantage after its answer.
    pub value: i64,
}

/// How a grade-7 candidate (a move of the grade-6 set T) is valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CandidateValue {
    /// The candidate move m.
    pub mv: Move,
    /// An opponent's winning reply after m, if any (then the value is -1000 under every
    /// aggregation, and `replies` is empty).
    pub opponent_win: Option<Move>,
    /// The opponent's grade-6 replies R with their values v(r).
    pub replies: Vec<Reply>,
}

impl CandidateValue {
    /// value(m) under `agg`: -1000 if the opponent can win, else the aggregate of v(r) over R.
    pub fn value(&self, agg: Aggregation) -> Value {
        if self.opponent_win.is_some() {
            return Value::whole(LOSS);
        }
        let values = self.replies.iter().map(|r| r.value);
        match agg {
            Aggregation::Min => Value::whole(values.min().expect("R is never empty")),
            Aggregation::Max => Value::whole(values.max().expect("R is never empty")),
            Aggregation::Mean => Value { sum: values.sum(), count: self.replies.len() as i64 },
        }
    }

    /// The reply that decides the value under `agg` (the worst for min, the best for max).
    pub fn deciding_reply(&self, agg: Aggregation) -> Option<&Reply> {
        match agg {
            Aggregation::Min => self.replies.iter().min_by_key(|r| r.value),
            Aggregation::Max => self.replies.iter().max_by_key(|r| r.value),
            Aggregation::Mean => None,
        }
    }
}

/// Everything the oracle says about a position.
#[derive(Clone, Debug)]
pub struct GradeReport {
    /// The side to move, P.
    pub side: Side,
    /// L: every legal move, in [`Move`]'s order.
    pub legal: Vec<Move>,
    /// P's advantage before moving.
    pub advantage_before: i32,
    /// P's advantage after each move of `legal` (same order).
    pub advantage_after: Vec<i32>,
    /// W: the winning moves.
    pub winning: Vec<Move>,
    /// The grade-6 set T (W if non-empty, else the best material moves).
    pub grade6: Vec<Move>,
    /// Grade-7 valuation of T, when it happens (no winning move and |T| > 1).
    pub candidates: Vec<CandidateValue>,
    /// The grade-7 answer under each aggregation, in [`Aggregation::ALL`]'s order.
    pub grade7_by_agg: [Vec<Move>; 3],
}

impl GradeReport {
    /// The expected-answer set of `grade` (4 to 7), grade 7 under `agg`.
    pub fn expected(&self, grade: u8, agg: Aggregation) -> &[Move] {
        match grade {
            4 => &self.legal,
            5 if self.winning.is_empty() => &self.legal,
            5 => &self.winning,
            6 => &self.grade6,
            7 => &self.grade7_by_agg[agg as usize],
            _ => panic!("grades run from 4 to 7, not {grade}"),
        }
    }

    /// True when the three aggregations give different grade-7 answers.
    pub fn sensitive(&self) -> bool {
        let [min, max, mean] = &self.grade7_by_agg;
        min != max || min != mean
    }

    /// The material gain of a legal move: P's advantage after it minus before.
    pub fn gain(&self, mv: Move) -> Option<i32> {
        let i = self.legal.iter().position(|&m| m == mv)?;
        Some(self.advantage_after[i] - self.advantage_before)
    }

    /// Grade-7 valuation of `mv`, if it was valued.
    pub fn candidate(&self, mv: Move) -> Option<&CandidateValue> {
        self.candidates.iter().find(|c| c.mv == mv)
    }
}

/// The grade-6 choice of the side to move in `pos`: its winning moves if it has any, else its
/// moves of greatest advantage; with P's advantage after each legal move.
pub(super) struct Grade6 {
    pub(super) legal: Vec<Move>,
    /// P's advantage after each move of `legal`.
    pub(super) advantages: Vec<i32>,
    pub(super) winning: Vec<Move>,
    pub(super) set: Vec<Move>,
}

/// The grade-6 choice of the side to move in `pos`, with what led to it.
pub(super) fn grade6<E: Engine>(engine: &E, pos: &E::Pos) -> Grade6 {
    let side = engine.turn(pos);
    let legal = engine.moves(pos);
    let mut winning = Vec::new();
    let before = engine.advantage(pos, side);
    // Each child position is looked at once and dropped: keeping them all costs more in copying
    // than playing the few needed later again.
    let advantages: Vec<i32> = legal
        .iter()
        .map(|&m| {
            let after = engine.play(pos, m);
            if !engine.has_legal_move(&after) {
                winning.push(m);
            }
            engine.advantage_after(pos, before, &after, side)
        })
        .collect();
    let best_advantage = advantages.iter().copied().max().unwrap_or(i32::MIN);
    let set = if winning.is_empty() {
        legal.iter().zip(&advantages).filter(|(_, a)| **a == best_advantage).map(|(&m, _)| m).collect()
    } else {
        winning.clone()
    };
    Grade6 { legal, advantages, winning, set }
}

/// The grade-6 choice of the side to move: its winning moves if it has any, else its moves of
/// greatest advantage. Cheaper than a full [`grade_report`] (no grade-7 valuation).
pub fn grade6_set<E: Engine>(engine: &E, pos: &E::Pos) -> Vec<Move> {
    grade6(engine, pos).set
}

/// v(r) for P after the opponent's reply: +1000 if P has a winning move, else P's greatest
/// advantage over its legal moves. P always has a legal move here, because r was not winning.
///
/// The same answer as [`grade6`] (its first winning move, else its first move of greatest
/// advantage), found more cheaply, as this is the oracle's inner loop (nearly all of a grade-7
/// game's time): it stops at the first winning move (the one `grade6` would name), looks at a
/// move's advantage only while no move has won, and keeps no list but the legal moves, in a
/// buffer reused across the replies of one candidate.
fn reply_value<E: Engine>(engine: &E, s2: &E::Pos, reply: Move, legal: &mut Vec<Move>) -> Reply {
    let side = engine.turn(s2);
    engine.legal_moves(s2, legal);
    let before = engine.advantage(s2, side);
    let mut best: Option<(Move, i32)> = None;
    for &m in legal.iter() {
        let after = engine.play(s2, m);
        if !engine.has_legal_move(&after) {
            return Reply { reply, our_win: Some(m), our_best: None, value: WIN };
        }
        let advantage = engine.advantage_after(s2, before, &after, side);
        if best.is_none_or(|(_, a)| advantage > a) {
            best = Some((m, advantage));
        }
    }
    Reply {
        reply,
        our_win: None,
        our_best: best.map(|(m, _)| m),
        value: best.map_or(i64::from(i32::MIN), |(_, a)| i64::from(a)),
    }
}

/// Values a grade-7 candidate: the opponent's grade-6 replies in S1 and P's answer to each.
fn value_candidate<E: Engine>(engine: &E, mv: Move, s1: &E::Pos) -> CandidateValue {
    let theirs = grade6(engine, s1);
    if let Some(&win) = theirs.winning.first() {
        return CandidateValue { mv, opponent_win: Some(win), replies: Vec::new() };
    }
    let mut legal = Vec::new();
    let replies =
        theirs.set.iter().map(|&r| reply_value(engine, &engine.play(s1, r), r, &mut legal)).collect();
    CandidateValue { mv, opponent_win: None, replies }
}

/// The moves of `candidates` with the greatest value under `agg`.
fn best_under(candidates: &[CandidateValue], agg: Aggregation) -> Vec<Move> {
    let best = candidates.iter().map(|c| c.value(agg)).max();
    candidates.iter().filter(|c| Some(c.value(agg)) == best).map(|c| c.mv).collect()
}

/// Computes every grade set of the position `pos` (side to move P) with `engine`.
pub fn grade_report<E: Engine>(engine: &E, pos: &E::Pos) -> GradeReport {
    let side = engine.turn(pos);
    let g6 = grade6(engine, pos);
    let candidates: Vec<CandidateValue> = if g6.winning.is_empty() && g6.set.len() > 1 {
        g6.set.iter().map(|&m| value_candidate(engine, m, &engine.play(pos, m))).collect()
    } else {
        Vec::new()
    };
    let grade7_by_agg = if candidates.is_empty() {
        [g6.set.clone(), g6.set.clone(), g6.set.clone()]
    } else {
        Aggregation::ALL.map(|agg| best_under(&candidates, agg))
    };
    GradeReport {
        side,
        advantage_before: engine.advantage(pos, side),
        advantage_after: g6.advantages,
        winning: g6.winning,
        grade6: g6.set,
        legal: g6.legal,
        candidates,
        grade7_by_agg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compare_as_fractions() {
        assert_eq!(Value { sum: 20, count: 2 }, Value::whole(10));
        assert!(Value { sum: -10, count: 9 } > Value::whole(-2));
        assert!(Value { sum: 7, count: 3 } < Value { sum: 5, count: 2 });
        assert_eq!(Value { sum: -10, count: 9 }.to_string(), "-1.11");
        assert_eq!(Value { sum: 20, count: 2 }.to_string(), "10");
    }
}
