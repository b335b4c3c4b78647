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

/// CSSE7030's special moves (`--rule extras=on`), one rule at a time on hand-drawn positions.
mod extras {
    use arbiter::games::chess_a1::board::{Board, Move, Pos, parse_move};
    use arbiter::games::chess_a1::extras::*;
    use arbiter::games::chess_a1::texts::Texts;
    use arbiter::games::chess_a1::transcript::{Ending, play_with};

    fn board(rows: &str) -> Board {
        Board::from_rows(&rows.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    fn mv(text: &str) -> Move {
        parse_move(text).unwrap()
    }

    const FREE: CastlingInfo = (false, false, false);
    const CORNERS: &str = "r...k..r pppppppp ........ ........ ........ ........ PPPPPPPP R...K..R";

    #[test]
    fn castling_is_allowed_on_either_side_when_nothing_has_moved() {
        let b = board(CORNERS);
        for (m, white, row) in
            [("e1 g1", true, 7), ("e1 c1", true, 7), ("e8 g8", false, 0), ("e8 c8", false, 0)]
        {
            assert_eq!(castle_check(&b, mv(m), white, FREE), Ok(()), "{m}");
            let after = perform_castling(&b, mv(m)).rows()[row].clone();
            let want = match m {
                "e1 g1" => "R....RK.",
                "e1 c1" => "..KR...R",
                "e8 g8" => "r....rk.",
                _ => "..kr...r",
            };
            assert_eq!(after, want, "{m}");
        }
    }

    #[test]
    fn castling_is_refused_after_the_king_or_that_rook_moved() {
        let b = board(CORNERS);
        assert_eq!(castle_check(&b, mv("e1 g1"), true, (false, true, false)), Err(NoCastle::KingMoved));
        assert_eq!(castle_check(&b, mv("e1 g1"), true, (false, false, true)), Err(NoCastle::RookMoved));
        assert_eq!(castle_check(&b, mv("e1 c1"), true, (true, false, false)), Err(NoCastle::RookMoved));
        // The other rook's moving does not matter.
        assert_eq!(castle_check(&b, mv("e1 c1"), true, (false, false, true)), Ok(()));
        // Left is column 0 for Black too.
        assert_eq!(castle_check(&b, mv("e8 c8"), false, (true, false, false)), Err(NoCastle::RookMoved));
        // And castling_info follows moves from the first squares.
        let info = update_castling_info(mv("h1 h3"), true, FREE);
        assert_eq!(info, (false, false, true));
        assert_eq!(update_castling_info(mv("a8 a5"), false, FREE), (true, false, false));
        assert_eq!(update_castling_info(mv("e8 d8"), true, FREE), FREE, "e8 is not White's");
        assert_eq!(update_castling_info(mv("g1 f3"), true, FREE), FREE);
    }

    #[test]
    fn castling_is_refused_with_pieces_between_or_without_the_rook() {
        let b = board("r...k..r pppppppp ........ ........ ........ ........ PPPPPPPP R..QK.NR");
        assert_eq!(castle_check(&b, mv("e1 c1"), true, FREE), Err(NoCastle::Blocked(Pos::new(7, 3))));
        assert_eq!(castle_check(&b, mv("e1 g1"), true, FREE), Err(NoCastle::Blocked(Pos::new(7, 6))));
        // The knight on b1 is between the king and the rook though the king never crosses it.
        let n = board("r...k..r pppppppp ........ ........ ........ ........ PPPPPPPP RN..K..R");
        assert_eq!(castle_check(&n, mv("e1 c1"), true, FREE), Err(NoCastle::Blocked(Pos::new(7, 1))));
        let gone = board("r...k... pppppppp ........ ........ ........ ........ PPPPPPPP R...K..R");
        assert_eq!(castle_check(&gone, mv("e8 g8"), false, FREE), Err(NoCastle::NoRook));
        // An enemy rook in the corner is not the player's rook.
        let theirs = board("....k... ........ ........ ........ ........ ........ ........ r...K..R");
        assert_eq!(castle_check(&theirs, mv("e1 c1"), true, FREE), Err(NoCastle::NoRook));
    }

    #[test]
    fn castling_is_refused_in_check_through_check_and_onto_an_attacked_rook_square() {
        // In check along the e-file.
        let check = board("....k... ....r... ........ ........ ........ ........ ........ R...K..R");
        assert_eq!(castle_check(&check, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 4))));
        // Through f1 (a bishop on c4).
        let through = board("....k... ........ ........ ........ ..b..... ........ ........ R...K..R");
        assert_eq!(castle_check(&through, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 5))));
        assert_eq!(castle_check(&through, mv("e1 c1"), true, FREE), Ok(()));
        // b1 and h1: the seed counts every square to the rook's, inclusive.
        let b1 = board("....k... ........ ........ ........ ....b... ........ ........ R...K..R");
        assert_eq!(castle_check(&b1, mv("e1 c1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 1))));
        let h1 = board("....k... .......r ........ ........ ........ ........ .......P R...K..R");
        assert_eq!(castle_check(&h1, mv("e1 g1"), true, FREE), Ok(()), "the pawn on h2 shields h1");
        let h1 = board("....k... .......r ........ ........ ........ ........ ........ R...K..R");
        assert_eq!(castle_check(&h1, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 7))));
        // A pawn attacks diagonally only: a black pawn on d2 attacks c1 and e1.
        let pawn = board("....k... ........ ........ ........ ........ ........ ...p.... R...K..R");
        assert_eq!(castle_check(&pawn, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 4))));
        let pawn = board("....k... ........ ........ ........ ........ ........ .p...... R...K..R");
        assert_eq!(
            castle_check(&pawn, mv("e1 c1"), true, FREE),
            Err(NoCastle::Attacked(Pos::new(7, 2))),
            "b2 attacks c1 and a1"
        );
        assert_eq!(castle_check(&pawn, mv("e1 g1"), true, FREE), Ok(()));
    }

    #[test]
    fn castle_king_path_checks_only_the_kings_square_and_the_two_it_crosses() {
        let king_path = |b: &Board, m: &str| castle_check_with(b, mv(m), true, FREE, CastleSafety::KingPath);
        // b1 attacked (a bishop on e4): the seed's span refuses the long castle, the king's path
        // (e1 d1 c1) allows it.
        let b1 = board("....k... ........ ........ ........ ....b... ........ ........ R...K..R");
        assert_eq!(castle_check(&b1, mv("e1 c1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 1))));
        assert_eq!(king_path(&b1, "e1 c1"), Ok(()));
        // h1 attacked (a rook on h7): likewise for the short castle.
        let h1 = board("....k... .......r ........ ........ ........ ........ ........ R...K..R");
        assert_eq!(castle_check(&h1, mv("e1 g1"), true, FREE), Err(NoCastle::Attacked(Pos::new(7, 7))));
        assert_eq!(king_path(&h1, "e1 g1"), Ok(()));
        // The king's own square, the one it crosses and the one it lands on still count: each
        // case is (what attacks it, the board, the castle, the square attacked).
        for (name, drawn, castle, column) in [
            ("check", "....k... ....r... ........ ........ ........ ........ ........ R...K..R", "e1 g1", 4),
            (
                "through",
                "....k... ........ ........ ........ ..b..... ........ ........ R...K..R",
                "e1 g1",
                5,
            ),
            // A bishop on e2 attacks d1, the square the long castle crosses; one on e3 attacks
            // c1, where it lands.
            ("across", "....k... ........ ........ ........ ........ ........ ....b... R...K..R", "e1 c1", 3),
            ("onto", "....k... ........ ........ ........ ........ ....b... ........ R...K..R", "e1 c1", 2),
            ("lands", "....k... ......r. ........ ........ ........ ........ ........ R...K..R", "e1 g1", 6),
        ] {
            let expected = Err(NoCastle::KingPathAttacked(Pos::new(7, column)));
            assert_eq!(king_path(&board(drawn), castle), expected, "{name}");
        }
        // The other conditions are the same: a piece on b1 still blocks.
        let blocked = board("....k... ........ ........ ........ ........ ........ ........ RN..K..R");
        assert_eq!(king_path(&blocked, "e1 c1"), Err(NoCastle::Blocked(Pos::new(7, 1))));
        // And main()'s game follows the option: the long castle with b1 attacked is a move.
        let game = |castle_safety| Game { board: b1, castle_safety, ..Game::new() };
        assert_eq!(game(CastleSafety::KingPath).kind(mv("e1 c1")), Some(Kind::Castle));
        assert_eq!(game(CastleSafety::Inclusive).kind(mv("e1 c1")), None);
    }

    #[test]
    fn castling_is_only_the_kings_two_square_step_from_its_first_square() {
        let b = board(CORNERS);
        for m in ["e1 f1", "e1 h1", "e1 a1", "e1 e3", "e1 b1"] {
            assert_eq!(castle_check(&b, mv(m), true, FREE), Err(NoCastle::NotACastlingMove), "{m}");
        }
        assert_eq!(
            castle_check(&b, mv("e8 g8"), true, FREE),
            Err(NoCastle::NotACastlingMove),
            "Black's king"
        );
        let moved = board("r...k..r pppppppp ........ ........ ........ ........ PPPPPPPP R..K...R");
        assert_eq!(castle_check(&moved, mv("d1 b1"), true, FREE), Err(NoCastle::NotACastlingMove));
        assert_eq!(castle_check(&moved, mv("e1 c1"), true, FREE), Err(NoCastle::NoKing));
    }

    #[test]
    fn en_passant_only_onto_the_skipped_square_right_after_the_double_push() {
        // White pawn e5, black pawn just moved d7-d5.
        let b = board("....k... ........ ........ ...pP... ........ ........ ........ ....K...");
        let ep = Some(Pos::new(2, 3));
        assert_eq!(en_passant_check(&b, mv("e5 d6"), true, ep), Ok(()));
        assert_eq!(en_passant_check(&b, mv("e5 d6"), true, None), Err(NoEnPassant::NoPosition));
        assert_eq!(en_passant_check(&b, mv("e5 f6"), true, ep), Err(NoEnPassant::NotThere));
        assert_eq!(en_passant_check(&b, mv("e1 d6"), true, ep), Err(NoEnPassant::NotAPawn));
        assert_eq!(en_passant_check(&b, mv("e5 d6"), false, ep), Err(NoEnPassant::NotAPawn));
        let after = perform_en_passant(&b, mv("e5 d6"), true);
        assert_eq!(after.rows()[2], "...P....");
        assert_eq!(after.rows()[3], "........");
        // Black takes White's pawn the same way.
        let w = board("....k... ........ ........ ........ ..Pp.... ........ ........ ....K...");
        let after = perform_en_passant(&w, mv("d4 c3"), false);
        assert_eq!(en_passant_check(&w, mv("d4 c3"), false, Some(Pos::new(5, 2))), Ok(()));
        assert_eq!((after.rows()[4].as_str(), after.rows()[5].as_str()), ("........", "..p....."));
    }

    #[test]
    fn en_passant_position_is_set_by_a_double_push_and_cleared_by_anything_else() {
        let start = Board::initial();
        let after = start.moved(mv("d2 d4"));
        assert_eq!(update_en_passant_position(mv("d2 d4"), &after, true), Some(Pos::new(5, 3)));
        let after = start.moved(mv("c7 c5"));
        assert_eq!(update_en_passant_position(mv("c7 c5"), &after, false), Some(Pos::new(2, 2)));
        let after = start.moved(mv("d2 d3"));
        assert_eq!(update_en_passant_position(mv("d2 d3"), &after, true), None);
        // A rook moving two squares forward is no pawn.
        let r = board("....k... ........ ........ ........ ........ ........ ........ R...K...");
        assert_eq!(update_en_passant_position(mv("a1 a3"), &r.moved(mv("a1 a3")), true), None);
        // A transcript: en passant is refused one move too late.
        let texts = Texts::default();
        let script = |s: &str| s.split('|').map(str::to_string).collect::<Vec<_>>();
        let late = play_with(
            &script("e2 e4|a7 a6|e4 e5|d7 d5|h2 h3|h7 h6|e5 d6|q|y"),
            &texts,
            Some(CastleSafety::Inclusive),
        );
        assert_eq!(late.ending, Ending::Quit);
        assert!(late.text().ends_with("Invalid move\n\n") || late.text().contains("Invalid move\n\n"));
        let now =
            play_with(&script("e2 e4|a7 a6|e4 e5|d7 d5|e5 d6|q|y"), &texts, Some(CastleSafety::Inclusive));
        assert!(!now.text().contains("Invalid move"), "{}", now.text());
        assert!(
            now.text().contains("rnbqkbnr  8\n.pp.pppp  7\np..P....  6\n........  5\n"),
            "{}",
            now.text()
        );
    }

    #[test]
    fn promotion_to_each_piece_and_a_choice_that_is_not_one_asked_again() {
        let texts = Texts::default();
        let opening = "a2 a4|b7 b5|a4 b5|a7 a6|b5 a6|c8 b7|a6 b7|g8 f6|b7 a8";
        for (typed, row8) in [("q", "Qn.qkb.r"), ("n", "Nn.qkb.r"), ("r", "Rn.qkb.r"), ("b", "Bn.qkb.r")] {
            let inputs: Vec<String> =
                opening.split('|').chain(["x", "Q", typed, "q", "y"]).map(str::to_string).collect();
            let t = play_with(&inputs, &texts, Some(CastleSafety::Inclusive));
            assert_eq!(t.ending, Ending::Quit, "{typed}");
            let text = t.text();
            let asked = "What piece would you like (q, n, r, b)? ";
            let again = format!("Not a valid piece. {asked}");
            assert!(
                text.contains(&format!("\nWhite's move: {asked}{again}{again}{row8}  8\n")),
                "{typed}: {text}"
            );
        }
        // The same moves under CSSE1001's rules leave a pawn.
        let inputs: Vec<String> = opening.split('|').chain(["q", "y"]).map(str::to_string).collect();
        let t = play_with(&inputs, &texts, None);
        assert!(t.text().contains("Pn.qkb.r  8\n"), "{}", t.text());
        assert_eq!(promotion_piece("Q", true), None, "upper case is not asked of students (RULES.md)");
    }
}
