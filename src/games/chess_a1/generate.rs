//! The bundled corpus: cases made from positions reached by random valid play, sparse random
//! endgames (where checkmates and stalemates are common) and hand-picked edges (pins,
//! discovered checks, kings side by side, blocked double pushes, mates and stalemates in the
//! corner, malformed input). The same seed gives the same corpus.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{Board, EMPTY, Move, Pos, is_white};
use super::case_file::CaseFile;
use super::pyvalue::Py;
use super::rules::{self, Invalid, Status, check_move, legal_moves};
use super::transcript::{self, Ending};
use crate::harness::referee::GeneratedCase;
use crate::side::Side;

/// The case categories, in the order the marking profile takes them.
pub const CATEGORIES: &[&str] = &["interaction", "validation", "end", "main"];

/// CSSE7030's categories (`--rule extras=on`): CSSE1001's and the special moves.
pub const CATEGORIES_7030: &[&str] = &["interaction", "validation", "end", "main", "extras"];

/// Hand-drawn positions (rows, White to move?) and what they show.
pub const EDGES: &[(&str, bool, &str)] = &[
    (
        "....r... ........ ........ ........ ........ ........ ....B... ....K...",
        true,
        "a bishop pinned to its king",
    ),
    (
        "....k... ........ ........ ........ .b...... ..n..... ........ ....K...",
        false,
        "a knight whose move uncovers a check",
    ),
    (
        "........ ........ ........ ...k.... ........ ...K.... ........ ........",
        true,
        "kings two squares apart",
    ),
    (
        "....k... ........ ........ ........ ........ ...p.... ...PP... ....K...",
        true,
        "a blocked double push",
    ),
    (
        ".......k ......Q. .....K.. ........ ........ ........ ........ ........",
        false,
        "checkmate in the corner",
    ),
    (
        ".......k .....Q.. ......K. ........ ........ ........ ........ ........",
        false,
        "stalemate in the corner",
    ),
    (
        "k....... ........ .K...... ........ ........ ........ ........ .......R",
        false,
        "back-rank: the king has squares",
    ),
    (
        "k....... ..Q..... .K...... ........ ........ ........ ........ ........",
        false,
        "a queen next to the king, guarded",
    ),
    ("rnb.kbnr pppp.ppp ........ ....p... ......Pq .....P.. PPPPP..P RNBQKBNR", true, "fool's mate"),
    (
        "rnb.kbnr pppp.ppp ........ ....p... .......q .....P.. PPPPP.PP RNBQKBNR",
        true,
        "check that a pawn can block",
    ),
    (
        "....k... ....r... ........ ........ ........ ........ ........ R...K..R",
        true,
        "in check along a file",
    ),
    (
        "r...k..r ........ ........ ........ ........ ........ ........ R...K..R",
        true,
        "rooks and kings on their first squares",
    ),
];

fn edge_board(rows: &str) -> Board {
    Board::from_rows(&rows.split_whitespace().collect::<Vec<_>>()).expect("edge boards are well-formed")
}

/// Whether `mv` is one the cases avoid: a pawn reaching its last row (promotion is CSSE7030's).
fn promotes(board: &Board, (from, to): Move) -> bool {
    board.at(from).eq_ignore_ascii_case(&b'p') && (to.row == 0 || to.row == 7)
}

/// The valid moves the generator plays.
fn playable(board: &Board, white: bool) -> Vec<Move> {
    legal_moves(board, white).into_iter().filter(|&m| !promotes(board, m)).collect()
}

/// A random game of up to `plies` from the start: the moves and the position reached.
fn random_game(rng: &mut ChaCha8Rng, plies: usize) -> (Vec<Move>, Board, bool) {
    let mut board = Board::initial();
    let mut white = true;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let options = playable(&board, white);
        let Some(&mv) = options.choose(rng) else { break };
        board = board.moved(mv);
        moves.push(mv);
        white = !white;
        if rules::status(&board, white) != Status::Normal && rules::status(&board, white) != Status::Check {
            break;
        }
    }
    (moves, board, white)
}

