//! The chess assignment's rules: invariants over positions reached by random valid play.

use arbiter::games::chess_a1::board::{Board, Pos};
use arbiter::games::chess_a1::rules::{Invalid, check_move, in_check, legal_moves, reachable};
use proptest::prelude::*;

/// Plays `choices` (each picks among the valid moves) from the start; stops at a game's end.
fn reach(choices: &[usize]) -> (Board, bool) {
    let mut board = Board::initial();
    let mut white = true;
    for &c in choices {
        let moves = legal_moves(&board, white);
        if moves.is_empty() {
            break;
        }
        board = board.moved(moves[c % moves.len()]);
        white = !white;
    }
    (board, white)
}

#[test]
fn twenty_valid_moves_from_the_start_for_either_player() {
    assert_eq!(legal_moves(&Board::initial(), true).len(), 20);
    assert_eq!(legal_moves(&Board::initial(), false).len(), 20);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A valid move never leaves the mover's king attacked, and every move of a piece that is
    /// not valid names the assignment's condition it breaks.
    #[test]
    fn a_valid_move_never_leaves_the_movers_king_attacked(choices in prop::collection::vec(0usize..64, 0..40)) {
        let (board, white) = reach(&choices);
        let valid = legal_moves(&board, white);
        for &mv in &valid {
            prop_assert!(!in_check(&board.moved(mv), white), "{:?} {:?}", board, mv);
        }
        for from in Board::squares() {
            for to in Board::squares() {
                let verdict = check_move(&board, (from, to), white);
                prop_assert_eq!(verdict.is_ok(), valid.contains(&(from, to)));
                if let Err(Invalid::PieceMovement) = verdict {
                    prop_assert!(!reachable(&board, from).contains(&to));
                }
            }
        }
        // Kings are never captured in valid play.
        prop_assert!(board.find(b'K').is_some() && board.find(b'k').is_some());
        prop_assert!(check_move(&board, (Pos::new(0, 0), Pos::new(8, 0)), white) == Err(Invalid::OffBoard));
    }
}

/// Published perft counts of standard chess where no castling, en passant or promotion can
/// occur yet: the start to depth 4 (20, 400, 8902, 197281) and chessprogramming.org's
/// "position 3" to depth 2 (14, 191). The assignment's rules must give the same numbers.
#[test]
fn perft_matches_published_counts_where_the_extras_cannot_occur() {
    use arbiter::games::chess_a1::rules::perft;
    let start = Board::initial();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, true, d)).collect();
    assert_eq!(counts, [20, 400, 8902, 197_281]);
    // 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w
    let rows =
        ["........", "..p.....", "...p....", "KP.....r", ".R...p.k", "........", "....P.P.", "........"];
    let pos3 = Board::from_rows(&rows).unwrap();
    assert_eq!((perft(&pos3, true, 1), perft(&pos3, true, 2)), (14, 191));
}
