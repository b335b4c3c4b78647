//! One focused test per rule of docs/games/pente/RULES.md, each on a board drawn by hand (only the
//! rows that hold stones, labelled with their numbers; columns A..T without I) or built from a few
//! named stones.

mod pente_common;

use arbiter::games::pente::oracle::{Category, Oracle, block_moves_brute_force, explain_status};
use arbiter::games::pente::point::DIRECTIONS;
use arbiter::games::pente::rules::{captures, effect, is_legal};
use arbiter::games::pente::{
    Board, Color, Opening, Point, Position, Rules, Status, WinReason, legal_moves, play, status, wins_at,
};
use pente_common::{names, position, pt, pts, stones};

use Color::{Black, White};

const SEED: Rules = Rules { opening: Opening::Seed };
const TOURNAMENT: Rules = Rules { opening: Opening::Tournament };

// ---------------------------------------------------------------------------------------------
// The opening rule

#[test]
fn whites_first_stone_goes_on_the_centre_and_black_is_never_restricted() {
    let start = Position::start();
    for rules in [SEED, TOURNAMENT] {
        assert_eq!(legal_moves(&start, &rules), vec![Point::CENTRE]);
        let after = play(&start, Point::CENTRE);
        assert_eq!(legal_moves(&after, &rules).len(), 360, "Black may play anywhere but 10K");
    }
    let oracle = Oracle::new(&start, &SEED);
    assert_eq!(oracle.expected_answers(), Some((Category::Opening, vec![Point::CENTRE])));
    assert_eq!(
        oracle.explain(pt("9K")),
        "9K is not a legal move: White's first stone must go on the centre 10K"
    );
    assert_eq!(
        oracle.explain(Point::CENTRE),
        "10K neither captures nor makes five; White's first stone must go on the centre 10K, and 10K is such a point"
    );
}

#[test]
fn whites_second_stone_is_at_most_3_from_the_centre_under_the_seed_rule() {
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            11 ..........b........
            10 .........w.........
        ",
    );
    let legal = legal_moves(&pos, &SEED);
    // The 7x7 square around 10K, without 10K and Black's 11L.
    assert_eq!(legal.len(), 47);
    assert!(legal.iter().all(|p| p.distance(Point::CENTRE) <= 3));
    for inside in ["13N", "7G", "13G", "7N", "10N", "9K"] {
        assert!(legal.contains(&pt(inside)), "{inside}");
    }
    for outside in ["14K", "10O", "6K", "10F", "1A"] {
        assert!(!legal.contains(&pt(outside)), "{outside}");
    }
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.category(), Some(Category::Opening));
    assert_eq!(
        oracle.explain(pt("14K")),
        "14K is not a legal move: White's second stone must be at most 3 points from the centre 10K"
    );
}

#[test]
fn whites_second_stone_is_at_least_3_from_the_centre_under_the_tournament_rule() {
    let pos = stones(White, "10K", "11L");
    let legal = legal_moves(&pos, &TOURNAMENT);
    // Everything outside the 5x5 square around 10K.
    assert_eq!(legal.len(), 361 - 25);
    assert!(legal.iter().all(|p| p.distance(Point::CENTRE) >= 3));
    for inside in ["13N", "7G", "1A", "19T", "10O"] {
        assert!(legal.contains(&pt(inside)), "{inside}");
    }
    for outside in ["12K", "8H", "11L", "10K", "10M"] {
        assert!(!legal.contains(&pt(outside)), "{outside}");
    }
}

#[test]
fn the_opening_rule_counts_whites_stones_captured_by_black() {
    // One white stone on the board: White's second move, restricted.
    let mut pos = stones(White, "10K", "11L 9H");
    assert_eq!(legal_moves(&pos, &SEED).len(), 49 - 3);
    // Black has captured two more: White has placed three stones and plays freely.
    pos.captured = [0, 2];
    assert_eq!(pos.placed(White), 3);
    assert_eq!(legal_moves(&pos, &SEED).len(), 361 - 3);
    assert_eq!(Oracle::new(&pos, &SEED).category(), Some(Category::Legal));
}

// ---------------------------------------------------------------------------------------------
// Captures

#[test]
fn a_stone_captures_a_flanked_pair_in_each_of_the_8_directions_at_once() {
    let pos = position(
        Black,
        "
               ABCDEFGHJKLMNOPQRST
            13 ......b..b..b......
            12 .......w.w.w.......
            11 ........www........
            10 ......bww.wwb......
             9 ........www........
             8 .......w.w.w.......
             7 ......b..b..b......
        ",
    );
    let pairs = captures(&pos.board, Point::CENTRE, Black);
    assert_eq!(pairs.len(), 8);
    let after = play(&pos, Point::CENTRE);
    assert_eq!(after.board.count(White), 0);
    assert_eq!(after.board.count(Black), 9);
    assert_eq!(after.captured, [0, 16]);
    assert_eq!(after.to_move, White);
    assert_eq!(status(&after), Status::Won(Black, WinReason::Captures));
}

