//! Pente positions for `fuzz`, aimed where a bot's bugs hide: the opening moves, captures at the
//! board's edges, fours that only a capture breaks, fives the opponent could break by a capture
//! (too late: the five has won), and captures of the tenth piece. Also the
//! kind of a move (for grouping failures), and shrinking that keeps a position one a game can
//! reach.
//!
//! Every position is reachable: the stones placed add up for the side to move, and White's
//! first stone is on the centre unless Black has taken some of White's stones. A source plants
//! its pattern, balances the stone counts with a few scattered stones, and keeps the position
//! only if the oracle sees in it what the source is about (a capture at the edge is the best
//! answer, only a capture stops the four, ...); otherwise it draws again, a bounded number of
//! times. Everything follows the seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use super::color::Color;
use super::oracle::{Category, Oracle};
use super::point::{AXES, DIRECTIONS, Point, SIZE};
use super::position::Position;
use super::rules::{Rules, Status, capture_count, capture_in, effect, opening_move, play, status};
use crate::harness::referee::{MoveKind, SoleAnswer};

/// The sources, as `fuzz` names them.
pub const SOURCES: [&str; 9] = [
    "opening/white-first",
    "opening/black-first",
    "opening/white-second",
    "opening/black-second",
    "capture/edge",
    "block/capture-breaks-four",
    "win/five-open-to-capture",
    "win/tenth-piece",
    "block/tenth-piece",
];

/// Draws per position before a source gives up.
const ATTEMPTS: usize = 40;

/// The kind of placing the mover's stone on `p` in `pos`, legal or not: what it does (makes
/// five, captures the tenth piece, captures, or just places a stone) and where (under the
/// opening rule, on the centre, on the board's edge).
pub fn move_kind(pos: &Position, p: Point) -> MoveKind {
    let edge = if opening_move(pos).is_some() {
        Some("opening")
    } else if p == Point::CENTRE {
        Some("centre")
    } else if on_board_edge(p) {
        Some("board-edge")
    } else {
        None
    };
    let (action, name) = if !pos.board.is_empty_at(p) {
        ("place", "stone")
    } else {
        let e = effect(pos, p);
        if e.five.is_some() {
            ("five", "five")
        } else if !e.captures.is_empty() && e.wins() {
            ("capture-win", "capture of the tenth piece")
        } else if !e.captures.is_empty() {
            ("capture", "capture")
        } else {
            ("place", "stone")
        }
    };
    let name = if edge == Some("opening") && action == "place" { "opening stone" } else { name };
    MoveKind {
        piece: "stone".to_string(),
        action: action.to_string(),
        edge: edge.map(str::to_string),
        name: name.to_string(),
    }
}

/// Whether `p` is on the first or last row or column.
fn on_board_edge(p: Point) -> bool {
    p.row() == 1 || p.row() == SIZE || p.column() == 0 || p.column() == SIZE - 1
}

/// The single answer `category` expects in `pos`, when it expects one point.
pub fn sole_answer(pos: &Position, rules: &Rules, category: Category) -> Option<SoleAnswer> {
    let oracle = Oracle::new(pos, rules);
    let expected = oracle.expected(category);
    let [p] = expected[..] else { return None };
    let what = if oracle.legal.len() == 1 { "legal move".to_string() } else { format!("{category} answer") };
    Some(SoleAnswer {
        notation: p.to_string(),
        kind: move_kind(pos, p),
        sentence: format!("the only {what} was {p}: {}", oracle.explain(p)),
    })
}

/// A position from the source `name`, drawn from `seed` alone; `None` for an unknown source or
/// when no draw gave what the source is about.
pub fn edge_position(rules: &Rules, name: &str, seed: u64) -> Option<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found = (0..ATTEMPTS).find_map(|_| {
        let pos = match name {
            "opening/white-first" => Some(Position::start()),
            "opening/black-first" => Some(Position::new(Color::Black, centre_only())),
            "opening/white-second" => Some(white_second(&mut rng)),
            "opening/black-second" => black_second(&mut rng, rules),
            "capture/edge" => capture_at_edge(&mut rng),
            "block/capture-breaks-four" => four_broken_by_capture(&mut rng),
            "win/five-open-to-capture" => five_open_to_capture(&mut rng),
            "win/tenth-piece" | "block/tenth-piece" => tenth_piece(&mut rng, name == "win/tenth-piece"),
            _ => return None,
        }?;
        (reachable(&pos) && status(&pos) == Status::Ongoing && shows(name, &pos, rules)).then_some(pos)
    })?;
    // Bots may read the clock (the graders' minimax picks its depth by it): any time will do.
    found.seconds_left = f64::from(rng.gen_range(1..=3000)) / 10.0;
    Some(found)
}

