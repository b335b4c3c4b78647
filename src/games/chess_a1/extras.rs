//! CSSE7030's special moves (the assignment's Section 4.6), graded with `--rule extras=on`:
//! promotion, castling and en passant, each through the functions the section names, and the
//! game state `main()` keeps for them (each player's `castling_info`, the `en_passant_position`).
//!
//! CSSE1001's rules ([`super::rules`]) are unchanged by these: `is_move_valid`, `can_move`,
//! `is_stalemate` and `check_game_over` take no castling or en passant information, so they
//! neither allow nor see the special moves. `docs/games/chess-a1/RULES.md` quotes the sentence
//! each rule rests on and lists what the seed leaves open under "Resolved ambiguities".

use super::board::{Board, EMPTY, Move, Pos, belongs_to};
use super::rules;

/// A player's castling information, as the assignment's tuple: whether their left rook
/// (column 0), king and right rook (column 7) have moved this game.
pub type CastlingInfo = (bool, bool, bool);

/// The pieces a pawn may be promoted to, as the user types them (lower case).
pub const PROMOTION_CHOICES: &[u8] = b"qnrb";

/// The player's back row: 7 for White, 0 for Black.
pub fn home_row(white: bool) -> i64 {
    if white { 7 } else { 0 }
}

/// The row a pawn of the player is promoted on: 0 for White, 7 for Black.
pub fn last_row(white: bool) -> i64 {
    if white { 0 } else { 7 }
}

/// Why a move is not a valid castling attempt: the first condition broken, in the order
/// [`castle_check`] tests them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCastle {
    /// The move is not the king's two-square step from its first square along its back row.
    NotACastlingMove,
    /// The player's king is not on its first square.
    NoKing,
    /// `castling_info` says the king has moved.
    KingMoved,
    /// `castling_info` says the rook on that side has moved.
    RookMoved,
    /// The player's rook is not in its corner on that side.
    NoRook,
    /// A piece stands between the king and the rook.
    Blocked(Pos),
    /// A square from the king's to the rook's (inclusive) is under attack.
    Attacked(Pos),
    /// Under `castle=king-path`: a square of the king's path (its own and the two it moves
    /// across to) is under attack.
    KingPathAttacked(Pos),
}

impl NoCastle {
    /// The reason in words.
    pub fn sentence(self) -> String {
        let at = |p: Pos| p.square().unwrap_or_else(|| p.to_string());
        match self {
            NoCastle::NotACastlingMove => {
                "it is not the king moving two squares along its back row from its first square".into()
            }
            NoCastle::NoKing => "the player's king is not on its first square".into(),
            NoCastle::KingMoved => "castling_info says the king has moved".into(),
            NoCastle::RookMoved => "castling_info says that rook has moved".into(),
            NoCastle::NoRook => "the player's rook is not in that corner".into(),
            NoCastle::Blocked(p) => format!("{} stands between the king and the rook", at(p)),
            NoCastle::Attacked(p) => {
                format!("{} (from the king's square to the rook's, inclusive) is under attack", at(p))
            }
            NoCastle::KingPathAttacked(p) => {
                format!(
                    "{} (on the king's path: its square and the two it moves across) is under attack",
                    at(p)
                )
            }
        }
    }
}

/// Which squares must not be under attack for castling to be valid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CastleSafety {
    /// The seed as written: "none of the positions from the kings position to the rooks
    /// position (inclusive) are under attack" (RULES.md ambiguity 19).
    #[default]
    Inclusive,
    /// `castle=king-path`: only the king's own square and the two it moves across to, as the
    /// course's sample solution checks (and FIDE chess).
    KingPath,
}

impl CastleSafety {
    /// The option's value, as `--rule castle=VALUE` takes it.
    pub fn word(self) -> &'static str {
        match self {
            CastleSafety::Inclusive => "inclusive",
            CastleSafety::KingPath => "king-path",
        }
    }
}

/// Whether `square` is under attack by the other player: their pieces would reach the
/// player's king if it stood there (the king moved from `king`, so that it does not shield
/// the square). A pawn attacks its two forward diagonals.
pub fn attacked(board: &Board, king: Pos, square: Pos, white: bool) -> bool {
    if square == king {
        return rules::in_check(board, white);
    }
    rules::in_check(&board.moved((king, square)), white)
}

