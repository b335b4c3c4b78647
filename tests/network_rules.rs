//! One hand-drawn position per rule of Network (docs/games/network/RULES.md), and the
//! assignment's worked examples. Boards are drawn as in a position file: row 0 first, square
//! `xy` at character `x` of row `y`; `/` separates rows.

use arbiter::games::network::connection::{find_network, has_network, network_flaw};
use arbiter::games::network::oracle::{Oracle, block_moves, block_moves_brute_force};
use arbiter::games::network::rules::{Lift, legal_moves_unchecked};
use arbiter::games::network::{
    Board, Color, DoubleNetwork, Illegal, Move, Position, Rules, Square, Status, WinReason, check, is_legal,
    legal_moves, outcome, play, status,
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn squares(list: &str) -> Vec<Square> {
    list.split_whitespace().map(sq).collect()
}

/// The position drawn by `rows` (eight rows joined by `/`) with `side` to move.
fn pos(rows: &str, side: Color) -> Position {
    let text = format!("{}\n{}\n", rows.replace('/', "\n"), side.word());
    Position::from_text(&text).unwrap()
}

fn add(s: &str) -> Move {
    Move::Add { to: sq(s) }
}

fn step(to: &str, from: &str) -> Move {
    Move::Step { to: sq(to), from: sq(from) }
}

const TEXT: Rules = Rules { double: DoubleNetwork::Opponent, lift: Lift::Final };

// ---------------------------------------------------------------------------------------------
// The assignment's diagrams.

/// The diagram under "Object of Play": eleven black chips (white ones "not shown").
const SEED_NETWORKS: &str = "#.b...b#/......../....b.../.b.b..../......../..bb.bb./......../#.b..b.#";

#[test]
fn the_seeds_two_winning_networks_are_networks() {
    let board = pos(SEED_NETWORKS, Color::White).board;
    assert_eq!(network_flaw(&board, Color::Black, &squares("60 65 55 33 35 57")), None);
    // "Observe that the second one crosses itself."
    assert_eq!(network_flaw(&board, Color::Black, &squares("20 25 35 13 33 55 57")), None);
    assert!(has_network(&board, Color::Black));
    assert!(!has_network(&board, Color::White));
    let found = find_network(&board, Color::Black).unwrap();
    assert_eq!(network_flaw(&board, Color::Black, &found), None, "{found:?}");
}

#[test]
fn a_white_chip_on_56_breaks_the_second_network() {
    let mut board = pos(SEED_NETWORKS, Color::White).board;
    board.set(sq("56"), Some(Color::White));
    assert_eq!(
        network_flaw(&board, Color::Black, &squares("20 25 35 13 33 55 57")).as_deref(),
        Some("the chip on 56 stands between 55 and 57")
    );
}

#[test]
fn the_seeds_non_networks_are_refused_for_the_reasons_it_gives() {
    let board = pos(SEED_NETWORKS, Color::White).board;
    let flaw = |list: &str| network_flaw(&board, Color::Black, &squares(list)).unwrap();
    // "they both make use of two chips in the upper goal"
    assert_eq!(flaw("60 20 42 33 35 57"), "20 is in a goal area, where only the first and last chips may be");
    assert_eq!(flaw("20 42 60 65 55 57"), "60 is in a goal area, where only the first and last chips may be");
    // "A network cannot pass through the same chip twice"
    assert_eq!(flaw("20 25 35 33 55 35 57"), "it passes through 35 twice");
    // "A network cannot pass through a chip without turning a corner."
    assert_eq!(flaw("60 42 33 35 25 27"), "it passes through 42 without turning a corner");
}

#[test]
fn the_seeds_cluster_diagram_marks_exactly_the_squares_black_may_not_add_to() {
    // Black chips as drawn; the X squares of the diagram listed below.
    let board =
        pos("#..b...#/..b...../.....b../.....b../..b...../......b./.b....../#...b..#", Color::Black).board;
    let xs = squares("10 20 40 11 31 41 51 61 12 22 32 42 62 43 63 44 54 64 15 25 56");
    // "(Of course, the far left and right columns are also off-limits to Black.)"
    let marked: Vec<Square> = Square::all()
        .filter(|s| (1..=6).contains(&s.x()) && board.get(*s).is_none())
        .filter(|&s| board.would_cluster(Color::Black, s))
        .collect();
    let mut expected = xs.clone();
    expected.sort();
    assert_eq!(marked, expected);
}

// ---------------------------------------------------------------------------------------------
// Network conditions, one at a time.

/// Black's network 60 65 55 33 35 57 with nothing else on the board.
fn seed_network_board() -> Board {
    pos("#.....b#/......../......../...b..../......../...b.bb./......../#....b.#", Color::White).board
}

#[test]
fn six_chips_make_a_network_and_five_do_not() {
    let board = seed_network_board();
    assert!(has_network(&board, Color::Black));
    assert_eq!(find_network(&board, Color::Black).unwrap(), squares("60 65 55 33 35 57"));
    // 60 65 55 57: four chips from goal to goal is not enough.
    let short =
        pos("#.....b#/......../......../......../......../.....bb./......../#....b.#", Color::White).board;
    assert!(!has_network(&short, Color::Black));
    assert_eq!(
        network_flaw(&short, Color::Black, &squares("60 65 55 57")).as_deref(),
        Some("it has 4 chips; a network needs at least 6")
    );
    // Five chips in all cannot make one.
    let mut five = board;
    five.set(sq("33"), None);
    assert!(!has_network(&five, Color::Black));
}

#[test]
fn a_chip_of_either_colour_blocks_a_line() {
    for blocker in Color::BOTH {
        let mut board = seed_network_board();
        board.set(sq("34"), Some(blocker));
        assert!(!has_network(&board, Color::Black), "{blocker} chip on 34");
    }
}

/// Asserts that `rows` has no Black network although `chain` would be one but for `flaw`.
fn refused(rows: &str, chain: &str, flaw: &str) {
    let board = pos(rows, Color::White).board;
    assert!(!has_network(&board, Color::Black), "{rows}");
    assert!(!arbiter::games::network::connection::has_network_slow(&board, Color::Black), "{rows}");
    assert_eq!(network_flaw(&board, Color::Black, &squares(chain)).as_deref(), Some(flaw), "{chain}");
}

#[test]
fn a_goal_chip_in_the_middle_is_not_allowed() {
    // 50 56 67 62 35 37 would join the goals, but 67 in the middle is a goal chip.
    refused(
        "#..b.b.#/......../......b./......../......../...b..../.....b../#..b..b#",
        "50 56 67 62 35 37",
        "67 is in a goal area, where only the first and last chips may be",
    );
}

#[test]
fn a_network_joins_both_goals_not_one_goal_to_itself() {
    // 10 14 23 56 36 30 starts and ends in the top row.
    refused(
        "#b.b...#/......../....b.../..b...../.b....../......../...b.b../#......#",
        "10 14 23 56 36 30",
        "it does not start in one of its goal areas and end in the other",
    );
}

#[test]
fn a_network_turns_at_every_chip() {
    // 10 32 54 52 16 17 goes straight on through 32 (10, 32, 54 lie on one diagonal).
    refused(
        "#b.....#/.b....../...b.b../......../.....b../......../.b....../#b.....#",
        "10 32 54 52 16 17",
        "it passes through 32 without turning a corner",
    );
}

#[test]
fn a_chip_is_used_once() {
    // 60 61 16 61 16 17 would pass 61 and 16 twice each.
    refused(
        "#.....b#/......b./...b..../..b..b../......../......../.b....../#b.....#",
        "60 61 16 61 16 17",
        "it passes through 61 twice",
    );
}

#[test]
fn whites_goals_are_the_left_and_right_columns() {
    // White 01 -> 21 -> 23 -> 43 -> 41 -> 71? 43-41 up, 41-71 right: a White network.
    let board =
        pos("#......#/w.w.w..w/......../..w.w.../......../......../......../#......#", Color::Black).board;
    assert_eq!(network_flaw(&board, Color::White, &squares("01 21 23 43 41 71")), None);
    assert!(has_network(&board, Color::White));
    // The same shape in Black's colour touches White's goals, not Black's: no network.
    let black =
        pos("#......#/b.b.b..b/......../..b.b.../......../......../......../#......#", Color::Black).board;
    assert!(!has_network(&black, Color::Black));
}

// ---------------------------------------------------------------------------------------------
// Legal moves: each rule on its own board.

/// Black to move, chips to add: Black 22 23 (a pair) and 55; White 43 04 74 06.
const ADDING: &str = "#......#/......../..b...../..b.w.../w......w/.....b../w......./#......#";

#[test]
fn white_moves_first() {
    assert_eq!(Position::start().to_move, Color::White);
    assert!(legal_moves(&Position::start(), &TEXT).iter().all(|m| matches!(m, Move::Add { .. })));
}

#[test]
fn no_chip_in_a_corner() {
    let p = pos(ADDING, Color::Black);
    for corner in ["00", "70", "07", "77"] {
        assert_eq!(check(&p, &TEXT, add(corner)), Err(Illegal::Corner), "{corner}");
    }
}

#[test]
fn no_chip_in_the_opponents_goal() {
    let p = pos(ADDING, Color::Black);
    assert_eq!(check(&p, &TEXT, add("03")), Err(Illegal::OpponentGoal));
    assert_eq!(check(&p, &TEXT, add("73")), Err(Illegal::OpponentGoal));
    // Its own goal is fine.
    assert_eq!(check(&p, &TEXT, add("30")), Ok(()));
    let w = pos("#......#/......../......../......../......../......../......../#......#", Color::White);
    assert_eq!(check(&w, &TEXT, add("30")), Err(Illegal::OpponentGoal));
    assert_eq!(check(&w, &TEXT, add("03")), Ok(()));
}

#[test]
fn no_chip_on_an_occupied_square() {
    let p = pos(ADDING, Color::Black);
    assert_eq!(check(&p, &TEXT, add("22")), Err(Illegal::Occupied));
    assert_eq!(check(&p, &TEXT, add("43")), Err(Illegal::Occupied));
}

#[test]
fn no_group_of_three() {
    let p = pos(ADDING, Color::Black);
    // Touching the pair 22 23.
    assert_eq!(check(&p, &TEXT, add("24")), Err(Illegal::Cluster));
    assert_eq!(check(&p, &TEXT, add("11")), Err(Illegal::Cluster));
    // Next to the lone 55: a pair, allowed.
    assert_eq!(check(&p, &TEXT, add("66")), Ok(()));
    // White chips do not count towards Black's groups: 53 touches only White's 43.
    assert_eq!(check(&p, &TEXT, add("53")), Ok(()));
    assert_eq!(check(&p, &TEXT, add("33")), Err(Illegal::Cluster));
    assert!(legal_moves(&p, &TEXT).iter().all(|&m| {
        let after = play(&p, m);
        after.board.clustered(Color::Black) == 0
    }));
}

#[test]
fn only_adds_until_ten_chips_are_down_then_only_steps() {
    let p = pos(ADDING, Color::Black);
    assert_eq!(check(&p, &TEXT, step("66", "55")), Err(Illegal::MustAdd));
    let s = pos(STEPPING, Color::White);
    assert!(!s.adds());
    assert_eq!(check(&s, &TEXT, add("33")), Err(Illegal::MustStep));
    assert!(legal_moves(&s, &TEXT).iter().all(|m| matches!(m, Move::Step { .. })));
}

/// All 20 chips down, nobody has a network (the board of the double-network test before the
/// step; White to move).
const STEPPING: &str = "#.b..bb#/...w..w./.....w../..bb..../...w.w../...b.bbw/w.w.w.w./#b...b.#";

#[test]
fn a_step_moves_ones_own_chip_to_a_different_square() {
    let s = pos(STEPPING, Color::White);
    assert_eq!(check(&s, &TEXT, step("34", "34")), Err(Illegal::StepInPlace));
    assert_eq!(check(&s, &TEXT, step("33", "44")), Err(Illegal::StepFromEmpty));
    assert_eq!(check(&s, &TEXT, step("44", "33")), Err(Illegal::StepFromOpponent));
    assert_eq!(check(&s, &TEXT, step("01", "34")), Ok(()));
    // The destination obeys the same rules as an add.
    assert_eq!(check(&s, &TEXT, step("00", "34")), Err(Illegal::Corner));
    assert_eq!(check(&s, &TEXT, step("30", "34")), Err(Illegal::OpponentGoal));
    assert_eq!(check(&s, &TEXT, step("33", "34")), Err(Illegal::Occupied));
}

#[test]
fn a_steps_chip_is_lifted_before_its_new_square_is_judged() {
    // Black has all ten chips down, among them the pair 22 23.
    let p = pos("#b.b.b.#/......../..b...b./..b...../......../....b.b./.b.b..../#......#", Color::Black);
    assert_eq!(p.board.count(Color::Black), 10);
    // Stepping 22 to 24: once 22 is lifted, 24 touches only 23, so no group of three.
    assert_eq!(check(&p, &TEXT, step("24", "22")), Ok(()));
    // Stepping another chip to 24 would join 22 23.
    assert_eq!(check(&p, &TEXT, step("24", "62")), Err(Illegal::Cluster));
}

#[test]
fn legal_moves_agree_with_check_in_both_phases() {
    for (rows, side) in [(ADDING, Color::Black), (STEPPING, Color::White), (STEPPING, Color::Black)] {
        let p = pos(rows, side);
        let legal = legal_moves(&p, &TEXT);
        let mut by_check = Vec::new();
        for from in Square::all() {
            for to in Square::all() {
                if is_legal(&p, &TEXT, Move::Step { to, from }) {
                    by_check.push(Move::Step { to, from });
                }
            }
            if is_legal(&p, &TEXT, Move::Add { to: from }) {
                by_check.push(Move::Add { to: from });
            }
        }
        by_check.sort();
        assert_eq!(legal, by_check, "{rows} {side}");
    }
}

// ---------------------------------------------------------------------------------------------
// Outcomes.

/// Black to move; Black's 60 65 55 33 35 lack a bottom-goal chip; White's six chips are out of
/// the way on its goals.
const BLACK_THREATENS: &str = "#.....b#/w......./.......w/w..b..../.......w/w..b.bb./w......./#......#";

#[test]
fn an_add_that_completes_a_network_wins() {
    let p = pos(BLACK_THREATENS, Color::Black);
    assert_eq!(
        outcome(&p, &TEXT, add("57")),
        Status::Won { winner: Color::Black, reason: WinReason::Network }
    );
    assert_eq!(outcome(&p, &TEXT, add("47")), Status::Ongoing);
    let oracle = Oracle::new(&p, &TEXT);
    assert_eq!(oracle.win, vec![add("17"), add("57")]);
    assert!(oracle.explain(add("57")).contains("completes a network for Black: 60 65 55 33 35 57"));
}

#[test]
fn the_block_set_is_every_move_after_which_the_threat_is_gone() {
    // White to move with the same chips less White's 06: Black threatens 17 and 57.
    let p = pos("#.....b#/w......./.......w/w..b..../.......w/w..b.bb./......../#......#", Color::White);
    let oracle = Oracle::new(&p, &TEXT);
    assert_eq!(oracle.threats.moves, vec![add("17"), add("57")]);
    let block = oracle.threats.block.clone().unwrap();
    assert_eq!(block, vec![add("34"), add("44"), add("61"), add("62"), add("64")]);
    assert_eq!(block_moves(&p, &TEXT), Some(block.clone()));
    assert_eq!(block_moves_brute_force(&p, &TEXT), Some(block));
    assert!(oracle.explain(add("34")).contains("after it Black has no winning move"));
    assert!(oracle.explain(add("46")).contains("Moves that stop every threat: add 34, add 44"));
}

#[test]
fn without_a_threat_the_block_category_does_not_apply() {
    let p = pos(ADDING, Color::Black);
    let oracle = Oracle::new(&p, &TEXT);
    assert!(oracle.threats.moves.is_empty());
    assert_eq!(oracle.threats.block, None);
    assert_eq!(block_moves(&p, &TEXT), None);
    assert_eq!(oracle.category(), Some(arbiter::games::network::Category::Legal));
}

#[test]
fn a_step_that_completes_networks_for_both_loses_for_its_mover() {
    let s = pos(STEPPING, Color::White);
    // 34 blocked Black's 33-35; on 04 it completes White's 04 54 52 61 31 75.
    let double = step("04", "34");
    assert_eq!(
        outcome(&s, &TEXT, double),
        Status::Won { winner: Color::Black, reason: WinReason::DoubleNetwork }
    );
    let referee = Rules { double: DoubleNetwork::Mover, ..TEXT };
    assert_eq!(
        outcome(&s, &referee, double),
        Status::Won { winner: Color::White, reason: WinReason::DoubleNetwork }
    );
    let oracle = Oracle::new(&s, &TEXT);
    assert!(oracle.losing.contains(&double));
    assert!(!oracle.win.contains(&double));
    assert!(Oracle::new(&s, &referee).win.contains(&double));
    // The course's referee gives it to White, the mover here.
    let white = Rules { double: DoubleNetwork::White, ..TEXT };
    assert_eq!(
        outcome(&s, &white, double),
        Status::Won { winner: Color::White, reason: WinReason::DoubleNetwork }
    );
    assert!(Oracle::new(&s, &white).win.contains(&double));
}

/// The board of [`STEPPING`] mirrored on its diagonal with the colours swapped: Black to move,
/// and Black's step 40 43 completes networks for both players.
const STEPPING_MIRRORED: &str = "#.....b#/.......w/w..w..b./.b.wbw../......b./w.b.bw.w/wb...wb./#....b.#";

#[test]
fn double_white_gives_a_double_network_to_white_whoever_moved() {
    let s = pos(STEPPING_MIRRORED, Color::Black);
    let double = step("40", "43");
    let after = play(&s, double);
    assert!(has_network(&after.board, Color::Black) && has_network(&after.board, Color::White));
    let won = |rules: Rules| match outcome(&s, &rules, double) {
        Status::Won { winner, reason: WinReason::DoubleNetwork } => winner,
        other => panic!("{other:?}"),
    };
    // The text: the other player (White) wins; double=mover: Black; the course's referee: White.
    assert_eq!(won(TEXT), Color::White);
    assert_eq!(won(Rules { double: DoubleNetwork::Mover, ..TEXT }), Color::Black);
    assert_eq!(won(Rules { double: DoubleNetwork::White, ..TEXT }), Color::White);
    // So under double=white Black's double is a losing move, and White's (the mirror) a win.
    let white = Rules { double: DoubleNetwork::White, ..TEXT };
    assert!(Oracle::new(&s, &white).losing.contains(&double));
    assert!(!Oracle::new(&s, &white).win.contains(&double));
}

#[test]
fn engine_course_takes_every_reading_of_the_course_referee() {
    let course = Rules::default().with_option("engine=course").unwrap();
    assert_eq!(course, Rules { double: DoubleNetwork::White, lift: Lift::NoDouble });
    assert_eq!(course, Rules::COURSE);
    assert_eq!(course.describe(), vec!["double=white", "lift=no-double"]);
    assert_eq!(course.with_option("engine=seed").unwrap(), Rules::default());
    // Both readings at once: the lifted double is refused, and White's double wins for White.
    let s = pos("#.b....#/wb....../w..b.bbw/.bw.w..w/w.....b./.bw..ww./.....b../#.....b#", Color::White);
    assert_eq!(check(&s, &course, step("31", "55")), Err(Illegal::LiftDouble));
    let s = pos(STEPPING, Color::White);
    assert!(Oracle::new(&s, &course).win.contains(&step("04", "34")));
    assert!(Rules::default().with_option("engine=referee").unwrap_err().contains("engine=course"));
}

#[test]
fn a_step_that_leaves_the_opponent_a_network_loses() {
    let s = pos(STEPPING, Color::White);
    assert_eq!(
        outcome(&s, &TEXT, step("01", "34")),
        Status::Won { winner: Color::Black, reason: WinReason::GaveNetwork }
    );
    assert!(Oracle::new(&s, &TEXT).explain(step("01", "34")).contains("leaves Black a network"));
}

#[test]
fn a_step_that_unblocks_one_line_but_blocks_another_is_no_loss() {
    // Lifting White's 44 opens Black's 20 22 33 35 53 57; putting it on 21 breaks that
    // network elsewhere ("If the step move breaks the network at some other point, the enemy
    // does not win").
    let s = pos("#.b..b.#/w..wb..w/w.b...../...bwbw./.b..w.../w..b..../wbw...../#....b.#", Color::White);
    let mut lifted = s.board;
    lifted.set(sq("44"), None);
    assert!(has_network(&lifted, Color::Black));
    assert_eq!(outcome(&s, &TEXT, step("21", "44")), Status::Ongoing);
    assert_eq!(
        outcome(&s, &TEXT, step("23", "44")),
        Status::Won { winner: Color::Black, reason: WinReason::GaveNetwork }
    );
}

#[test]
fn lift_no_double_forbids_a_step_whose_lifted_board_has_two_networks() {
    // Lifting White's 55 gives both players a network.
    let s = pos("#.b....#/wb....../w..b.bbw/.bw.w..w/w.....b./.bw..ww./.....b../#.....b#", Color::White);
    let mut lifted = s.board;
    lifted.set(sq("55"), None);
    assert!(has_network(&lifted, Color::Black) && has_network(&lifted, Color::White));
    // The text looks only at the board after the chip is put down: 31 keeps White's network
    // and blocks Black's.
    assert_eq!(
        outcome(&s, &TEXT, step("31", "55")),
        Status::Won { winner: Color::White, reason: WinReason::Network }
    );
    let referee = Rules { lift: Lift::NoDouble, ..TEXT };
    assert_eq!(check(&s, &referee, step("31", "55")), Err(Illegal::LiftDouble));
    assert!(
        legal_moves(&s, &referee).iter().all(|m| !matches!(m, Move::Step { from, .. } if *from == sq("55")))
    );
    assert!(legal_moves_unchecked(&s, &TEXT).contains(&step("31", "55")));
}

#[test]
fn once_somebody_has_a_network_nothing_is_legal() {
    let board = seed_network_board();
    let over = Position::new(board, Color::White);
    assert_eq!(status(&over, &TEXT), Status::Won { winner: Color::Black, reason: WinReason::Network });
    assert!(legal_moves(&over, &TEXT).is_empty());
    assert_eq!(check(&over, &TEXT, add("33")), Err(Illegal::GameOver));
    assert_eq!(check(&over, &TEXT, Move::Quit), Err(Illegal::Quit));
}

#[test]
fn rule_options_are_key_value() {
    let r = Rules::default().with_option("double=mover").unwrap().with_option("lift=no-double").unwrap();
    assert_eq!(r, Rules { double: DoubleNetwork::Mover, lift: Lift::NoDouble });
    assert_eq!(r.describe(), vec!["double=mover", "lift=no-double"]);
    assert!(Rules::default().with_option("double=both").unwrap_err().contains("double=white"));
    let w = Rules::default().with_option("double=white").unwrap();
    assert_eq!((w.double, w.describe()), (DoubleNetwork::White, vec!["double=white"]));
    assert!(Rules::default().with_option("opening=seed").unwrap_err().contains("`double` and `lift`"));
    assert!(Rules::default().with_option("double").is_err());
}

// ---------------------------------------------------------------------------------------------
// Perft, pinned.

#[test]
fn perft_from_the_start_follows_from_the_goal_rules() {
    use arbiter::games::network::perft;
    let start = Position::start();
    assert_eq!(perft(&start, &TEXT, 1), 48);
    // Black's reply: 47 squares after a White chip inside (36 ways), 48 after one in White's goal
    // (12 ways).
    assert_eq!(perft(&start, &TEXT, 2), 36 * 47 + 12 * 48);
    // White's second chip: 48 less the chips on squares White may use (no group of three is
    // possible with two chips): 36 * (35 * 46 + 12 * 47) + 12 * (36 * 46 + 12 * 47).
    assert_eq!(perft(&start, &TEXT, 3), 104_904);
    // Black's second chip likewise (counted by an independent script over every sequence).
    assert_eq!(perft(&start, &TEXT, 4), 4_773_960);
}

#[test]
fn perft_of_a_stepping_position() {
    use arbiter::games::network::perft;
    // Counted by an independent reading of the rules (a short Python script written for the
    // purpose, kept outside the repository): White's steps, then Black's replies, with no
    // replies after a step that ends the game.
    let s = pos(STEPPING, Color::White);
    assert_eq!(perft(&s, &TEXT, 1), 168);
    assert_eq!(perft(&s, &TEXT, 2), 20_550);
}
