//! Move generation: for each piece, the squares it reaches with each action, as sets; then
//! [`Safety`] keeps the legal ones.
//!
//! Working with one set per (piece, action) lets perft count most moves with a popcount, and
//! listing stays in [`Move`]'s order for free: pieces are visited by rising square, and within a
//! piece the targets are merged by rising square, actions in their declared order.

use super::attacks::{Army, dragon_rays, miner_rays};
use super::bitboard::Bb;
use super::position::Pos;
use super::safety::Safety;
use super::tables::{ADJACENT, CATAPULT, KNIGHT, ORTHOGONAL, ZOMBIE_LEAPS, ZOMBIE_NEAR};
use crate::Side;
use crate::advance::notation::{Action, Move};
use crate::advance::piece::Kind;
use crate::advance::square::Square;

/// Target sets of one piece, indexed by `Action as usize`.
pub type Targets = [Bb; 7];

const MOVE: usize = Action::Move as usize;
const CAPTURE: usize = Action::Capture as usize;
const LEAP: usize = Action::Leap as usize;
const BUILD: usize = Action::Build as usize;
const SWAP: usize = Action::Swap as usize;
const CONVERT: usize = Action::Convert as usize;
const SHOOT: usize = Action::Shoot as usize;

/// The squares the side to move acts on, by what it may do there.
#[derive(Clone, Copy, Debug)]
pub struct Reachable {
    pub(super) us: Side,
    pub(super) occ: Bb,
    pub(super) empty: Bb,
    /// Enemy pieces that are neither Generals nor protected by a Sentinel.
    pub(super) capturable: Bb,
    /// What a Miner may take: capturable pieces and walls.
    pub(super) minable: Bb,
    /// Enemy pieces a Jester may convert: any but a General (protection does not stop it).
    pub(super) convertible: Bb,
    /// Own pieces a Jester may swap with: any but a Jester.
    pub(super) swappable: Bb,
}

impl Reachable {
    /// The sets for the side to move in `pos`.
    #[inline]
    pub fn of(pos: &Pos) -> Reachable {
        let us = pos.turn();
        let them = us.opponent();
        let occ = pos.occupied();
        let enemy = pos.side(them);
        let protected = pos.pieces(them, Kind::Sentinel).orthogonal_neighbours();
        let convertible = enemy & !pos.kind(Kind::General);
        let capturable = convertible & !protected;
        Reachable {
            us,
            occ,
            empty: !occ,
            capturable,
            minable: capturable | pos.walls(),
            convertible,
            swappable: pos.side(us) & !pos.kind(Kind::Jester),
        }
    }

    /// What the `kind` piece on `from` can do by its own rules, before the danger test.
    #[inline(always)]
    pub fn targets(&self, kind: Kind, from: usize) -> Targets {
        let mut t = [Bb::EMPTY; 7];
        match kind {
            Kind::Zombie => {
                let near = ZOMBIE_NEAR[self.us.index()][from];
                t[MOVE] = near & self.empty;
                t[CAPTURE] = near & self.capturable;
                for leap in &ZOMBIE_LEAPS[self.us.index()][from] {
                    if (leap.over & self.empty).any() {
                        t[LEAP] |= leap.onto & self.capturable;
                    }
                }
            }
            Kind::Builder => {
                let adj = ADJACENT[from];
                t[MOVE] = adj & self.empty;
                t[BUILD] = t[MOVE];
                t[CAPTURE] = adj & self.capturable;
            }
            Kind::Jester => {
                let adj = ADJACENT[from];
                t[MOVE] = adj & self.empty;
                t[SWAP] = adj & self.swappable;
                t[CONVERT] = adj & self.convertible;
            }
            Kind::Miner => {
                let rays = miner_rays(from, self.occ);
                t[MOVE] = rays & self.empty;
                t[CAPTURE] = rays & self.minable;
            }
            Kind::Sentinel => {
                t[MOVE] = KNIGHT[from] & self.empty;
                t[CAPTURE] = KNIGHT[from] & self.capturable;
            }
            Kind::Catapult => {
                t[MOVE] = ORTHOGONAL[from] & self.empty;
                t[SHOOT] = CATAPULT[from] & self.capturable;
            }
            Kind::Dragon => {
                let rays = dragon_rays(from, self.occ);
                t[MOVE] = rays & self.empty;
                t[CAPTURE] = rays & self.capturable & !ADJACENT[from];
            }
            Kind::General => {
                let adj = ADJACENT[from];
                t[MOVE] = adj & self.empty;
                t[CAPTURE] = adj & self.capturable;
            }
        }
        t
    }
}

/// Everything needed to list or count the legal moves of one position.
pub struct Generator<'a> {
    pub(super) pos: &'a Pos,
    pub(super) reach: Reachable,
    pub(super) enemy: Army,
    pub(super) safety: Safety,
}

