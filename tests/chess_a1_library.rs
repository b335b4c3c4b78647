//! arbiter's chess-a1 rules (src/games/chess_a1/rules.rs) against an established chess library,
//! shakmaty, on positions nobody here has drawn: every position of seeded random games from the
//! start, and seeded random placements of kings and a few pieces.
//!
//! Restricted to the assignment's rules (CSSE1001; docs/games/chess-a1/RULES.md): the library is
//! given no castling rights and no en passant square. A pawn that reaches its last row stays a
//! pawn in the assignment (RULES.md, resolved ambiguity 12); the library refuses such positions,
//! so games here never play a pawn onto its last row, and placements put pawns on rows 2 to 7
//! only. A pawn's move onto its last row is a valid move in both: the library's four promotions
//! are one (from, to) move, as in the assignment, where the pawn's move is all that is asked.
//!
//! Compared at each position, for the player to move: the set of valid (from, to) moves, check,
//! checkmate and stalemate. Positions the library refuses (the player not to move in check, a
//! pawn on a first or last rank, kings side by side) are counted apart and not compared.

use std::collections::BTreeSet;

use arbiter::games::chess_a1::board::{Board, EMPTY, Move, Pos, parse_square};
use arbiter::games::chess_a1::rules;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The position as the library reads it: `None` when the library refuses it.
fn library_position(board: &Board, white: bool) -> Option<Chess> {
    let ranks: Vec<String> = board
        .rows()
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for ch in row.chars() {
                if ch == EMPTY as char {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(ch);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let fen = format!("{} {} - - 0 1", ranks.join("/"), if white { "w" } else { "b" });
    let fen: Fen = fen.parse().ok()?;
    match fen.into_position::<Chess>(CastlingMode::Standard) {
        Ok(position) => Some(position),
        Err(refused) => refused.ignore_impossible_check().ok(),
    }
}

fn library_moves(position: &Chess) -> BTreeSet<Move> {
    position
        .legal_moves()
        .iter()
        .filter_map(|m| {
            let square =
                |sq: shakmaty::Square| parse_square(&format!("{}{}", sq.file().char(), sq.rank().char()));
            Some((square(m.from()?)?, square(m.to())?))
        })
        .collect()
}

/// What was compared.
#[derive(Default, Debug)]
struct Counts {
    positions: usize,
    moves: usize,
    checks: usize,
    checkmates: usize,
    stalemates: usize,
    refused: usize,
}

/// Compares one position; panics with the position and the difference when they disagree.
fn compare(board: &Board, white: bool, counts: &mut Counts, origin: &str) {
    let Some(position) = library_position(board, white) else {
        counts.refused += 1;
        return;
    };
    let ours: BTreeSet<Move> = rules::legal_moves(board, white).into_iter().collect();
    let theirs = library_moves(&position);
    let name = |m: &Move| format!("{}{}", m.0.square().unwrap_or_default(), m.1.square().unwrap_or_default());
    assert!(
        ours == theirs,
        "{origin}: {board:?}, {} to move: arbiter only {:?}, the library only {:?}",
        if white { "White" } else { "Black" },
        ours.difference(&theirs).map(name).collect::<Vec<_>>(),
        theirs.difference(&ours).map(name).collect::<Vec<_>>()
    );
    let check = rules::in_check(board, white);
    assert_eq!(check, position.is_check(), "{origin}: check in {board:?}");
    assert_eq!(
        rules::is_checkmate(board, white),
        position.is_checkmate(),
        "{origin}: checkmate in {board:?}"
    );
    assert_eq!(
        rules::is_stalemate(board, white),
        position.is_stalemate(),
        "{origin}: stalemate in {board:?}"
    );
    counts.positions += 1;
    counts.moves += ours.len();
    counts.checks += usize::from(check);
    counts.checkmates += usize::from(position.is_checkmate());
    counts.stalemates += usize::from(position.is_stalemate());
}

fn promotes(board: &Board, (from, to): Move) -> bool {
    board.at(from).eq_ignore_ascii_case(&b'p') && (to.row == 0 || to.row == 7)
}

/// A random placement: both kings and up to `extra` other pieces, pawns on rows 1 to 6
/// (ranks 7 to 2).
fn placement(rng: &mut ChaCha8Rng, extra: usize) -> Board {
    let mut cells = [[EMPTY; 8]; 8];
    let mut put = |piece: u8, rng: &mut ChaCha8Rng| loop {
        let (r, c) = (rng.gen_range(0..8usize), rng.gen_range(0..8usize));
        let pawn_ok = !piece.eq_ignore_ascii_case(&b'p') || (1..7).contains(&r);
        if cells[r][c] == EMPTY && pawn_ok {
            cells[r][c] = piece;
            break;
        }
    };
    put(b'K', rng);
    put(b'k', rng);
    for _ in 0..rng.gen_range(0..=extra) {
        put(*b"QRBNPPPqrbnppp".choose(rng).expect("pieces"), rng);
    }
    Board(cells)
}

#[test]
fn the_rules_agree_with_shakmaty_on_random_games_and_random_placements() {
    let mut rng = ChaCha8Rng::seed_from_u64(2021);
    let mut games = Counts::default();
    // Random games from the start, every position compared; half of them take a capture
    // whenever one is there, so boards empty and games end in checkmate or stalemate.
    for game in 0..300 {
        let captures = game % 2 == 1;
        let mut board = Board::initial();
        let mut white = true;
        for _ in 0..200 {
            compare(&board, white, &mut games, &format!("game {game}"));
            let options: Vec<Move> =
                rules::legal_moves(&board, white).into_iter().filter(|&m| !promotes(&board, m)).collect();
            let taking: Vec<Move> =
                options.iter().copied().filter(|&(_, to)| board.at(to) != EMPTY).collect();
            let pool = if captures && !taking.is_empty() { &taking } else { &options };
            let Some(&mv) = pool.choose(&mut rng) else { break };
            board = board.moved(mv);
            white = !white;
        }
    }
    let mut placed = Counts::default();
    for i in 0..20_000 {
        let board = placement(&mut rng, if i % 2 == 0 { 4 } else { 14 });
        compare(&board, rng.gen_bool(0.5), &mut placed, &format!("placement {i}"));
    }
    println!("random games: {games:?}");
    println!("random placements: {placed:?}");
    assert!(games.positions > 20_000, "{games:?}");
    assert!(games.checkmates > 10 && games.stalemates > 0, "the games reach the ends of games: {games:?}");
    assert!(placed.positions > 10_000 && placed.checkmates > 20 && placed.stalemates > 3, "{placed:?}");
}

#[test]
fn a_pawn_on_its_last_row_stays_a_pawn_where_the_library_cannot_follow() {
    // The assignment's rules (RULES.md, 12): a white pawn that reached row 0 stays there, a
    // pawn, and cannot move; the library refuses the position.
    let board = Board::from_rows(&[
        "P...k...", "........", "........", "........", "........", "........", "........", "....K...",
    ])
    .unwrap();
    assert!(library_position(&board, false).is_none());
    assert!(rules::reachable(&board, Pos::new(0, 0)).is_empty());
    // Its move there is one valid (from, to) move in both.
    let before = Board::from_rows(&[
        "....k...", "P.......", "........", "........", "........", "........", "........", "....K...",
    ])
    .unwrap();
    let lib = library_moves(&library_position(&before, true).unwrap());
    assert!(lib.contains(&(Pos::new(1, 0), Pos::new(0, 0))));
    assert!(rules::is_valid(&before, (Pos::new(1, 0), Pos::new(0, 0)), true));
}