/// A sparse random position: both kings, a few pieces, no pawn on a last row, the player not to
/// move not in check.
fn sparse(rng: &mut ChaCha8Rng) -> (Board, bool) {
    loop {
        let mut cells = [[EMPTY; 8]; 8];
        let pieces = b"QRBNPqrbnp";
        let put = |cells: &mut [[u8; 8]; 8], piece: u8, rng: &mut ChaCha8Rng| loop {
            let (r, c) = (rng.gen_range(0..8usize), rng.gen_range(0..8usize));
            let pawn_row_ok = !piece.eq_ignore_ascii_case(&b'p') || (1..7).contains(&r);
            if cells[r][c] == EMPTY && pawn_row_ok {
                cells[r][c] = piece;
                break;
            }
        };
        put(&mut cells, b'K', rng);
        put(&mut cells, b'k', rng);
        for _ in 0..rng.gen_range(1..4) {
            let piece = pieces[rng.gen_range(0..pieces.len())];
            put(&mut cells, piece, rng);
        }
        let board = Board(cells);
        let white = rng.gen_bool(0.5);
        if !rules::in_check(&board, !white) {
            return (board, white);
        }
    }
}

/// A random position for a function case: random play most of the time, else sparse or edge.
fn position(rng: &mut ChaCha8Rng) -> (Board, bool, String) {
    match rng.gen_range(0..10) {
        0..=5 => {
            let plies = rng.gen_range(0..60);
            let (moves, board, white) = random_game(rng, plies);
            (board, white, format!("after {} random valid moves", moves.len()))
        }
        6..=8 => {
            let (board, white) = sparse(rng);
            (board, white, "a sparse random position".to_string())
        }
        _ => {
            let (rows, white, what) = EDGES[rng.gen_range(0..EDGES.len())];
            (edge_board(rows), white, what.to_string())
        }
    }
}

fn random_square(rng: &mut ChaCha8Rng) -> Pos {
    Pos::new(rng.gen_range(0..8), rng.gen_range(0..8))
}

fn case(function: &str, args: Vec<Py>, note: String) -> CaseFile {
    CaseFile { note: vec![note], function: function.to_string(), args, inputs: Vec::new() }
}

/// One `interaction` case (4.3).
fn interaction(rng: &mut ChaCha8Rng, i: usize) -> CaseFile {
    let (board, white, what) = position(rng);
    match i % 7 {
        0 if i == 0 => case("initial_state", vec![], "the board of a new game".into()),
        0 | 1 => case("print_board", vec![Py::board(&board)], what),
        2 => {
            let sq = random_square(rng).square().expect("on the board");
            case("square_to_position", vec![Py::Str(sq)], "a square".into())
        }
        3 => {
            let a = random_square(rng).square().expect("on the board");
            let b = random_square(rng).square().expect("on the board");
            case("process_move", vec![Py::Str(format!("{a} {b}"))], "a move in valid form".into())
        }
        4 => {
            let ch = b"PKQBNRpkqbnr."[rng.gen_range(0..13)];
            let pos = random_square(rng);
            case(
                "change_position",
                vec![Py::board(&board), Py::pos(pos), Py::Str((ch as char).to_string())],
                what,
            )
        }
        5 => {
            // Half the time an occupied square, else any square (maybe empty).
            let occupied: Vec<Pos> = Board::squares().filter(|&p| board.at(p) != EMPTY).collect();
            let pos =
                if rng.gen_bool(0.5) { *occupied.choose(rng).expect("kings") } else { random_square(rng) };
            let note = if board.at(pos) == EMPTY { "clearing an empty square" } else { "clearing a piece" };
            case("clear_position", vec![Py::board(&board), Py::pos(pos)], format!("{note}; {what}"))
        }
        _ => {
            let moves = legal_moves(&board, white);
            match moves.choose(rng) {
                Some(&mv) => {
                    case("update_board", vec![Py::board(&board), Py::mv(mv)], format!("a valid move; {what}"))
                }
                None => case("print_board", vec![Py::board(&board)], what),
            }
        }
    }
}

/// A move of `board` for `white` that breaks `rule` (the first broken), if one is found.
fn breaking(rng: &mut ChaCha8Rng, board: &Board, white: bool, rule: Invalid) -> Option<Move> {
    let mut all: Vec<Move> = Board::squares().flat_map(|f| Board::squares().map(move |t| (f, t))).collect();
    all.shuffle(rng);
    match rule {
        Invalid::OffBoard => {
            let from = Board::squares()
                .filter(|&p| super::board::belongs_to(board.at(p), white))
                .collect::<Vec<_>>();
            let from = *from.choose(rng)?;
            let off = [
                Pos::new(-1, from.col),
                Pos::new(8, from.col),
                Pos::new(from.row, 8),
                Pos::new(from.row, -1),
            ];
            Some((from, *off.choose(rng)?))
        }
        _ => all.into_iter().find(|&mv| check_move(board, mv, white) == Err(rule) && !promotes(board, mv)),
    }
}

