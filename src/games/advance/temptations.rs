//! Positions that tempt a buggy bot, for fuzzing: an ILLEGAL move lies within reach of a
//! plausible bug. A Sentinel-protected Dragon that the side's Catapult could shoot, its Dragon
//! could take at range or its Zombie could leap onto; a piece pinned between its General and an
//! enemy Dragon; a General beside a square an enemy piece strikes; a Jester whose swap would put
//! its General where an enemy piece strikes; the enemy General in a Dragon's line, a Catapult's
//! range, a Zombie's leap or any other piece's capture, kept out of danger (so the position is
//! well-formed) by its own Sentinel beside it: a bot that forgets that Generals are never
//! captured takes it.
//!
//! The rule-edge sources ([`super::edges`]) catch a bot that never plays some legal move; these
//! catch one that plays a move the rules forbid. A correct bot passes them like any position,
//! and random positions almost never hold these patterns with the forbidden move still
//! available. Each temptation is the bug of one of the [`Mutant`] bots, and a position counts
//! only if that mutant finds a move to play in it: the forbidden move is really there.
//!
//! A position is the pattern, both Generals and a few random pieces and walls, so that failures
//! start small and shrink to the pattern. Everything follows the seed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Board;
use super::mutants::Mutant;
use super::notation::Action;
use super::piece::{Cell, Kind, Piece};
use super::planter::{EIGHT, KINDS, ORTHOGONAL, Planter, pick, piece, random_square};
use super::position::Position;
use super::reference::danger::in_danger;
use super::reference::geometry::{in_shape, in_strike_shape};
use super::reference::has_legal_move;
use super::square::Square;
use crate::side::Side;

/// A move the rules forbid, put within a buggy bot's reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Temptation {
    /// A Catapult in range of a Sentinel-protected enemy piece.
    ProtectedShot,
    /// A Dragon in line with a Sentinel-protected enemy piece at range.
    ProtectedDragon,
    /// A Zombie a leap away from a Sentinel-protected enemy piece, the square between empty.
    ProtectedLeap,
    /// A Zombie, Builder, Miner, Sentinel or General that could take a Sentinel-protected piece.
    ProtectedCapture,
    /// A Dragon next to an enemy piece it must not capture.
    DragonAdjacent,
    /// A Jester next to the enemy General, which it must not convert.
    ConvertGeneral,
    /// A piece on the line between its General and an enemy Dragon, Miner or Zombie leap.
    Pinned,
    /// A General beside a square an enemy piece strikes.
    GeneralNearDanger,
    /// A Jester beside its General on a square an enemy piece strikes: swapping is forbidden.
    SwapIntoDanger,
    /// The enemy General, a Sentinel beside it, in line with a Dragon at range.
    GeneralDragon,
    /// The enemy General, a Sentinel beside it, in a Catapult's range.
    GeneralShot,
    /// The enemy General, a Sentinel beside it, a Zombie leap away (the square between empty).
    GeneralLeap,
    /// The enemy General, a Sentinel beside it, where a Zombie, Builder, Miner or Sentinel
    /// captures.
    GeneralCapture,
}

impl Temptation {
    /// Every temptation, in a fixed order (the order fuzzing's sources take).
    pub const ALL: [Temptation; 13] = [
        Temptation::ProtectedShot,
        Temptation::ProtectedDragon,
        Temptation::ProtectedLeap,
        Temptation::ProtectedCapture,
        Temptation::DragonAdjacent,
        Temptation::ConvertGeneral,
        Temptation::Pinned,
        Temptation::GeneralNearDanger,
        Temptation::SwapIntoDanger,
        Temptation::GeneralDragon,
        Temptation::GeneralShot,
        Temptation::GeneralLeap,
        Temptation::GeneralCapture,
    ];

