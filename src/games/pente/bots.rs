//! Built-in bots, modelled on the graders' reference agents: a random player that stays next to
//! the stones, and a depth-limited minimax player. Both are deterministic for a given seed and
//! always answer with a legal move when there is one.

use std::sync::OnceLock;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::color::Color;
use super::point::{AXES, DIRECTIONS, Point, SIZE};
use super::position::Position;
use super::rules::{CAPTURES_TO_WIN, Rules, legal_moves, opening_move, play, wins_at};

/// A player: given a position, picks a move.
pub use crate::harness::referee::Player as Bot;
use crate::harness::referee::{PlayerTable, RandomAmong};

/// A built-in bot of Pente's, as [`BOTS`] makes it.
pub type AnyBot = Box<dyn Bot<Position, Rules, Point> + Send + Sync>;

/// The built-in bots by name: the graders' bots (`random-adjacent`, `minimax`), then the bots
/// with a planted bug.
pub const BOTS: PlayerTable<AnyBot> = PlayerTable(&[
    (RandomAdjacent.name, || Box::new(RandomAdjacent)),
    ("minimax", || Box::new(Minimax::default())),
    (CentreOpener::NAME, || Box::new(CentreOpener)),
]);

/// The legal moves on points next to a stone (one of the 8 neighbours holds one), `1A` first.
/// When there are none (an empty board, or an opening rule that keeps White away from the
/// stones), every legal move.
pub fn adjacent_moves(pos: &Position, rules: &Rules) -> Vec<Point> {
    let legal = legal_moves(pos, rules);
    let next_to_stone = |p: &Point| p.neighbours().any(|q| pos.board.get(q).is_some());
    let adjacent: Vec<Point> = legal.iter().copied().filter(next_to_stone).collect();
    if adjacent.is_empty() { legal } else { adjacent }
}

/// Uniformly random among [`adjacent_moves`]: like the graders' random agent, which "may choose
/// randomly between ... all locations adjacent to pieces already on the board". On an empty
/// board White must play the centre, so it does.
#[allow(non_upper_case_globals)] // spelt as the unit struct it was: `RandomAdjacent.choose(..)`
pub const RandomAdjacent: RandomAmong<Position, Rules, Point> =
    RandomAmong { name: "random-adjacent", moves: adjacent_moves };

/// A bot with one planted bug, as a public agent has it: its first stone goes on the centre
/// whatever its colour, so as Black it plays on White's stone there, an illegal move. Otherwise
/// it plays a right answer: one of the oracle's expected moves for the position's category
/// (the winning, blocking or capturing move when there is one), so that fuzzing it finds the
/// bug and nothing else. Unlike the graders' bots it does not always answer with a legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct CentreOpener;

impl CentreOpener {
    /// Its name after `builtin:`.
    pub const NAME: &'static str = "mutant-black-centre";
}

impl Bot<Position, Rules, Point> for CentreOpener {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn choose(&self, pos: &Position, rules: &Rules, seed: u64) -> Option<Point> {
        if pos.placed(pos.to_move) == 0 {
            return Some(Point::CENTRE);
        }
        let (_, expected) = super::oracle::Oracle::new(pos, rules).expected_answers()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        expected.get(rng.gen_range(0..expected.len().max(1))).copied()
    }
}

/// Minimax as the graders describe their agent: "a simple minimax agent with no alpha-beta
/// pruning" that does "adaptive depth choice on every move to avoid running out of time (e.g.,
/// use depth 3 when ]50s remains, depth 1 when [ 3s, otherwise depth 2)". The clock is its own:
/// the time line of the input it is given, which the match runner charges with the CPU time its
/// searches take, so a full-width depth-3 search spends the clock and the depth then drops. It
/// looks at the moves near the stones; among the moves of equal best value the seed picks one
/// uniformly.
#[derive(Clone, Copy, Debug, Default)]
pub struct Minimax {
    /// Search this many plies whatever the clock says (at least 1); `None` follows the clock.
    pub fixed_depth: Option<u32>,
}