/// One `validation` case (4.4).
fn validation(rng: &mut ChaCha8Rng, i: usize) -> CaseFile {
    if i.is_multiple_of(5) {
        let piece = b"PKQBNRpkqbnr."[rng.gen_range(0..13)];
        let white = rng.gen_bool(0.5);
        let note = if piece == EMPTY {
            "an empty square belongs to nobody"
        } else if is_white(piece) == white {
            "the player's own piece"
        } else {
            "the other player's piece"
        };
        return case(
            "is_current_players_piece",
            vec![Py::Str((piece as char).to_string()), Py::Bool(white)],
            note.into(),
        );
    }
    let rules_in_turn = [
        None,
        Some(Invalid::LeavesKingInCheck),
        None,
        Some(Invalid::PieceMovement),
        Some(Invalid::OwnPieceOnTarget),
        Some(Invalid::NotOwnPiece),
        None,
        Some(Invalid::LeavesKingInCheck),
        Some(Invalid::SameSquare),
        Some(Invalid::OffBoard),
    ];
    let want = rules_in_turn[(i / 5 * 4 + i % 5) % rules_in_turn.len()];
    for _ in 0..50 {
        let (board, white, what) = position(rng);
        let mv = match want {
            None => playable(&board, white).choose(rng).copied(),
            Some(rule) => breaking(rng, &board, white, rule),
        };
        if let Some(mv) = mv {
            let note = match want {
                None => format!("a valid move; {what}"),
                Some(rule) => format!("{}; {what}", rule.name()),
            };
            return case("is_move_valid", vec![Py::mv(mv), Py::board(&board), Py::Bool(white)], note);
        }
    }
    case(
        "is_move_valid",
        vec![Py::mv((Pos::new(6, 4), Pos::new(4, 4))), Py::board(&Board::initial()), Py::Bool(true)],
        "the first move of a game".into(),
    )
}

/// One `end` case (4.5): a third each of positions in play, in check, and over.
fn end(rng: &mut ChaCha8Rng, i: usize) -> CaseFile {
    let function = ["can_move", "is_stalemate", "check_game_over"][i % 3];
    let wanted = [&[Status::Normal][..], &[Status::Check][..], &[Status::Checkmate, Status::Stalemate][..]]
        [(i / 3) % 3];
    for _ in 0..400 {
        let (board, white, what) = position(rng);
        let status = rules::status(&board, white);
        if wanted.contains(&status) {
            return case(function, vec![Py::board(&board), Py::Bool(white)], format!("{status:?}; {what}"));
        }
    }
    let (board, white, what) = position(rng);
    case(function, vec![Py::board(&board), Py::Bool(white)], what)
}

/// Malformed or invalid inputs `main()` must refuse.
const MALFORMED: &[&str] = &[
    "e2e4", "e2  e4", "e2 e4 ", " e2 e4", "i2 i4", "e0 e9", "e2 e4 e5", "", "hello", "e2-e4", "help", "quit",
    "2e 4e",
];

/// Known games that end in checkmate or stalemate.
const ENDINGS: &[&str] = &[
    "f2 f3|e7 e5|g2 g4|d8 h4",
    "e2 e4|e7 e5|f1 c4|b8 c6|d1 h5|g8 f6|h5 f7",
    "e2 e3|a7 a5|d1 h5|a8 a6|h5 a5|h7 h5|h2 h4|a6 h6|a5 c7|f7 f6|c7 d7|e8 f7|d7 b7|d8 d3|b7 b8|d3 h7|b8 c8|f7 g6|c8 e6",
];

