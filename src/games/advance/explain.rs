//! Why a move is not legal, named by the rule it breaks.
//!
//! [`diagnose`] walks the same questions a person would ask of a move: is the piece there and
//! ours; does its rule allow that action on that square; is the way clear; may the target be
//! taken; and is our General safe afterwards. The first rule broken is returned as a
//! [`Violation`], which prints as a sentence and has a stable short name ([`Violation::rule`])
//! for grouping failures.

use std::fmt;

use super::board::Board;
use super::notation::{Action, Move};
use super::piece::{Cell, Kind, Piece};
use super::reference::danger::{attackers_of, describe_attacker};
use super::reference::geometry::in_shape;
use super::reference::{apply, reach};
use super::square::Square;
use crate::side::Side;

/// A rule that a move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// The from-square holds no piece.
    NoPiece { from: Square, cell: Cell },
    /// The piece on the from-square belongs to the other side.
    NotYourPiece { from: Square, piece: Piece },
    /// The notation's letter is not the kind of piece on the from-square.
    WrongKind { from: Square, piece: Piece, written: Kind },
    /// This kind of piece never does this action.
    ActionNotAllowed { kind: Kind, action: Action },
    /// The target is not a square this piece reaches with this action.
    OutOfReach { kind: Kind, action: Action, from: Square, to: Square, side: Side },
    /// Something stands between the piece and its target.
    Blocked { from: Square, to: Square, at: Square, cell: Cell },
    /// A Dragon tried to capture on an adjacent square.
    DragonAdjacent { to: Square },
    /// A move (`-`) or a build onto a square that is not empty.
    TargetOccupied { to: Square, cell: Cell, action: Action },
    /// A capture, shot, swap or conversion aimed at an empty square.
    TargetEmpty { to: Square, action: Action },
    /// A piece tried to take, or convert, a piece of its own side.
    OwnPiece { to: Square, piece: Piece, action: Action },
    /// A capture of a General.
    GeneralNotCapturable { to: Square },
    /// A capture of a piece protected by a Sentinel.
    Protected { to: Square, piece: Piece, sentinel: Square },
    /// A piece other than a Miner tried to take a wall (or a Catapult to shoot one).
    WallNeedsMiner { to: Square, kind: Kind, action: Action },
    /// A Jester tried to swap with a wall or an enemy piece.
    SwapNotFriendly { to: Square, cell: Cell },
    /// A Jester tried to swap with another Jester.
    JesterSwapJester { to: Square },
    /// A Jester tried to convert a General.
    ConvertGeneral { to: Square },
    /// A Jester tried to convert a wall.
    ConvertWall { to: Square },
    /// After the move the mover's General would be in danger.
    GeneralInDanger { general: Square, attackers: Vec<(Square, Piece)>, already: bool },
}

impl Violation {
    /// A stable short name for the rule, for grouping failures and for machines.
    pub fn rule(&self) -> &'static str {
        match self {
            Violation::NoPiece { .. } => "no-piece",
            Violation::NotYourPiece { .. } => "not-your-piece",
            Violation::WrongKind { .. } => "wrong-piece-letter",
            Violation::ActionNotAllowed { .. } => "action-not-allowed",
            Violation::OutOfReach { .. } => "out-of-reach",
            Violation::Blocked { .. } => "path-blocked",
            Violation::DragonAdjacent { .. } => "dragon-adjacent-capture",
            Violation::TargetOccupied { .. } => "target-occupied",
            Violation::TargetEmpty { .. } => "target-empty",
            Violation::OwnPiece { .. } => "own-piece",
            Violation::GeneralNotCapturable { .. } => "general-captured",
            Violation::Protected { .. } => "protected-by-sentinel",
            Violation::WallNeedsMiner { .. } => "wall-needs-miner",
            Violation::SwapNotFriendly { .. } => "swap-not-friendly",
            Violation::JesterSwapJester { .. } => "jester-swap-jester",
            Violation::ConvertGeneral { .. } => "convert-general",
            Violation::ConvertWall { .. } => "convert-wall",
            Violation::GeneralInDanger { .. } => "general-in-danger",
        }
    }
}

fn verb(action: Action) -> &'static str {
    match action {
        Action::Move => "move to",
        Action::Capture | Action::Leap => "capture on",
        Action::Build => "build on",
        Action::Swap => "swap with",
        Action::Convert => "convert",
        Action::Shoot => "shoot",
    }
}

