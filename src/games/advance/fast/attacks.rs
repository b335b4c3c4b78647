//! Where pieces strike: slider rays that stop at the first occupied square, and the test at the
//! heart of danger, "does some piece of this army strike that square?".
//!
//! Strikes follow the reference's `reach`: a piece strikes an occupied square it could take by
//! the shape of its move, whoever stands there. Jesters strike nothing, a Dragon never strikes
//! an adjacent square, and a Zombie leap needs the square it jumps over to be empty.

use super::bitboard::Bb;
use super::position::Pos;
use super::tables::{ADJACENT, CATAPULT, KNIGHT, LINES, RAYS, ZOMBIE_LEAPS, ZOMBIE_NEAR, is_orthogonal};
use crate::Side;
use crate::advance::piece::Kind;

/// The first occupied square from `sq` in direction `d`, if any.
#[inline(always)]
pub fn first_blocker(d: usize, sq: usize, occ: Bb) -> Option<usize> {
    let blockers = RAYS[d][sq] & occ;
    if blockers.is_empty() {
        None
    } else if d < 4 {
        Some(blockers.lowest())
    } else {
        Some(blockers.highest())
    }
}

/// The squares a slider on `sq` reaches in direction `d`: the empty squares up to the first
/// occupied one, and that one too.
#[inline(always)]
fn ray(d: usize, sq: usize, occ: Bb) -> Bb {
    let ray = RAYS[d][sq];
    match first_blocker(d, sq, occ) {
        Some(b) => ray ^ RAYS[d][b],
        None => ray,
    }
}

/// What a Miner on `sq` reaches: 4 orthogonal rays.
#[inline(always)]
pub fn miner_rays(sq: usize, occ: Bb) -> Bb {
    ray(0, sq, occ) | ray(1, sq, occ) | ray(4, sq, occ) | ray(5, sq, occ)
}

/// What a Dragon on `sq` reaches: 8 rays (adjacent blockers included; the caller drops them
/// from captures).
#[inline(always)]
pub fn dragon_rays(sq: usize, occ: Bb) -> Bb {
    miner_rays(sq, occ) | ray(2, sq, occ) | ray(3, sq, occ) | ray(6, sq, occ) | ray(7, sq, occ)
}

/// The pieces of one side, sorted by how they strike. Danger tests take an army rather than a
/// position so that a test can drop a piece a move would capture without building the position
/// after the move.
#[derive(Clone, Copy, Debug)]
pub struct Army {
    /// The side these pieces belong to.
    pub side: Side,
    pub zombies: Bb,
    /// Builders and Generals: both strike the 8 adjacent squares.
    pub adjacent: Bb,
    pub sentinels: Bb,
    pub catapults: Bb,
    pub miners: Bb,
    pub dragons: Bb,
}

impl Army {
    /// `side`'s striking pieces in `pos`.
    #[inline(always)]
    pub fn of(pos: &Pos, side: Side) -> Army {
        Army {
            side,
            zombies: pos.pieces(side, Kind::Zombie),
            adjacent: pos.pieces(side, Kind::Builder) | pos.pieces(side, Kind::General),
            sentinels: pos.pieces(side, Kind::Sentinel),
            catapults: pos.pieces(side, Kind::Catapult),
            miners: pos.pieces(side, Kind::Miner),
            dragons: pos.pieces(side, Kind::Dragon),
        }
    }

    /// The same army without whatever stood on the squares of `gone`.
    #[inline(always)]
    pub fn without(self, gone: Bb) -> Army {
        let keep = !gone;
        Army {
            side: self.side,
            zombies: self.zombies & keep,
            adjacent: self.adjacent & keep,
            sentinels: self.sentinels & keep,
            catapults: self.catapults & keep,
            miners: self.miners & keep,
            dragons: self.dragons & keep,
        }
    }