#[test]
fn each_direction_alone_captures_exactly_its_pair() {
    let p = pt("10K");
    for d in DIRECTIONS {
        let step = |k| p.step(d, k).unwrap();
        let mut board = Board::empty();
        board.set(step(1), Some(White));
        board.set(step(2), Some(White));
        board.set(step(3), Some(Black));
        let pos = Position::new(Black, board);
        let pair = [step(1).min(step(2)), step(1).max(step(2))];
        assert_eq!(captures(&pos.board, p, Black), vec![pair], "{d:?}");
        let after = play(&pos, p);
        assert_eq!(after.board.get(step(1)), None);
        assert_eq!(after.board.get(step(2)), None);
        assert_eq!(after.board.get(step(3)), Some(Black));
        assert_eq!(after.captured, [0, 2]);
    }
}

#[test]
fn two_pairs_at_once_but_never_three_in_a_row() {
    // 10K takes 10L 10M (flanked by 10N) and 11K 12K (flanked by 13K); the three black stones
    // 9J 8H 7G, though flanked by 6F, are not a pair.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            13 .........w.........
            12 .........b.........
            11 .........b.........
            10 ..........bbw......
             9 ........b..........
             8 .......b...........
             7 ......b............
             6 .....w.............
        ",
    );
    let e = effect(&pos, pt("10K"));
    assert_eq!(e.captures, vec![[pt("10L"), pt("10M")], [pt("11K"), pt("12K")]]);
    let after = play(&pos, pt("10K"));
    assert_eq!(after.captured, [4, 0]);
    assert_eq!(names(&after.board.stones(Black).collect::<Vec<_>>()), "7G 8H 9J");
    assert_eq!(
        Oracle::new(&pos, &SEED).explain(pt("10K")),
        "10K captures 10L 10M and 11K 12K: no move wins, none is needed to stop a win, and no move captures more"
    );
}

#[test]
fn a_single_stone_or_an_unflanked_pair_is_no_capture() {
    // Row 10: b w . b -- Black on 10J would make b w b b: one white stone is not a pair.
    // Row 8: w b b . -- White on 8K captures 8H 8J; Row 6: w b b . . -- White on 6L does not
    // (the pair is not next to it).
    let pos = position(
        Black,
        "
               ABCDEFGHJKLMNOPQRST
            10 ......bw.b.........
             8 ......wbb..........
             6 ......wbb..........
        ",
    );
    assert!(captures(&pos.board, pt("10J"), Black).is_empty());
    assert_eq!(captures(&pos.board, pt("8K"), White), vec![[pt("8H"), pt("8J")]]);
    assert!(captures(&pos.board, pt("6L"), White).is_empty());
}

#[test]
fn playing_into_a_flanked_gap_is_safe() {
    // b w . b: White fills the gap, making b w w b, and nothing is captured.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            10 ......bw.b.........
        ",
    );
    let after = play(&pos, pt("10J"));
    assert_eq!(after.board.get(pt("10H")), Some(White));
    assert_eq!(after.board.get(pt("10J")), Some(White));
    assert_eq!(after.captured, [0, 0]);
    // Captures happen only when the capturing stone is placed: Black has nothing to gain by
    // playing elsewhere, and cannot capture the now-flanked pair by replaying a flank.
    assert!(captures(&after.board, pt("10L"), Black).is_empty());
}

#[test]
fn capturing_the_tenth_piece_wins() {
    let mut pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            15 ..............b....
            10 ......wbb..........
             3 ..w................
        ",
    );
    pos.captured = [8, 0];
    assert!(wins_at(&pos, pt("10K")));
    let after = play(&pos, pt("10K"));
    assert_eq!(after.captured, [10, 0]);
    assert_eq!(status(&after), Status::Won(White, WinReason::Captures));
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.expected_answers(), Some((Category::Win, pts("10K"))));
    assert_eq!(oracle.explain(pt("10K")), "10K captures 10H 10J, bringing White's captured pieces to 10");
    // With 6 pieces captured the same move only captures.
    pos.captured = [6, 0];
    assert_eq!(Oracle::new(&pos, &SEED).expected_answers(), Some((Category::Capture, pts("10K"))));
}

// ---------------------------------------------------------------------------------------------
// Rows of five

