//! Bots with one planted rule bug, for testing the tests: a grader can check that a corpus
//! catches each bug (`verify corpus --bot builtin:mutant-protection`), and the fuzzer is tested
//! on them. Each mutant plays a move its bug allows (and the rules forbid) whenever there is
//! one, and otherwise what a grade-6 bot plays (a winning move, else the greatest material
//! gain), so that the bug is the only thing wrong with it.

use super::board::Board;
use super::notation::{Action, Move};
use super::piece::{Cell, Kind};
use super::reference::danger::in_danger;
use super::reference::reach::{is_protected, reach};
use super::reference::{apply, pseudo_legal_moves};
use super::square::Square;
use crate::side::Side;

/// One planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutant {
    /// Captures (and shoots) pieces that a Sentinel protects, with any piece.
    IgnoresProtection,
    /// Its Catapult shoots pieces that a Sentinel protects (its other pieces respect it).
    CatapultShootsProtected,
    /// Its Dragon captures pieces that a Sentinel protects, at range.
    DragonCapturesProtected,
    /// Its Zombie leaps onto pieces that a Sentinel protects.
    ZombieLeapsProtected,
    /// Lets a Dragon capture an adjacent piece.
    DragonCapturesAdjacent,
    /// Lets a Jester convert the enemy General.
    ConvertsGeneral,
    /// Never checks whether its own General ends in danger.
    IgnoresDanger,
    /// Checks danger only for the General's own steps: moves a pinned piece off the line to its
    /// General.
    MovesPinned,
    /// Checks danger only when a piece other than the General moves: steps its General next to
    /// danger.
    GeneralStepsIntoDanger,
    /// Swaps a Jester with its General without asking whether the General lands in danger.
    SwapsIntoDanger,
    /// Captures (and shoots) the enemy General with any piece, as if a General were a piece
    /// like the others: possible in a well-formed position only where a Sentinel beside that
    /// General keeps it out of danger while it stands in a strike's shape.
    CapturesGeneral,
    /// Its Dragon captures the enemy General at range.
    DragonCapturesGeneral,
    /// Its Catapult shoots the enemy General.
    CatapultShootsGeneral,
    /// Its Zombie leaps onto the enemy General.
    ZombieLeapsGeneral,
}

impl Mutant {
    /// Every mutant.
    pub const ALL: [Mutant; 14] = [
        Mutant::IgnoresProtection,
        Mutant::CatapultShootsProtected,
        Mutant::DragonCapturesProtected,
        Mutant::ZombieLeapsProtected,
        Mutant::DragonCapturesAdjacent,
        Mutant::ConvertsGeneral,
        Mutant::IgnoresDanger,
        Mutant::MovesPinned,
        Mutant::GeneralStepsIntoDanger,
        Mutant::SwapsIntoDanger,
        Mutant::CapturesGeneral,
        Mutant::DragonCapturesGeneral,
        Mutant::CatapultShootsGeneral,
        Mutant::ZombieLeapsGeneral,
    ];