/// `is_valid_castle_attempt`: "If the player has not yet moved their king and a rook during the
/// game, and there are no pieces in between the king and rook, and none of the positions from
/// the kings position to the rooks position (inclusive) are under attack, the player may
/// 'castle'", the king moving two squares towards the rook. The squares that must be safe are
/// the seed's span, inclusive ([`CastleSafety::Inclusive`]); see [`castle_check_with`].
pub fn castle_check(board: &Board, mv: Move, white: bool, info: CastlingInfo) -> Result<(), NoCastle> {
    castle_check_with(board, mv, white, info, CastleSafety::Inclusive)
}

/// [`castle_check`] with the squares that must be safe read as `safety` says.
pub fn castle_check_with(
    board: &Board,
    (from, to): Move,
    white: bool,
    info: CastlingInfo,
    safety: CastleSafety,
) -> Result<(), NoCastle> {
    let row = home_row(white);
    let king_home = Pos::new(row, 4);
    if from != king_home || to.row != row || (to.col != 2 && to.col != 6) {
        return Err(NoCastle::NotACastlingMove);
    }
    let king = if white { b'K' } else { b'k' };
    if board.at(from) != king {
        return Err(NoCastle::NoKing);
    }
    if info.1 {
        return Err(NoCastle::KingMoved);
    }
    let right = to.col == 6;
    if (right && info.2) || (!right && info.0) {
        return Err(NoCastle::RookMoved);
    }
    let corner = Pos::new(row, if right { 7 } else { 0 });
    let rook = if white { b'R' } else { b'r' };
    if board.at(corner) != rook {
        return Err(NoCastle::NoRook);
    }
    let step = if right { 1 } else { -1 };
    let between: Vec<Pos> = (1..(corner.col - from.col).abs()).map(|i| from.offset(0, i * step)).collect();
    if let Some(&p) = between.iter().find(|&&p| board.at(p) != EMPTY) {
        return Err(NoCastle::Blocked(p));
    }
    match safety {
        CastleSafety::Inclusive => {
            let span = std::iter::once(from).chain(between).chain(std::iter::once(corner));
            for square in span {
                if attacked(board, from, square, white) {
                    return Err(NoCastle::Attacked(square));
                }
            }
        }
        CastleSafety::KingPath => {
            for square in [from, from.offset(0, step), to] {
                if attacked(board, from, square, white) {
                    return Err(NoCastle::KingPathAttacked(square));
                }
            }
        }
    }
    Ok(())
}

/// `perform_castling`: the king moved two squares towards the rook and the rook placed on the
/// square the king skipped over.
pub fn perform_castling(board: &Board, (from, to): Move) -> Board {
    let right = to.col > from.col;
    let corner = Pos::new(from.row, if right { 7 } else { 0 });
    let skipped = Pos::new(from.row, if right { from.col + 1 } else { from.col - 1 });
    board.moved((from, to)).moved((corner, skipped))
}

/// Why a move is not a valid en passant capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoEnPassant {
    /// `en_passant_position` is None: no pawn moved two squares on the last move.
    NoPosition,
    /// The move does not end on `en_passant_position`.
    NotThere,
    /// The piece moved is not the player's pawn.
    NotAPawn,
    /// The move is not one square diagonally forward.
    NotDiagonal,
    /// The opponent's pawn is not beside the moving pawn, on the square it skipped to.
    NoPawnToTake,
    /// The capture would leave the player's king in check.
    LeavesKingInCheck,
}

impl NoEnPassant {
    /// The reason in words.
    pub fn sentence(self) -> &'static str {
        match self {
            NoEnPassant::NoPosition => {
                "en_passant_position is None: no pawn moved two squares on the last move"
            }
            NoEnPassant::NotThere => "the move does not end on en_passant_position",
            NoEnPassant::NotAPawn => "the piece moved is not the player's pawn",
            NoEnPassant::NotDiagonal => "the move is not one square diagonally forward",
            NoEnPassant::NoPawnToTake => "there is no opponent's pawn beside the moving pawn to take",
            NoEnPassant::LeavesKingInCheck => "the capture would leave the player's king in check",
        }
    }
}