#[test]
fn five_in_a_row_wins_along_every_line() {
    // Four white fours, each closed at one end by a black stone: horizontal on row 3, vertical on
    // column R, and the two diagonals.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            19 .........b.........
            18 ..........w........
            17 ...........w.......
            16 ............w......
            15 ....w........w.....
            14 ...w...............
            13 ..w................
            12 .w.................
            11 b..................
             8 ................w..
             7 ................w..
             6 ................w..
             5 ................w..
             4 ................b..
             3 .bwwww.............
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.win, pts("3G 9R 16F 14P"));
    let explain = |p| oracle.explain(pt(p));
    assert_eq!(explain("3G"), "3G completes five: 3C 3D 3E 3F 3G");
    assert_eq!(explain("9R"), "9R completes five: 5R 6R 7R 8R 9R");
    assert_eq!(explain("16F"), "16F completes five: 12B 13C 14D 15E 16F");
    assert_eq!(explain("14P"), "14P completes five: 14P 15O 16N 17M 18L");
    assert_eq!(explain("3A"), "3A neither captures nor makes five, but a move wins at once: 3G 9R 14P 16F");
    for p in oracle.win.clone() {
        assert_eq!(status(&play(&pos, p)), Status::Won(White, WinReason::FiveInARow), "{p}");
    }
}

#[test]
fn six_in_a_row_wins_too() {
    let pos = stones(White, "10F 10G 10H 10K 10L", "1A 1B");
    let oracle = Oracle::new(&pos, &SEED);
    assert!(oracle.win.contains(&pt("10J")));
    assert_eq!(oracle.explain(pt("10J")), "10J completes 6 in a row: 10F 10G 10H 10J 10K 10L");
    let after = play(&pos, pt("10J"));
    assert_eq!(explain_status(&after).unwrap(), "White has 6 in a row: 10F 10G 10H 10J 10K 10L");
}

#[test]
fn a_five_wins_at_once_even_when_a_pair_of_it_could_be_captured() {
    // 10G and 11G form a pair flanked by Black's 12G: Black could take it on 9G, but the game
    // ends with White's five first.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            12 ......b............
            11 ......w............
            10 .....wwww..........
             3 ..bbb..............
        ",
    );
    let after = play(&pos, pt("10K"));
    assert_eq!(status(&after), Status::Won(White, WinReason::FiveInARow));
    assert_eq!(legal_moves(&after, &SEED), vec![]);
    assert_eq!(captures(&after.board, pt("9G"), Black).len(), 1);
}

#[test]
fn a_move_can_make_five_and_capture_at_once() {
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            13 .........w.........
            12 .........b.........
            11 .........b.........
            10 .....wwww..........
             3 ..b................
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.explain(pt("10K")), "10K completes five: 10F 10G 10H 10J 10K and captures 11K 12K");
    assert_eq!(oracle.category(), Some(Category::Win));
}

#[test]
fn a_capture_can_break_a_four() {
    // Black's four 9J..9M is closed on 9H. White blocks on 9N, or captures 9K 10K from 8K (11K
    // flanks them), which leaves Black's row broken: 9J . 9L 9M.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            11 .........w.........
            10 .........b.........
             9 .......wbbbb.......
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.win, vec![]);
    assert_eq!(oracle.threats.moves, pts("9N"));
    assert_eq!(oracle.capture, pts("8K"));
    assert_eq!(oracle.expected_answers(), Some((Category::Block, pts("8K 9N"))));
    assert_eq!(block_moves_brute_force(&pos, &SEED), oracle.threats.block);
    assert_eq!(
        oracle.explain(pt("9N")),
        "9N neither captures nor makes five; after it Black has no winning move (Black threatened: 9N completes \
         five: 9J 9K 9L 9M 9N)"
    );
    assert_eq!(
        oracle.explain(pt("8K")),
        "8K captures 9K 10K; after it Black has no winning move (Black threatened: 9N completes five: 9J 9K 9L \
         9M 9N)"
    );
    assert_eq!(
        oracle.explain(pt("1A")),
        "1A neither captures nor makes five; after it Black still wins: 9N completes five: 9J 9K 9L 9M 9N. \
         Moves that stop every threat: 8K 9N"
    );
}

#[test]
fn a_capture_can_reopen_a_row_but_never_completes_five_by_itself() {
    // White's 10F..10J is closed by Black on 10E and 10K. From 9K White takes 10K 11K (12K
    // flanks them): the row is open again, but four stones and an empty point are not five.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            12 .........w.........
            11 .........b.........
            10 ....bwwwwb.........
             3 ..b................
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.win, vec![]);
    assert_eq!(oracle.expected_answers(), Some((Category::Capture, pts("9K"))));
    let after = play(&pos, pt("9K"));
    assert_eq!(status(&after), Status::Ongoing);
    // Now White threatens to complete the row on the freed 10K.
    assert_eq!(Oracle::new(&after, &SEED).threats.moves, pts("10K"));
}

