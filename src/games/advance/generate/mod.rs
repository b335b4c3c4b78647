//! The corpus generator: test positions for each grade whose expected answer is unique and
//! robust, drawn from varied sources and chosen so the answers cover every piece and move kind.
//!
//! For each side, candidates are drawn and checked ([`criteria::meets`]) until a pool of several
//! times the number wanted is found; then cases are picked from the pool one by one, each time
//! the one whose answer's piece kind, move kind and source are least represented so far.
//! Candidate `i` draws from its own random stream (seeded by the seed, grade, side and `i`), and
//! batches are checked in parallel but kept in index order, so the result depends only on the
//! seed.

pub mod criteria;
pub mod sources;

use std::collections::{HashMap, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::board::Board;
use super::engine::Engine;
use super::grades::{Aggregation, grade_report};
use super::notation::{Action, Move};
use super::piece::Kind;
use super::position::Position;
use crate::side::Side;
pub use sources::Source;

/// A generated test case.
#[derive(Clone, Debug)]
pub struct Generated {
    pub board: Board,
    pub side: Side,
    /// The single expected answer.
    pub answer: Move,
    pub source: Source,
}

/// How many cases to generate and from which seed.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub grade: u8,
    /// Cases in all; white gets the extra one when the count is odd.
    pub count: usize,
    pub seed: u64,
    /// The pool is this many times the cases wanted per side.
    pub pool_factor: usize,
    /// Candidates drawn per side before giving up.
    pub max_candidates: usize,
    /// Candidates drawn per side, after the pool is full, in search of rare answer kinds.
    pub rare_budget: usize,
}

/// A stable seed for candidate `index` of `grade` and `side`.
fn candidate_seed(seed: u64, grade: u8, side: Side, index: usize) -> u64 {
    let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
    for part in [u64::from(grade), side.index() as u64, index as u64] {
        h = (h ^ part).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 31;
    }
    h
}

/// The same position up to the left-right mirror, so a case and its mirror twin are not both
/// picked.
fn canonical(board: &Board) -> String {
    let (a, b) = (board.joined(), board.mirror_files().joined());
    if a <= b { a } else { b }
}

/// What became of one candidate.
enum Drawn {
    /// The source gave nothing (a playout ended early) or the position is not well-formed.
    Nothing,
    /// A well-formed position that does not meet the criteria.
    Rejected(Source),
    Accepted(Generated),
}

/// One candidate: drawn, checked for well-formedness, quickly screened, then checked against
/// the grade's criteria with a full grade report.
fn candidate<E: Engine>(engine: &E, grade: u8, side: Side, seed: u64) -> Drawn {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let source = Source::ALL[rng.gen_range(0..Source::ALL.len())];
    let Some(board) = sources::draw(engine, &mut rng, side, source) else { return Drawn::Nothing };
    if Position::new(board.clone(), side).validate().is_err() {
        return Drawn::Nothing;
    }
    let pos = engine.load(&board, side);
    if !criteria::may_meet(engine, &pos, grade) {
        return Drawn::Rejected(source);
    }
    let report = grade_report(engine, &pos);
    match (criteria::meets(&report, grade), report.expected(grade, Aggregation::Min).first()) {
        (Ok(()), Some(&answer)) => Drawn::Accepted(Generated { board, side, answer, source }),
        _ => Drawn::Rejected(source),
    }
}

/// How the search went, per source: well-formed candidates drawn and cases found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SearchStats {
    pub drawn: HashMap<Source, usize>,
    pub found: HashMap<Source, usize>,
    /// Candidates that gave no well-formed position.
    pub discarded: usize,
}

/// A well-formed position with either side to move, in which that side has a legal move (as
/// the assignment promises every bot), from `seed` alone (for fuzzing): drawn from a random
/// source until one qualifies.
pub fn random_position<E: Engine>(engine: &E, seed: u64) -> (Board, Side) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
        let source = Source::ALL[rng.gen_range(0..Source::ALL.len())];
        if let Some(board) = sources::draw(engine, &mut rng, side, source)
            && Position::new(board.clone(), side).validate().is_ok()
            && engine.has_legal_move(&engine.load(&board, side))
        {
            return (board, side);
        }
    }
}

