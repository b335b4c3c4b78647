//! The `extras` category (CSSE7030, `--rule extras=on`): cases for each function of the
//! assignment's Section 4.6 and `main()` games that castle, take en passant and promote.
//!
//! Positions come from random play under CSSE7030's rules (each player's castling information
//! and the en passant square kept as `main()` keeps them) and from the start position with
//! pieces cleared and attackers added, so that every reason a castling or an en passant
//! capture can be refused occurs; games come from short openings that reach a special move,
//! with help, bad input and random play around them. The same seed gives the same cases.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::board::{Board, EMPTY, Move, Pos, parse_move};
use super::case_file::CaseFile;
use super::extras::{self, Game, Kind, NoCastle, NoEnPassant, PROMOTION_CHOICES};
use super::pyvalue::Py;
use super::rules::{self, Status};
use super::transcript::{self, Ending};

/// How many cases of each function, in this order, then `main()` for the rest.
const PLAN: &[(&str, usize)] = &[
    ("attempt_promotion", 12),
    ("is_valid_castle_attempt", 20),
    ("perform_castling", 6),
    ("is_valid_en_passant", 14),
    ("perform_en_passant", 6),
    ("update_castling_info", 10),
    ("update_en_passant_position", 10),
];

/// Short openings that reach a special move (or try one that is refused), as `main()` input.
pub const OPENINGS: &[(&str, &str)] = &[
    ("e2 e4|e7 e5|g1 f3|b8 c6|f1 c4|g8 f6|e1 g1", "White castles on the king's side"),
    ("d2 d4|d7 d5|b1 c3|b8 c6|c1 f4|c8 f5|d1 d2|d8 d7|e1 c1", "White castles on the queen's side"),
    ("e2 e4|e7 e5|g1 f3|g8 f6|f1 c4|f8 c5|b1 c3|e8 g8", "Black castles on the king's side"),
    ("d2 d4|d7 d5|e2 e3|b8 c6|g1 f3|c8 f5|f1 d3|d8 d7|e1 g1|e8 c8", "both castle, Black on the queen's side"),
    (
        "e2 e4|e7 e5|g1 f3|b8 c6|f1 c4|g8 f6|e1 e2|f8 c5|e2 e1|a7 a6|e1 g1",
        "a castling refused: the king has moved (and come back)",
    ),
    (
        "e2 e4|e7 e5|g1 f3|b8 c6|f1 c4|g8 f6|h1 g1|a7 a6|g1 h1|a6 a5|e1 g1",
        "a castling refused: the rook has moved (and come back)",
    ),
    ("e2 e4|e7 e5|e1 g1", "a castling refused: pieces in between"),
    (
        "e2 e4|e7 e5|g1 h3|d7 d6|f1 e2|c8 h3|g2 h3|d8 g5|e1 g1",
        "a castling refused: through an attacked square",
    ),
    ("e2 e4|a7 a6|e4 e5|d7 d5|e5 d6", "White takes en passant"),
    ("a2 a3|d7 d5|a3 a4|d5 d4|e2 e4|d4 e3", "Black takes en passant"),
    ("e2 e4|a7 a6|e4 e5|d7 d5|h2 h3|h7 h6|e5 d6", "an en passant refused: one move too late"),
    ("e2 e4|d7 d6|e4 e5|d6 d5|e5 d6", "an en passant refused: the pawn came in two single steps"),
    ("a2 a4|b7 b5|a4 b5|a7 a6|b5 a6|c8 b7|a6 b7|g8 f6|b7 a8", "a white pawn promoted"),
    ("h2 h3|a7 a5|h3 h4|a5 a4|h4 h5|a4 a3|h5 h6|a3 b2|h6 g7|b2 a1", "a black pawn promoted"),
];

/// Choices `attempt_promotion` must refuse (never an upper-case letter: RULES.md leaves those
/// open).
const NOT_PIECES: &[&str] = &["k", "p", "x", "", "queen", "1", "qq", " q"];

fn case(function: &str, args: Vec<Py>, inputs: Vec<String>, note: String) -> CaseFile {
    CaseFile { note: vec![note], function: function.to_string(), args, inputs }
}

fn info(t: extras::CastlingInfo) -> Py {
    Py::Tuple(vec![Py::Bool(t.0), Py::Bool(t.1), Py::Bool(t.2)])
}