    /// The source's name: `tempt/protected-shot`, ...
    pub fn name(self) -> &'static str {
        match self {
            Temptation::ProtectedShot => "tempt/protected-shot",
            Temptation::ProtectedDragon => "tempt/protected-dragon",
            Temptation::ProtectedLeap => "tempt/protected-leap",
            Temptation::ProtectedCapture => "tempt/protected-capture",
            Temptation::DragonAdjacent => "tempt/dragon-adjacent",
            Temptation::ConvertGeneral => "tempt/convert-general",
            Temptation::Pinned => "tempt/pinned",
            Temptation::GeneralNearDanger => "tempt/general-near-danger",
            Temptation::SwapIntoDanger => "tempt/swap-into-danger",
            Temptation::GeneralDragon => "tempt/general-dragon",
            Temptation::GeneralShot => "tempt/general-shot",
            Temptation::GeneralLeap => "tempt/general-leap",
            Temptation::GeneralCapture => "tempt/general-capture",
        }
    }

    /// The temptation named `name`.
    pub fn from_name(name: &str) -> Option<Temptation> {
        Temptation::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The mutant whose bug this temptation is: it plays the forbidden move here.
    pub fn mutant(self) -> Mutant {
        match self {
            Temptation::ProtectedShot => Mutant::CatapultShootsProtected,
            Temptation::ProtectedDragon => Mutant::DragonCapturesProtected,
            Temptation::ProtectedLeap => Mutant::ZombieLeapsProtected,
            Temptation::ProtectedCapture => Mutant::IgnoresProtection,
            Temptation::DragonAdjacent => Mutant::DragonCapturesAdjacent,
            Temptation::ConvertGeneral => Mutant::ConvertsGeneral,
            Temptation::Pinned => Mutant::MovesPinned,
            Temptation::GeneralNearDanger => Mutant::GeneralStepsIntoDanger,
            Temptation::SwapIntoDanger => Mutant::SwapsIntoDanger,
            Temptation::GeneralDragon => Mutant::DragonCapturesGeneral,
            Temptation::GeneralShot => Mutant::CatapultShootsGeneral,
            Temptation::GeneralLeap => Mutant::ZombieLeapsGeneral,
            Temptation::GeneralCapture => Mutant::CapturesGeneral,
        }
    }
}

/// The source names, `tempt/...`.
pub fn source_names() -> Vec<String> {
    Temptation::ALL.iter().map(|t| t.name().to_string()).collect()
}

/// Plants tried per position before giving up.
const ATTEMPTS: usize = 60;

/// A well-formed position with `side` to move (a legal move left, the opponent not in danger)
/// in which the temptation's forbidden move is available, drawn from `seed` alone; `None` when
/// no plant gave one within the budget.
pub fn tempting_position(temptation: Temptation, seed: u64) -> Option<(Board, Side)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..ATTEMPTS).find_map(|_| {
        let side = if rng.gen_bool(0.5) { Side::White } else { Side::Black };
        let board = plant(&mut rng, temptation, side)?;
        let ok = Position::new(board.clone(), side).validate().is_ok()
            && has_legal_move(&board, side)
            && !temptation.mutant().buggy_moves(&board, side).is_empty();
        ok.then_some((board, side))
    })
}

/// The kinds worth taking: what makes a forbidden capture look like the best move.
const VALUABLE: [Kind; 4] = [Kind::Dragon, Kind::Catapult, Kind::Miner, Kind::Sentinel];

/// The pattern of `temptation` for `side` against the opponent, both Generals, and a few random
/// pieces and walls; `None` when a square it needed was taken or off the board.
fn plant(rng: &mut ChaCha8Rng, temptation: Temptation, side: Side) -> Option<Board> {
    let enemy = side.opponent();
    let mut p = Planter { board: Board::empty() };
    match temptation {
        Temptation::ProtectedShot => {
            guarded_target(rng, &mut p, side, (Kind::Catapult, Action::Shoot), valuable)?
        }
        Temptation::ProtectedDragon => {
            guarded_target(rng, &mut p, side, (Kind::Dragon, Action::Capture), valuable)?
        }
        Temptation::ProtectedLeap => {
            guarded_target(rng, &mut p, side, (Kind::Zombie, Action::Leap), valuable)?
        }
        Temptation::ProtectedCapture => {
            let kind = pick(rng, &[Kind::Zombie, Kind::Builder, Kind::Miner, Kind::Sentinel, Kind::General]);
            guarded_target(rng, &mut p, side, (kind, Action::Capture), valuable)?
        }
        Temptation::DragonAdjacent => {
            let d = p.put(Some(random_square(rng)), piece(side, Kind::Dragon))?;
            let kind = pick(rng, &VALUABLE);
            let (df, dr) = pick(rng, &EIGHT);
            p.put(d.offset(df, dr), piece(enemy, kind))?;
        }
        Temptation::ConvertGeneral => {
            let g = p.put(Some(random_square(rng)), piece(enemy, Kind::General))?;
            let (df, dr) = pick(rng, &EIGHT);
            p.put(g.offset(df, dr), piece(side, Kind::Jester))?;
        }
        Temptation::Pinned => {
            let g = p.put(Some(random_square(rng)), piece(side, Kind::General))?;
            let d = pick(rng, &EIGHT);
            let orthogonal = d.0 == 0 || d.1 == 0;
            let near = rng.gen_range(1..=2);
            let far = near + rng.gen_range(1..=3);
            p.put(g.offset(d.0 * near, d.1 * near), piece(side, pick(rng, &KINDS)))?;
            let attacker = if orthogonal { pick(rng, &[Kind::Dragon, Kind::Miner]) } else { Kind::Dragon };
            p.put(g.offset(d.0 * far, d.1 * far), piece(enemy, attacker))?;
        }
        Temptation::GeneralNearDanger => {
            let g = p.put(Some(random_square(rng)), piece(side, Kind::General))?;
            let (df, dr) = pick(rng, &EIGHT);
            let beside = g.offset(df, dr)?;
            attack_square(rng, &mut p, beside, enemy, Some(g))?;
        }
        Temptation::SwapIntoDanger => {
            let g = p.put(Some(random_square(rng)), piece(side, Kind::General))?;
            let (df, dr) = pick(rng, &EIGHT);
            let j = p.put(g.offset(df, dr), piece(side, Kind::Jester))?;
            attack_square(rng, &mut p, j, enemy, Some(g))?;
        }
        Temptation::GeneralDragon => {
            guarded_target(rng, &mut p, side, (Kind::Dragon, Action::Capture), general)?
        }
        Temptation::GeneralShot => {
            guarded_target(rng, &mut p, side, (Kind::Catapult, Action::Shoot), general)?
        }
        Temptation::GeneralLeap => guarded_target(rng, &mut p, side, (Kind::Zombie, Action::Leap), general)?,
        Temptation::GeneralCapture => {
            let kind = pick(rng, &[Kind::Zombie, Kind::Builder, Kind::Miner, Kind::Sentinel]);
            guarded_target(rng, &mut p, side, (kind, Action::Capture), general)?
        }
    }
    p.finish(rng, side, [1, 2, 2])
}

