//! Positions aimed at one rule's edge, for fuzzing: the side to move has exactly one legal move
//! and it is of a chosen kind (a Jester swapping with its General, a conversion of a
//! Sentinel-protected piece, a Sentinel move that takes the General out of danger, ...), or such
//! a move is the unique grade-6 answer.
//!
//! Uniform random positions almost never reach these: a bot that never generates one kind of
//! move passes them, because some other legal move is always there to play. A position is built
//! in two steps. A *plant* puts down the pattern the move needs (the Jester next to its General;
//! an attacker on the General and a Sentinel a knight's jump from a square beside it) with a few
//! random pieces and walls around. Then *carving* removes every other candidate move one small
//! edit at a time (a piece taken away, a wall put on a target square), keeping an edit only if
//! it leaves fewer rival moves while the chosen move stays legal and of its kind, until none is
//! left. Everything follows the seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use super::engine::Engine;
use super::notation::{Action, Move};
use super::piece::{Cell, Kind};
use super::planter::{EIGHT, KINDS, ORTHOGONAL, Planter, pick, piece, random_square};
use super::position::Position;
use super::reference::danger::in_danger;
use super::reference::reach::is_protected;
use super::square::Square;
use crate::side::Side;

/// A kind of move at a rule's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// A Jester swaps places with its own General.
    GeneralSwap,
    /// A Jester swaps places with another friendly piece.
    JesterSwap,
    /// A Jester converts an enemy piece that a Sentinel protects.
    ProtectedConvert,
    /// A Jester converts an unprotected enemy piece.
    Convert,
    /// A Sentinel moves while its General is in danger (and so ends the danger).
    SentinelRescue,
    /// A Builder builds a wall while its General is in danger (the wall blocks the attack).
    WallBlock,
    /// A Miner takes a wall.
    MinerWall,
    /// A Zombie's leap.
    ZombieLeap,
    /// A Catapult's shot.
    CatapultShot,
    /// A Dragon's capture at range.
    DragonCapture,
}

impl EdgeKind {
    /// Every kind, in a fixed order (the order fuzzing's sources take).
    pub const ALL: [EdgeKind; 10] = [
        EdgeKind::GeneralSwap,
        EdgeKind::JesterSwap,
        EdgeKind::ProtectedConvert,
        EdgeKind::Convert,
        EdgeKind::SentinelRescue,
        EdgeKind::WallBlock,
        EdgeKind::MinerWall,
        EdgeKind::ZombieLeap,
        EdgeKind::CatapultShot,
        EdgeKind::DragonCapture,
    ];

    /// A stable short name: `general-swap`, `protected-convert`, ...
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::GeneralSwap => "general-swap",
            EdgeKind::JesterSwap => "jester-swap",
            EdgeKind::ProtectedConvert => "protected-convert",
            EdgeKind::Convert => "convert",
            EdgeKind::SentinelRescue => "sentinel-rescue",
            EdgeKind::WallBlock => "wall-block",
            EdgeKind::MinerWall => "miner-wall",
            EdgeKind::ZombieLeap => "zombie-leap",
            EdgeKind::CatapultShot => "catapult-shot",
            EdgeKind::DragonCapture => "dragon-capture",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether a capture (or conversion) of this kind gains material, so that it can be a
    /// position's unique grade-6 answer without being its only move.
    fn gains(self) -> bool {
        matches!(
            self,
            EdgeKind::ProtectedConvert
                | EdgeKind::Convert
                | EdgeKind::SentinelRescue
                | EdgeKind::ZombieLeap
                | EdgeKind::CatapultShot
                | EdgeKind::DragonCapture
        )
    }

