//! The chess assignment's `fuzz`: random valid games from the start, and at every position of
//! a game the questions Section 4 asks about a position (`is_move_valid` of every valid move
//! and of many invalid ones, `can_move`, `is_stalemate`, `check_game_over`'s value and printed
//! text, `update_board` of a valid move), each answered by the submission through one host
//! session per game and compared with the oracle ([`super::oracle::expect`]).
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
//! (`ask: is_move_valid ((7, 4), (6, 4))`, `ask: can_move`) ask only those questions there. A
//! failing game shrinks to the earliest position that fails (asked alone), then to the one
//! question that fails, written as an ordinary case file (`call: ...`, ready for a corpus) whose
//! `# game:` comment holds the moves; last, a move of each player is dropped from the game while
//! the question still fails the same way.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::board::{Board, EMPTY, Move, Pos, belongs_to, parse_move};
use super::case_file::CaseFile;
use super::oracle::{self, Expected};
use super::pyvalue::{Py, parse_value};
use super::referee::{ChessA1Referee, short};
use super::rules::{Invalid, check_move, legal_moves, reachable, status as rules_status};
use super::texts::Texts;
use crate::harness::host::{CallOutcome, CallRecord, HostCall};
use crate::harness::referee::{Fuzzing, PreparedCase};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// The longest random game of the `random` source.
const MAX_PLIES: usize = 60;

/// The longest game of the `captures` source (captures first, so boards empty and games end).
const MAX_CAPTURE_PLIES: usize = 160;

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

fn moves_text(moves: &[Move]) -> String {
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
fn end_of(moves: &[Move]) -> (Board, bool) {
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
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in board.0.iter().flatten().chain(std::iter::once(&u8::from(white))) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
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

fn side_of(white: bool) -> Side {
    if white { Side::White } else { Side::Black }
}

/// The game file of `moves` asking about every position, and the side to move at its end.
fn game_file(moves: Vec<Move>) -> (Vec<u8>, Side) {
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

impl Fuzzing for ChessA1Referee {
    fn any_move_category(&self) -> &'static str {
        "validation"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let plies = rng.gen_range(0..=MAX_PLIES);
        game_file(random_game(&mut rng, plies, false))
    }

    fn edge_sources(&self) -> Vec<String> {
        vec![CAPTURES.to_string()]
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        (source == CAPTURES).then(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let plies = rng.gen_range(20..=MAX_CAPTURE_PLIES);
            game_file(random_game(&mut rng, plies, true))
        })
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        if let Some(Ok(game)) = GameCase::parse(input, "fuzzed case") {
            let n = game.moves.len();
            return match &game.ask {
                // Each position alone, earliest first: the first that fails is the shortest
                // prefix (one position's questions per run, cheaper than replaying prefixes).
                Ask::Every => (0..=n)
                    .map(|k| {
                        GameCase { moves: game.moves[..k].to_vec(), ask: Ask::Last }.render().into_bytes()
                    })
                    .collect(),
                Ask::Last | Ask::These(_) => {
                    let list: Vec<Query> = game.questions().into_iter().map(|(_, q)| q).collect();
                    match list.len() {
                        0 => Vec::new(),
                        1 => vec![single_case(&game.moves, list[0])],
                        len => {
                            let half = len / 2;
                            [&list[..half], &list[half..]]
                                .into_iter()
                                .map(|part| {
                                    if part.len() == 1 {
                                        single_case(&game.moves, part[0])
                                    } else {
                                        GameCase { moves: game.moves.clone(), ask: Ask::These(part.to_vec()) }
                                            .render()
                                            .into_bytes()
                                    }
                                })
                                .collect()
                        }
                    }
                }
            };
        }
        // One question: drop a move of each player (so the same player is to move; each
        // player's other moves keep their order, taken in turn), while the rest stays a valid
        // game and the oracle's answer to the question stays the same (the
        // same valid move, the same broken rule, the same check or end of game): the
        // candidates most likely to fail the same way.
        let Some((moves, query)) = parse_single(input) else { return Vec::new() };
        let texts = &self.texts;
        let answer = |moves: &[Move]| {
            let (board, white) = end_of(moves);
            let args = query.args(&board, white);
            let expected = oracle::expect(query.function(), &args, texts).ok()?;
            let rule = match query {
                Query::IsMoveValid(mv) => check_move(&board, mv, white).err(),
                _ => None,
            };
            Some((expected.value, expected.printed, rule, rules_status(&board, white)))
        };
        let Some(wanted) = answer(&moves) else { return Vec::new() };
        let whites: Vec<Move> = moves.iter().step_by(2).copied().collect();
        let blacks: Vec<Move> = moves.iter().skip(1).step_by(2).copied().collect();
        let mut out = Vec::new();
        for a in 0..whites.len() {
            for c in 0..blacks.len() {
                let w = whites.iter().enumerate().filter(|&(k, _)| k != a).map(|(_, &m)| m);
                let mut b = blacks.iter().enumerate().filter(|&(k, _)| k != c).map(|(_, &m)| m);
                let mut shorter = Vec::with_capacity(moves.len());
                for m in w {
                    shorter.push(m);
                    shorter.extend(b.next());
                }
                if parse_moves(&moves_text(&shorter)).is_err() {
                    continue;
                }
                if let Query::UpdateBoard(mv) = query {
                    let (board, white) = end_of(&shorter);
                    if check_move(&board, mv, white).is_err() {
                        continue;
                    }
                }
                if answer(&shorter).as_ref() == Some(&wanted) {
                    out.push(single_case(&shorter, query));
                }
            }
        }
        out
    }

    fn size(&self, input: &[u8]) -> usize {
        match GameCase::parse(input, "fuzzed case") {
            Some(Ok(game)) => game.moves.len(),
            Some(Err(_)) => 0,
            None => parse_single(input).map_or(0, |(moves, _)| moves.len()),
        }
    }

    fn size_unit(&self) -> &'static str {
        "moves"
    }

    fn side_of(&self, input: &[u8]) -> Option<Side> {
        match GameCase::parse(input, "fuzzed case") {
            Some(Ok(game)) => Some(side_of(game.moves.len().is_multiple_of(2))),
            Some(Err(_)) => None,
            None => parse_single(input).map(|(moves, _)| side_of(moves.len().is_multiple_of(2))),
        }
    }
}