/// How a kind of piece moves, for "cannot reach" messages.
fn shape(kind: Kind, action: Action, side: Side) -> String {
    let up = if side == Side::White { "up" } else { "down" };
    match (kind, action) {
        (Kind::Zombie, Action::Leap) => {
            format!("a Zombie leaps exactly 2 squares forward ({up} for {side}), straight or diagonally")
        }
        (Kind::Zombie, _) => {
            format!("a Zombie moves or captures only on the 3 squares forward ({up} for {side})")
        }
        (Kind::Builder, _) | (Kind::General, _) | (Kind::Jester, _) => {
            format!("a {} acts only on the 8 adjacent squares", kind.name())
        }
        (Kind::Miner, _) => "a Miner moves along its rank or file".to_string(),
        (Kind::Sentinel, _) => "a Sentinel jumps like a knight (2 squares one way, 1 the other)".to_string(),
        (Kind::Catapult, Action::Shoot) => {
            "a Catapult shoots exactly 3 squares away orthogonally or (2,2) away diagonally".to_string()
        }
        (Kind::Catapult, _) => "a Catapult moves 1 square orthogonally".to_string(),
        (Kind::Dragon, _) => "a Dragon moves along a rank, file or diagonal".to_string(),
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NoPiece { from, cell } => {
                write!(f, "there is no piece on {from} (it holds {})", cell.describe())
            }
            Violation::NotYourPiece { from, piece } => {
                write!(
                    f,
                    "{from} holds the {}, which {} does not own",
                    piece.describe(),
                    piece.side.opponent()
                )
            }
            Violation::WrongKind { from, piece, written } => {
                write!(f, "{from} holds a {}, not a {}", piece.kind.name(), written.name())
            }
            Violation::ActionNotAllowed { kind, action } => match (kind, action) {
                (Kind::Jester, Action::Capture | Action::Leap) => f.write_str("a Jester never captures"),
                (Kind::Catapult, Action::Capture | Action::Leap) => {
                    f.write_str("a Catapult never captures by moving; it shoots (*) without moving")
                }
                (_, Action::Build) => f.write_str("only a Builder builds walls"),
                (_, Action::Swap) => f.write_str("only a Jester swaps places"),
                (_, Action::Convert) => f.write_str("only a Jester converts"),
                (_, Action::Shoot) => f.write_str("only a Catapult shoots"),
                (_, Action::Leap) => f.write_str("only a Zombie leaps"),
                _ => write!(f, "a {} cannot {}", kind.name(), verb(*action)),
            },
            Violation::OutOfReach { kind, action, from, to, side } => {
                write!(
                    f,
                    "the {} on {from} cannot {} {to}: {}",
                    kind.name(),
                    verb(*action),
                    shape(*kind, *action, *side)
                )
            }
            Violation::Blocked { from, to, at, cell } => {
                write!(f, "the way from {from} to {to} is blocked by {} on {at}", cell.describe())
            }
            Violation::DragonAdjacent { to } => {
                write!(f, "a Dragon never captures an adjacent piece ({to} is next to it)")
            }
            Violation::TargetOccupied { to, cell, action } => {
                let hint = match (action, cell) {
                    (Action::Move, Cell::Piece(_)) => "; a capture is written with x",
                    _ => "",
                };
                write!(f, "{to} is not empty (it holds {}){hint}", cell.describe())
            }
            Violation::TargetEmpty { to, action } => {
                let what = match action {
                    Action::Swap => "swap with",
                    Action::Convert => "convert",
                    Action::Shoot => "shoot",
                    _ => "capture",
                };
                write!(
                    f,
                    "{to} is empty, so there is nothing to {what}; a move to an empty square is written with -"
                )
            }
            Violation::OwnPiece { to, piece, action } => {
                write!(
                    f,
                    "{to} holds a friendly {}, which cannot be {}",
                    piece.kind.name(),
                    match action {
                        Action::Convert => "converted",
                        Action::Shoot => "shot",
                        _ => "captured",
                    }
                )
            }
            Violation::GeneralNotCapturable { to } => {
                write!(f, "a General can never be captured (the General on {to})")
            }
            Violation::Protected { to, piece, sentinel } => write!(
                f,
                "the {} on {to} is protected by the Sentinel on {sentinel}, so it cannot be captured",
                piece.describe()
            ),
            Violation::WallNeedsMiner { to, kind, action } => match action {
                Action::Shoot => write!(f, "walls cannot be shot (the wall on {to})"),
                _ => write!(f, "only a Miner can take a wall; a {} cannot (the wall on {to})", kind.name()),
            },
            Violation::SwapNotFriendly { to, cell } => {
                write!(f, "a Jester swaps only with a friendly piece, and {to} holds {}", cell.describe())
            }
            Violation::JesterSwapJester { to } => {
                write!(f, "a Jester cannot swap with another Jester (the one on {to})")
            }
            Violation::ConvertGeneral { to } => {
                write!(f, "a Jester cannot convert a General (the General on {to})")
            }
            Violation::ConvertWall { to } => {
                write!(f, "a Jester converts pieces, not walls (the wall on {to})")
            }
            Violation::GeneralInDanger { general, attackers, already } => {
                let list: Vec<String> = attackers.iter().map(|&(sq, p)| describe_attacker(sq, p)).collect();
                if *already {
                    write!(f, "the General on {general} would still be in danger from {}", list.join(" and "))
                } else {
                    write!(f, "the General on {general} would be in danger from {}", list.join(" and "))
                }
            }
        }
    }
}

