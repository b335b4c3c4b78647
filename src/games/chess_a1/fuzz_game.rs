//! A fuzzed chess-a1 game as a file: the moves of a valid game from the start and what is asked
//! about its positions, the questions asked at one position, random games, and a failing
//! question written back as an ordinary case file.
//!
//! A fuzzed case is a game file:
//!
//! ```text
//! # chess-a1 fuzz: a random game; every position of it is asked about
//! game: e2 e4, e7 e5, g1 f3
//! ask: every position
//! ```
//!
//! `ask: last position` asks only about the game's last position, and explicit `ask:` lines
//! (`ask: is_move_valid ((7, 4), (6, 4))`, `ask: can_move`) ask only those questions there.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{Board, EMPTY, Move, Pos, belongs_to, parse_move};
use super::case_file::CaseFile;
use super::pyvalue::{Py, parse_value};
use super::rules::{Invalid, check_move, legal_moves, reachable};
use crate::side::Side;

/// Invalid moves of the player's own pieces asked about at each position (drawn from the
/// squares near each piece).
const NEAR_MISSES: usize = 10;

/// The edge source that plays captures whenever it can: sparse boards, checkmates, stalemates.
pub const CAPTURES: &str = "captures";

/// What a fuzzed game asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// Every question at every position of the game.
    Every,
    /// Every question at the game's last position.
    Last,
    /// These questions at the last position.
    These(Vec<Query>),
}

/// One question about a position, asked for the player to move there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    /// `is_move_valid(move, board, whites_turn)`.
    IsMoveValid(Move),
    /// `can_move(board, whites_turn)`.
    CanMove,
    /// `is_stalemate(board, whites_turn)`.
    IsStalemate,
    /// `check_game_over(board, whites_turn)`: the value and the printed text.
    CheckGameOver,
    /// `update_board(board, move)` of a valid move.
    UpdateBoard(Move),
}

impl Query {
    /// The function asked.
    pub fn function(self) -> &'static str {
        match self {
            Query::IsMoveValid(_) => "is_move_valid",
            Query::CanMove => "can_move",
            Query::IsStalemate => "is_stalemate",
            Query::CheckGameOver => "check_game_over",
            Query::UpdateBoard(_) => "update_board",
        }
    }

    /// The call's arguments at `board` with `white` to move.
    pub fn args(self, board: &Board, white: bool) -> Vec<Py> {
        match self {
            Query::IsMoveValid(mv) => vec![Py::mv(mv), Py::board(board), Py::Bool(white)],
            Query::UpdateBoard(mv) => vec![Py::board(board), Py::mv(mv)],
            _ => vec![Py::board(board), Py::Bool(white)],
        }
    }

    /// The `ask:` line's text: `is_move_valid ((6, 4), (4, 4))`, `can_move`.
    fn text(self) -> String {
        match self {
            Query::IsMoveValid(mv) | Query::UpdateBoard(mv) => format!("{} {}", self.function(), Py::mv(mv)),
            _ => self.function().to_string(),
        }
    }

    fn parse(text: &str) -> Result<Query, String> {
        let (name, rest) = text.trim().split_once(' ').unwrap_or((text.trim(), ""));
        let mv = || {
            parse_value(rest.trim())
                .ok()
                .and_then(|v| v.as_move())
                .ok_or_else(|| format!("`{}` is not a move such as ((6, 4), (4, 4))", rest.trim()))
        };
        match name {
            "is_move_valid" => Ok(Query::IsMoveValid(mv()?)),
            "update_board" => Ok(Query::UpdateBoard(mv()?)),
            "can_move" if rest.trim().is_empty() => Ok(Query::CanMove),
            "is_stalemate" if rest.trim().is_empty() => Ok(Query::IsStalemate),
            "check_game_over" if rest.trim().is_empty() => Ok(Query::CheckGameOver),
            _ => Err(format!(
                "`{}` is not a question: is_move_valid MOVE, update_board MOVE, can_move, is_stalemate or check_game_over",
                text.trim()
            )),
        }
    }
}

/// A fuzzed game: valid moves from the start, and what is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct GameCase {
    /// The moves, each valid for the player to move.
    pub moves: Vec<Move>,
    /// The questions.
    pub ask: Ask,
}

/// A move as the user types it: `e2 e4`.
fn typed((from, to): Move) -> String {
    format!("{} {}", from.square().unwrap_or_default(), to.square().unwrap_or_default())
}

pub fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(|&m| typed(m)).collect::<Vec<_>>().join(", ")
}

/// Reads `e2 e4, e7 e5` (empty for no move); each move must be valid in turn.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    let mut board = Board::initial();
    let mut white = true;
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mv = parse_move(part).ok_or_else(|| format!("`{part}` is not a move such as `e2 e4`"))?;
        if let Err(rule) = check_move(&board, mv, white) {
            return Err(format!("move {} `{part}` is not valid: {}", out.len() + 1, rule.sentence()));
        }
        board = board.moved(mv);
        white = !white;
        out.push(mv);
    }
    Ok(out)
}