/// One question with its expected answer.
struct Asked {
    /// Moves before its position.
    ply: usize,
    query: Query,
    /// The call as Python.
    call: String,
    expected: Expected,
}

/// A fuzzed game ready to run: its calls and their expected answers.
pub struct GameRun {
    game: GameCase,
    asked: Vec<Asked>,
}

/// The case of a game file, or of a case file that is one question of a fuzzed game (its
/// `# game:` comment names the moves); `None` for any other case file.
pub fn prepare(input: &[u8], origin: &str, texts: &Texts) -> Option<Result<Box<dyn PreparedCase>, String>> {
    let game = match GameCase::parse(input, origin) {
        Some(Ok(g)) => g,
        Some(Err(e)) => return Some(Err(e)),
        // A shrunk question: judged as in its game, so that it fails the same way.
        None => {
            let (moves, query) = parse_single(input)?;
            GameCase { moves, ask: Ask::These(vec![query]) }
        }
    };
    let all = positions(&game.moves);
    let mut asked = Vec::new();
    for (ply, query) in game.questions() {
        let (board, white) = all[ply];
        let args = query.args(&board, white);
        let call = super::pyvalue::render_call(query.function(), &args);
        match oracle::expect(query.function(), &args, texts) {
            Ok(expected) => asked.push(Asked { ply, query, call, expected }),
            Err(e) => return Some(Err(format!("{origin}: {e}"))),
        }
    }
    Some(Ok(Box::new(GameRun { game, asked })))
}

impl GameRun {
    /// Where a question is: after how many moves, and which.
    fn place(&self, a: &Asked) -> String {
        if a.ply == 0 {
            "at the start".to_string()
        } else {
            format!("after {} move(s) ({})", a.ply, moves_text(&self.game.moves[..a.ply]))
        }
    }

    /// A stable name for the kind of mistake, for grouping failures: for `is_move_valid`,
    /// which rule a wrongly accepted move breaks, or that a valid move was refused.
    fn rule(&self, a: &Asked, returned: &Py) -> String {
        match a.query {
            Query::IsMoveValid(mv) if returned.py_eq(&Py::Bool(true)) => {
                let (board, white) = end_of(&self.game.moves[..a.ply]);
                match check_move(&board, mv, white) {
                    Err(rule) => format!("is_move_valid-accepts-{}", rule.name()),
                    Ok(()) => "is_move_valid-returns".to_string(),
                }
            }
            Query::IsMoveValid(_) if a.expected.value == Py::Bool(true) => {
                "is_move_valid-rejects-valid".to_string()
            }
            q => format!("{}-returns", q.function()),
        }
    }
}

impl PreparedCase for GameRun {
    fn judge(&self, _output: &[u8], origin: &str, _strict: bool) -> Judgement {
        Judgement {
            verdict: Some(Verdict::MalformedOutput),
            reason: format!("{origin}: a fuzzed game is judged by its calls, not by an output file"),
            expected: self.expected(),
            ..Judgement::default()
        }
    }

