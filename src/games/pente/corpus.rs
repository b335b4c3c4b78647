//! The bundled corpus: test cases of every category for `arbiter --game pente generate`, each an
//! input.txt in the folder of its category and of the side to move.
//!
//! `opening` has two cases, one per rule: White's first stone (the empty board) and White's
//! second stone (the centre taken, Black's first stone near it). `legal`, `win`, `block` and
//! `capture` have `count` cases each, half with White to move (the odd one White's) and half
//! with Black. Every case's position
//! - could come from a game (the stones placed add up, the centre is White's first stone);
//! - is of its folder's category as the oracle sees it (the first of opening, win, block,
//!   capture, legal that applies), so the category's answer set is the one a bot must meet;
//! - is not lost (RULES.md item 14: when nothing stops the opponent's win, every move is
//!   "right", so the case would test nothing);
//! - for `win`, `block` and `capture`, has a single right answer.
//!
//! Positions come from random games (random-adjacent moves that never end the game) and, for
//! every fourth `win`, `block` and `capture` case (or one that random games did not give in half
//! the draws), from the fuzz sources that plant a capture at the board's edge, a four only a
//! capture breaks, a five the opponent could break by a capture (too late), or a capture of the
//! tenth piece. Each case has its own seed, made from the corpus seed, its category, side and
//! index, so the same seed gives the same files whatever the number of threads.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::color::Color;
use super::fuzzing;
use super::oracle::{Category, Oracle};
use super::position::Position;
use super::rules::{Rules, Status, status};
use crate::harness::referee::{GeneratedCase, stable_hash};
use crate::side::Side;

/// Draws per case before the generator gives up on it (the corpus then has fewer cases).
const ATTEMPTS: usize = 4000;

/// The categories with `count` cases each (opening has its two).
const COUNTED: [Category; 4] = [Category::Legal, Category::Win, Category::Block, Category::Capture];

/// Every case of a corpus made from `seed`, in a fixed order: opening, then legal, win, block
/// and capture, White's cases before Black's.
pub fn generate(rules: &Rules, count: usize, seed: u64) -> Vec<GeneratedCase> {
    let mut cases = opening_cases(rules, seed);
    let mut wanted: Vec<(Category, Color, usize)> = Vec::new();
    for category in COUNTED {
        let white = count.div_ceil(2);
        wanted.extend((0..white).map(|i| (category, Color::White, i)));
        wanted.extend((0..count - white).map(|i| (category, Color::Black, i)));
    }
    let found: Vec<GeneratedCase> = wanted
        .par_iter()
        .filter_map(|&(category, color, i)| {
            // Every fourth case comes from a fuzz source about its category, each source in turn.
            let planted = (i % 4 == 3).then_some(i / 4 + usize::from(color == Color::Black));
            let position = find_case(rules, category, color, planted, case_seed(seed, category, color, i))?;
            Some(GeneratedCase {
                category: category.name().to_string(),
                side: color.side(),
                name: format!("{:03}", i + 1),
                text: position.to_input_text(),
            })
        })
        .collect();
    cases.extend(found);
    cases
}

/// Whether `pos` is a good case of `category`: reachable, the game going on, of that category
/// for the oracle, not lost, and (but for `legal` and `opening`) with a single right answer.
/// `None` when it is, else why not.
pub fn unfit(pos: &Position, rules: &Rules, category: Category) -> Option<String> {
    if let Some(wrong) = pos.inconsistencies().into_iter().next() {
        return Some(format!("the position cannot come from a game: {wrong}"));
    }
    if status(pos) != Status::Ongoing {
        return Some("the game is over".to_string());
    }
    let oracle = Oracle::new(pos, rules);
    let problem = super::oracle::category_problem(&oracle, category);
    if problem.is_some() {
        return problem;
    }
    let expected = oracle.expected(category);
    let single = !matches!(category, Category::Legal | Category::Opening);
    (single && expected.len() != 1)
        .then(|| format!("{} right answers where the corpus wants one", expected.len()))
}