/// One `main` case: a script of moves, help, quits and bad input, ending the game.
fn main_case(rng: &mut ChaCha8Rng, i: usize) -> CaseFile {
    let texts = super::texts::Texts::default();
    if i < ENDINGS.len() {
        let inputs: Vec<String> = ENDINGS[i].split('|').map(str::to_string).collect();
        let ending = transcript::play(&inputs, &texts).ending;
        return CaseFile {
            note: vec![format!("a game that ends in {ending:?}").to_lowercase()],
            function: "main".into(),
            args: vec![],
            inputs,
        };
    }
    let mut inputs = Vec::new();
    let mut board = Board::initial();
    let mut white = true;
    let plies = rng.gen_range(0..30);
    let mut kinds = Vec::new();
    let mut made = 0;
    while made < plies {
        match rng.gen_range(0..12) {
            0 => {
                inputs.push(if rng.gen_bool(0.5) { "h" } else { "H" }.to_string());
                kinds.push("help");
            }
            1 => {
                inputs.push(if rng.gen_bool(0.5) { "q" } else { "Q" }.to_string());
                inputs.push(["n", "N", "no", "", "yes"][rng.gen_range(0..5)].to_string());
                kinds.push("a cancelled quit");
            }
            2 => {
                inputs.push(MALFORMED[rng.gen_range(0..MALFORMED.len())].to_string());
                kinds.push("malformed input");
            }
            3 => {
                let rule = [
                    Invalid::PieceMovement,
                    Invalid::NotOwnPiece,
                    Invalid::OwnPieceOnTarget,
                    Invalid::LeavesKingInCheck,
                    Invalid::SameSquare,
                ][rng.gen_range(0..5)];
                if let Some((f, t)) =
                    breaking(rng, &board, white, rule).filter(|(f, t)| f.on_board() && t.on_board())
                {
                    inputs.push(format!("{} {}", f.square().expect("on"), t.square().expect("on")));
                    kinds.push("an invalid move");
                }
            }
            _ => {
                let options = playable(&board, white);
                let Some(&mv) = options.choose(rng) else { break };
                inputs.push(format!("{} {}", mv.0.square().expect("on"), mv.1.square().expect("on")));
                board = board.moved(mv);
                white = !white;
                made += 1;
                if !matches!(rules::status(&board, white), Status::Normal | Status::Check) {
                    break;
                }
            }
        }
    }
    let t = transcript::play(&inputs, &texts);
    if t.ending == Ending::OutOfInput {
        inputs.push(if rng.gen_bool(0.5) { "q" } else { "Q" }.to_string());
        inputs.push(if rng.gen_bool(0.5) { "y" } else { "Y" }.to_string());
    }
    kinds.sort_unstable();
    kinds.dedup();
    let mut note = format!("{made} moves");
    if !kinds.is_empty() {
        note.push_str(&format!(" with {}", kinds.join(", ")));
    }
    CaseFile { note: vec![note], function: "main".into(), args: vec![], inputs }
}

/// Every case of a corpus made from `seed`: `count` per category.
pub fn generate(count: usize, seed: u64) -> Vec<GeneratedCase> {
    generate_with(count, seed, false)
}

/// Every case of a corpus made from `seed`, `count` per category, CSSE7030's `extras` too when
/// `extras` is set (the other categories are the same either way).
pub fn generate_with(count: usize, seed: u64, extras: bool) -> Vec<GeneratedCase> {
    let mut out = Vec::new();
    let categories = if extras { CATEGORIES_7030 } else { CATEGORIES };
    for (k, category) in categories.iter().enumerate() {
        for i in 0..count {
            let mut rng = ChaCha8Rng::seed_from_u64(
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((k as u64) << 32 | i as u64),
            );
            let file = match *category {
                "interaction" => interaction(&mut rng, i),
                "validation" => validation(&mut rng, i),
                "end" => end(&mut rng, i),
                "extras" => super::extras_cases::extras_case(&mut rng, i),
                _ => main_case(&mut rng, i),
            };
            out.push(GeneratedCase {
                category: category.to_string(),
                side: Side::White,
                name: format!("{:03}", i + 1),
                text: file.render(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_a1::oracle::expect;
    use crate::games::chess_a1::texts::Texts;

    #[test]
    fn the_same_seed_gives_the_same_corpus_and_every_case_has_an_answer() {
        let a = generate(12, 3);
        assert_eq!(a, generate(12, 3));
        let texts = Texts::default();
        for c in &a {
            let file = CaseFile::parse(c.text.as_bytes(), &c.name).unwrap();
            if file.function == "main" {
                let t = transcript::play(&file.inputs, &texts);
                assert_ne!(t.ending, Ending::OutOfInput, "{}", c.text);
                assert_eq!(t.used, file.inputs.len(), "{}", c.text);
            } else {
                expect(&file.function, &file.args, &texts).unwrap_or_else(|e| panic!("{e}: {}", c.text));
            }
        }
    }

    #[test]
    fn the_known_endings_end_as_named() {
        let texts = Texts::default();
        let endings: Vec<Ending> = ENDINGS
            .iter()
            .map(|g| transcript::play(&g.split('|').map(str::to_string).collect::<Vec<_>>(), &texts).ending)
            .collect();
        assert_eq!(endings, [Ending::Checkmate, Ending::Checkmate, Ending::Stalemate]);
    }

    #[test]
    fn the_edges_are_as_described() {
        for (rows, white, what) in EDGES {
            let b = edge_board(rows);
            assert!(!rules::in_check(&b, !white), "{what}");
        }
    }
}