    fn golden_used(&self) -> bool {
        false
    }

    fn expected(&self) -> Vec<String> {
        vec![format!("{} answers as the oracle gives them", self.asked.len())]
    }

    fn check_answer(&self, _answer: &[u8]) -> Option<String> {
        Some("a fuzzed chess-a1 game has no course answer file".to_string())
    }

    fn script(&self) -> Option<Vec<HostCall>> {
        Some(
            self.asked
                .iter()
                .map(|a| {
                    let (board, white) = end_of(&self.game.moves[..a.ply]);
                    let args = a.query.args(&board, white);
                    HostCall::new(
                        "call",
                        json!({
                            "function": a.query.function(),
                            "args": args.iter().map(Py::to_json).collect::<Vec<_>>(),
                        }),
                    )
                })
                .collect(),
        )
    }

    fn reproduce(&self) -> Option<String> {
        if let [a] = &self.asked[..] {
            let show = if a.expected.printed.is_some() {
                a.call.clone()
            } else {
                format!("print(repr({}))", a.call)
            };
            if !a.call.contains(['"', '$', '`', '\\']) {
                return Some(format!("python3 -c \"from a1 import *; {show}\""));
            }
        }
        Some(format!(
            "the {} calls of this game ({} move(s): {}); the shrunk case is one call",
            self.asked.len(),
            self.game.moves.len(),
            short(&moves_text(&self.game.moves))
        ))
    }

    fn judge_calls(&self, calls: &[CallRecord]) -> Judgement {
        let none = Judgement { expected: self.expected(), ..Judgement::default() };
        // Every call is judged, not only up to the first wrong answer: a bot that crashes on
        // an off-board move at every position would otherwise hide every later bug. The first
        // failure of each rule is kept, the first of all leads and the others go in `also`.
        let mut failures: Vec<Judgement> = Vec::new();
        for (a, call) in self.asked.iter().zip(calls) {
            let fail = |verdict: Verdict, rule: String, played: Option<String>, reason: String| Judgement {
                verdict: Some(verdict),
                rule: Some(rule),
                played,
                expected: vec![a.expected.value.to_string()],
                reason,
                ..Judgement::default()
            };
            let failure = match &call.outcome {
                CallOutcome::Value(v) => {
                    let returned = Py::from_json(v);
                    if !returned.py_eq(&a.expected.value) {
                        Some(fail(
                            Verdict::WrongAnswer,
                            self.rule(a, &returned),
                            Some(returned.to_string()),
                            format!(
                                "{}: {} returned {returned}, expected {}: {}",
                                self.place(a),
                                short(&a.call),
                                a.expected.value,
                                a.expected.why
                            ),
                        ))
                    } else if let Some(want) = &a.expected.printed
                        && *want != call.stdout
                    {
                        Some(fail(
                            Verdict::WrongAnswer,
                            format!("{}-prints", a.query.function()),
                            Some(returned.to_string()),
                            format!(
                                "{}: {} returned {returned} as it should, but printed {:?} where {:?} is expected: {}",
                                self.place(a),
                                short(&a.call),
                                call.stdout,
                                want,
                                a.expected.why
                            ),
                        ))
                    } else {
                        None
                    }
                }
                CallOutcome::Error(err) => {
                    let at = err.trace.first().map(|t| format!(" at {t}")).unwrap_or_default();
                    let rule = if err.kind == "load" { "missing" } else { "raises" };
                    Some(fail(
                        Verdict::Crash,
                        format!("{}-{rule}", a.query.function()),
                        None,
                        format!(
                            "{}: {} raised {}{at} (expected {}: {})",
                            self.place(a),
                            short(&a.call),
                            err.headline(),
                            a.expected.value,
                            a.expected.why
                        ),
                    ))
                }
                // A timeout or a death ends the session: the harness reports the call when
                // nothing failed before it.
                _ => break,
            };
            if let Some(f) = failure
                && !failures.iter().any(|g| g.verdict == f.verdict && g.rule == f.rule)
            {
                failures.push(f);
            }
        }
        if !failures.is_empty() {
            let mut first = failures.remove(0);
            first.also = failures;
            return first;
        }
        if calls.len() < self.asked.len() {
            return none;
        }
        Judgement {
            verdict: Some(Verdict::Pass),
            reason: format!(
                "{} answers after {} move(s) agree with the oracle",
                self.asked.len(),
                self.game.moves.len()
            ),
            ..none
        }
    }
}
