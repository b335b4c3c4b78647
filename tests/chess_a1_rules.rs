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