    /// The name after `builtin:`.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::IgnoresProtection => "mutant-protection",
            Mutant::CatapultShootsProtected => "mutant-catapult-protected",
            Mutant::DragonCapturesProtected => "mutant-dragon-protected",
            Mutant::ZombieLeapsProtected => "mutant-zombie-protected",
            Mutant::DragonCapturesAdjacent => "mutant-dragon-adjacent",
            Mutant::ConvertsGeneral => "mutant-convert-general",
            Mutant::IgnoresDanger => "mutant-no-danger",
            Mutant::MovesPinned => "mutant-pinned",
            Mutant::GeneralStepsIntoDanger => "mutant-general-danger",
            Mutant::SwapsIntoDanger => "mutant-swap-danger",
            Mutant::CapturesGeneral => "mutant-captures-general",
            Mutant::DragonCapturesGeneral => "mutant-dragon-general",
            Mutant::CatapultShootsGeneral => "mutant-catapult-general",
            Mutant::ZombieLeapsGeneral => "mutant-zombie-general",
        }
    }

    /// The mutant named `name`.
    pub fn from_name(name: &str) -> Option<Mutant> {
        Mutant::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The rule its buggy moves break, as the judge names it.
    pub fn rule(self) -> &'static str {
        match self {
            Mutant::IgnoresProtection
            | Mutant::CatapultShootsProtected
            | Mutant::DragonCapturesProtected
            | Mutant::ZombieLeapsProtected => "protected-by-sentinel",
            Mutant::DragonCapturesAdjacent => "dragon-adjacent-capture",
            Mutant::ConvertsGeneral => "convert-general",
            Mutant::IgnoresDanger
            | Mutant::MovesPinned
            | Mutant::GeneralStepsIntoDanger
            | Mutant::SwapsIntoDanger => "general-in-danger",
            Mutant::CapturesGeneral
            | Mutant::DragonCapturesGeneral
            | Mutant::CatapultShootsGeneral
            | Mutant::ZombieLeapsGeneral => "general-captured",
        }
    }

    /// The moves this mutant's bug allows that the rules forbid, in [`Move`]'s order.
    pub fn buggy_moves(self, board: &Board, side: Side) -> Vec<Move> {
        let own = || board.pieces().filter(move |(_, p)| p.side == side);
        let safe = |mv: Move| !in_danger(&apply(board, mv), side);
        let enemy_at = |sq: Square, kind: Option<Kind>| match board[sq] {
            Cell::Piece(p) => p.side != side && kind.is_none_or(|k| p.kind == k),
            _ => false,
        };
        // Strikes by `kind` (any kind when `None`) with `action` (any when `None`) on the
        // squares `aimed` accepts.
        let strikes =
            |kind: Option<Kind>, action: Option<Action>, aimed: &dyn Fn(Square) -> bool| -> Vec<Move> {
                own()
                    .filter(|(_, piece)| kind.is_none_or(|k| piece.kind == k))
                    .flat_map(|(from, piece)| {
                        reach(board, from, piece)
                            .strikes
                            .into_iter()
                            .filter(|&(a, to)| action.is_none_or(|x| a == x) && aimed(to))
                            .map(move |(a, to)| Move::new(piece.kind, from, a, to))
                    })
                    .filter(|&mv| safe(mv))
                    .collect()
            };
        let protected_enemy =
            |to: Square| enemy_at(to, None) && !enemy_at(to, Some(Kind::General)) && is_protected(board, to);
        let protected_strikes =
            |kind: Option<Kind>, action: Option<Action>| strikes(kind, action, &protected_enemy);
        let enemy_general = |to: Square| enemy_at(to, Some(Kind::General));
        let general_strikes =
            |kind: Option<Kind>, action: Option<Action>| strikes(kind, action, &enemy_general);
        // `kind`'s `action` on a square next to it that `aimed` accepts, whatever its reach.
        let beside = |kind: Kind, action: Action, aimed: &dyn Fn(Square) -> bool| -> Vec<Move> {
            own()
                .filter(|(_, p)| p.kind == kind)
                .flat_map(|(from, _)| {
                    Square::all().filter(move |&to| to.distance(from) == 1).map(move |to| (from, to))
                })
                .filter(|&(_, to)| aimed(to))
                .map(|(from, to)| Move::new(kind, from, action, to))
                .filter(|&mv| safe(mv))
                .collect()
        };
        // Moves the rules make illegal only by the danger they leave the General in, and that
        // `moves` picks out.
        let into_danger = |picks: &dyn Fn(Move) -> bool| -> Vec<Move> {
            pseudo_legal_moves(board, side).into_iter().filter(|&mv| picks(mv) && !safe(mv)).collect()
        };
        let swaps_general = |mv: Move| {
            mv.action == Action::Swap && matches!(board[mv.to], Cell::Piece(p) if p.kind == Kind::General)
        };
        let was_safe = !in_danger(board, side);
        let mut moves: Vec<Move> = match self {
            Mutant::IgnoresProtection => protected_strikes(None, None),
            Mutant::CatapultShootsProtected => protected_strikes(Some(Kind::Catapult), Some(Action::Shoot)),
            Mutant::DragonCapturesProtected => protected_strikes(Some(Kind::Dragon), Some(Action::Capture)),
            Mutant::ZombieLeapsProtected => protected_strikes(Some(Kind::Zombie), Some(Action::Leap)),
            Mutant::DragonCapturesAdjacent => beside(Kind::Dragon, Action::Capture, &|to| {
                enemy_at(to, None) && !enemy_at(to, Some(Kind::General)) && !is_protected(board, to)
            }),
            Mutant::ConvertsGeneral => beside(Kind::Jester, Action::Convert, &enemy_general),
            Mutant::IgnoresDanger => into_danger(&|_| true),
            // A General already in danger is another bug (not getting out of it).
            Mutant::MovesPinned if was_safe => {
                into_danger(&|mv| mv.kind != Kind::General && !swaps_general(mv))
            }
            Mutant::GeneralStepsIntoDanger => into_danger(&|mv| mv.kind == Kind::General),
            Mutant::SwapsIntoDanger => into_danger(&swaps_general),
            Mutant::MovesPinned => Vec::new(),
            Mutant::CapturesGeneral => general_strikes(None, None),
            Mutant::DragonCapturesGeneral => general_strikes(Some(Kind::Dragon), Some(Action::Capture)),
            Mutant::CatapultShootsGeneral => general_strikes(Some(Kind::Catapult), Some(Action::Shoot)),
            Mutant::ZombieLeapsGeneral => general_strikes(Some(Kind::Zombie), Some(Action::Leap)),
        };
        moves.sort();
        moves
    }
}