/// The positions of a game: the board and whether White is to move, from the start to the end.
pub fn positions(moves: &[Move]) -> Vec<(Board, bool)> {
    let mut out = vec![(Board::initial(), true)];
    for &mv in moves {
        let (board, white) = out[out.len() - 1];
        out.push((board.moved(mv), !white));
    }
    out
}

/// The position at the end of the moves `game:` names.
pub fn end_of(moves: &[Move]) -> (Board, bool) {
    positions(moves).pop().unwrap_or((Board::initial(), true))
}

impl GameCase {
    /// Reads a game file; `None` when the text is not one (it has no `game:` line), an error
    /// naming `origin` and the line when it is one but malformed.
    pub fn parse(bytes: &[u8], origin: &str) -> Option<Result<GameCase, String>> {
        let text = std::str::from_utf8(bytes).ok()?;
        if !text.lines().any(|l| l.starts_with("game:")) || text.lines().any(|l| l.starts_with("call:")) {
            return None;
        }
        let mut moves = None;
        let mut ask: Option<Ask> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            let at = |e: String| format!("{origin}:{}: {e}", i + 1);
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix("game:") {
                if moves.is_some() {
                    return Some(Err(at("a game file has one `game:` line".into())));
                }
                match parse_moves(rest) {
                    Ok(m) => moves = Some(m),
                    Err(e) => return Some(Err(at(e))),
                }
            } else if let Some(rest) = line.strip_prefix("ask:") {
                let rest = rest.trim();
                let next = match (rest, ask.take()) {
                    ("every position", None) => Ask::Every,
                    ("last position", None) => Ask::Last,
                    ("every position" | "last position", Some(_)) | (_, Some(Ask::Every | Ask::Last)) => {
                        return Some(Err(at("`every position` and `last position` stand alone".into())));
                    }
                    (q, previous) => match Query::parse(q) {
                        Ok(q) => {
                            let mut list = match previous {
                                Some(Ask::These(l)) => l,
                                _ => Vec::new(),
                            };
                            list.push(q);
                            Ask::These(list)
                        }
                        Err(e) => return Some(Err(at(e))),
                    },
                };
                ask = Some(next);
            } else {
                return Some(Err(at(format!("expected `game:`, `ask:` or a `#` comment, found `{line}`"))));
            }
        }
        Some(Ok(GameCase { moves: moves.unwrap_or_default(), ask: ask.unwrap_or(Ask::Every) }))
    }

    /// The file's text, as [`GameCase::parse`] reads it.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let what = match &self.ask {
            Ask::Every => "every position of the game is asked about",
            Ask::Last => "the game's last position is asked about",
            Ask::These(_) => "these questions are asked at the game's last position",
        };
        let _ = writeln!(out, "# chess-a1 fuzz: {} move(s) from the start; {what}", self.moves.len());
        let _ = writeln!(out, "game: {}", moves_text(&self.moves));
        match &self.ask {
            Ask::Every => out.push_str("ask: every position\n"),
            Ask::Last => out.push_str("ask: last position\n"),
            Ask::These(list) => {
                for q in list {
                    let _ = writeln!(out, "ask: {}", q.text());
                }
            }
        }
        out
    }

    /// Every question asked, in order: the number of moves before its position, and the query.
    pub fn questions(&self) -> Vec<(usize, Query)> {
        let all = positions(&self.moves);
        let last = all.len() - 1;
        match &self.ask {
            Ask::Every => all
                .iter()
                .enumerate()
                .flat_map(|(k, &(board, white))| queries(&board, white).into_iter().map(move |q| (k, q)))
                .collect(),
            Ask::Last => queries(&all[last].0, all[last].1).into_iter().map(|q| (last, q)).collect(),
            Ask::These(list) => list.iter().map(|&q| (last, q)).collect(),
        }
    }
}

/// A deterministic seed from a position, so that a position is always asked the same questions.
fn position_seed(board: &Board, white: bool) -> u64 {
    crate::harness::referee::stable_hash(board.0.iter().flatten().copied().chain([u8::from(white)]))
}

/// Whether `mv` moves a pawn to its last row (promotion is CSSE7030's; the game never plays it).
fn promotes(board: &Board, (from, to): Move) -> bool {
    board.at(from).eq_ignore_ascii_case(&b'p') && (to.row == 0 || to.row == 7)
}