/// Whether `pos` is what source `name` is about, as the oracle sees it.
fn shows(name: &str, pos: &Position, rules: &Rules) -> bool {
    let oracle = Oracle::new(pos, rules);
    let category = oracle.category();
    match name {
        "capture/edge" => {
            category == Some(Category::Capture) && oracle.capture.iter().any(|&p| captures_on_edge(pos, p))
        }
        "block/capture-breaks-four" => {
            category == Some(Category::Block)
                && !oracle.threats.lost()
                && oracle.expected(Category::Block).iter().all(|&p| !effect(pos, p).captures.is_empty())
        }
        "win/five-open-to-capture" => {
            category == Some(Category::Win) && oracle.win.iter().any(|&p| five_open_to_capture_at(pos, p))
        }
        "win/tenth-piece" => {
            category == Some(Category::Win) && oracle.win.iter().all(|&p| effect(pos, p).five.is_none())
        }
        "block/tenth-piece" => category == Some(Category::Block) && !oracle.threats.lost(),
        _ => category.is_some(),
    }
}

/// Whether the mover's stone on `p` captures a pair on a line that touches the board's edge:
/// `p` itself or the flanking stone beyond the pair is on the first or last row or column.
pub fn captures_on_edge(pos: &Position, p: Point) -> bool {
    DIRECTIONS.into_iter().any(|d| {
        capture_in(&pos.board, p, pos.to_move, d).is_some()
            && (on_board_edge(p) || p.step(d, 3).is_some_and(on_board_edge))
    })
}

/// Whether `pos` could come from a game.
fn reachable(pos: &Position) -> bool {
    pos.inconsistencies().is_empty()
}

/// White's first stone on the centre, nothing else.
fn centre_only() -> Board {
    let mut board = Board::empty();
    board.set(Point::CENTRE, Some(Color::White));
    board
}

/// White to place its second stone: its first on the centre and Black's first near it (so that
/// some of the points the opening rule allows are taken) or anywhere.
fn white_second(rng: &mut ChaCha8Rng) -> Position {
    let mut board = centre_only();
    let black = loop {
        let p = if rng.gen_bool(0.7) {
            Point::CENTRE.offset(rng.gen_range(-4..=4), rng.gen_range(-4..=4))
        } else {
            Some(random_point(rng))
        };
        if let Some(p) = p.filter(|&p| p != Point::CENTRE) {
            break p;
        }
    };
    board.set(black, Some(Color::Black));
    Position::new(Color::White, board)
}

/// Black to place its second stone, after White's second stone went where the rule allows.
fn black_second(rng: &mut ChaCha8Rng, rules: &Rules) -> Option<Position> {
    let pos = white_second(rng);
    let allowed: Vec<Point> = super::rules::legal_moves(&pos, rules);
    Some(play(&pos, *allowed.choose(rng)?))
}

/// A random point.
fn random_point(rng: &mut ChaCha8Rng) -> Point {
    Point::from_index(rng.gen_range(0..Point::COUNT))
}

/// A position being planted: stones go only on empty points.
struct Planter {
    board: Board,
    /// The points the pattern uses (stones and the points its moves need empty): fillers keep
    /// away from them.
    pattern: Vec<Point>,
}

impl Planter {
    fn new() -> Planter {
        Planter { board: Board::empty(), pattern: Vec::new() }
    }

    /// Puts a stone (or keeps a point empty, `None`) as part of the pattern; fails when the
    /// point is off the board or taken.
    fn put(&mut self, p: Option<Point>, stone: Option<Color>) -> Option<Point> {
        let p = p?;
        if !self.board.is_empty_at(p) || self.pattern.contains(&p) {
            return None;
        }
        self.board.set(p, stone);
        self.pattern.push(p);
        Some(p)
    }

