//! Counting legal moves without listing them: the last ply of perft.
//!
//! When the side to move is calm (one General, not in danger: see [`Safety`]), every move is
//! legal except the few that [`Safety`] marks for testing, so most pieces contribute the size of
//! a target set, and all Zombies together contribute a handful of shifted sets. The pieces on
//! risky squares (the General, screens, a lone protecting Sentinel) are counted one target at a
//! time. Otherwise every piece is counted that way.
//!
//! [`Safety`]: super::safety::Safety

use super::attacks::{dragon_rays, miner_rays};
use super::bitboard::Bb;
use super::movegen::Generator;
use super::tables::{ADJACENT, CATAPULT, KNIGHT, ORTHOGONAL};
use crate::Side;
use crate::advance::notation::Action;
use crate::advance::piece::Kind;

impl Generator<'_> {
    /// The number of legal moves.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        let pos = self.pos;
        let own = pos.side(self.reach.us);
        if !self.safety.is_calm() {
            return own
                .squares()
                .map(|from| {
                    let kind = pos.kind_at(from).expect("own squares hold pieces");
                    self.count_piece(kind, from) as u64
                })
                .sum();
        }
        let risky = own & self.safety.risky_from();
        let calm = own & !risky;
        let mut total = 0;
        for from in risky.squares() {
            let kind = pos.kind_at(from).expect("own squares hold pieces");
            total += self.count_piece(kind, from);
        }
        total += self.count_zombies(calm & pos.kind(Kind::Zombie));
        let r = &self.reach;
        let landing = r.empty | r.capturable;
        for from in (calm & pos.kind(Kind::Builder)).squares() {
            let adjacent = ADJACENT[from];
            total += (adjacent & landing).count() + (adjacent & r.empty).count();
        }
        for from in (calm & pos.kind(Kind::Jester)).squares() {
            let adjacent = ADJACENT[from];
            let swaps = adjacent & r.swappable;
            let risky_swaps = swaps & self.safety.risky_swaps();
            total += (adjacent & (r.empty | r.convertible) | swaps & !risky_swaps).count();
            total += self.tested(Kind::Jester, from, Action::Swap, risky_swaps);
        }
        for from in (calm & pos.kind(Kind::Miner)).squares() {
            total += (miner_rays(from, r.occ) & (r.empty | r.minable)).count();
        }
        for from in (calm & pos.kind(Kind::Sentinel)).squares() {
            total += (KNIGHT[from] & landing).count();
        }
        for from in (calm & pos.kind(Kind::Catapult)).squares() {
            let shots = CATAPULT[from] & r.capturable;
            let risky_shots = shots & self.safety.risky_shots();
            total += (ORTHOGONAL[from] & r.empty | shots & !risky_shots).count();
            total += self.tested(Kind::Catapult, from, Action::Shoot, risky_shots);
        }
        for from in (calm & pos.kind(Kind::Dragon)).squares() {
            let rays = dragon_rays(from, r.occ);
            total += (rays & (r.empty | r.capturable & !ADJACENT[from])).count();
        }
        total as u64
    }

    /// The number of legal moves of the calm Zombies on `zombies`, all at once: each of the
    /// three forward directions shifts the whole set, so every (Zombie, direction) pair lands on
    /// its own square and set sizes count moves exactly.
    #[inline(always)]
    fn count_zombies(&self, zombies: Bb) -> u32 {
        if zombies.is_empty() {
            return 0;
        }
        let r = &self.reach;
        let forward = |set: Bb| match r.us {
            Side::White => set.north(),
            Side::Black => set.south(),
        };
        let ahead = forward(zombies);
        let landing = r.empty | r.capturable;
        let mut total = 0;
        for (near, step) in
            [(ahead.west(), Bb::west as fn(Bb) -> Bb), (ahead, |set| set), (ahead.east(), Bb::east)]
        {
            let leaps = step(forward(near & r.empty)) & r.capturable;
            total += (near & landing).count() + leaps.count();
        }
        total
    }

    /// The number of legal moves among `targets` of the `kind` piece on `from` doing `action`,
    /// each one tested.
    #[inline(always)]
    fn tested(&self, kind: Kind, from: usize, action: Action, targets: Bb) -> u32 {
        if targets.is_empty() {
            return 0;
        }
        self.safety.legal(self.pos, &self.enemy, kind, from, action, targets).count()
    }
}
