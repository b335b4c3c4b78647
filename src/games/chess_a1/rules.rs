//! Move validity as the assignment defines it (Section 4.4.2), check, checkmate and stalemate
//! (Section 4.5). Each rule is a function of its own, in the order the assignment lists them;
//! `docs/games/chess-a1/RULES.md` quotes the sentence each rests on.

use super::board::{Board, EMPTY, Move, Pos, belongs_to, is_black, is_white};

const ROOK: &[(i64, i64)] = &[(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP: &[(i64, i64)] = &[(-1, -1), (1, 1), (-1, 1), (1, -1)];
const QUEEN: &[(i64, i64)] = &[(0, 1), (1, 0), (0, -1), (-1, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)];
const KNIGHT: &[(i64, i64)] = &[(1, 2), (2, 1), (-2, 1), (1, -2), (-1, 2), (2, -1), (-1, -2), (-2, -1)];

/// Why a move is not valid: the first of the assignment's conditions it breaks, in the
/// assignment's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    /// "Both positions in the move exist on the board".
    OffBoard,
    /// "The positions in the move are different".
    SameSquare,
    /// "The piece being moved belongs to the player who is trying to move it" (an empty
    /// square or the opponent's piece).
    NotOwnPiece,
    /// "The square the piece is being moved to is empty or contains a piece of the opposite
    /// colour".
    OwnPieceOnTarget,
    /// "The move is valid for the type of piece being moved" (its movement, a blocked path,
    /// a pawn's push onto a piece or diagonal onto an empty square).
    PieceMovement,
    /// "The move does not put the player whose turn it is in check".
    LeavesKingInCheck,
}

impl Invalid {
    /// A short stable name, for grouping failures.
    pub fn name(self) -> &'static str {
        match self {
            Invalid::OffBoard => "off-board",
            Invalid::SameSquare => "same-square",
            Invalid::NotOwnPiece => "not-own-piece",
            Invalid::OwnPieceOnTarget => "own-piece-on-target",
            Invalid::PieceMovement => "piece-movement",
            Invalid::LeavesKingInCheck => "leaves-king-in-check",
        }
    }

    /// The rule in words, for a student reading a failure.
    pub fn sentence(self) -> &'static str {
        match self {
            Invalid::OffBoard => "a position of the move is not on the board",
            Invalid::SameSquare => "the move's two positions are the same",
            Invalid::NotOwnPiece => "the piece being moved does not belong to the player whose turn it is",
            Invalid::OwnPieceOnTarget => "the target square holds one of the player's own pieces",
            Invalid::PieceMovement => "the piece cannot move that way (its movement, or a piece in its path)",
            Invalid::LeavesKingInCheck => "the move leaves the player's own king in check",
        }
    }
}

/// The squares the piece at `from` reaches in one move, ignoring check: the support module's
/// `get_possible_moves`. Empty for an empty square.
pub fn reachable(board: &Board, from: Pos) -> Vec<Pos> {
    let piece = board.at(from);
    let white = is_white(piece);
    let enemy = |p: u8| if white { is_black(p) } else { is_white(p) };
    let mut out = Vec::new();
    match piece.to_ascii_lowercase() {
        b'p' => {
            let (dir, start) = if white { (-1, 6) } else { (1, 1) };
            let one = from.offset(dir, 0);
            if one.on_board() && board.at(one) == EMPTY {
                out.push(one);
            }
            for dc in [-1, 1] {
                let diag = from.offset(dir, dc);
                if diag.on_board() && enemy(board.at(diag)) {
                    out.push(diag);
                }
            }
            let two = from.offset(2 * dir, 0);
            if two.on_board() && from.row == start && board.at(one) == EMPTY && board.at(two) == EMPTY {
                out.push(two);
            }
        }
        b'k' | b'n' => {
            let deltas = if piece.eq_ignore_ascii_case(&b'k') { QUEEN } else { KNIGHT };
            for &(dr, dc) in deltas {
                let to = from.offset(dr, dc);
                if to.on_board() && (board.at(to) == EMPTY || enemy(board.at(to))) {
                    out.push(to);
                }
            }
        }
        b'r' | b'b' | b'q' => {
            let deltas = match piece.to_ascii_lowercase() {
                b'r' => ROOK,
                b'b' => BISHOP,
                _ => QUEEN,
            };
            for &(dr, dc) in deltas {
                let mut to = from.offset(dr, dc);
                while to.on_board() {
                    let there = board.at(to);
                    if there == EMPTY {
                        out.push(to);
                    } else {
                        if enemy(there) {
                            out.push(to);
                        }
                        break;
                    }
                    to = to.offset(dr, dc);
                }
            }
        }
        _ => {}
    }
    out
}