/// Generates the cases of one grade, with statistics of the search.
pub fn generate<E: Engine>(
    engine: &E,
    options: &GenerateOptions,
) -> Result<(Vec<Generated>, SearchStats), String> {
    let mut stats = SearchStats::default();
    if !(4..=7).contains(&options.grade) {
        return Err(format!("there are test cases for grades 4 to 7, not {}", options.grade));
    }
    let mut out = Vec::new();
    for side in Side::BOTH {
        let wanted = if side == Side::White { options.count.div_ceil(2) } else { options.count / 2 };
        if wanted == 0 {
            continue;
        }
        let pool_size = wanted * options.pool_factor.max(1);
        let mut pool: Vec<Generated> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut next = 0;
        let mut filled_at = None;
        const BATCH: usize = 64;
        loop {
            // Once the pool is full, search on (within the budget) only for answers of a piece
            // or move kind the pool has fewer than two of: some kinds are rare answers.
            let rare = rare_features(&pool, options.grade);
            if pool.len() >= pool_size {
                let since = next - *filled_at.get_or_insert(next);
                if rare.is_empty() || since >= options.rare_budget {
                    break;
                }
            }
            if next >= options.max_candidates {
                break;
            }
            let found: Vec<Drawn> = (next..next + BATCH)
                .into_par_iter()
                .map(|i| {
                    candidate(
                        engine,
                        options.grade,
                        side,
                        candidate_seed(options.seed, options.grade, side, i),
                    )
                })
                .collect();
            next += BATCH;
            for drawn in found {
                match drawn {
                    Drawn::Nothing => stats.discarded += 1,
                    Drawn::Rejected(source) => *stats.drawn.entry(source).or_default() += 1,
                    Drawn::Accepted(g) => {
                        *stats.drawn.entry(g.source).or_default() += 1;
                        let wanted = pool.len() < pool_size || features(&g).iter().any(|f| rare.contains(f));
                        if wanted && seen.insert(canonical(&g.board)) {
                            *stats.found.entry(g.source).or_default() += 1;
                            pool.push(g);
                        }
                    }
                }
            }
        }
        if pool.len() < wanted {
            return Err(format!(
                "found only {} of {wanted} grade-{} cases for {side} in {next} candidates; raise the search budget or try another seed",
                pool.len(),
                options.grade
            ));
        }
        out.extend(pick_for_coverage(pool, wanted));
    }
    Ok((out, stats))
}

/// What coverage counts of an answer: its piece kind and its move kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Feature {
    Kind(Kind),
    Action(Action),
}

fn features(g: &Generated) -> [Feature; 2] {
    [Feature::Kind(g.answer.kind), Feature::Action(g.answer.action)]
}

/// The piece and move kinds that fewer than two answers in the pool have, among those the grade
/// allows: a grade-6 answer gains material, so it is never a plain move, a build or a swap.
fn rare_features(pool: &[Generated], grade: u8) -> Vec<Feature> {
    let mut counts: HashMap<Feature, usize> = HashMap::new();
    for g in pool {
        for f in features(g) {
            *counts.entry(f).or_default() += 1;
        }
    }
    let all =
        Kind::ALL.iter().map(|&k| Feature::Kind(k)).chain(Action::ALL.iter().map(|&a| Feature::Action(a)));
    let possible = |f: &Feature| {
        grade != 6 || !matches!(f, Feature::Action(Action::Move | Action::Build | Action::Swap))
    };
    all.filter(possible).filter(|f| counts.get(f).copied().unwrap_or(0) < 2).collect()
}

/// Picks `wanted` cases, each time the one whose answer's piece kind, move kind and source have
/// been picked least so far (the earliest in the pool on a tie).
fn pick_for_coverage(mut pool: Vec<Generated>, wanted: usize) -> Vec<Generated> {
    let mut kinds: HashMap<Kind, usize> = HashMap::new();
    let mut actions: HashMap<Action, usize> = HashMap::new();
    let mut sources: HashMap<Source, usize> = HashMap::new();
    let mut picked = Vec::new();
    while picked.len() < wanted && !pool.is_empty() {
        let score = |g: &Generated| {
            2 * kinds.get(&g.answer.kind).unwrap_or(&0)
                + 2 * actions.get(&g.answer.action).unwrap_or(&0)
                + sources.get(&g.source).unwrap_or(&0)
        };
        let best = (0..pool.len()).min_by_key(|&i| (score(&pool[i]), i)).expect("the pool is not empty");
        let g = pool.remove(best);
        *kinds.entry(g.answer.kind).or_default() += 1;
        *actions.entry(g.answer.action).or_default() += 1;
        *sources.entry(g.source).or_default() += 1;
        picked.push(g);
    }
    picked
}