    /// The kind of `mv` (a move of `side` on `board`), the most specific that applies.
    pub fn of(board: &Board, side: Side, mv: Move) -> Option<EdgeKind> {
        let target = board[mv.to];
        let endangered = || in_danger(board, side);
        Some(match (mv.kind, mv.action) {
            (Kind::Jester, Action::Swap) if matches!(target, Cell::Piece(p) if p.kind == Kind::General) => {
                EdgeKind::GeneralSwap
            }
            (Kind::Jester, Action::Swap) => EdgeKind::JesterSwap,
            (Kind::Jester, Action::Convert) if is_protected(board, mv.to) => EdgeKind::ProtectedConvert,
            (Kind::Jester, Action::Convert) => EdgeKind::Convert,
            (Kind::Sentinel, _) if endangered() => EdgeKind::SentinelRescue,
            (Kind::Builder, Action::Build) if endangered() => EdgeKind::WallBlock,
            (Kind::Miner, Action::Capture) if target == Cell::Wall => EdgeKind::MinerWall,
            (Kind::Zombie, Action::Leap) => EdgeKind::ZombieLeap,
            (Kind::Catapult, Action::Shoot) => EdgeKind::CatapultShot,
            (Kind::Dragon, Action::Capture) => EdgeKind::DragonCapture,
            _ => return None,
        })
    }
}

/// What a move is, in words for a verdict: "a swap with the General", "a conversion of the
/// Sentinel-protected Dragon on e5", "a Miner move".
pub fn describe(board: &Board, side: Side, mv: Move) -> String {
    let target = board[mv.to];
    let what = || target.piece().map_or_else(|| "piece".to_string(), |p| p.kind.name().to_string());
    match EdgeKind::of(board, side, mv) {
        Some(EdgeKind::GeneralSwap) => "a swap with the General".to_string(),
        Some(EdgeKind::JesterSwap) => format!("a Jester swap with the {}", what()),
        Some(EdgeKind::ProtectedConvert) => {
            format!("a conversion of the Sentinel-protected {} on {}", what(), mv.to)
        }
        Some(EdgeKind::Convert) => format!("a conversion of the {} on {}", what(), mv.to),
        Some(EdgeKind::SentinelRescue) => "a Sentinel move that takes its General out of danger".to_string(),
        Some(EdgeKind::WallBlock) => "a wall that blocks the attack on the General".to_string(),
        Some(EdgeKind::MinerWall) => "a Miner taking a wall".to_string(),
        Some(EdgeKind::ZombieLeap) => format!("a Zombie leap onto the {}", what()),
        Some(EdgeKind::CatapultShot) => format!("a Catapult shot at the {}", what()),
        Some(EdgeKind::DragonCapture) => format!("a Dragon capture of the {} at range", what()),
        None => format!("a {} {}", mv.kind.name(), mv.action.name()),
    }
}

/// What an edge position must make of its chosen move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The only legal move (a grade-4 case).
    Only,
    /// The unique grade-6 answer among several legal moves (the greatest material gain, or the
    /// only winning move).
    Best,
}

impl Goal {
    /// `only` or `best`.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Only => "only",
            Goal::Best => "best",
        }
    }
}

/// The sources fuzzing draws from, as `KIND/GOAL` names: every kind as the only move, and the
/// kinds that gain material also as the unique grade-6 answer.
pub fn source_names() -> Vec<String> {
    let mut out = Vec::new();
    for kind in EdgeKind::ALL {
        out.push(format!("{}/{}", kind.name(), Goal::Only.name()));
        if kind.gains() {
            out.push(format!("{}/{}", kind.name(), Goal::Best.name()));
        }
    }
    out
}

/// Reads a source name made by [`source_names`].
pub fn parse_source(name: &str) -> Option<(EdgeKind, Goal)> {
    let (kind, goal) = name.split_once('/')?;
    let goal = match goal {
        "only" => Goal::Only,
        "best" => Goal::Best,
        _ => return None,
    };
    Some((EdgeKind::from_name(kind)?, goal))
}

/// Plants tried per position before giving up.
const ATTEMPTS: usize = 60;
/// Edits carving may make to one plant.
const MAX_EDITS: usize = 40;