/// Checks `mv` for `side` against every rule. `Ok(())` means the move is legal.
pub fn diagnose(board: &Board, side: Side, mv: Move) -> Result<(), Violation> {
    let cell = board[mv.from];
    let Cell::Piece(piece) = cell else {
        return Err(Violation::NoPiece { from: mv.from, cell });
    };
    if piece.side != side {
        return Err(Violation::NotYourPiece { from: mv.from, piece });
    }
    if piece.kind != mv.kind {
        return Err(Violation::WrongKind { from: mv.from, piece, written: mv.kind });
    }
    let r = reach::reach(board, mv.from, piece);
    if r.strikes.contains(&(mv.action, mv.to)) {
        why_not_taken(board, piece, mv)?;
    } else if !r.quiet.contains(&(mv.action, mv.to)) {
        return Err(why_out_of_reach(board, piece, mv));
    }
    general_safety(board, side, mv)
}

/// The move is possible for the piece; is the mover's General safe after it?
fn general_safety(board: &Board, side: Side, mv: Move) -> Result<(), Violation> {
    let after = apply(board, mv);
    for general in after.generals(side) {
        let attackers = attackers_of(&after, general);
        if !attackers.is_empty() {
            let already = board.generals(side).iter().any(|&g| !attackers_of(board, g).is_empty());
            return Err(Violation::GeneralInDanger { general, attackers, already });
        }
    }
    Ok(())
}

/// The piece strikes the target square by its shape; say why what stands there cannot be taken,
/// or return `Ok` if it can.
fn why_not_taken(board: &Board, piece: Piece, mv: Move) -> Result<(), Violation> {
    let to = mv.to;
    match board[to] {
        Cell::Empty => Err(Violation::TargetEmpty { to, action: mv.action }),
        Cell::Wall if piece.kind == Kind::Miner => Ok(()),
        Cell::Wall => Err(Violation::WallNeedsMiner { to, kind: piece.kind, action: mv.action }),
        Cell::Piece(target) if target.side == piece.side => {
            Err(Violation::OwnPiece { to, piece: target, action: mv.action })
        }
        Cell::Piece(target) if target.kind == Kind::General => Err(Violation::GeneralNotCapturable { to }),
        Cell::Piece(target) => match reach::protecting_sentinel(board, to, target) {
            Some(sentinel) => Err(Violation::Protected { to, piece: target, sentinel }),
            None => Ok(()),
        },
    }
}

/// The piece's rule does not produce this action on this square: find which part of the rule
/// stands in the way.
fn why_out_of_reach(board: &Board, piece: Piece, mv: Move) -> Violation {
    let Move { from, to, action, kind } = mv;
    let allowed = match action {
        Action::Move => true,
        Action::Capture => !matches!(kind, Kind::Jester | Kind::Catapult),
        Action::Leap => kind == Kind::Zombie,
        Action::Build => kind == Kind::Builder,
        Action::Swap | Action::Convert => kind == Kind::Jester,
        Action::Shoot => kind == Kind::Catapult,
    };
    if !allowed {
        return Violation::ActionNotAllowed { kind, action };
    }
    if !in_shape(kind, action, piece.side, from, to) {
        return Violation::OutOfReach { kind, action, from, to, side: piece.side };
    }
    if let Some(at) = first_blocker(board, kind, from, to) {
        return Violation::Blocked { from, to, at, cell: board[at] };
    }
    let cell = board[to];
    match action {
        Action::Capture if kind == Kind::Dragon && from.distance(to) == 1 && !cell.is_empty() => {
            Violation::DragonAdjacent { to }
        }
        Action::Move | Action::Build => Violation::TargetOccupied { to, cell, action },
        Action::Swap => match cell {
            Cell::Empty => Violation::TargetEmpty { to, action },
            Cell::Piece(p) if p.side == piece.side && p.kind == Kind::Jester => {
                Violation::JesterSwapJester { to }
            }
            _ => Violation::SwapNotFriendly { to, cell },
        },
        Action::Convert => match cell {
            Cell::Empty => Violation::TargetEmpty { to, action },
            Cell::Wall => Violation::ConvertWall { to },
            Cell::Piece(p) if p.side == piece.side => Violation::OwnPiece { to, piece: p, action },
            Cell::Piece(_) => Violation::ConvertGeneral { to },
        },
        // A capture, leap or shot in shape, with a clear way, only fails to be a strike when the
        // target is empty.
        _ => Violation::TargetEmpty { to, action },
    }
}

/// For sliding pieces and the Zombie leap: the first occupied square strictly between `from` and
/// `to`, if any. Jumping pieces and one-step moves have nothing between.
fn first_blocker(board: &Board, kind: Kind, from: Square, to: Square) -> Option<Square> {
    if !matches!(kind, Kind::Miner | Kind::Dragon | Kind::Zombie) {
        return None;
    }
    let (df, dr) = ((to.file() - from.file()).signum(), (to.rank() - from.rank()).signum());
    let mut at = from.offset(df, dr)?;
    while at != to {
        if !board[at].is_empty() {
            return Some(at);
        }
        at = at.offset(df, dr)?;
    }
    None
}