/// `is_valid_en_passant`: "If, on the prior move, the opponent moved a pawn two positions from
/// its starting position, and that pawn could have been captured by one of the player's pawns if
/// it was to have only moved one position, the player may take the opponent's pawn with their
/// own, on the position the opponent's pawn skipped over" (and, as every move, not into check).
pub fn en_passant_check(
    board: &Board,
    (from, to): Move,
    white: bool,
    ep: Option<Pos>,
) -> Result<(), NoEnPassant> {
    let Some(ep) = ep else { return Err(NoEnPassant::NoPosition) };
    if to != ep || !to.on_board() {
        return Err(NoEnPassant::NotThere);
    }
    if !from.on_board() || board.at(from) != if white { b'P' } else { b'p' } {
        return Err(NoEnPassant::NotAPawn);
    }
    let dir = if white { -1 } else { 1 };
    if to.row - from.row != dir || (to.col - from.col).abs() != 1 {
        return Err(NoEnPassant::NotDiagonal);
    }
    let taken = Pos::new(from.row, to.col);
    if board.at(taken) != if white { b'p' } else { b'P' } || board.at(to) != EMPTY {
        return Err(NoEnPassant::NoPawnToTake);
    }
    if rules::in_check(&perform_en_passant(board, (from, to), white), white) {
        return Err(NoEnPassant::LeavesKingInCheck);
    }
    Ok(())
}

/// `perform_en_passant`: the pawn moved and the opponent's pawn beside it (on the moving pawn's
/// row, the target's column) taken.
pub fn perform_en_passant(board: &Board, (from, to): Move, _white: bool) -> Board {
    board.moved((from, to)).with(Pos::new(from.row, to.col), EMPTY)
}

/// `update_castling_info`: each of the player's left rook, king and right rook counts as moved
/// once a move starts from its first square (row 7 for White, 0 for Black; columns 0, 4, 7);
/// nothing is ever unmarked.
pub fn update_castling_info((from, _): Move, white: bool, info: CastlingInfo) -> CastlingInfo {
    let row = home_row(white);
    (
        info.0 || from == Pos::new(row, 0),
        info.1 || from == Pos::new(row, 4),
        info.2 || from == Pos::new(row, 7),
    )
}

/// `update_en_passant_position`, given the board after the move: the square the player's pawn
/// skipped when the move took it two squares forward, else None.
pub fn update_en_passant_position((from, to): Move, after: &Board, white: bool) -> Option<Pos> {
    let pawn = if white { b'P' } else { b'p' };
    let dir = if white { -1 } else { 1 };
    (to.on_board() && after.at(to) == pawn && to.col == from.col && to.row - from.row == 2 * dir)
        .then(|| Pos::new(from.row + dir, from.col))
}

/// The player's pawn that `attempt_promotion` must replace: the first on their last row, by
/// column.
pub fn promotion_square(board: &Board, white: bool) -> Option<Pos> {
    let pawn = if white { b'P' } else { b'p' };
    (0..8).map(|c| Pos::new(last_row(white), c)).find(|&p| board.at(p) == pawn)
}

/// The piece a typed promotion choice gives the player, if it is one of `q`, `n`, `r`, `b`.
pub fn promotion_piece(typed: &str, white: bool) -> Option<u8> {
    match typed.as_bytes() {
        [c] if PROMOTION_CHOICES.contains(c) => Some(if white { c.to_ascii_uppercase() } else { *c }),
        _ => None,
    }
}

/// A special move of CSSE7030 and how `main()` carries it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A move `is_move_valid` accepts.
    Normal,
    /// En passant.
    EnPassant,
    /// Castling.
    Castle,
}

