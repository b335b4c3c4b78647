//! Legality: a move is legal when the mover's General is not in danger after it.
//!
//! [`safe_after`] answers that exactly for one move, without building the position after it:
//! it works out the occupied squares, the mover's Generals and Sentinels, and the enemy pieces
//! left after the move, and asks whether an enemy piece strikes an unprotected General.
//!
//! [`Safety`] avoids even that for most moves. It looks at the position once and sorts moves
//! into "legal without looking", "must be tested" and (when in danger) "illegal". The reasoning,
//! for a side with exactly one General on `g`:
//! - A move changes the enemy's strikes only by emptying squares (the from-square of a moving
//!   piece, the target of a shot) or by removing an enemy piece (capture, shot, conversion).
//!   Removing an enemy piece never adds a strike; emptying a square adds one only if it is a
//!   *screen*: the first occupied square of a ray from `g` with a Miner or Dragon behind it, or
//!   the square an enemy Zombie would leap over onto `g`. Filling a square only blocks.
//! - Protection changes only when a Sentinel moves next to or away from the General (by moving,
//!   by a Jester swap, or by a conversion), or when the General itself moves.
//!
//! So when the General is protected, only General moves, moves of a lone protecting Sentinel and
//! Jester swaps with either need testing. When it is neither protected nor in danger, only
//! General moves, Jester swaps with the General, moves off a screen and shots at a screen do.
//! When it is in danger, a move can only help by moving the General, swapping, taking or
//! converting a striking piece, filling a square between a striker and the General, or bringing
//! a Sentinel next to it: everything else is illegal, and those few are tested. A side with no
//! General or several is rare (only invalid positions) and simply tests every move.

use super::attacks::Army;
use super::bitboard::Bb;
use super::position::Pos;
use super::tables::{ORTHOGONAL, RAYS};
use crate::Side;
use crate::advance::notation::Action;
use crate::advance::piece::Kind;

/// How the moves of one position are sorted into legal, illegal and to be tested.
#[derive(Clone, Copy, Debug)]
pub struct Safety {
    /// Moves (Move, Capture, Leap) of the piece on one of these squares are all tested.
    risky_from: Bb,
    /// For each action, the targets whose moves are tested.
    risky_to: [Bb; 7],
    /// The targets of untested moves that are legal: everything, or nothing when in danger.
    safe_to: Bb,
}

impl Safety {
    /// Sorts the moves of the side to move in `pos`; `enemy` is the other side's army.
    pub fn analyse(pos: &Pos, enemy: &Army) -> Safety {
        let us = pos.turn();
        let generals = pos.pieces(us, Kind::General);
        if !generals.is_single() {
            return Safety { risky_from: Bb::ALL, risky_to: [Bb::ALL; 7], safe_to: Bb::EMPTY };
        }
        let g = generals.lowest();
        let protectors = ORTHOGONAL[g] & pos.pieces(us, Kind::Sentinel);
        let mut risky_to = [Bb::EMPTY; 7];
        if protectors.any() {
            // Moving one of two protectors still leaves the other.
            let lone = if protectors.is_single() { protectors } else { Bb::EMPTY };
            risky_to[Action::Swap as usize] = generals | lone;
            return Safety { risky_from: generals | lone, risky_to, safe_to: Bb::ALL };
        }
        let occ = pos.occupied();
        let strikers = enemy.strikers(g, occ);
        if strikers.is_empty() {
            let screens = enemy.screens(g, occ);
            risky_to[Action::Swap as usize] = generals;
            risky_to[Action::Shoot as usize] = screens;
            return Safety { risky_from: generals | screens, risky_to, safe_to: Bb::ALL };
        }
        let helpful = strikers | between(g, strikers, occ) | ORTHOGONAL[g];
        risky_to = [helpful; 7];
        risky_to[Action::Swap as usize] = Bb::ALL;
        Safety { risky_from: generals, risky_to, safe_to: Bb::EMPTY }
    }

    /// True when every move is legal unless it is tested, and the only tested moves are those
    /// of the pieces on [`Safety::risky_from`], swaps onto [`Safety::risky_swaps`] and shots
    /// at [`Safety::risky_shots`]. (False when in danger, or without exactly one General.)
    #[inline(always)]
    pub fn is_calm(&self) -> bool {
        self.safe_to == Bb::ALL
    }