/// A well-formed position with `side` to move in which a move of `kind` is the only legal move
/// (`Goal::Only`) or the unique grade-6 answer (`Goal::Best`), drawn from `seed` alone; `None`
/// when no plant could be carved into one within the budget.
pub fn edge_position<E: Engine>(engine: &E, kind: EdgeKind, goal: Goal, seed: u64) -> Option<(Board, Side)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Half the positions keep their surroundings (a bug may depend on them); the other half are
    // the smallest of a few, each cut down to what the answer needs, so failures start small.
    let small = rng.gen_bool(0.5);
    let wanted = if small { 3 } else { 1 };
    let mut found: Vec<Board> = Vec::new();
    let mut side = Side::White;
    for _ in 0..ATTEMPTS {
        if found.len() >= wanted {
            break;
        }
        // One side for all the positions compared, so that the smallest is a fair pick.
        if found.is_empty() {
            side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
        }
        let Some(board) = plant(&mut rng, kind, side) else { continue };
        if Position::new(board.clone(), side).validate().is_err() {
            continue;
        }
        let pos = engine.load(&board, side);
        let mut wanted: Vec<Move> =
            engine.moves(&pos).into_iter().filter(|&m| EdgeKind::of(&board, side, m) == Some(kind)).collect();
        wanted.shuffle(&mut rng);
        let Some(&target) = wanted.first() else { continue };
        let aim = Aim { engine, side, target, kind, goal };
        if let Some(b) = aim.carve(&board, &mut rng) {
            found.push(if small { aim.minimize(&b, &mut rng) } else { b });
        }
    }
    // The first of the smallest.
    let best = (0..found.len()).min_by_key(|&i| (found[i].occupied_count(), i))?;
    Some((found.swap_remove(best), side))
}

/// What a plant is carved towards: `side`'s move `target`, of `kind`, as the goal's unique
/// answer.
struct Aim<'a, E> {
    engine: &'a E,
    side: Side,
    target: Move,
    kind: EdgeKind,
    goal: Goal,
}

impl<E: Engine> Aim<'_, E> {
    /// How far `board` is from the goal: the rival moves left (0 means done), or `None` when the
    /// chosen move is no longer legal, no longer of its kind, or the position is not well-formed.
    fn rivals(&self, board: &Board) -> Option<usize> {
        let Aim { engine, side, target, kind, goal } = *self;
        if in_danger(board, side.opponent()) || EdgeKind::of(board, side, target) != Some(kind) {
            return None;
        }
        let pos = engine.load(board, side);
        let legal = engine.moves(&pos);
        if !legal.contains(&target) {
            return None;
        }
        let after = |m: Move| engine.play(&pos, m);
        let target_board = engine.board(&after(target));
        match goal {
            Goal::Only => Some(legal.iter().filter(|&&m| engine.board(&after(m)) != target_board).count()),
            Goal::Best => {
                let wins = |m: Move| !engine.has_legal_move(&after(m));
                let advantage = |m: Move| engine.advantage(&after(m), side);
                let best = advantage(target);
                if best <= engine.advantage(&pos, side) {
                    return None;
                }
                let target_wins = wins(target);
                // Rivals: other boards that win, or (when the target does not win) gain as much.
                Some(
                    legal
                    .iter()
                    .filter(|&&m| m != target)
                    .filter(|&&m| wins(m) || (!target_wins && advantage(m) >= best))
                    .filter(|&&m| engine.board(&after(m)) != target_board)
                    .count()
                    // At least two legal moves, or it would be an `Only` position.
                    + usize::from(legal.len() < 2),
                )
            }
        }
    }

    /// Edits `board` until the target move is the goal's unique answer: each time the edit (remove
    /// a piece or wall, or put a wall, on a square a rival move starts from or aims at) that leaves
    /// fewest rivals, if it leaves fewer than before.
    fn carve(&self, board: &Board, rng: &mut ChaCha8Rng) -> Option<Board> {
        let Aim { engine, side, target, .. } = *self;
        let mut current = board.clone();
        let mut score = self.rivals(&current)?;
        for _ in 0..MAX_EDITS {
            if score == 0 {
                return Some(current);
            }
            let pos = engine.load(&current, side);
            let mut squares: Vec<Square> = engine
                .moves(&pos)
                .into_iter()
                .filter(|&m| m != target)
                .flat_map(|m| [m.from, m.to])
                .filter(|&s| s != target.from && s != target.to)
                .collect();
            squares.sort();
            squares.dedup();
            squares.shuffle(rng);
            let mut best: Option<(usize, Board)> = None;
            for sq in squares {
                for cell in [Cell::Empty, Cell::Wall] {
                    let keep = match current[sq] {
                        Cell::Piece(p) => p.kind != Kind::General,
                        c => c != cell,
                    };
                    if !keep || current[sq] == cell {
                        continue;
                    }
                    let mut b = current.clone();
                    b.set(sq, cell);
                    if let Some(s) = self.rivals(&b)
                        && best.as_ref().is_none_or(|(bs, _)| s < *bs)
                    {
                        best = Some((s, b));
                    }
                }
            }
            match best {
                Some((s, b)) if s < score => (score, current) = (s, b),
                _ => return None,
            }
        }
        (score == 0).then_some(current)
    }

    /// Removes pieces (not Generals, not the chosen move's squares) and walls one at a time, in a
    /// random order, as long as the chosen move stays the goal's unique answer.
    fn minimize(&self, board: &Board, rng: &mut ChaCha8Rng) -> Board {
        let target = self.target;
        let mut current = board.clone();
        let mut squares: Vec<Square> = Square::all()
            .filter(|&s| s != target.from && s != target.to)
            .filter(|&s| match current[s] {
                Cell::Piece(p) => p.kind != Kind::General,
                Cell::Wall => true,
                Cell::Empty => false,
            })
            .collect();
        squares.shuffle(rng);
        for sq in squares {
            let mut b = current.clone();
            b.set(sq, Cell::Empty);
            if self.rivals(&b) == Some(0) {
                current = b;
            }
        }
        current
    }
}