/// The questions asked at one position: `is_move_valid` of every valid move, of every move the
/// piece could make but for its king (pins, kings walking into check), of near misses of each
/// piece's movement, of the other player's moves, of an empty square, of a piece to its own
/// square and off the board; then `can_move`, `is_stalemate`, `check_game_over`, and
/// `update_board` of a valid move.
pub fn queries(board: &Board, white: bool) -> Vec<Query> {
    let mut rng = ChaCha8Rng::seed_from_u64(position_seed(board, white));
    let mut out: Vec<Query> = Vec::new();
    let legal = legal_moves(board, white);
    out.extend(legal.iter().map(|&m| Query::IsMoveValid(m)));
    let own: Vec<Pos> = Board::squares().filter(|&p| belongs_to(board.at(p), white)).collect();
    // Moves the piece may make but for its king.
    for &from in &own {
        for to in reachable(board, from) {
            if check_move(board, (from, to), white) == Err(Invalid::LeavesKingInCheck) {
                out.push(Query::IsMoveValid((from, to)));
            }
        }
    }
    // Near misses: squares up to two steps and a knight's jump away that the piece may not reach.
    let mut near: Vec<Move> = Vec::new();
    for &from in &own {
        for dr in -2..=2 {
            for dc in -2..=2 {
                let to = from.offset(dr, dc);
                if to.on_board()
                    && to != from
                    && matches!(
                        check_move(board, (from, to), white),
                        Err(Invalid::PieceMovement | Invalid::OwnPieceOnTarget)
                    )
                {
                    near.push((from, to));
                }
            }
        }
    }
    near.shuffle(&mut rng);
    out.extend(near.into_iter().take(NEAR_MISSES).map(Query::IsMoveValid));
    // The other player's moves, an empty square, the same square, off the board.
    let theirs = legal_moves(board, !white);
    out.extend(theirs.choose_multiple(&mut rng, 2).map(|&m| Query::IsMoveValid(m)));
    let empty: Vec<Pos> = Board::squares().filter(|&p| board.at(p) == EMPTY).collect();
    if let (Some(&from), Some(&to)) = (empty.choose(&mut rng), empty.choose(&mut rng))
        && from != to
    {
        out.push(Query::IsMoveValid((from, to)));
    }
    if let Some(&from) = own.choose(&mut rng) {
        out.push(Query::IsMoveValid((from, from)));
        let off =
            [Pos::new(-1, from.col), Pos::new(8, from.col), Pos::new(from.row, 8), Pos::new(from.row, -1)];
        out.push(Query::IsMoveValid((from, off[rng.gen_range(0..off.len())])));
    }
    out.extend([Query::CanMove, Query::IsStalemate, Query::CheckGameOver]);
    let playable: Vec<Move> = legal.iter().copied().filter(|&m| !promotes(board, m)).collect();
    if let Some(&mv) = playable.choose(&mut rng) {
        out.push(Query::UpdateBoard(mv));
    }
    out
}

/// A random valid game from the start of up to `plies` moves, never moving a pawn to its last
/// row; with `captures`, a capture whenever there is one. It stops where the player to move has
/// no valid move.
pub fn random_game(rng: &mut ChaCha8Rng, plies: usize, captures: bool) -> Vec<Move> {
    let mut board = Board::initial();
    let mut white = true;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let options: Vec<Move> =
            legal_moves(&board, white).into_iter().filter(|&m| !promotes(&board, m)).collect();
        let taking: Vec<Move> = options.iter().copied().filter(|&(_, to)| board.at(to) != EMPTY).collect();
        let pool = if captures && !taking.is_empty() { &taking } else { &options };
        let Some(&mv) = pool.choose(rng) else { break };
        board = board.moved(mv);
        white = !white;
        moves.push(mv);
    }
    moves
}

pub fn side_of(white: bool) -> Side {
    if white { Side::White } else { Side::Black }
}

/// The game file of `moves` asking about every position, and the side to move at its end.
pub fn game_file(moves: Vec<Move>) -> (Vec<u8>, Side) {
    let white = moves.len().is_multiple_of(2);
    (GameCase { moves, ask: Ask::Every }.render().into_bytes(), side_of(white))
}

/// The one question `query` after `moves`, as an ordinary case file whose `# game:` comment
/// holds the moves.
pub fn single_case(moves: &[Move], query: Query) -> Vec<u8> {
    let (board, white) = end_of(moves);
    let file = CaseFile {
        note: vec![
            format!("chess-a1 fuzz: asked after {} move(s) from the start", moves.len()),
            format!("game: {}", moves_text(moves)),
        ],
        function: query.function().to_string(),
        args: query.args(&board, white),
        inputs: Vec::new(),
    };
    file.render().into_bytes()
}

/// A single-question case file with its `# game:` comment: the moves and the question; `None`
/// for any other file, or when the call is not that question at the game's end.
pub fn parse_single(bytes: &[u8]) -> Option<(Vec<Move>, Query)> {
    let file = CaseFile::parse(bytes, "fuzzed case").ok()?;
    let moves = file.note.iter().find_map(|n| n.strip_prefix("game:")).map(parse_moves)?.ok()?;
    let query = match file.function.as_str() {
        "is_move_valid" => Query::IsMoveValid(file.args.first()?.as_move()?),
        "update_board" => Query::UpdateBoard(file.args.get(1)?.as_move()?),
        "can_move" => Query::CanMove,
        "is_stalemate" => Query::IsStalemate,
        "check_game_over" => Query::CheckGameOver,
        _ => return None,
    };
    // The file must still be the question at the game's end.
    let (board, white) = end_of(&moves);
    (file.args == query.args(&board, white)).then_some((moves, query))
}