fn player(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

fn name(mv: Move) -> String {
    format!("{} {}", mv.0.square().unwrap_or_default(), mv.1.square().unwrap_or_default())
}

/// A random game of up to `plies` under CSSE7030's rules; special moves are taken when
/// available with probability `special`; promotions become queens or knights.
fn random_game(rng: &mut ChaCha8Rng, plies: usize, special: f64) -> Game {
    let mut game = Game::new();
    for _ in 0..plies {
        let moves = game.moves();
        let specials: Vec<Move> =
            moves.iter().copied().filter(|&m| game.kind(m) != Some(Kind::Normal)).collect();
        let pick = if !specials.is_empty() && rng.gen_bool(special) {
            specials.choose(rng).copied()
        } else {
            moves.choose(rng).copied()
        };
        let Some(mv) = pick else { break };
        let kind = game.kind(mv).expect("a listed move is accepted");
        let piece = if rng.gen_bool(0.5) { b'q' } else { b'n' };
        let piece = if game.white { piece.to_ascii_uppercase() } else { piece };
        game.play(mv, kind, Some(piece));
        if !matches!(rules::status(&game.board, game.white), Status::Normal | Status::Check) {
            break;
        }
    }
    game
}

/// A position for castling: the start with back-row pieces and pawns cleared at random and a
/// few of the other player's pieces added, the other player not in check.
fn castling_position(rng: &mut ChaCha8Rng, white: bool) -> Board {
    loop {
        let mut b = Board::initial();
        for row in [0, 7] {
            for col in [1, 2, 3, 5, 6] {
                if rng.gen_bool(0.7) {
                    b = b.with(Pos::new(row, col), EMPTY);
                }
            }
            for col in [0, 7] {
                if rng.gen_bool(0.1) {
                    b = b.with(Pos::new(row, col), EMPTY);
                }
            }
        }
        for row in [1, 6] {
            for col in 0..8 {
                if rng.gen_bool(0.35) {
                    b = b.with(Pos::new(row, col), EMPTY);
                }
            }
        }
        let attackers = if white { b"qrbnp" } else { b"QRBNP" };
        for _ in 0..rng.gen_range(0..4) {
            let p = Pos::new(rng.gen_range(2..6), rng.gen_range(0..8));
            if b.at(p) == EMPTY {
                b = b.with(p, attackers[rng.gen_range(0..attackers.len())]);
            }
        }
        if !rules::in_check(&b, !white) {
            return b;
        }
    }
}

/// One `is_valid_castle_attempt` case aiming at one outcome (the `k`-th of a list).
fn castle_case(rng: &mut ChaCha8Rng, k: usize) -> CaseFile {
    // The outcome aimed at; a position giving it is searched for.
    let want = k % 10;
    for _ in 0..2000 {
        let white = rng.gen_bool(0.5);
        let board = castling_position(rng, white);
        let row = extras::home_row(white);
        let right = rng.gen_bool(0.5);
        let king = Pos::new(row, 4);
        let mut mv = (king, Pos::new(row, if right { 6 } else { 2 }));
        let mut castling = (false, false, false);
        match want {
            5 => castling.1 = true,
            6 => {
                if right {
                    castling.2 = true;
                } else {
                    castling.0 = true;
                }
                // The other rook may have moved too: it does not matter.
                if rng.gen_bool(0.5) {
                    castling = (true, false, true);
                }
            }
            8 => {
                let other = [(0, 1), (0, -1), (0, 3), (1, 0), (0, 2)][rng.gen_range(0..5)];
                let to = king.offset(if white { -other.0 } else { other.0 }, other.1);
                mv = (king, to);
                if other == (0, 2) {
                    // The right move from another square.
                    mv = (Pos::new(row, 3), Pos::new(row, 5));
                }
            }
            9 => {
                // The other side's rook moved: this side may still castle.
                if right {
                    castling.0 = true;
                } else {
                    castling.2 = true;
                }
            }
            _ => {}
        }
        let verdict = extras::castle_check(&board, mv, white, castling);
        let rook_side = |p: Pos| p.col == 0 || p.col == 1 || p.col == 7;
        let ok = match (want, verdict) {
            (0 | 9, Ok(())) => true,
            (1, Err(NoCastle::Blocked(_))) => true,
            (2, Err(NoCastle::Attacked(p))) => p == king,
            (3, Err(NoCastle::Attacked(p))) => p != king && !rook_side(p),
            (4, Err(NoCastle::Attacked(p))) => rook_side(p),
            (5, Err(NoCastle::KingMoved)) | (6, Err(NoCastle::RookMoved)) => true,
            (7, Err(NoCastle::NoRook)) => true,
            (8, Err(NoCastle::NotACastlingMove)) => board.at(mv.0) != EMPTY,
            _ => false,
        };
        if ok {
            let what = match verdict {
                Ok(()) => format!("{} may castle", player(white)),
                Err(e) => e.sentence(),
            };
            return case(
                "is_valid_castle_attempt",
                vec![Py::mv(mv), Py::board(&board), Py::Bool(white), info(castling)],
                vec![],
                format!("{} {}: {what}", player(white), name(mv)),
            );
        }
    }
    let board = Board::from_rows(&[
        "r...k..r", "pppppppp", "........", "........", "........", "........", "PPPPPPPP", "R...K..R",
    ])
    .expect("a board");
    let mv = parse_move("e1 g1").expect("a move");
    case(
        "is_valid_castle_attempt",
        vec![Py::mv(mv), Py::board(&board), Py::Bool(true), info((false, false, false))],
        vec![],
        "White may castle".into(),
    )
}

/// A valid castling: its move and board.
fn valid_castling(rng: &mut ChaCha8Rng) -> (Move, Board, bool) {
    loop {
        let white = rng.gen_bool(0.5);
        let board = castling_position(rng, white);
        let row = extras::home_row(white);
        let mv = (Pos::new(row, 4), Pos::new(row, if rng.gen_bool(0.5) { 6 } else { 2 }));
        if extras::castle_check(&board, mv, white, (false, false, false)).is_ok() {
            return (mv, board, white);
        }
    }
}

/// A position where the player to move has a pawn beside one of the other player's that has
/// just moved two squares: the board, whose turn, the pawn's move to the skipped square, the
/// skipped square.
fn en_passant_position(rng: &mut ChaCha8Rng) -> (Board, bool, Move, Pos) {
    loop {
        let game = {
            let plies = rng.gen_range(0..16);
            random_game(rng, plies, 0.3)
        };
        let white = game.white;
        let mut b = game.board;
        let dir = if white { -1 } else { 1 };
        let row = if white { 3 } else { 4 };
        let col = rng.gen_range(0..8);
        let side = if col == 0 || (col < 7 && rng.gen_bool(0.5)) { 1 } else { -1 };
        let from = Pos::new(row, col);
        let enemy = Pos::new(row, col + side);
        let skipped = enemy.offset(dir, 0);
        let start = skipped.offset(dir, 0);
        let (own, theirs) = if white { (b'P', b'p') } else { (b'p', b'P') };
        let kings = [b'K', b'k'];
        if [from, enemy, skipped, start].iter().any(|&p| kings.contains(&b.at(p))) {
            continue;
        }
        b = b.with(from, own).with(enemy, theirs).with(skipped, EMPTY).with(start, EMPTY);
        // The other player (who just pushed) must not be in check.
        if rules::in_check(&b, !white) || extras::promotion_square(&b, true).is_some() {
            continue;
        }
        if extras::promotion_square(&b, false).is_some() {
            continue;
        }
        return (b, white, (from, skipped), skipped);
    }
}

/// A king and a pawn on one row with the other player's pawn beside it and a rook or queen
/// at the row's far end: taking en passant would uncover the king.
fn pinned_en_passant(rng: &mut ChaCha8Rng) -> (Board, bool, Move, Pos) {
    let white = rng.gen_bool(0.5);
    let row = if white { 3 } else { 4 };
    let dir = if white { -1 } else { 1 };
    let (king, own, theirs, slider, their_king) =
        if white { (b'K', b'P', b'p', b'r', b'k') } else { (b'k', b'p', b'P', b'Q', b'K') };
    let mut b = Board::from_rows(&["........"; 8]).expect("an empty board");
    let left = rng.gen_bool(0.5);
    let (k, p, e, s) = if left { (0, 1, 2, 7) } else { (7, 6, 5, 0) };
    b = b
        .with(Pos::new(row, k), king)
        .with(Pos::new(row, p), own)
        .with(Pos::new(row, e), theirs)
        .with(Pos::new(row, s), if white { slider } else { slider.to_ascii_uppercase() })
        .with(Pos::new(if white { 0 } else { 7 }, 4), their_king);
    let skipped = Pos::new(row + dir, e);
    (b, white, (Pos::new(row, p), skipped), skipped)
}

/// One `is_valid_en_passant` case.
fn en_passant_case(rng: &mut ChaCha8Rng, k: usize) -> CaseFile {
    let want = k % 7;
    let (board, white, mv, ep) = if want == 6 { pinned_en_passant(rng) } else { en_passant_position(rng) };
    let (mv, ep) = match want {
        // Valid, or refused: no en passant square, a capture onto another square, a move that
        // is not a pawn's diagonal step.
        0 | 1 | 6 => (mv, Some(ep)),
        2 => (mv, None),
        3 => {
            let other = Pos::new(mv.1.row, 2 * mv.0.col - mv.1.col);
            ((mv.0, if other.on_board() { other } else { mv.0.offset(mv.1.row - mv.0.row, 0) }), Some(ep))
        }
        4 => ((mv.0, mv.0.offset(mv.1.row - mv.0.row, 0)), Some(ep)),
        _ => ((mv.0, Pos::new(mv.0.row, mv.1.col)), Some(ep)),
    };
    let verdict = extras::en_passant_check(&board, mv, white, ep);
    let what = match verdict {
        Ok(()) => "a valid en passant capture".to_string(),
        Err(NoEnPassant::LeavesKingInCheck) => "taking would leave the king in check".to_string(),
        Err(e) => e.sentence().to_string(),
    };
    case(
        "is_valid_en_passant",
        vec![Py::mv(mv), Py::board(&board), Py::Bool(white), ep.map_or(Py::None, Py::pos)],
        vec![],
        format!("{} {}: {what}", player(white), name(mv)),
    )
}

/// One `attempt_promotion` case: a pawn on its last row and the choices typed, or no pawn.
fn promotion_case(rng: &mut ChaCha8Rng, k: usize) -> CaseFile {
    let game = {
        let plies = rng.gen_range(0..30);
        random_game(rng, plies, 0.3)
    };
    // Each piece for each colour first, then positions without a pawn to promote, then several
    // refused choices.
    let white = if k < 8 { k < 4 } else { rng.gen_bool(0.5) };
    let mut board = game.board;
    // No pawn stands on a last row but the one promoted.
    for p in Board::squares().filter(|p| p.row == 0 || p.row == 7) {
        if board.at(p).eq_ignore_ascii_case(&b'p') {
            board = board.with(p, EMPTY);
        }
    }
    if k == 8 || k == 9 {
        return case(
            "attempt_promotion",
            vec![Py::board(&board), Py::Bool(white)],
            vec![],
            format!("{} has no pawn to promote", player(white)),
        );
    }
    let row = extras::last_row(white);
    let free: Vec<Pos> =
        (0..8).map(|c| Pos::new(row, c)).filter(|&p| !board.at(p).eq_ignore_ascii_case(&b'k')).collect();
    let at = *free.choose(rng).expect("a row holds two kings at most");
    board = board.with(at, if white { b'P' } else { b'p' });
    let piece = PROMOTION_CHOICES[k % 4] as char;
    let wrong = if k >= 10 { rng.gen_range(2..4) } else { k % 3 };
    let mut inputs: Vec<String> =
        (0..wrong).map(|_| NOT_PIECES.choose(rng).expect("some").to_string()).collect();
    inputs.push(piece.to_string());
    let note = format!(
        "{}'s pawn on {} promoted to `{piece}`{}",
        player(white),
        at.square().unwrap_or_default(),
        if wrong > 0 { format!(" after {wrong} choice(s) that are not pieces") } else { String::new() }
    );
    case("attempt_promotion", vec![Py::board(&board), Py::Bool(white)], inputs, note)
}

/// One `update_castling_info` case: a move of a game, from a first square of a rook or king
/// when one can move.
fn castling_info_case(rng: &mut ChaCha8Rng) -> CaseFile {
    loop {
        let game = {
            let plies = rng.gen_range(0..30);
            random_game(rng, plies, 0.5)
        };
        let moves = game.moves();
        let row = extras::home_row(game.white);
        let homes: Vec<Move> =
            moves.iter().copied().filter(|m| m.0.row == row && [0, 4, 7].contains(&m.0.col)).collect();
        let pick =
            if !homes.is_empty() && rng.gen_bool(0.75) { homes.choose(rng) } else { moves.choose(rng) };
        let Some(&mv) = pick else { continue };
        let castling = game.castling();
        let after = extras::update_castling_info(mv, game.white, castling);
        return case(
            "update_castling_info",
            vec![Py::mv(mv), Py::Bool(game.white), info(castling)],
            vec![],
            format!("{} plays {}: {} becomes {}", player(game.white), name(mv), info(castling), info(after)),
        );
    }
}

/// One `update_en_passant_position` case: a move of a game (a pawn's double step half the
/// time) and the board after it.
fn en_passant_update_case(rng: &mut ChaCha8Rng, k: usize) -> CaseFile {
    loop {
        let game = {
            let plies = rng.gen_range(0..24);
            random_game(rng, plies, 0.3)
        };
        let moves = game.moves();
        let pawn = if game.white { b'P' } else { b'p' };
        let double = |m: &Move| game.board.at(m.0) == pawn && (m.1.row - m.0.row).abs() == 2;
        let long_other =
            |m: &Move| game.board.at(m.0) != pawn && (m.1.row - m.0.row).abs() == 2 && m.0.col == m.1.col;
        let single = |m: &Move| game.board.at(m.0) == pawn && (m.1.row - m.0.row).abs() == 1;
        let pool: Vec<Move> = match k % 4 {
            0 | 1 => moves.iter().copied().filter(double).collect(),
            2 => moves.iter().copied().filter(long_other).collect(),
            _ => moves.iter().copied().filter(single).collect(),
        };
        let Some(&mv) = pool.choose(rng) else { continue };
        let kind = game.kind(mv).expect("a listed move");
        if game.promotes(mv, kind) {
            continue;
        }
        let after = game.board_after(mv, kind);
        let ep = extras::update_en_passant_position(mv, &after, game.white);
        return case(
            "update_en_passant_position",
            vec![Py::mv(mv), Py::board(&after), Py::Bool(game.white)],
            vec![],
            format!(
                "{} played {} (the board after it): {}",
                player(game.white),
                name(mv),
                ep.map_or("None".to_string(), |p| p.to_string())
            ),
        );
    }
}

/// One `main()` case: an opening reaching a special move, with help, bad input, cancelled quits
/// and promotion choices around it, then random play with special moves preferred, ended by a
/// quit unless the game ends.
fn main_case(rng: &mut ChaCha8Rng, k: usize) -> CaseFile {
    let (opening, what) = OPENINGS[k % OPENINGS.len()];
    let mut inputs: Vec<String> = Vec::new();
    let mut game = Game::new();
    let decorate = |rng: &mut ChaCha8Rng, inputs: &mut Vec<String>| {
        if rng.gen_bool(0.12) {
            match rng.gen_range(0..3) {
                0 => inputs.push(if rng.gen_bool(0.5) { "h" } else { "H" }.to_string()),
                1 => {
                    inputs.push("q".to_string());
                    inputs.push(["n", "", "no"][rng.gen_range(0..3)].to_string());
                }
                _ => {
                    inputs.push(["e2e4", "e9 e1", "castle", "o-o", "e1 h1"][rng.gen_range(0..5)].to_string())
                }
            }
        }
    };
    let mut ended = false;
    let push_move = |rng: &mut ChaCha8Rng, game: &mut Game, inputs: &mut Vec<String>, mv: Move| -> bool {
        inputs.push(name(mv));
        let Some(kind) = game.kind(mv) else { return true };
        let mut piece = None;
        if game.promotes(mv, kind) {
            for _ in 0..rng.gen_range(0..3) {
                inputs.push(NOT_PIECES.choose(rng).expect("some").to_string());
            }
            let c = PROMOTION_CHOICES[rng.gen_range(0..4)];
            inputs.push((c as char).to_string());
            piece = Some(if game.white { c.to_ascii_uppercase() } else { c });
        }
        game.play(mv, kind, piece);
        matches!(rules::status(&game.board, game.white), Status::Normal | Status::Check)
    };
    for text in opening.split('|') {
        decorate(rng, &mut inputs);
        let mv = parse_move(text).expect("openings are moves");
        if !push_move(rng, &mut game, &mut inputs, mv) {
            ended = true;
            break;
        }
    }
    if !ended {
        for _ in 0..rng.gen_range(0..8) {
            decorate(rng, &mut inputs);
            let moves = game.moves();
            let specials: Vec<Move> =
                moves.iter().copied().filter(|&m| game.kind(m) != Some(Kind::Normal)).collect();
            let pick = if !specials.is_empty() && rng.gen_bool(0.8) {
                specials.choose(rng)
            } else {
                moves.choose(rng)
            };
            let Some(&mv) = pick else { break };
            if !push_move(rng, &mut game, &mut inputs, mv) {
                ended = true;
                break;
            }
        }
    }
    if !ended {
        inputs.push(if rng.gen_bool(0.5) { "q" } else { "Q" }.to_string());
        inputs.push(if rng.gen_bool(0.5) { "y" } else { "Y" }.to_string());
    }
    CaseFile { note: vec![what.to_string()], function: "main".into(), args: vec![], inputs }
}

/// The `i`-th `extras` case (of 100 in the bundled corpus; more repeat the plan).
pub fn extras_case(rng: &mut ChaCha8Rng, i: usize) -> CaseFile {
    let i = i % 100;
    let mut start = 0;
    for &(function, n) in PLAN {
        if i < start + n {
            let k = i - start;
            return match function {
                "attempt_promotion" => promotion_case(rng, k),
                "is_valid_castle_attempt" => castle_case(rng, k),
                "perform_castling" => {
                    let (mv, board, white) = valid_castling(rng);
                    case(
                        "perform_castling",
                        vec![Py::mv(mv), Py::board(&board)],
                        vec![],
                        format!("{} castles {}", player(white), name(mv)),
                    )
                }
                "is_valid_en_passant" => en_passant_case(rng, k),
                "perform_en_passant" => {
                    let (board, white, mv, _) =
                        if k % 3 == 2 { pinned_en_passant(rng) } else { en_passant_position(rng) };
                    // A pinned capture is not valid; such a position gets a free capture.
                    let (board, white, mv) =
                        if extras::en_passant_check(&board, mv, white, Some(mv.1)).is_ok() {
                            (board, white, mv)
                        } else {
                            let (b, w, m, _) = en_passant_position(rng);
                            (b, w, m)
                        };
                    case(
                        "perform_en_passant",
                        vec![Py::mv(mv), Py::board(&board), Py::Bool(white)],
                        vec![],
                        format!("{} takes en passant {}", player(white), name(mv)),
                    )
                }
                "update_castling_info" => castling_info_case(rng),
                _ => en_passant_update_case(rng, k),
            };
        }
        start += n;
    }
    main_case(rng, i - start)
}

/// Whether a `main()` script of the `extras` category is a usable case: the game ends exactly at
/// its last input.
pub fn script_ends(inputs: &[String], texts: &super::texts::Texts) -> bool {
    let t = transcript::play_with(inputs, texts, Some(extras::CastleSafety::Inclusive));
    t.ending != Ending::OutOfInput && t.used == inputs.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_a1::oracle::expect_with;
    use crate::games::chess_a1::texts::Texts;

    #[test]
    fn each_opening_reaches_what_it_says() {
        let texts = Texts::default();
        for (opening, what) in OPENINGS {
            let moves: Vec<Move> = opening.split('|').map(|m| parse_move(m).unwrap()).collect();
            let mut game = Game::new();
            let (last, before) = moves.split_last().unwrap();
            for &mv in before {
                let kind = game.kind(mv).unwrap_or_else(|| panic!("{what}: {mv:?}"));
                game.play(mv, kind, None);
            }
            let kind = game.kind(*last);
            let expected = if what.contains("refused") {
                None
            } else if what.contains("castle") {
                Some(Kind::Castle)
            } else if what.contains("en passant") {
                Some(Kind::EnPassant)
            } else {
                assert!(game.promotes(*last, Kind::Normal), "{what}");
                Some(Kind::Normal)
            };
            assert_eq!(kind, expected, "{what}");
            // Ended by a quit (and a promotion's piece), each is a usable script.
            let mut inputs: Vec<String> = opening.split('|').map(str::to_string).collect();
            if what.contains("promoted") {
                inputs.push("q".into());
            }
            inputs.extend(["q".to_string(), "y".to_string()]);
            assert!(script_ends(&inputs, &texts), "{what}");
        }
    }

    #[test]
    fn every_generated_case_has_an_answer_and_each_function_is_covered() {
        let texts = Texts::default();
        let mut seen = std::collections::BTreeMap::new();
        for i in 0..100 {
            let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(i as u64 + 11);
            let file = extras_case(&mut rng, i);
            *seen.entry(file.function.clone()).or_insert(0) += 1;
            if file.function == "main" {
                assert!(script_ends(&file.inputs, &texts), "{}", file.render());
            } else {
                expect_with(
                    &file.function,
                    &file.args,
                    &file.inputs,
                    &texts,
                    Some(extras::CastleSafety::Inclusive),
                )
                .unwrap_or_else(|e| panic!("{e}: {}", file.render()));
            }
        }
        assert_eq!(seen.len(), PLAN.len() + 1, "{seen:?}");
        assert_eq!(seen["main"], 22);
    }
}