/// A square in a corner (half the time) or anywhere: a General in a corner has only three
/// squares to flee to, so few pieces and walls are needed to leave it one move.
fn general_square(rng: &mut ChaCha8Rng) -> Square {
    if rng.gen_bool(0.5) {
        Square::at(pick(rng, &[0, 8]), pick(rng, &[0, 8])).expect("a corner")
    } else {
        random_square(rng)
    }
}

/// The eight jumps of a knight (a Sentinel's strike).
const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The pattern a move of `kind` needs, for `side` (P) against the opponent (E), with both
/// Generals, then a few random pieces and walls; `None` when a square it needed was taken or
/// off the board (the caller draws again).
fn plant(rng: &mut ChaCha8Rng, kind: EdgeKind, side: Side) -> Option<Board> {
    let enemy = side.opponent();
    let mut p = Planter { board: Board::empty() };
    let forward: i8 = if side == Side::White { 1 } else { -1 };
    let at = |sq: Square, (df, dr): (i8, i8), k: i8| sq.offset(df * k, dr * k);
    let capturable = |rng: &mut ChaCha8Rng| pick(rng, &KINDS);
    match kind {
        EdgeKind::GeneralSwap => {
            let g = p.put(Some(general_square(rng)), piece(side, Kind::General))?;
            p.put(at(g, pick(rng, &EIGHT), 1), piece(side, Kind::Jester))?;
            if rng.gen_bool(0.7) {
                // A General in danger that the swap takes away from it: the Jester's own steps
                // leave it there, so they are not rivals.
                unblockable_attack(rng, &mut p, g, enemy)?;
            }
        }
        EdgeKind::JesterSwap => {
            let j = p.put(Some(random_square(rng)), piece(side, Kind::Jester))?;
            let other = pick(
                rng,
                &[Kind::Zombie, Kind::Builder, Kind::Miner, Kind::Sentinel, Kind::Catapult, Kind::Dragon],
            );
            p.put(at(j, pick(rng, &EIGHT), 1), piece(side, other))?;
        }
        EdgeKind::ProtectedConvert | EdgeKind::Convert => {
            if rng.gen_bool(0.5) {
                // The piece to convert is what endangers the General: converting it is the
                // rescue, and the Jester's steps are not.
                let g = p.put(Some(general_square(rng)), piece(side, Kind::General))?;
                let t = attack(rng, &mut p, g, enemy)?;
                p.put(at(t, pick(rng, &EIGHT), 1), piece(side, Kind::Jester))?;
                if kind == EdgeKind::ProtectedConvert {
                    p.put(at(t, pick(rng, &ORTHOGONAL), 1), piece(enemy, Kind::Sentinel))?;
                }
            } else {
                let j = p.put(Some(random_square(rng)), piece(side, Kind::Jester))?;
                let t = p.put(at(j, pick(rng, &EIGHT), 1), piece(enemy, capturable(rng)))?;
                if kind == EdgeKind::ProtectedConvert {
                    p.put(at(t, pick(rng, &ORTHOGONAL), 1), piece(enemy, Kind::Sentinel))?;
                }
            }
        }
        EdgeKind::SentinelRescue => {
            let g = p.put(Some(general_square(rng)), piece(side, Kind::General))?;
            attack(rng, &mut p, g, enemy)?;
            let beside = at(g, pick(rng, &ORTHOGONAL), 1)?;
            if !p.board[beside].is_empty() {
                return None;
            }
            p.put(at(beside, pick(rng, &KNIGHT), 1), piece(side, Kind::Sentinel))?;
            if rng.gen_bool(0.5) {
                // Something to capture where the Sentinel lands: then the rescue also gains.
                p.put(Some(beside), piece(enemy, capturable(rng)))?;
            }
        }
        EdgeKind::WallBlock => {
            // The assignment's own example: the Builder cannot step into the line because it is
            // pinned on another, so it builds.
            let g = p.put(Some(random_square(rng)), piece(side, Kind::General))?;
            let i = rng.gen_range(0..8);
            let (d1, d2) = (EIGHT[i], EIGHT[(i + if rng.gen_bool(0.5) { 1 } else { 7 }) % 8]);
            let attacker = |rng: &mut ChaCha8Rng, d: (i8, i8)| {
                if d.0 == 0 || d.1 == 0 { pick(rng, &[Kind::Dragon, Kind::Miner]) } else { Kind::Dragon }
            };
            let a1 = attacker(rng, d1);
            p.put(at(g, d1, rng.gen_range(2..=4)), piece(enemy, a1))?;
            p.put(at(g, d2, 1), piece(side, Kind::Builder))?;
            if rng.gen_bool(0.7) {
                let a2 = attacker(rng, d2);
                p.put(at(g, d2, rng.gen_range(3..=5)), piece(enemy, a2))?;
            }
        }
        EdgeKind::MinerWall => {
            // In a corner or on an edge, so that few directions need closing.
            let corner = rng.gen_bool(0.5);
            let m = if corner {
                Square::at(pick(rng, &[0, 8]), pick(rng, &[0, 8]))?
            } else {
                let along = rng.gen_range(0..9);
                let edge = pick(rng, &[0, 8]);
                if rng.gen_bool(0.5) { Square::at(along, edge)? } else { Square::at(edge, along)? }
            };
            p.put(Some(m), piece(side, Kind::Miner))?;
            let mut dirs: Vec<(i8, i8)> =
                ORTHOGONAL.iter().copied().filter(|&d| at(m, d, 1).is_some()).collect();
            dirs.shuffle(rng);
            p.put(at(m, dirs[0], rng.gen_range(1..=2)), Cell::Wall)?;
            if let Some(&d) = dirs.get(1) {
                p.put(at(m, d, 1), piece(side, Kind::General))?;
            }
            for &d in dirs.iter().skip(2) {
                p.put(at(m, d, 1), piece(side, capturable(rng)));
            }
        }
        EdgeKind::ZombieLeap => {
            let z = p.put(Some(random_square(rng)), piece(side, Kind::Zombie))?;
            p.put(z.offset(2 * rng.gen_range(-1..=1), 2 * forward), piece(enemy, capturable(rng)))?;
        }
        EdgeKind::CatapultShot => {
            let c = p.put(Some(random_square(rng)), piece(side, Kind::Catapult))?;
            let offsets = [(3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (2, -2), (-2, 2), (-2, -2)];
            p.put(at(c, pick(rng, &offsets), 1), piece(enemy, capturable(rng)))?;
        }
        EdgeKind::DragonCapture => {
            let d = p.put(Some(random_square(rng)), piece(side, Kind::Dragon))?;
            let dir = pick(rng, &EIGHT);
            if rng.gen_bool(0.5) {
                // A Dragon may always slide towards its target instead, so for the capture to be
                // the only move the target must be what endangers the General: a Catapult
                // aiming at it, or a Sentinel a knight's jump away.
                let t = p.put(at(d, dir, 2), piece(enemy, pick(rng, &[Kind::Catapult, Kind::Sentinel])))?;
                let offsets: &[(i8, i8)] = if p.board[t] == piece(enemy, Kind::Catapult) {
                    &[(3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (2, -2), (-2, 2), (-2, -2)]
                } else {
                    &KNIGHT
                };
                p.put(at(t, pick(rng, offsets), 1), piece(side, Kind::General))?;
            } else {
                p.put(at(d, dir, rng.gen_range(2..=5)), piece(enemy, capturable(rng)))?;
            }
        }
    }
    p.finish(rng, side, [2, 3, 3])
}

/// Puts an enemy piece that attacks the General on `g`: a Dragon at range on a line, a Miner on
/// a rank or file, a Catapult on one of its target offsets, or a Sentinel a knight's jump away.
fn attack(rng: &mut ChaCha8Rng, p: &mut Planter, g: Square, enemy: Side) -> Option<Square> {
    let which = rng_choice(rng, 4);
    attack_with(rng, p, g, enemy, which)
}

/// Puts an enemy piece that attacks the General on `g` and that no piece can block: a Catapult
/// or a Sentinel (both strike over anything). Then only the General's escapes and captures or
/// conversions of the attacker end the danger, so few rival moves need removing.
fn unblockable_attack(rng: &mut ChaCha8Rng, p: &mut Planter, g: Square, enemy: Side) -> Option<Square> {
    let which = 2 + rng_choice(rng, 2);
    attack_with(rng, p, g, enemy, which)
}

fn rng_choice(rng: &mut ChaCha8Rng, n: usize) -> usize {
    rng.gen_range(0..n)
}

fn attack_with(
    rng: &mut ChaCha8Rng,
    p: &mut Planter,
    g: Square,
    enemy: Side,
    which: usize,
) -> Option<Square> {
    match which {
        3 => {
            let (df, dr) = pick(rng, &KNIGHT);
            p.put(g.offset(df, dr), piece(enemy, Kind::Sentinel))
        }
        0 => {
            let d = pick(rng, &EIGHT);
            let k = rng.gen_range(2..=4);
            p.put(g.offset(d.0 * k, d.1 * k), piece(enemy, Kind::Dragon))
        }
        1 => {
            let d = pick(rng, &ORTHOGONAL);
            let k = rng.gen_range(2..=5);
            p.put(g.offset(d.0 * k, d.1 * k), piece(enemy, Kind::Miner))
        }
        _ => {
            let offsets = [(3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (2, -2), (-2, 2), (-2, -2)];
            let (df, dr) = pick(rng, &offsets);
            p.put(g.offset(df, dr), piece(enemy, Kind::Catapult))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::grades::{Aggregation, grade_report};
    use crate::advance::{Fast, Reference};

    #[test]
    fn every_source_gives_positions_whose_answer_is_of_its_kind() {
        for name in source_names() {
            let (kind, goal) = parse_source(&name).unwrap();
            let mut found = 0;
            for seed in 0..6 {
                let Some((board, side)) = edge_position(&Fast, kind, goal, seed) else { continue };
                found += 1;
                assert!(Position::new(board.clone(), side).validate().is_ok(), "{name}: {board:?}");
                let pos = Reference.load(&board, side);
                let report = grade_report(&Reference, &pos);
                let answers = match goal {
                    Goal::Only => &report.legal,
                    Goal::Best => &report.grade6,
                };
                assert!(
                    answers.iter().all(|&m| EdgeKind::of(&board, side, m) == Some(kind)),
                    "{name}: {board:?}"
                );
                let boards: std::collections::HashSet<Board> =
                    answers.iter().map(|&m| crate::advance::reference::apply(&board, m)).collect();
                assert_eq!(boards.len(), 1, "{name}: {board:?} {answers:?}");
                if goal == Goal::Best {
                    assert!(report.legal.len() >= 2, "{name}");
                    assert_eq!(report.expected(6, Aggregation::Min).len(), answers.len());
                }
            }
            assert!(found >= 3, "{name}: only {found} of 6 seeds gave a position");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_position() {
        for name in source_names() {
            let (kind, goal) = parse_source(&name).unwrap();
            assert_eq!(edge_position(&Fast, kind, goal, 7), edge_position(&Fast, kind, goal, 7), "{name}");
        }
    }
}