    /// The position with `to_move` to play and these captured counts, the stone counts balanced
    /// by stones scattered away from the pattern (and the centre given to White when the
    /// opening rule needs it there), plus `extra` more pairs of scattered stones.
    fn finish(
        mut self,
        rng: &mut ChaCha8Rng,
        to_move: Color,
        captured: [u32; 2],
        extra: usize,
    ) -> Option<Position> {
        let mut pos =
            Position { to_move, seconds_left: Position::DEFAULT_SECONDS, captured, board: Board::empty() };
        pos.board = self.board.clone();
        if captured[Color::Black.index()] == 0 && pos.board.is_empty_at(Point::CENTRE) {
            if self.pattern.contains(&Point::CENTRE) {
                return None;
            }
            pos.board.set(Point::CENTRE, Some(Color::White));
            self.pattern.push(Point::CENTRE);
        }
        // White has placed as many stones as Black with White to move, one more with Black.
        let wanted_white = pos.placed(Color::Black) + u64::from(to_move == Color::Black);
        let white = pos.placed(Color::White);
        let (more_white, more_black) =
            if white <= wanted_white { (wanted_white - white, 0) } else { (0, white - wanted_white) };
        let fill = |pos: &mut Position, rng: &mut ChaCha8Rng, color: Color, n: u64| -> Option<()> {
            for _ in 0..n {
                let p = (0..200)
                    .map(|_| random_point(rng))
                    .find(|&p| pos.board.is_empty_at(p) && self.pattern.iter().all(|&q| q.distance(p) > 2))?;
                pos.board.set(p, Some(color));
            }
            Some(())
        };
        fill(&mut pos, rng, Color::White, more_white + extra as u64)?;
        fill(&mut pos, rng, Color::Black, more_black + extra as u64)?;
        Some(pos)
    }
}

/// A capture for the player to move near the board's edge: the capture point on the edge with
/// the pair going inwards, or the flanking stone on the edge; sometimes with a pair at the edge
/// that no stone can flank (the point beyond is off the board), to catch a bot that looks
/// there.
fn capture_at_edge(rng: &mut ChaCha8Rng) -> Option<Position> {
    let mover = if rng.gen_bool(0.5) { Color::White } else { Color::Black };
    let opponent = mover.opponent();
    let mut p = Planter::new();
    let d = *DIRECTIONS.choose(rng)?;
    // The capture point: on an edge line when the pair runs inwards, or three points in from
    // it when the flank is on the edge.
    let on_edge = edge_point(rng);
    let inward = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]
        .into_iter()
        .filter(|&dd| on_edge.step(dd, 3).is_some())
        .collect::<Vec<_>>();
    let dir = if inward.contains(&d) { d } else { *inward.choose(rng)? };
    let (capture, along) =
        if rng.gen_bool(0.5) { (on_edge, dir) } else { (on_edge.step(dir, 3)?, (-dir.0, -dir.1)) };
    p.put(Some(capture), None)?;
    p.put(capture.step(along, 1), Some(opponent))?;
    p.put(capture.step(along, 2), Some(opponent))?;
    p.put(capture.step(along, 3), Some(mover))?;
    if rng.gen_bool(0.5) {
        // A pair against the edge with the mover's stone behind it: nothing beyond to play on.
        let e = edge_point(rng);
        let out = AXES
            .into_iter()
            .flat_map(|a| [a, (-a.0, -a.1)])
            .find(|&a| e.step(a, 1).is_none() && e.step((-a.0, -a.1), 2).is_some())?;
        let back = (-out.0, -out.1);
        p.put(Some(e), Some(opponent))?;
        p.put(e.step(back, 1), Some(opponent))?;
        p.put(e.step(back, 2), Some(mover))?;
    }
    let captured = [2 * rng.gen_range(0..=2), 2 * rng.gen_range(1..=2)];
    let extra = rng.gen_range(0..=2);
    p.finish(rng, mover, captured, extra)
}

/// A random point on the first or last row or column.
fn edge_point(rng: &mut ChaCha8Rng) -> Point {
    let along = rng.gen_range(0..SIZE);
    let side = if rng.gen_bool(0.5) { 0 } else { SIZE - 1 };
    if rng.gen_bool(0.5) {
        Point::new(side + 1, along).expect("on the board")
    } else {
        Point::new(along + 1, side).expect("on the board")
    }
}

/// A random player to move, an empty board, and where a line of five begins: a random axis and
/// a start point with room on the board for the line and a stone before it.
fn line_on_board(rng: &mut ChaCha8Rng) -> Option<(Color, Planter, (i8, i8), Point)> {
    let mover = if rng.gen_bool(0.5) { Color::White } else { Color::Black };
    let p = Planter::new();
    let axis = *AXES.choose(rng)?;
    let start = Point::new(rng.gen_range(3..=SIZE - 2), rng.gen_range(2..SIZE - 2))?;
    Some((mover, p, axis, start))
}