/// White's first stone and White's second stone.
fn opening_cases(rules: &Rules, seed: u64) -> Vec<GeneratedCase> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ stable_hash("opening".bytes()));
    let mut first = Position::start();
    first.seconds_left = clock(&mut rng);
    let second = (0..ATTEMPTS as u64)
        .filter_map(|k| fuzzing::edge_position(rules, "opening/white-second", rng.r#gen::<u64>() ^ k))
        .find(|p| unfit(p, rules, Category::Opening).is_none());
    [("first-stone", Some(first)), ("second-stone", second)]
        .into_iter()
        .filter_map(|(name, pos)| {
            Some(GeneratedCase {
                category: Category::Opening.name().to_string(),
                side: Side::White,
                name: name.to_string(),
                text: pos?.to_input_text(),
            })
        })
        .collect()
}

/// The case of `category` with `color` to move that `seed` gives, or `None` when no draw fits:
/// from the fuzz source numbered `planted` (or any, when half the draws from random games
/// failed), else from a random game.
fn find_case(
    rules: &Rules,
    category: Category,
    color: Color,
    planted: Option<usize>,
    seed: u64,
) -> Option<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for k in 0..ATTEMPTS {
        let planted = planted.or_else(|| (k >= ATTEMPTS / 2).then(|| rng.gen_range(0..100)));
        let Some(mut pos) = candidate(rules, category, color, planted, &mut rng) else { continue };
        if pos.to_move == color && unfit(&pos, rules, category).is_none() {
            pos.seconds_left = clock(&mut rng);
            return Some(pos);
        }
    }
    None
}

/// One draw: a position from a random game of a length that suits `category` (and of the parity
/// that gives `color` the move), or when `planted` one from that fuzz source (counted round the
/// sources about the category: win, block and capture have some).
fn candidate(
    rules: &Rules,
    category: Category,
    color: Color,
    planted: Option<usize>,
    rng: &mut ChaCha8Rng,
) -> Option<Position> {
    let sources: &[&str] = match category {
        Category::Win => &["win/tenth-piece", "win/five-open-to-capture"],
        Category::Block => &["block/capture-breaks-four", "block/tenth-piece"],
        Category::Capture => &["capture/edge"],
        _ => &[],
    };
    if let Some(n) = planted.filter(|_| !sources.is_empty()) {
        let source = sources[n % sources.len()];
        return fuzzing::edge_position(rules, source, rng.r#gen());
    }
    let (low, high) = match category {
        Category::Legal => (4, 40),
        Category::Capture => (10, 70),
        _ => (20, 90),
    };
    // An even number of stones placed leaves White to move.
    let mut stones = rng.gen_range(low..=high);
    if (stones % 2 == 0) != (color == Color::White) {
        stones += 1;
    }
    Some(super::random_position(rng, rules, stones))
}

/// Seconds left on the case's clock: any time from 0.1 to 300 s (the graders' minimax reads it).
fn clock(rng: &mut ChaCha8Rng) -> f64 {
    f64::from(rng.gen_range(1..=3000)) / 10.0
}

/// A case's own seed.
fn case_seed(seed: u64, category: Category, color: Color, index: usize) -> u64 {
    GeneratedCase::seed(seed, category.name(), index)
        .wrapping_add(stable_hash(color.to_string().bytes()).rotate_left(17))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::Strictness;

    #[test]
    fn the_same_seed_gives_the_same_corpus_of_fit_cases() {
        let rules = Rules::default();
        let a = generate(&rules, 3, 7);
        assert_eq!(a, generate(&rules, 3, 7));
        assert_ne!(a, generate(&rules, 3, 8));
        let names: Vec<String> = a.iter().map(|c| format!("{}/{}/{}", c.category, c.side, c.name)).collect();
        assert_eq!(names[..2], ["opening/white/first-stone", "opening/white/second-stone"]);
        for category in COUNTED {
            let n = a.iter().filter(|c| c.category == category.name()).count();
            assert_eq!(n, 3, "{category}");
        }
        for case in &a {
            let pos = Position::parse(case.text.as_bytes(), &case.name, Strictness::Strict).unwrap();
            assert_eq!(pos.to_move.side(), case.side);
            let category: Category = case.category.parse().unwrap();
            assert_eq!(unfit(&pos, &rules, category), None, "{}/{}", case.category, case.name);
        }
    }

    #[test]
    fn the_opening_cases_are_whites_first_and_second_stone() {
        let rules = Rules::default();
        let cases = opening_cases(&rules, 1);
        let read =
            |c: &GeneratedCase| Position::parse(c.text.as_bytes(), "case", Strictness::Strict).unwrap();
        let first = read(&cases[0]);
        assert_eq!(Oracle::new(&first, &rules).legal, [super::super::Point::CENTRE]);
        let second = read(&cases[1]);
        assert_eq!(second.board.count(Color::White), 1);
        assert_eq!(second.board.count(Color::Black), 1);
        let legal = Oracle::new(&second, &rules).legal;
        assert!(legal.iter().all(|p| p.distance(super::super::Point::CENTRE) <= 3), "{legal:?}");
    }
}