/// A blind spot: one kind of legal move a bot never considers, as students' bots were found
/// to have. A bot with a blind spot plays like a grade-6 bot over the moves it does see
/// (winning, else greatest material), and when it sees none it gives up: it reports that it
/// has no legal move and writes nothing. Fuzzing must find each in positions where the move it
/// misses is the only legal move or the only best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blind {
    /// Never swaps a Jester with its own General.
    GeneralSwap,
    /// Never converts a piece that a Sentinel protects (as if protection stopped conversion).
    ProtectedConvert,
    /// Ignores that a Sentinel beside the General keeps it out of danger, so never sees the
    /// Sentinel moves (or General moves) that rely on it.
    SentinelRescue,
}

impl Blind {
    /// Every blind spot.
    pub const ALL: [Blind; 3] = [Blind::GeneralSwap, Blind::ProtectedConvert, Blind::SentinelRescue];

    /// The name after `builtin:`.
    pub fn name(self) -> &'static str {
        match self {
            Blind::GeneralSwap => "blind-general-swap",
            Blind::ProtectedConvert => "blind-protected-convert",
            Blind::SentinelRescue => "blind-sentinel-rescue",
        }
    }

    /// The blind spot named `name`.
    pub fn from_name(name: &str) -> Option<Blind> {
        Blind::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether a bot with this blind spot sees the legal move `mv` of `side`.
    pub fn sees(self, board: &Board, side: Side, mv: Move) -> bool {
        match self {
            Blind::GeneralSwap => {
                !(mv.action == Action::Swap
                    && matches!(board[mv.to], Cell::Piece(p) if p.kind == Kind::General))
            }
            Blind::ProtectedConvert => !(mv.action == Action::Convert && is_protected(board, mv.to)),
            Blind::SentinelRescue => !attacked_ignoring_sentinels(&apply(board, mv), side),
        }
    }
}

/// Whether some enemy piece strikes a General of `side`, Sentinels beside it or not.
fn attacked_ignoring_sentinels(board: &Board, side: Side) -> bool {
    board.generals(side).into_iter().any(|g| {
        board
            .pieces()
            .any(|(from, p)| p.side != side && reach(board, from, p).strikes.iter().any(|&(_, to)| to == g))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::explain::diagnose;

    fn board(text: &str) -> Board {
        Board::from_text(text).unwrap()
    }

    #[test]
    fn each_mutant_finds_exactly_the_moves_its_rule_forbids() {
        // White Jester on e2 next to the black General on e3; a white Dragon on a1 next to a black
        // Zombie on b2; a black Builder on h2 protected by the black Sentinel on i2, in reach of
        // the white Miner on h5.
        let b = board(
            ".........\n.........\n.........\n.........\n.......M.\n.........\n....g....\n.z..J..bs\nD...G....\n",
        );
        let rule = |mv: Move| diagnose(&b, Side::White, mv).unwrap_err().rule();
        let found = |m: Mutant| m.buggy_moves(&b, Side::White);
        assert_eq!(
            found(Mutant::ConvertsGeneral).iter().map(|&m| rule(m)).collect::<Vec<_>>(),
            ["convert-general"]
        );
        assert_eq!(
            found(Mutant::DragonCapturesAdjacent).iter().map(|&m| rule(m)).collect::<Vec<_>>(),
            ["dragon-adjacent-capture"]
        );
        assert_eq!(
            found(Mutant::IgnoresProtection).iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["Mh5xh2"]
        );
        assert!(found(Mutant::IgnoresDanger).iter().all(|&m| rule(m) == "general-in-danger"));
        assert!(!found(Mutant::IgnoresDanger).is_empty(), "the General stepping next to the black General");
    }
}