/// A pair across the `line` (along its axis): one of its stones and a stone of `beside`'s
/// beyond it in another direction, flanked by `flank`'s stone on the line's side and an empty
/// capture point on the other.
fn pair_across(
    rng: &mut ChaCha8Rng,
    p: &mut Planter,
    (line, axis): (&[Point], (i8, i8)),
    beside: Color,
    flank: Color,
) -> Option<()> {
    let across: Vec<(i8, i8)> =
        DIRECTIONS.into_iter().filter(|&d| d != axis && d != (-axis.0, -axis.1)).collect();
    let d = *across.choose(rng)?;
    let s = *line.choose(rng)?;
    p.put(s.step(d, 1), Some(beside))?;
    p.put(s.step(d, -1), Some(flank))?;
    p.put(s.step(d, 2), None)?;
    Some(())
}

/// The opponent has an open four (five next move at either end, so no stone at an end stops
/// it), and one stone of the four belongs to a pair the player to move can capture across the
/// line: only that capture (or another that breaks the four) saves the game.
fn four_broken_by_capture(rng: &mut ChaCha8Rng) -> Option<Position> {
    let (mover, mut p, axis, start) = line_on_board(rng)?;
    let opponent = mover.opponent();
    // Both ends open and on the board.
    p.put(start.step(axis, -1), None)?;
    let four: Vec<Point> = (0..4).map(|k| start.step(axis, k)).collect::<Option<_>>()?;
    for &q in &four {
        p.put(Some(q), Some(opponent))?;
    }
    p.put(start.step(axis, 4), None)?;
    // A pair across the line: a stone of the four and the opponent's stone beyond it, flanked
    // by the mover on one side and the capture point on the other.
    pair_across(rng, &mut p, (&four, axis), opponent, mover)?;
    let captured = [2 * rng.gen_range(0..=3), 2 * rng.gen_range(1..=3)];
    let extra = rng.gen_range(0..=2);
    p.finish(rng, mover, captured, extra)
}

/// Whether the mover's stone on `p` makes five of which the opponent could then capture a pair
/// (were the game not over): a win all the same, which a bot that looks one reply ahead may fear.
pub fn five_open_to_capture_at(pos: &Position, p: Point) -> bool {
    let Some(five) = effect(pos, p).five else { return false };
    let after = play(pos, p);
    let opponent = pos.to_move.opponent();
    after.board.empty_points().any(|q| {
        DIRECTIONS
            .into_iter()
            .filter_map(|d| capture_in(&after.board, q, opponent, d))
            .any(|pair| pair.iter().any(|s| five.contains(s)))
    })
}

/// The player to move completes five on one point (the four's other end is the opponent's), and
/// one stone of that five, with a stone of the mover's beside it across the line, is a pair the
/// opponent flanks on one side with the other side empty: after the five the opponent could
/// capture it, but the five has already won.
fn five_open_to_capture(rng: &mut ChaCha8Rng) -> Option<Position> {
    let (mover, mut p, axis, start) = line_on_board(rng)?;
    let opponent = mover.opponent();
    p.put(start.step(axis, -1), Some(opponent))?;
    let five: Vec<Point> = (0..5).map(|k| start.step(axis, k)).collect::<Option<_>>()?;
    let gap = rng.gen_range(0..5);
    for (k, &q) in five.iter().enumerate() {
        p.put(Some(q), if k == gap { None } else { Some(mover) })?;
    }
    pair_across(rng, &mut p, (&five, axis), mover, opponent)?;
    let captured = [2 * rng.gen_range(0..=3), 2 * rng.gen_range(0..=3)];
    let extra = rng.gen_range(0..=2);
    p.finish(rng, mover, captured, extra)
}

/// Captures of the tenth piece. `win`: the player to move has 8 pieces and can capture a pair,
/// which wins. Otherwise the opponent has 8 and threatens a capture that would win, which the
/// player to move must stop.
fn tenth_piece(rng: &mut ChaCha8Rng, win: bool) -> Option<Position> {
    let mover = if rng.gen_bool(0.5) { Color::White } else { Color::Black };
    let (taker, victim) = if win { (mover, mover.opponent()) } else { (mover.opponent(), mover) };
    let mut p = Planter::new();
    let at = Point::new(rng.gen_range(1..=SIZE), rng.gen_range(0..SIZE))?;
    let d = *DIRECTIONS.choose(rng)?;
    p.put(Some(at), None)?;
    p.put(at.step(d, 1), Some(victim))?;
    p.put(at.step(d, 2), Some(victim))?;
    p.put(at.step(d, 3), Some(taker))?;
    let mut captured = [0, 0];
    captured[taker.index()] = 8;
    captured[victim.index()] = 2 * rng.gen_range(0..=3);
    let extra = rng.gen_range(0..=2);
    let pos = p.finish(rng, mover, captured, extra)?;
    // The winning capture must be possible: `at` takes the pair.
    let can = |pos: &Position| capture_count(&pos.board, at, taker) > 0;
    can(&pos).then_some(pos)
}