impl Bot<Position, Rules, Point> for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn choose(&self, pos: &Position, rules: &Rules, seed: u64) -> Option<Point> {
        let depth = self.fixed_depth.unwrap_or_else(|| Minimax::depth_for(pos.seconds_left)).max(1);
        Minimax::search(pos, rules, depth, seed).map(|(p, _)| p)
    }
}

/// A score that means "the player to move wins"; a win found `ply` plies down is worth
/// `WIN - ply`, so nearer wins are preferred.
pub const WIN: i32 = 1_000_000;

const INFINITY: i32 = i32::MAX / 2;

impl Minimax {
    /// The graders' depth for `seconds` left: 3 above 50 s, 1 below 3 s, else 2.
    pub fn depth_for(seconds: f64) -> u32 {
        if seconds > 50.0 {
            3
        } else if seconds < 3.0 {
            1
        } else {
            2
        }
    }

    /// The moves a search looks at: the legal moves next to a stone (one of the 8 neighbours
    /// holds one), as the graders' random agent picks among, or when there are none, the legal
    /// moves nearest to a stone (all of them on an empty board), `1A` first. Every point where a
    /// move wins, blocks a five or captures is next to a stone; a wider set makes the full-width
    /// search many times slower (the cube of its size at depth 3).
    pub fn candidates(pos: &Position, rules: &Rules) -> Vec<Point> {
        candidates_of(pos, &legal_moves(pos, rules))
    }

    /// Searches `depth` plies (at least 1) and returns the chosen move with its score for the
    /// player to move, or `None` when there is no legal move.
    pub fn search(pos: &Position, rules: &Rules, depth: u32, seed: u64) -> Option<(Point, i32)> {
        Minimax::search_counted(pos, rules, depth, seed).map(|(p, value, _)| (p, value))
    }

    /// [`Minimax::search`], also giving the number of positions it evaluated (the leaves of the
    /// full-width tree, less the lines cut short by a move that wins).
    pub fn search_counted(pos: &Position, rules: &Rules, depth: u32, seed: u64) -> Option<(Point, i32, u64)> {
        let moves = Minimax::candidates(pos, rules);
        if moves.is_empty() {
            return None;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let wins: Vec<Point> = moves.iter().copied().filter(|&p| wins_at(pos, p)).collect();
        if !wins.is_empty() {
            return Some((wins[rng.gen_range(0..wins.len())], WIN, 0));
        }
        let mut best = -INFINITY;
        let mut tied = Vec::new();
        let mut leaves = 0;
        for m in moves {
            let value = -negamax(&play(pos, m), rules, depth.max(1) - 1, 1, &mut leaves);
            if value > best {
                best = value;
                tied.clear();
            }
            if value == best {
                tied.push(m);
            }
        }
        Some((tied[rng.gen_range(0..tied.len())], best, leaves))
    }
}

/// The candidates among `legal` (see [`Minimax::candidates`]).
fn candidates_of(pos: &Position, legal: &[Point]) -> Vec<Point> {
    let stones: Vec<Point> = Point::all().filter(|&p| pos.board.get(p).is_some()).collect();
    if stones.is_empty() {
        return legal.to_vec();
    }
    let mut near = [false; Point::COUNT];
    for &s in &stones {
        for dr in -1..=1 {
            for dc in -1..=1 {
                if let Some(q) = s.offset(dr, dc) {
                    near[q.index()] = true;
                }
            }
        }
    }
    let close: Vec<Point> = legal.iter().copied().filter(|p| near[p.index()]).collect();
    if !close.is_empty() || legal.is_empty() {
        return close;
    }
    let distance = |p: Point| stones.iter().map(|&s| s.distance(p)).min().unwrap_or(0);
    let nearest = legal.iter().map(|&p| distance(p)).min().unwrap_or(0);
    legal.iter().copied().filter(|&p| distance(p) == nearest).collect()
}

/// The value of `pos` for the player to move, searching `depth` more plies: every candidate
/// move at every level, with no pruning, as the graders' agent searches. `pos` is not won: the
/// caller never plays a winning move into a search.
fn negamax(pos: &Position, rules: &Rules, depth: u32, ply: i32, leaves: &mut u64) -> i32 {
    if depth == 0 {
        *leaves += 1;
        return evaluate(pos, ply);
    }
    let opening = opening_move(pos);
    let legal: Vec<Point> = pos.board.empty_points().filter(|&p| rules.allows_on(opening, p)).collect();
    let moves = candidates_of(pos, &legal);
    if moves.is_empty() {
        return 0; // The board is full: a draw.
    }
    // A move that wins ends the game: its value is the win's, whatever else could be searched.
    if moves.iter().any(|&p| wins_at(pos, p)) {
        return WIN - ply;
    }
    moves.into_iter().map(|m| -negamax(&play(pos, m), rules, depth - 1, ply + 1, leaves)).max().unwrap_or(0)
}

/// Every line of the board that can hold five in a row, as point indices.
fn lines() -> &'static [Vec<u16>] {
    static LINES: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines = Vec::new();
        for start in Point::all() {
            for axis in AXES {
                let starts_here = start.step((-axis.0, -axis.1), 1).is_none();
                if !starts_here {
                    continue;
                }
                let line: Vec<u16> =
                    (0..SIZE as i8).map_while(|k| start.step(axis, k)).map(|p| p.index() as u16).collect();
                if line.len() >= 5 {
                    lines.push(line);
                }
            }
        }
        lines
    })
}