/// Whether the player (`white` or not) is in check: their king (the first found) is reachable
/// by one of the other player's pieces. A player without a king is never in check, as the
/// support module's `is_in_check` answers.
pub fn in_check(board: &Board, white: bool) -> bool {
    let Some(king) = board.find(if white { b'K' } else { b'k' }) else { return false };
    Board::squares().any(|p| belongs_to(board.at(p), !white) && reachable(board, p).contains(&king))
}

/// Checks a move against the assignment's conditions, in order; `Err` names the first broken.
pub fn check_move(board: &Board, mv: Move, white: bool) -> Result<(), Invalid> {
    let (from, to) = mv;
    if !from.on_board() || !to.on_board() {
        return Err(Invalid::OffBoard);
    }
    if from == to {
        return Err(Invalid::SameSquare);
    }
    if !belongs_to(board.at(from), white) {
        return Err(Invalid::NotOwnPiece);
    }
    if belongs_to(board.at(to), white) {
        return Err(Invalid::OwnPieceOnTarget);
    }
    if !reachable(board, from).contains(&to) {
        return Err(Invalid::PieceMovement);
    }
    if in_check(&board.moved(mv), white) {
        return Err(Invalid::LeavesKingInCheck);
    }
    Ok(())
}

/// `is_move_valid`.
pub fn is_valid(board: &Board, mv: Move, white: bool) -> bool {
    check_move(board, mv, white).is_ok()
}

/// Every valid move of the player, by square of origin then target in the support module's
/// order.
pub fn legal_moves(board: &Board, white: bool) -> Vec<Move> {
    Board::squares()
        .filter(|&p| belongs_to(board.at(p), white))
        .flat_map(|from| reachable(board, from).into_iter().map(move |to| (from, to)))
        .filter(|&mv| is_valid(board, mv, white))
        .collect()
}

/// `can_move`: the player has a valid move.
pub fn can_move(board: &Board, white: bool) -> bool {
    Board::squares()
        .filter(|&p| belongs_to(board.at(p), white))
        .any(|from| reachable(board, from).into_iter().any(|to| is_valid(board, (from, to), white)))
}

/// `is_stalemate`: not in check and no valid move.
pub fn is_stalemate(board: &Board, white: bool) -> bool {
    !in_check(board, white) && !can_move(board, white)
}

/// Checkmate: in check and no valid move.
pub fn is_checkmate(board: &Board, white: bool) -> bool {
    in_check(board, white) && !can_move(board, white)
}

/// The number of sequences of `depth` valid moves (perft), to compare with published counts.
pub fn perft(board: &Board, white: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(board, white);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.into_iter().map(|mv| perft(&board.moved(mv), !white, depth - 1)).sum()
}

/// How the game stands for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not in check, with a move.
    Normal,
    /// In check, with a move.
    Check,
    /// In check, without a move.
    Checkmate,
    /// Not in check, without a move.
    Stalemate,
}