/// Every one-step simplification of `pos` that keeps it reachable (when it was): a stone removed
/// together with the nearest stone of the other colour, so the counts stay balanced.
pub fn shrink_steps(pos: &Position) -> Vec<Position> {
    let was_reachable = reachable(pos);
    let stones: Vec<(Point, Color)> = pos
        .board
        .stones(Color::White)
        .map(|p| (p, Color::White))
        .chain(pos.board.stones(Color::Black).map(|p| (p, Color::Black)))
        .collect();
    let mut out: Vec<Position> = Vec::new();
    for &(p, color) in &stones {
        let partner = stones
            .iter()
            .filter(|(_, c)| *c != color)
            .min_by_key(|(q, _)| (q.distance(p), q.index()))
            .map(|&(q, _)| q);
        let mut smaller = pos.clone();
        smaller.board.set(p, None);
        if let Some(q) = partner {
            smaller.board.set(q, None);
        }
        if (!was_reachable || reachable(&smaller)) && !out.contains(&smaller) {
            out.push(smaller);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_gives_reachable_positions_about_what_it_says() {
        for rules in [Rules::default(), Rules { opening: super::super::rules::Opening::Tournament }] {
            for name in SOURCES {
                let found: Vec<Position> =
                    (0..8).filter_map(|seed| edge_position(&rules, name, seed)).collect();
                assert!(found.len() >= 6, "{name}: only {} of 8 seeds gave a position", found.len());
                for pos in &found {
                    assert!(pos.inconsistencies().is_empty(), "{name}: {:?}", pos.inconsistencies());
                    let oracle = Oracle::new(pos, &rules);
                    let category = oracle.category().expect("a legal move");
                    let wanted = match name {
                        "opening/white-first" | "opening/white-second" => Category::Opening,
                        "capture/edge" => Category::Capture,
                        "win/tenth-piece" | "win/five-open-to-capture" => Category::Win,
                        "block/capture-breaks-four" | "block/tenth-piece" => Category::Block,
                        _ => category,
                    };
                    assert_eq!(category, wanted, "{name}:\n{}", pos.board.to_text());
                }
            }
        }
    }

    #[test]
    fn every_source_is_deterministic_per_seed() {
        let rules = Rules::default();
        for name in SOURCES {
            for seed in 0..4 {
                assert_eq!(edge_position(&rules, name, seed), edge_position(&rules, name, seed), "{name}");
            }
        }
        let boards: Vec<Board> =
            (0..6).filter_map(|s| edge_position(&rules, "capture/edge", s)).map(|p| p.board).collect();
        assert!(boards.windows(2).any(|w| w[0] != w[1]), "the seed changes the position");
    }

    #[test]
    fn the_opening_sources_give_the_first_two_stones_of_each_player() {
        let rules = Rules::default();
        // (source, the side to move, White's stones placed, Black's stones placed)
        let wanted = [
            ("opening/white-first", Color::White, 0, 0),
            ("opening/white-second", Color::White, 1, 1),
            ("opening/black-first", Color::Black, 1, 0),
            ("opening/black-second", Color::Black, 2, 1),
        ];
        for (name, to_move, white, black) in wanted {
            for seed in 0..6 {
                let pos = edge_position(&rules, name, seed).unwrap();
                assert_eq!(pos.to_move, to_move, "{name}");
                assert_eq!((pos.placed(Color::White), pos.placed(Color::Black)), (white, black), "{name}");
                assert_eq!(pos.board.get(Point::CENTRE), (white > 0).then_some(Color::White), "{name}");
                let legal = Oracle::new(&pos, &rules).legal;
                match name {
                    "opening/white-first" => assert_eq!(legal, [Point::CENTRE]),
                    "opening/white-second" => {
                        assert!(!legal.is_empty());
                        assert!(legal.iter().all(|p| p.distance(Point::CENTRE) <= 3), "{legal:?}");
                    }
                    _ => assert_eq!(legal.len(), Point::COUNT - pos.board.stone_count(), "{name}"),
                }
            }
        }
    }

    #[test]
    fn capture_at_the_edge_captures_on_an_edge_line() {
        let rules = Rules::default();
        for seed in 0..8 {
            let Some(pos) = edge_position(&rules, "capture/edge", seed) else { continue };
            let oracle = Oracle::new(&pos, &rules);
            let edge: Vec<Point> =
                oracle.capture.iter().copied().filter(|&p| captures_on_edge(&pos, p)).collect();
            assert!(!edge.is_empty(), "seed {seed}:\n{}", pos.board.to_text());
            for p in edge {
                assert_eq!(move_kind(&pos, p).action, "capture");
            }
        }
    }

    #[test]
    fn each_planted_threat_or_win_is_what_its_source_claims() {
        let rules = Rules::default();
        for seed in 0..6 {
            if let Some(pos) = edge_position(&rules, "block/capture-breaks-four", seed) {
                let oracle = Oracle::new(&pos, &rules);
                let passed = super::super::oracle::with_turn_passed(&pos);
                assert!(!oracle.threats.moves.is_empty());
                assert!(oracle.threats.moves.iter().any(|&q| effect(&passed, q).five.is_some()), "{seed}");
            }
            if let Some(pos) = edge_position(&rules, "win/five-open-to-capture", seed) {
                let oracle = Oracle::new(&pos, &rules);
                let open: Vec<Point> =
                    oracle.win.iter().copied().filter(|&p| five_open_to_capture_at(&pos, p)).collect();
                assert!(!open.is_empty(), "{seed}:\n{}", pos.board.to_text());
                assert!(open.iter().all(|&p| effect(&pos, p).five.is_some()));
            }
            if let Some(pos) = edge_position(&rules, "win/tenth-piece", seed) {
                assert_eq!(pos.captured_by(pos.to_move), 8);
                let oracle = Oracle::new(&pos, &rules);
                assert!(oracle.win.iter().all(|&p| effect(&pos, p).captured_after == 10), "{seed}");
            }
            if let Some(pos) = edge_position(&rules, "block/tenth-piece", seed) {
                assert_eq!(pos.captured_by(pos.to_move.opponent()), 8);
                let passed = super::super::oracle::with_turn_passed(&pos);
                let oracle = Oracle::new(&pos, &rules);
                assert!(
                    oracle.threats.moves.iter().any(|&q| effect(&passed, q).captured_after == 10),
                    "{seed}"
                );
            }
        }
    }

    #[test]
    fn only_a_capture_stops_the_four() {
        let rules = Rules::default();
        let pos = (0..8).find_map(|s| edge_position(&rules, "block/capture-breaks-four", s)).unwrap();
        let oracle = Oracle::new(&pos, &rules);
        let blocks = oracle.expected(Category::Block);
        assert!(!blocks.is_empty());
        assert!(blocks.iter().all(|&p| move_kind(&pos, p).action == "capture"), "{blocks:?}");
    }

    #[test]
    fn the_second_stone_follows_the_rule_in_force() {
        use super::super::rules::Opening;
        for (opening, allowed) in [(Opening::Seed, 0..=3), (Opening::Tournament, 3..=18)] {
            let rules = Rules { opening };
            let pos = edge_position(&rules, "opening/white-second", 3).unwrap();
            let legal = Oracle::new(&pos, &rules).legal;
            assert!(legal.iter().all(|p| allowed.contains(&p.distance(Point::CENTRE))), "{opening:?}");
        }
    }

    #[test]
    fn black_first_stone_is_any_point_but_the_centre() {
        let pos = edge_position(&Rules::default(), "opening/black-first", 1).unwrap();
        let oracle = Oracle::new(&pos, &Rules::default());
        assert_eq!(oracle.legal.len(), 360);
        assert!(!oracle.legal.contains(&Point::CENTRE));
        assert_eq!(move_kind(&pos, Point::CENTRE).edge.as_deref(), Some("centre"));
    }

    #[test]
    fn shrinking_keeps_positions_reachable_and_smaller() {
        let rules = Rules::default();
        let pos = (0..8).find_map(|s| edge_position(&rules, "capture/edge", s)).unwrap();
        let steps = shrink_steps(&pos);
        assert!(!steps.is_empty());
        for smaller in steps {
            assert!(smaller.inconsistencies().is_empty());
            assert!(smaller.board.stone_count() < pos.board.stone_count());
        }
    }
}