// ---------------------------------------------------------------------------------------------
// Threats, blocks and the categories

#[test]
fn an_open_four_cannot_be_stopped() {
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            15 ..............w....
             9 ........bbbb.......
             4 ...w...............
             3 ..w................
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.threats.moves, pts("9H 9N"));
    assert_eq!(oracle.threats.block, Some(vec![]));
    assert!(oracle.threats.lost());
    assert_eq!(oracle.category(), Some(Category::Block));
    assert_eq!(oracle.expected(Category::Block), oracle.legal);
    assert!(
        oracle.explain(pt("9H")).contains("the game is lost whatever is played"),
        "{}",
        oracle.explain(pt("9H"))
    );
}

#[test]
fn a_threat_to_capture_the_tenth_piece_must_be_stopped() {
    // Black has 8 pieces and threatens 10J, taking 10K 10L (flanked by 10M). White fills 10J, or
    // takes 10M 11M from 9M (12M flanks them).
    let mut pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            12 ...........w.......
            11 ...........b.......
            10 .........wwb.......
        ",
    );
    pos.captured = [0, 8];
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.threats.moves, pts("10J"));
    assert_eq!(oracle.threats.block, Some(pts("9M 10J")));
    assert_eq!(oracle.category(), Some(Category::Block));
    assert!(
        oracle
            .explain(pt("10J"))
            .ends_with("(Black threatened: 10J captures 10K 10L, bringing Black's captured pieces to 10)"),
        "{}",
        oracle.explain(pt("10J"))
    );
}

#[test]
fn the_capture_set_holds_the_moves_taking_the_most_pairs() {
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            13 .........w.........
            12 .........b.........
            11 .........b.........
            10 ..........bbw......
             5 ...bbw.............
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.capture, pts("10K"));
    assert_eq!(oracle.most_pairs, 2);
    assert_eq!(oracle.category(), Some(Category::Capture));
    assert_eq!(oracle.explain(pt("5C")), "5C captures 5D 5E, but this move would capture 2 pairs (10K)");
}

#[test]
fn a_win_comes_before_a_block_and_a_block_before_a_capture() {
    // White can win on 3G and Black threatens 9N: the category is win and no block set is made.
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
             9 .......wbbbb.......
             3 .bwwww.............
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.expected_answers(), Some((Category::Win, pts("3G"))));
    assert_eq!(oracle.threats.block, None);
    // With Black to move, Black wins on 9N first.
    let oracle = Oracle::new(&Position { to_move: Black, ..pos }, &SEED);
    assert_eq!(oracle.expected_answers(), Some((Category::Win, pts("9N"))));
}

#[test]
fn a_quiet_position_accepts_any_legal_move() {
    let pos = stones(Black, "10K 12M", "11L");
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.category(), Some(Category::Legal));
    assert_eq!(oracle.expected(Category::Legal).len(), 358);
    assert_eq!(oracle.expected(Category::Win), vec![]);
    assert_eq!(oracle.expected(Category::Block), vec![]);
    assert!(oracle.explain(pt("1A")).contains("every legal move is right"));
}

#[test]
fn the_assignment_sample() {
    // input.txt's sample: Black to move; White threatens to take 11L 10M from 9N (12K flanks
    // them), which the assignment suggests blocking. Neither side can win or is threatened with
    // a loss, so any legal move is right; with White to move, 9N is the capture.
    let pos = position(
        Black,
        "
               ABCDEFGHJKLMNOPQRST
            12 .........w.........
            11 ..........b........
            10 .........w.bw......
        ",
    );
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.category(), Some(Category::Legal));
    assert!(oracle.legal.contains(&pt("9N")));
    let white = Oracle::new(&Position { to_move: White, ..pos }, &SEED);
    assert_eq!(white.expected_answers(), Some((Category::Capture, pts("9N"))));
}

// ---------------------------------------------------------------------------------------------
// The end of the game

#[test]
fn no_moves_once_someone_has_five() {
    let pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
            15 ..............w....
            10 bbbbb..............
             5 ....w..............
             4 ...w...............
             3 ..w................
        ",
    );
    assert_eq!(status(&pos), Status::Won(Black, WinReason::FiveInARow));
    assert_eq!(legal_moves(&pos, &SEED), vec![]);
    assert!(!is_legal(&pos, &SEED, pt("1A")));
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.category(), None);
    assert_eq!(
        oracle.no_moves_reason().unwrap(),
        "no legal moves: the game is over: Black has five in a row: 10A 10B 10C 10D 10E"
    );
    assert_eq!(oracle.explain(pt("1A")), oracle.no_moves_reason().unwrap());
}