/// The status of the player to move.
pub fn status(board: &Board, white: bool) -> Status {
    match (in_check(board, white), can_move(board, white)) {
        (false, true) => Status::Normal,
        (true, true) => Status::Check,
        (true, false) => Status::Checkmate,
        (false, false) => Status::Stalemate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_a1::board::tests::{board, mv};

    #[test]
    fn twenty_moves_from_the_start() {
        assert_eq!(legal_moves(&Board::initial(), true).len(), 20);
        assert_eq!(legal_moves(&Board::initial(), false).len(), 20);
    }

    #[test]
    fn each_condition_in_order() {
        let b = Board::initial();
        assert_eq!(check_move(&b, (Pos::new(6, 4), Pos::new(8, 4)), true), Err(Invalid::OffBoard));
        assert_eq!(check_move(&b, (Pos::new(-1, 4), Pos::new(5, 4)), true), Err(Invalid::OffBoard));
        assert_eq!(check_move(&b, mv("e2 e2"), true), Err(Invalid::SameSquare));
        assert_eq!(check_move(&b, mv("e3 e4"), true), Err(Invalid::NotOwnPiece));
        assert_eq!(check_move(&b, mv("e7 e5"), true), Err(Invalid::NotOwnPiece));
        assert_eq!(check_move(&b, mv("d1 d2"), true), Err(Invalid::OwnPieceOnTarget));
        assert_eq!(check_move(&b, mv("d1 d3"), true), Err(Invalid::PieceMovement));
        assert_eq!(check_move(&b, mv("e2 e4"), true), Ok(()));
        assert_eq!(check_move(&b, mv("e7 e5"), false), Ok(()));
        assert_eq!(check_move(&b, mv("g1 f3"), true), Ok(()));
    }

    #[test]
    fn a_pinned_piece_may_not_leave_the_line() {
        // White king e1, white bishop e2, black rook e8.
        let b = board("....r... ........ ........ ........ ........ ........ ....B... ....K...");
        assert_eq!(check_move(&b, mv("e2 d3"), true), Err(Invalid::LeavesKingInCheck));
        assert_eq!(check_move(&b, mv("e1 d1"), true), Ok(()));
    }

    #[test]
    fn sliders_are_blocked_and_capture_the_first_enemy() {
        let b = board("r...k... ........ ........ p....... ........ ........ ........ R...K...");
        assert_eq!(check_move(&b, mv("a1 a5"), true), Ok(()));
        assert_eq!(check_move(&b, mv("a1 a6"), true), Err(Invalid::PieceMovement));
        assert_eq!(check_move(&b, mv("a1 d1"), true), Ok(()));
        assert_eq!(check_move(&b, mv("a1 e1"), true), Err(Invalid::OwnPieceOnTarget));
        assert_eq!(check_move(&b, mv("a1 f1"), true), Err(Invalid::PieceMovement), "the king is in the way");
    }

    #[test]
    fn pawns_push_once_twice_from_home_and_capture_diagonally() {
        let b = board("....k... ........ ........ ........ ........ ...p.... ...PP... ....K...");
        assert_eq!(check_move(&b, mv("d2 d3"), true), Err(Invalid::PieceMovement));
        assert_eq!(check_move(&b, mv("d2 d4"), true), Err(Invalid::PieceMovement), "a blocked double push");
        assert_eq!(check_move(&b, mv("e2 d3"), true), Ok(()));
        assert_eq!(check_move(&b, mv("e2 f3"), true), Err(Invalid::PieceMovement));
        assert_eq!(check_move(&b, mv("e2 e4"), true), Ok(()));
        assert_eq!(check_move(&b, mv("e2 e5"), true), Err(Invalid::PieceMovement));
        // Black pawns go down the board.
        assert_eq!(check_move(&b, mv("d3 e2"), false), Ok(()));
        assert_eq!(check_move(&b, mv("d3 d4"), false), Err(Invalid::PieceMovement));
    }

    #[test]
    fn a_king_may_not_step_next_to_the_other_king() {
        let b = board("........ ........ ........ ...k.... ........ ...K.... ........ ........");
        assert_eq!(check_move(&b, mv("d3 d4"), true), Err(Invalid::LeavesKingInCheck));
        assert_eq!(check_move(&b, mv("d3 d2"), true), Ok(()));
    }

    #[test]
    fn a_discovered_check_is_check() {
        // Black bishop a5 behind black knight c3?  No: white king e1, black bishop b4 behind
        // black knight c3 on the diagonal; the knight moves away and checks by discovery.
        let b = board("....k... ........ ........ ........ .b...... ..n..... ........ ....K...");
        assert!(!in_check(&b, true));
        let after = b.moved(mv("c3 a2"));
        assert!(in_check(&after, true));
    }

    #[test]
    fn checkmate_and_stalemate_in_the_corner() {
        // Black king h8, white queen g7 guarded by the white king f6: checkmate.
        let mate = board(".......k ......Q. .....K.. ........ ........ ........ ........ ........");
        assert_eq!(status(&mate, false), Status::Checkmate);
        // Black king h8, white queen f7, white king g6 elsewhere: stalemate.
        let stale = board(".......k .....Q.. ......K. ........ ........ ........ ........ ........");
        assert_eq!(status(&stale, false), Status::Stalemate);
        assert!(is_stalemate(&stale, false));
        assert_eq!(status(&Board::initial(), true), Status::Normal);
    }

    #[test]
    fn fools_mate() {
        let mut b = Board::initial();
        for (m, white) in [("f2 f3", true), ("e7 e5", false), ("g2 g4", true), ("d8 h4", false)] {
            assert!(is_valid(&b, mv(m), white), "{m}");
            b = b.moved(mv(m));
        }
        assert_eq!(status(&b, true), Status::Checkmate);
    }

    #[test]
    fn a_player_without_a_king_is_never_in_check() {
        let b = board("....k... ........ ........ ........ ........ ........ ........ r.......");
        assert!(!in_check(&b, true));
    }
}