impl<'a> Generator<'a> {
    /// Looks at `pos` once: what its pieces reach, the enemy army, and which moves need testing.
    #[inline]
    pub fn new(pos: &'a Pos) -> Generator<'a> {
        let enemy = Army::of(pos, pos.turn().opponent());
        Generator { pos, reach: Reachable::of(pos), enemy, safety: Safety::analyse(pos, &enemy) }
    }

    /// The legal moves of the `kind` piece on `from`, as target sets.
    #[inline(always)]
    pub(super) fn legal_targets(&self, kind: Kind, from: usize) -> Targets {
        let mut t = self.reach.targets(kind, from);
        for (action, set) in Action::ALL.into_iter().zip(t.iter_mut()) {
            if set.any() {
                *set = self.safety.legal(self.pos, &self.enemy, kind, from, action, *set);
            }
        }
        t
    }

    /// The number of legal moves of the `kind` piece on `from`, testing them one by one.
    #[inline(always)]
    pub(super) fn count_piece(&self, kind: Kind, from: usize) -> u32 {
        let t = self.legal_targets(kind, from);
        t.iter().map(|set| set.count()).sum()
    }

    /// True when there is a legal move (stops at the first piece that has one).
    pub fn any(&self) -> bool {
        self.pos.side(self.reach.us).squares().any(|from| {
            let kind = self.pos.kind_at(from).expect("own squares hold pieces");
            self.legal_targets(kind, from).iter().any(|set| set.any())
        })
    }

    /// The greatest material gain of a legal move, or `None` when there is no legal move. Only
    /// the moves that take or turn an enemy piece gain anything (a capture, leap or shot gains
    /// the piece's value, a conversion twice that: the opponent loses it and the mover gains it;
    /// a Miner taking a wall gains nothing), so only those are tested for legality, from the
    /// most valuable target down; the rest only matter as "some legal move exists".
    pub fn best_gain(&self) -> Option<i32> {
        let mut best: Option<i32> = None;
        let them = self.reach.us.opponent();
        for from in self.pos.side(self.reach.us).squares() {
            let kind = self.pos.kind_at(from).expect("own squares hold pieces");
            let t = self.reach.targets(kind, from);
            for (action, times) in [(CAPTURE, 1), (LEAP, 1), (SHOOT, 1), (CONVERT, 2)] {
                let targets = t[action] & self.pos.side(them);
                if targets.is_empty() {
                    continue;
                }
                let legal =
                    self.safety.legal(self.pos, &self.enemy, kind, from, Action::ALL[action], targets);
                for to in legal.squares() {
                    let value = self.pos.kind_at(to).map_or(0, |k| k.value()) * times;
                    best = Some(best.map_or(value, |b| b.max(value)));
                }
            }
        }
        // Walls a Miner may take gain nothing; any other legal move gains nothing too.
        best.or_else(|| self.any().then_some(0))
    }

    /// Appends the legal moves to `out`, in [`Move`]'s order.
    pub fn list(&self, out: &mut Vec<Move>) {
        for from in self.pos.side(self.reach.us).squares() {
            let kind = self.pos.kind_at(from).expect("own squares hold pieces");
            let from_square = Square::from_index(from);
            let push = |out: &mut Vec<Move>, action, to| {
                out.push(Move::new(kind, from_square, action, Square::from_index(to)));
            };
            // A piece rarely has more than two actions with targets: merge only those.
            let mut used = [(Action::Move, Bb::EMPTY); 7];
            let mut n = 0;
            for (action, set) in Action::ALL.into_iter().zip(self.legal_targets(kind, from)) {
                if set.any() {
                    used[n] = (action, set);
                    n += 1;
                }
            }
            let used = &used[..n];
            if let [(action, set)] = used {
                set.squares().for_each(|to| push(out, *action, to));
                continue;
            }
            let all = used.iter().fold(Bb::EMPTY, |acc, &(_, set)| acc | set);
            for to in all.squares() {
                for &(action, set) in used {
                    if set.has(to) {
                        push(out, action, to);
                    }
                }
            }
        }
    }
}

/// Whether `mv` is a legal move in `pos`, by looking only at the piece on its from-square.
pub fn is_legal(pos: &Pos, mv: Move) -> bool {
    let (from, to) = (mv.from.index(), mv.to.index());
    if pos.kind_at(from) != Some(mv.kind) || !pos.side(pos.turn()).has(from) {
        return false;
    }
    let reach = Reachable::of(pos);
    if !reach.targets(mv.kind, from)[mv.action as usize].has(to) {
        return false;
    }
    let enemy = Army::of(pos, pos.turn().opponent());
    super::safety::safe_after(pos, &enemy, mv.kind, from, mv.action, to)
}