    /// True when some piece of the army strikes `sq`, with `occ` the occupied squares (`sq`
    /// among them).
    #[inline]
    pub fn strikes(&self, sq: usize, occ: Bb) -> bool {
        // A Zombie strikes `sq` from where the other side's Zombie would move to.
        let back = 1 - self.side.index();
        if (ADJACENT[sq] & self.adjacent).any()
            || (KNIGHT[sq] & self.sentinels).any()
            || (CATAPULT[sq] & self.catapults).any()
            || (ZOMBIE_NEAR[back][sq] & self.zombies).any()
        {
            return true;
        }
        if self.zombies.any() {
            for leap in &ZOMBIE_LEAPS[back][sq] {
                if (leap.onto & self.zombies).any() && (leap.over & occ).is_empty() {
                    return true;
                }
            }
        }
        if (LINES[sq] & (self.miners | self.dragons)).any() {
            return self.slider_strikers(sq, occ).any();
        }
        false
    }

    /// Every piece of the army that strikes `sq`.
    pub fn strikers(&self, sq: usize, occ: Bb) -> Bb {
        let back = 1 - self.side.index();
        let mut found = (ADJACENT[sq] & self.adjacent)
            | (KNIGHT[sq] & self.sentinels)
            | (CATAPULT[sq] & self.catapults)
            | (ZOMBIE_NEAR[back][sq] & self.zombies);
        for leap in &ZOMBIE_LEAPS[back][sq] {
            if (leap.over & occ).is_empty() {
                found |= leap.onto & self.zombies;
            }
        }
        found | self.slider_strikers(sq, occ)
    }

    /// The Miners and Dragons that strike `sq`: each is the first occupied square of its ray
    /// from `sq`, and a Dragon must not be adjacent.
    #[inline]
    fn slider_strikers(&self, sq: usize, occ: Bb) -> Bb {
        let mut found = Bb::EMPTY;
        let far_dragons = self.dragons & !ADJACENT[sq];
        for (d, rays) in RAYS.iter().enumerate() {
            let sliders = if is_orthogonal(d) { self.miners | far_dragons } else { far_dragons };
            if (rays[sq] & sliders).any()
                && let Some(b) = first_blocker(d, sq, occ)
            {
                found |= sliders & Bb::square(b);
            }
        }
        found
    }

    /// The squares whose emptying would let a piece of the army strike `sq`: the first occupied
    /// square of a ray whose second is a Miner or Dragon lined up on `sq`, and the square a
    /// Zombie would leap over onto `sq`. (Only these can open a strike: emptying a square never
    /// adds a piece, and only slider rays and leaps look at what stands in between.)
    pub fn screens(&self, sq: usize, occ: Bb) -> Bb {
        let back = 1 - self.side.index();
        let mut found = Bb::EMPTY;
        for leap in &ZOMBIE_LEAPS[back][sq] {
            if (leap.onto & self.zombies).any() {
                found |= leap.over & occ;
            }
        }
        // Every slider square of a ray is at least 2 from `sq` behind a screen, so the Dragon's
        // "not adjacent" rule cannot save the line.
        if (LINES[sq] & (self.miners | self.dragons)).is_empty() {
            return found;
        }
        for (d, rays) in RAYS.iter().enumerate() {
            let sliders = if is_orthogonal(d) { self.miners | self.dragons } else { self.dragons };
            if (rays[sq] & sliders).is_empty() {
                continue;
            }
            if let Some(screen) = first_blocker(d, sq, occ)
                && let Some(behind) = first_blocker(d, screen, occ)
                && sliders.has(behind)
            {
                found |= Bb::square(screen);
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::board::Board;

    #[test]
    fn miner_rays_stop_on_the_first_occupied_square() {
        let board = Board::from_text(
            "....g....\n.........\n.........\n....#....\n.........\n.........\n....M..#.\n.........\n....G....\n",
        )
        .unwrap();
        let pos = Pos::from_board(&board, Side::White);
        let e3 = 2 * 9 + 4;
        let r = miner_rays(e3, pos.occupied());
        assert!(r.has(5 * 9 + 4), "the wall on e6 is reached");
        assert!(!r.has(6 * 9 + 4), "nothing beyond it");
        assert!(r.has(2 * 9 + 7) && !r.has(2 * 9 + 8));
        assert!(r.has(4) && r.has(9 + 4), "down to the own General");
    }
}