    /// The squares of the pieces whose Move, Capture and Leap are all tested.
    #[inline(always)]
    pub fn risky_from(&self) -> Bb {
        self.risky_from
    }

    /// The targets of Jester swaps that are tested.
    #[inline(always)]
    pub fn risky_swaps(&self) -> Bb {
        self.risky_to[Action::Swap as usize]
    }

    /// The targets of Catapult shots that are tested.
    #[inline(always)]
    pub fn risky_shots(&self) -> Bb {
        self.risky_to[Action::Shoot as usize]
    }

    /// The legal moves among the `targets` of the `kind` piece on `from` doing `action`.
    #[inline(always)]
    pub fn legal(&self, pos: &Pos, enemy: &Army, kind: Kind, from: usize, action: Action, targets: Bb) -> Bb {
        let moving = matches!(action, Action::Move | Action::Capture | Action::Leap);
        let risky = if moving && self.risky_from.has(from) {
            targets
        } else {
            targets & self.risky_to[action as usize]
        };
        let mut legal = targets & !risky & self.safe_to;
        for to in risky.squares() {
            if safe_after(pos, enemy, kind, from, action, to) {
                legal |= Bb::square(to);
            }
        }
        legal
    }
}

/// The squares strictly between `g` and those `strikers` that are the first occupied square of
/// a ray from `g` (the only strikers a piece put in between can stop).
fn between(g: usize, strikers: Bb, occ: Bb) -> Bb {
    let mut found = Bb::EMPTY;
    for (d, rays) in RAYS.iter().enumerate() {
        let ray = rays[g];
        if (ray & strikers).is_empty() {
            continue;
        }
        let blockers = ray & occ;
        let first = if d < 4 { blockers.lowest() } else { blockers.highest() };
        if strikers.has(first) {
            found |= ray & !rays[first] & !Bb::square(first);
        }
    }
    found
}

/// True when the side to move's Generals are all out of danger after the `kind` piece on
/// `from` does `action` to `to`. `enemy` is the other side's army in `pos`.
pub fn safe_after(pos: &Pos, enemy: &Army, kind: Kind, from: usize, action: Action, to: usize) -> bool {
    let us = pos.turn();
    let (f, t) = (Bb::square(from), Bb::square(to));
    let mut occ = pos.occupied();
    let mut generals = pos.pieces(us, Kind::General);
    let mut sentinels = pos.pieces(us, Kind::Sentinel);
    let mut gone = Bb::EMPTY;
    match action {
        Action::Move => {
            occ ^= f | t;
            carry(&mut generals, &mut sentinels, Some(kind), f | t);
        }
        Action::Capture | Action::Leap => {
            occ ^= f;
            gone = t;
            carry(&mut generals, &mut sentinels, Some(kind), f | t);
        }
        Action::Build => occ |= t,
        // The Jester and the piece on `to` trade squares: only a General or Sentinel matters.
        Action::Swap => carry(&mut generals, &mut sentinels, pos.kind_at(to), f | t),
        Action::Convert => {
            gone = t;
            if pos.kind_at(to) == Some(Kind::Sentinel) {
                sentinels |= t;
            }
        }
        Action::Shoot => {
            occ ^= t;
            gone = t;
        }
    }
    let enemy = if gone.any() { enemy.without(gone) } else { *enemy };
    generals.squares().all(|g| (ORTHOGONAL[g] & sentinels).any() || !enemy.strikes(g, occ))
}

/// Moves a General or Sentinel between the two squares of `squares` in the sets that track them.
#[inline(always)]
fn carry(generals: &mut Bb, sentinels: &mut Bb, kind: Option<Kind>, squares: Bb) {
    match kind {
        Some(Kind::General) => *generals ^= squares,
        Some(Kind::Sentinel) => *sentinels ^= squares,
        _ => {}
    }
}

/// True when a General of `side` is in danger in `pos` (never, for a side without a General).
pub fn in_danger(pos: &Pos, side: Side) -> bool {
    let enemy = Army::of(pos, side.opponent());
    let sentinels = pos.pieces(side, Kind::Sentinel);
    let occ = pos.occupied();
    pos.pieces(side, Kind::General)
        .squares()
        .any(|g| (ORTHOGONAL[g] & sentinels).is_empty() && enemy.strikes(g, occ))
}