/// Worth of a window of five points holding k stones of one colour and none of the other.
const WINDOW: [i32; 5] = [0, 1, 8, 60, 400];

/// Worth of having captured 0, 2, 4, 6 or 8 pieces.
const CAPTURED: [i32; 5] = [0, 120, 300, 700, 1600];

/// Worth of each pair one could capture next move.
const CAPTURE_THREAT: i32 = 40;

/// A heuristic value of the non-won `pos` for the player to move, found `ply` plies down:
/// windows of five holding stones of one colour only (more stones, more worth), captured pieces,
/// and pairs open to capture. When the player to move can win at once, `WIN - ply - 1`.
fn evaluate(pos: &Position, ply: i32) -> i32 {
    let me = pos.to_move;
    let cells: Vec<Option<Color>> = Point::all().map(|p| pos.board.get(p)).collect();
    let mut windows = [0i32; 2];
    let mut four_with_gap = [false; 2];
    for line in lines() {
        let mut count = [0usize; 2];
        for (k, &i) in line.iter().enumerate() {
            if let Some(c) = cells[i as usize] {
                count[c.index()] += 1;
            }
            if k >= 5
                && let Some(c) = cells[line[k - 5] as usize]
            {
                count[c.index()] -= 1;
            }
            if k >= 4 {
                for c in Color::BOTH {
                    let (own, other) = (count[c.index()], count[c.opponent().index()]);
                    if other == 0 && own > 0 {
                        if own >= 4 {
                            four_with_gap[c.index()] = true;
                        }
                        windows[c.index()] += WINDOW[own.min(4)];
                    }
                }
            }
        }
    }
    if four_with_gap[me.index()] {
        return WIN - ply - 1;
    }
    let mut open_pairs = [0i32; 2];
    for c in Color::BOTH {
        for p in pos.board.stones(c) {
            for d in DIRECTIONS {
                let holds = |k: i8, who: Option<Color>| p.step(d, k).is_some_and(|q| cells[q.index()] == who);
                if holds(1, Some(c.opponent())) && holds(2, Some(c.opponent())) && holds(3, None) {
                    open_pairs[c.index()] += 1;
                }
            }
        }
    }
    if open_pairs[me.index()] > 0 && pos.captured_by(me) + 2 >= CAPTURES_TO_WIN {
        return WIN - ply - 1;
    }
    let captured = |c: Color| CAPTURED[(pos.captured_by(c) / 2).min(4) as usize];
    let side = |c: Color| windows[c.index()] + captured(c) + CAPTURE_THREAT * open_pairs[c.index()];
    side(me) - side(me.opponent())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::board::Board;

    /// The first of the random `moves`-move games (seeds 0, 1, ...) where the player to move
    /// cannot win at once, so that a search runs in full.
    fn no_win_at_once(rules: &Rules, moves: usize) -> Position {
        use rand::SeedableRng;
        (0..)
            .map(|seed| {
                crate::games::pente::random_position(&mut ChaCha8Rng::seed_from_u64(seed), rules, moves)
            })
            .find(|pos| crate::games::pente::oracle::first_winning_move(pos, rules).is_none())
            .unwrap()
    }

    #[test]
    fn depth_follows_the_graders_clock() {
        assert_eq!(Minimax::depth_for(300.0), 3);
        assert_eq!(Minimax::depth_for(50.1), 3);
        assert_eq!(Minimax::depth_for(50.0), 2);
        assert_eq!(Minimax::depth_for(3.0), 2);
        assert_eq!(Minimax::depth_for(2.99), 1);
    }

    #[test]
    fn every_line_that_can_hold_five_is_scanned_once() {
        // 19 rows, 19 columns and 2 x 29 diagonals of length 5 or more.
        assert_eq!(lines().len(), 19 + 19 + 2 * 29);
        let windows: usize = lines().iter().map(|l| l.len() - 4).sum();
        assert_eq!(windows, 2 * 19 * 15 + 2 * (15 + 2 * (1..=14).sum::<usize>()));
    }

    #[test]
    fn both_bots_open_on_the_centre() {
        let rules = Rules::default();
        for bot in BOTS.names().into_iter().map(|n| BOTS.make(n).unwrap()) {
            assert_eq!(bot.choose(&Position::start(), &rules, 7), Some(Point::CENTRE), "{}", bot.name());
        }
    }

    #[test]
    fn minimax_evaluates_every_leaf_of_the_tree_it_does_not_prune() {
        let rules = Rules::default();
        let pos = no_win_at_once(&rules, 12);
        // Depth 2: every candidate reply to every candidate move is evaluated, unless the reply
        // side can win at once (then the line is worth the win, and no reply is evaluated).
        let expected: u64 = Minimax::candidates(&pos, &rules)
            .into_iter()
            .map(|m| {
                let after = play(&pos, m);
                let replies = Minimax::candidates(&after, &rules);
                if replies.iter().any(|&r| wins_at(&after, r)) { 0 } else { replies.len() as u64 }
            })
            .sum();
        let (_, _, leaves) = Minimax::search_counted(&pos, &rules, 2, 5).unwrap();
        assert_eq!(leaves, expected);
        assert!(leaves > 100, "{leaves}");
    }

    #[test]
    fn minimax_searches_depth_3_with_a_full_clock_and_repeats_itself() {
        let rules = Rules::default();
        // The whole depth-3 search runs. How long it takes is `arbiter bench`'s to say.
        let pos = no_win_at_once(&rules, 20);
        assert_eq!(Minimax::depth_for(pos.seconds_left), 3);
        let (m, _, leaves) = Minimax::search_counted(&pos, &rules, 3, 3).unwrap();
        assert!(crate::games::pente::is_legal(&pos, &rules, m));
        let n = Minimax::candidates(&pos, &rules).len() as u64;
        assert!(leaves > n * n, "depth 3 evaluated only {leaves} positions from {n} candidates");
        assert_eq!(Minimax::default().choose(&pos, &rules, 3), Some(m), "the same seed, the same move");
    }

    #[test]
    fn minimax_takes_a_win_and_blocks_a_four() {
        let rules = Rules::default();
        let board = Board::from_points("10G 10H 10J 10K 5E", "12A 12B 12C 12D 3S").unwrap();
        let mut pos = Position::new(Color::White, board);
        pos.captured = [0, 2];
        let win = Minimax::default().choose(&pos, &rules, 1).unwrap();
        assert!(["10F", "10L"].contains(&win.to_string().as_str()), "{win}");
        pos.to_move = Color::Black;
        let black = Minimax { fixed_depth: Some(2) }.choose(&pos, &rules, 1).unwrap();
        assert_eq!(black.to_string(), "12E", "Black wins at once on 12E");
        // White's four is closed on 10F: only 10L stops it.
        let board = Board::from_points("10G 10H 10J 10K 5E", "10F 12A 12B 3S 3R").unwrap();
        let pos = Position::new(Color::Black, board);
        let block = Minimax { fixed_depth: Some(2) }.choose(&pos, &rules, 1).unwrap();
        assert_eq!(block.to_string(), "10L");
    }
}