/// A piece worth taking: what makes a forbidden capture of a protected piece look like the best
/// move.
fn valuable(rng: &mut ChaCha8Rng) -> Kind {
    pick(rng, &VALUABLE)
}

/// The enemy General: a bot that forgets "never a General" captures it.
fn general(_: &mut ChaCha8Rng) -> Kind {
    Kind::General
}

/// Puts `side`'s `kind` on a random square, an enemy piece of the kind `target` draws (a
/// [`valuable`] one, or the [`general`]) on an empty square its `action` strikes, and an enemy
/// Sentinel beside that piece to protect it. A protected General is not in danger, so the
/// position is well-formed; with our own General, which the caller places, four pieces.
fn guarded_target(
    rng: &mut ChaCha8Rng,
    p: &mut Planter,
    side: Side,
    (kind, action): (Kind, Action),
    target: impl FnOnce(&mut ChaCha8Rng) -> Kind,
) -> Option<()> {
    let enemy = side.opponent();
    let from = p.put(Some(random_square(rng)), piece(side, kind))?;
    // A Dragon never captures next to itself; the other shapes are what the rule reaches.
    let at = p.empty_where(rng, |t| {
        in_shape(kind, action, side, from, t) && (kind != Kind::Dragon || t.distance(from) >= 2)
    })?;
    p.put(Some(at), piece(enemy, target(rng)))?;
    let (df, dr) = pick(rng, &ORTHOGONAL);
    p.put(at.offset(df, dr), piece(enemy, Kind::Sentinel))?;
    Some(())
}

/// Puts an enemy piece that strikes `target` but not `spare` (the General beside it, which must
/// not be in danger already): a Sentinel, Catapult, Dragon at range or Miner.
fn attack_square(
    rng: &mut ChaCha8Rng,
    p: &mut Planter,
    target: Square,
    enemy: Side,
    spare: Option<Square>,
) -> Option<Square> {
    let kind = pick(rng, &[Kind::Sentinel, Kind::Catapult, Kind::Dragon, Kind::Miner]);
    let attacker = Piece::new(enemy, kind);
    let from = p.empty_where(rng, |a| {
        in_strike_shape(attacker, a, target)
            && (kind != Kind::Dragon || a.distance(target) >= 2)
            && spare.is_none_or(|s| !in_strike_shape(attacker, a, s))
    })?;
    let sq = p.put(Some(from), Cell::Piece(attacker))?;
    // The General must not start in danger: that would be a different bug.
    let side = enemy.opponent();
    (!in_danger(&p.board, side) || p.board.generals(side).is_empty()).then_some(sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::explain::diagnose;

    #[test]
    fn every_temptation_holds_its_forbidden_move_and_nothing_wrong() {
        for t in Temptation::ALL {
            let mut found = 0;
            for seed in 0..8 {
                let Some((board, side)) = tempting_position(t, seed) else { continue };
                found += 1;
                assert!(Position::new(board.clone(), side).validate().is_ok(), "{}: {board:?}", t.name());
                let buggy = t.mutant().buggy_moves(&board, side);
                assert!(!buggy.is_empty());
                for mv in buggy {
                    let rule = diagnose(&board, side, mv).expect_err("a forbidden move").rule();
                    assert_eq!(rule, t.mutant().rule(), "{}: {mv} on {board:?}", t.name());
                }
            }
            assert!(found >= 6, "{}: only {found} of 8 seeds gave a position", t.name());
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_position() {
        for t in Temptation::ALL {
            assert_eq!(tempting_position(t, 5), tempting_position(t, 5), "{}", t.name());
        }
    }
}