/// The game state `main()` keeps under CSSE7030's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The board.
    pub board: Board,
    /// Whose turn it is.
    pub white: bool,
    /// White's castling information.
    pub white_castling: CastlingInfo,
    /// Black's castling information.
    pub black_castling: CastlingInfo,
    /// The square skipped by the pawn that moved two squares on the last move, if one did.
    pub en_passant: Option<Pos>,
    /// Which squares castling needs safe (`--rule castle=...`).
    pub castle_safety: CastleSafety,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A new game.
    pub fn new() -> Game {
        Game {
            board: Board::initial(),
            white: true,
            white_castling: (false, false, false),
            black_castling: (false, false, false),
            en_passant: None,
            castle_safety: CastleSafety::Inclusive,
        }
    }

    /// The castling information of the player to move.
    pub fn castling(&self) -> CastlingInfo {
        if self.white { self.white_castling } else { self.black_castling }
    }

    /// How `main()` accepts `mv` from the player to move: as `is_move_valid`, else
    /// `is_valid_en_passant`, else `is_valid_castle_attempt`; `None` when none accepts it.
    pub fn kind(&self, mv: Move) -> Option<Kind> {
        if rules::is_valid(&self.board, mv, self.white) {
            Some(Kind::Normal)
        } else if en_passant_check(&self.board, mv, self.white, self.en_passant).is_ok() {
            Some(Kind::EnPassant)
        } else if castle_check_with(&self.board, mv, self.white, self.castling(), self.castle_safety).is_ok()
        {
            Some(Kind::Castle)
        } else {
            None
        }
    }

    /// Every move `main()` accepts from the player to move, specials included.
    pub fn moves(&self) -> Vec<Move> {
        let mut out = rules::legal_moves(&self.board, self.white);
        for from in Board::squares().filter(|&p| belongs_to(self.board.at(p), self.white)) {
            for dc in [-2, -1, 1, 2] {
                for dr in [-1, 0, 1] {
                    let mv = (from, from.offset(dr, dc));
                    if mv.1.on_board() && !out.contains(&mv) && self.kind(mv).is_some() {
                        out.push(mv);
                    }
                }
            }
        }
        out
    }

    /// The board after `mv` (accepted as `kind`), before any promotion.
    pub fn board_after(&self, mv: Move, kind: Kind) -> Board {
        match kind {
            Kind::Normal => self.board.moved(mv),
            Kind::EnPassant => perform_en_passant(&self.board, mv, self.white),
            Kind::Castle => perform_castling(&self.board, mv),
        }
    }

    /// Plays `mv` (accepted as `kind`), `promote_to` replacing a pawn that reached its last row
    /// (the piece as placed, upper case for White); the turn passes.
    pub fn play(&mut self, mv: Move, kind: Kind, promote_to: Option<u8>) {
        let mut board = self.board_after(mv, kind);
        if let (Some(p), Some(piece)) = (promotion_square(&board, self.white), promote_to) {
            board = board.with(p, piece);
        }
        let info = update_castling_info(mv, self.white, self.castling());
        if self.white {
            self.white_castling = info;
        } else {
            self.black_castling = info;
        }
        self.en_passant = update_en_passant_position(mv, &board, self.white);
        self.board = board;
        self.white = !self.white;
    }

    /// Whether `mv` (accepted as `kind`) leaves a pawn to promote.
    pub fn promotes(&self, mv: Move, kind: Kind) -> bool {
        promotion_square(&self.board_after(mv, kind), self.white).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_a1::board::tests::{board, mv};

    const FREE: (bool, bool, bool) = (false, false, false);

    #[test]
    fn castling_both_ways_and_the_board_after() {
        let b = board("r...k..r pppppppp ........ ........ ........ ........ PPPPPPPP R...K..R");
        assert_eq!(castle_check(&b, mv("e1 g1"), true, FREE), Ok(()));
        assert_eq!(castle_check(&b, mv("e1 c1"), true, FREE), Ok(()));
        assert_eq!(castle_check(&b, mv("e8 g8"), false, FREE), Ok(()));
        assert_eq!(castle_check(&b, mv("e8 c8"), false, FREE), Ok(()));
        assert_eq!(perform_castling(&b, mv("e1 g1")).rows()[7], "R....RK.");
        assert_eq!(perform_castling(&b, mv("e1 c1")).rows()[7], "..KR...R");
        assert_eq!(perform_castling(&b, mv("e8 c8")).rows()[0], "..kr...r");
        assert_eq!(castle_check(&b, mv("e1 g1"), false, FREE), Err(NoCastle::NotACastlingMove));
        assert_eq!(castle_check(&b, mv("e1 f1"), true, FREE), Err(NoCastle::NotACastlingMove));
        assert_eq!(castle_check(&b, mv("e1 g1"), true, (false, true, false)), Err(NoCastle::KingMoved));
        assert_eq!(castle_check(&b, mv("e1 g1"), true, (false, false, true)), Err(NoCastle::RookMoved));
        assert_eq!(castle_check(&b, mv("e1 c1"), true, (false, false, true)), Ok(()));
    }

    #[test]
    fn the_seeds_attack_rule_covers_the_rooks_side_inclusive() {
        // A black knight on a3 attacks b1 only: the seed forbids it ("from the kings position to
        // the rooks position (inclusive)"), where FIDE chess would allow the long castle.
        let b = board("....k... ........ ........ ........ ........ n....... ........ R...K..R");
        assert_eq!(castle_check(&b, mv("e1 c1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 1))));
        assert_eq!(castle_check(&b, mv("e1 g1"), true, FREE), Ok(()));
        // A black pawn on g2 attacks f1 and h1.
        let p = board("....k... ........ ........ ........ ........ ........ ......p. R...K..R");
        assert_eq!(castle_check(&p, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 5))));
        // In check: the king's own square.
        let c = board("....k... ....r... ........ ........ ........ ........ ........ R...K..R");
        assert_eq!(castle_check(&c, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 4))));
        // A knight between.
        let n = board("....k... ........ ........ ........ ........ ........ ........ RN..K..R");
        assert_eq!(castle_check(&n, mv("e1 c1"), true, FREE), Err(NoCastle::Blocked(Pos::new(7, 1))));
        let gone = board("....k... ........ ........ ........ ........ ........ ........ ....K..R");
        assert_eq!(castle_check(&gone, mv("e1 c1"), true, FREE), Err(NoCastle::NoRook));
    }

    #[test]
    fn en_passant_right_after_a_double_push_only() {
        let mut g = Game::new();
        for m in ["e2 e4", "a7 a6", "e4 e5", "d7 d5"] {
            let k = g.kind(mv(m)).unwrap();
            g.play(mv(m), k, None);
        }
        assert_eq!(g.en_passant, Some(Pos::new(2, 3)));
        assert_eq!(g.kind(mv("e5 d6")), Some(Kind::EnPassant));
        let mut late = g;
        late.play(mv("h2 h3"), Kind::Normal, None);
        late.play(mv("h7 h6"), Kind::Normal, None);
        assert_eq!(late.en_passant, None);
        assert_eq!(late.kind(mv("e5 d6")), None);
        g.play(mv("e5 d6"), Kind::EnPassant, None);
        assert_eq!(g.board.rows()[2], "p..P....");
        assert_eq!(g.board.rows()[3], "........");
    }

    #[test]
    fn en_passant_may_not_leave_the_king_in_check() {
        // White king a5, white pawn b5, black pawn c5 just pushed two, black rook h5: taking
        // empties the row and the rook checks the king.
        let b = board("....k... ........ ........ KPp....r ........ ........ ........ ........");
        let r = en_passant_check(&b, mv("b5 c6"), true, Some(Pos::new(2, 2)));
        assert_eq!(r, Err(NoEnPassant::LeavesKingInCheck));
    }

    #[test]
    fn castling_info_and_en_passant_position_update_as_the_seed_says() {
        assert_eq!(update_castling_info(mv("e1 e2"), true, FREE), (false, true, false));
        assert_eq!(update_castling_info(mv("h8 h5"), false, FREE), (false, false, true));
        assert_eq!(update_castling_info(mv("a1 a3"), false, FREE), FREE, "Black's row is 0");
        assert_eq!(update_castling_info(mv("e1 g1"), true, (true, false, false)), (true, true, false));
        let after = Board::initial().moved(mv("e2 e4"));
        assert_eq!(update_en_passant_position(mv("e2 e4"), &after, true), Some(Pos::new(5, 4)));
        let after = Board::initial().moved(mv("e2 e3"));
        assert_eq!(update_en_passant_position(mv("e2 e3"), &after, true), None);
    }

    #[test]
    fn promotion_takes_the_players_pawn_on_its_last_row() {
        let b = board("..P.k... ........ ........ ........ ........ ........ ........ ....K..p");
        assert_eq!(promotion_square(&b, true), Some(Pos::new(0, 2)));
        assert_eq!(promotion_square(&b, false), Some(Pos::new(7, 7)));
        assert_eq!(promotion_piece("q", true), Some(b'Q'));
        assert_eq!(promotion_piece("n", false), Some(b'n'));
        assert_eq!(promotion_piece("k", true), None);
        assert_eq!(promotion_piece("Q", true), None);
        assert_eq!(promotion_piece("", true), None);
    }
}