#[test]
fn no_moves_once_someone_has_10_pieces() {
    let mut pos = stones(Black, "10K 10L", "11L");
    pos.captured = [10, 0];
    assert_eq!(status(&pos), Status::Won(White, WinReason::Captures));
    assert_eq!(legal_moves(&pos, &SEED), vec![]);
    assert_eq!(
        Oracle::new(&pos, &SEED).no_moves_reason().unwrap(),
        "no legal moves: the game is over: White has captured 10 pieces"
    );
}

/// A full board without five in a row for anyone: rows read `wwwbbbwww...`, each shifted two
/// points from the one below, so columns read `wwbwwb...` (or a shift of it), one diagonal
/// alternates and the other runs in threes.
fn no_five_board() -> Board {
    let mut board = Board::empty();
    for p in Point::all() {
        let white = (p.column() + 2 * (p.row() - 1)) / 3 % 2 == 0;
        board.set(p, Some(if white { White } else { Black }));
    }
    board
}

#[test]
fn a_full_board_without_a_winner_is_a_draw() {
    let full = Position::new(White, no_five_board());
    assert_eq!(status(&full), Status::Drawn);
    assert_eq!(legal_moves(&full, &SEED), vec![]);
    assert_eq!(
        Oracle::new(&full, &SEED).no_moves_reason().unwrap(),
        "no legal moves: the game is over: the board is full: the game is drawn"
    );
    // A last empty point that its player fills without a capture or a five draws the game.
    let fill = |last: Point| {
        let mut pos = Position { to_move: full.board.get(last).unwrap(), ..full.clone() };
        pos.board.set(last, None);
        pos
    };
    let last = Point::all()
        .find(|&p| captures(&fill(p).board, p, fill(p).to_move).is_empty() && !wins_at(&fill(p), p))
        .expect("some point is quiet");
    let pos = fill(last);
    assert_eq!(legal_moves(&pos, &SEED), vec![last]);
    assert_eq!(status(&play(&pos, last)), Status::Drawn);
    assert_eq!(Oracle::new(&pos, &SEED).expected_answers(), Some((Category::Legal, vec![last])));
}

#[test]
fn filling_the_last_point_with_a_five_wins_rather_than_draws() {
    let mut board = no_five_board();
    // Row 1 reads w w w b b b ...: with 1D and 1E white too, White fills 1A for five.
    for name in ["1B", "1C", "1D", "1E"] {
        board.set(pt(name), Some(White));
    }
    board.set(pt("1A"), None);
    let pos = Position::new(White, board);
    let after = play(&pos, pt("1A"));
    assert!(after.board.is_full());
    assert_eq!(status(&after), Status::Won(White, WinReason::FiveInARow));
}

// ---------------------------------------------------------------------------------------------
// Positions no game can reach

#[test]
fn an_occupied_centre_leaves_white_no_first_move() {
    // Black's stone on 10K before White has placed one.
    let pos = stones(White, "", "10K");
    assert_eq!(pos.inconsistencies().len(), 1, "{:?}", pos.inconsistencies());
    assert_eq!(status(&pos), Status::Ongoing);
    assert_eq!(legal_moves(&pos, &SEED), vec![]);
    let oracle = Oracle::new(&pos, &SEED);
    assert_eq!(oracle.category(), None);
    assert_eq!(
        oracle.no_moves_reason().unwrap(),
        "no legal moves: White's first stone must go on the centre 10K, and no such point is empty"
    );
}

#[test]
fn status_looks_at_the_player_who_just_moved_first() {
    // Both players have five and White has 10 pieces: Black, who would have moved last, wins.
    let mut pos = position(
        White,
        "
               ABCDEFGHJKLMNOPQRST
             5 bbbbb..............
             3 wwwww..............
        ",
    );
    pos.captured = [10, 0];
    assert_eq!(status(&pos), Status::Won(Black, WinReason::FiveInARow));
    pos.to_move = Black;
    assert_eq!(status(&pos), Status::Won(White, WinReason::FiveInARow));
    // A row of five comes before 10 pieces for the same player.
    pos.board = Board::from_points("3A 3B 3C 3D 3E", "").unwrap();
    assert_eq!(status(&pos), Status::Won(White, WinReason::FiveInARow));
    pos.board = Board::empty();
    assert_eq!(status(&pos), Status::Won(White, WinReason::Captures));
}
