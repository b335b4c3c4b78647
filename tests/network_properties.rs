//! Invariants of the Network rules, oracle, formats, bots and generator over random positions:
//! positions from random games (both phases), and random boards where networks are common.

use arbiter::games::network::bots::{AlphaBeta, Bot, RandomPlayer};
use arbiter::games::network::connection::{has_network_slow, network_flaw};
use arbiter::games::network::generate::{CaseKind, generate_case, random_game};
use arbiter::games::network::oracle::{Oracle, block_moves, block_moves_brute_force};
use arbiter::games::network::square::allowed_mask;
use arbiter::games::network::text::move_from_text;
use arbiter::games::network::{
    Board, Color, DoubleNetwork, Lift, Move, Position, Rules, Square, check, find_network, has_network,
    legal_moves, perft, play,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Any of the four rule variants.
fn rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>()).prop_map(|(mover, no_double)| Rules {
        double: if mover { DoubleNetwork::Mover } else { DoubleNetwork::Opponent },
        lift: if no_double { Lift::NoDouble } else { Lift::Final },
    })
}

/// A position after 0..100 random moves (the first 20 add, the rest step).
fn played() -> impl Strategy<Value = Position> {
    (any::<u64>(), 0..100usize).prop_map(|(seed, plies)| {
        random_game(&mut ChaCha8Rng::seed_from_u64(seed), &Rules::default(), plies).position
    })
}

/// A board with 6..=10 chips of one colour on squares it may use, and 0..=4 of the other's:
/// networks are common on these, games rarely reach them.
fn crowded() -> impl Strategy<Value = Position> {
    (
        any::<bool>(),
        prop::collection::vec(0..64usize, 6..=10),
        prop::collection::vec(0..64usize, 0..=4),
        any::<bool>(),
    )
        .prop_map(|(black, mine, theirs, white_to_move)| {
            let (me, other) = if black { (Color::Black, Color::White) } else { (Color::White, Color::Black) };
            let mut board = Board::empty();
            for (color, squares) in [(me, mine), (other, theirs)] {
                for i in squares {
                    let sq = Square::from_index(i).unwrap();
                    if allowed_mask(color) & sq.bit() != 0 && board.get(sq).is_none() {
                        board.set(sq, Some(color));
                    }
                }
            }
            Position::new(board, if white_to_move { Color::White } else { Color::Black })
        })
}

/// A board built around a would-be network: a chain from one goal area that turns at every
/// chip, moving 1..=3 squares at a time, until it reaches the other goal area; then up to three
/// more chips of each colour at random, which may break it. Networks and near misses are
/// common here.
fn networky() -> impl Strategy<Value = Position> {
    (any::<u64>(), any::<bool>()).prop_map(|(seed, black)| {
        use rand::Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let me = if black { Color::Black } else { Color::White };
        let [start, finish] = arbiter::games::network::square::goals(me);
        let starts: Vec<Square> = Square::in_bits(start).collect();
        let mut board = Board::empty();
        let mut at = starts[rng.gen_range(0..starts.len())];
        board.set(at, Some(me));
        let mut came = 8;
        let mut placed = 1;
        for _ in 0..40 {
            if placed >= 10 {
                break;
            }
            let d = rng.gen_range(0..8usize);
            if d == came {
                continue;
            }
            let (dx, dy) = arbiter::games::network::lines::DIRECTIONS[d];
            let k = rng.gen_range(1..=3i8);
            let Some(next) = at.offset(dx * k, dy * k) else { continue };
            let inner = arbiter::games::network::square::INNER & next.bit() != 0;
            let done = finish & next.bit() != 0 && placed >= 5;
            if board.get(next).is_some() || !(inner || done) {
                continue;
            }
            board.set(next, Some(me));
            placed += 1;
            at = next;
            came = d;
            if done {
                break;
            }
        }
        for color in [me, me.opponent()] {
            for _ in 0..rng.gen_range(0..=3) {
                let sq = Square::from_index(rng.gen_range(0..64)).unwrap();
                if allowed_mask(color) & sq.bit() != 0 && board.get(sq).is_none() && board.count(color) < 10 {
                    board.set(sq, Some(color));
                }
            }
        }
        Position::new(board, if rng.r#gen() { Color::White } else { Color::Black })
    })
}

/// Every move worth offering: adds to all squares and steps between all squares.
fn every_move() -> Vec<Move> {
    let mut out: Vec<Move> = Square::all().map(|to| Move::Add { to }).collect();
    for from in Square::all() {
        out.extend(Square::all().map(|to| Move::Step { to, from }));
    }
    out
}

/// `pos` under a map of the squares, with colours (and the side to move) swapped if `swap`.
fn mapped(pos: &Position, f: impl Fn(u8, u8) -> (u8, u8), swap: bool) -> Position {
    let mut board = Board::empty();
    for sq in Square::all() {
        if let Some(c) = pos.board.get(sq) {
            let (x, y) = f(sq.x(), sq.y());
            board.set(Square::new(x, y).unwrap(), Some(if swap { c.opponent() } else { c }));
        }
    }
    Position::new(board, if swap { pos.to_move.opponent() } else { pos.to_move })
}

/// The network properties are only worth something if the boards they run on often have a
/// network and often do not: this pins that for [`networky`].
#[test]
fn networky_boards_have_a_network_about_half_the_time() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = networky();
    let total = 400;
    let with = (0..total)
        .filter(|_| {
            let pos = strategy.new_tree(&mut runner).unwrap().current();
            Color::BOTH.into_iter().any(|c| has_network(&pos.board, c))
        })
        .count();
    assert!(with > total / 5 && with < total * 4 / 5, "{with} of {total} boards have a network");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn network_search_agrees_with_the_plain_reading(pos in prop_oneof![played(), crowded(), networky()]) {
        for color in Color::BOTH {
            let fast = has_network(&pos.board, color);
            prop_assert_eq!(fast, has_network_slow(&pos.board, color), "{}\n{}", color, pos.to_text());
            match find_network(&pos.board, color) {
                Some(chips) => {
                    prop_assert!(fast);
                    prop_assert_eq!(network_flaw(&pos.board, color, &chips), None);
                }
                None => prop_assert!(!fast),
            }
        }
    }

    #[test]
    fn legal_moves_are_exactly_the_moves_check_allows(pos in prop_oneof![played(), crowded(), networky()], rules in rules()) {
        let legal = legal_moves(&pos, &rules);
        let allowed: Vec<Move> = {
            let mut v: Vec<Move> = every_move().into_iter().filter(|&m| check(&pos, &rules, m).is_ok()).collect();
            v.sort();
            v
        };
        prop_assert_eq!(legal, allowed);
    }

    #[test]
    fn a_legal_move_never_makes_a_group_of_three(pos in played(), rules in rules()) {
        prop_assert_eq!(pos.board.clustered(pos.to_move), 0);
        for m in legal_moves(&pos, &rules) {
            let after = play(&pos, m);
            prop_assert_eq!(after.board.clustered(pos.to_move), 0, "{}", m);
            prop_assert!(after.board.count(pos.to_move) <= 10);
            prop_assert_eq!(after.board.chips(pos.to_move) & !allowed_mask(pos.to_move), 0);
        }
    }

    #[test]
    fn games_reach_only_consistent_positions(pos in played()) {
        prop_assert!(pos.inconsistencies().is_empty(), "{:?}\n{}", pos.inconsistencies(), pos.to_text());
    }

    #[test]
    fn perft_is_unchanged_by_the_boards_symmetries(pos in played()) {
        let rules = Rules::default();
        let n = perft(&pos, &rules, 2);
        // Mirror left-right and top-bottom, and turn half round: each colour keeps its goals.
        prop_assert_eq!(perft(&mapped(&pos, |x, y| (7 - x, y), false), &rules, 2), n);
        prop_assert_eq!(perft(&mapped(&pos, |x, y| (x, 7 - y), false), &rules, 2), n);
        prop_assert_eq!(perft(&mapped(&pos, |x, y| (7 - x, 7 - y), false), &rules, 2), n);
        // Mirror in the diagonal: rows become columns, so the colours swap goals and roles.
        prop_assert_eq!(perft(&mapped(&pos, |x, y| (y, x), true), &rules, 2), n);
    }

    #[test]
    fn the_block_shortcut_agrees_with_the_definition(pos in prop_oneof![played(), crowded(), networky()], rules in rules()) {
        prop_assume!(pos.board.count(Color::Black) <= 10 && pos.board.count(Color::White) <= 10);
        prop_assert_eq!(block_moves(&pos, &rules), block_moves_brute_force(&pos, &rules));
    }

    #[test]
    fn position_files_and_moves_round_trip(pos in prop_oneof![played(), crowded()], rules in rules()) {
        prop_assert_eq!(Position::from_text(&pos.to_text()).unwrap(), pos);
        for m in legal_moves(&pos, &rules).into_iter().take(40) {
            prop_assert_eq!(move_from_text(&m.to_string()).unwrap(), m);
            prop_assert_eq!(move_from_text(&m.course_string()).unwrap(), m);
            prop_assert_eq!(Move::from_fields(m.fields()), Ok(m));
        }
    }

    #[test]
    fn readers_never_panic_and_errors_point_inside_the_text(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        if let Err(e) = Position::parse(&bytes, "f") {
            let lines = bytes.split(|&b| b == b'\n').count();
            prop_assert!(e.line >= 1 && e.line <= lines.max(1) + 1, "{}", e);
            prop_assert!(e.column >= 1);
        }
        let _ = arbiter::games::network::parse_move(&bytes, "m");
    }

    #[test]
    fn a_changed_byte_is_read_or_reported(pos in played(), at in 0..81usize, byte in any::<u8>()) {
        let mut bytes = pos.to_text().into_bytes();
        let at = at % bytes.len();
        bytes[at] = byte;
        if let Err(e) = Position::parse(&bytes, "f") {
            prop_assert!(e.line <= 10, "{}", e);
        }
    }

    #[test]
    fn bots_answer_legally_and_take_a_win(pos in prop_oneof![played(), crowded(), networky()], seed in any::<u64>()) {
        let rules = Rules::default();
        prop_assume!(pos.board.count(Color::Black) <= 10 && pos.board.count(Color::White) <= 10);
        let oracle = Oracle::new(&pos, &rules);
        let bot = AlphaBeta { add_depth: 2, step_depth: 1 };
        for choice in [RandomPlayer.choose(&pos, &rules, seed), bot.choose(&pos, &rules, seed)] {
            match choice {
                Some(m) => prop_assert!(oracle.legal.contains(&m)),
                None => prop_assert!(oracle.legal.is_empty()),
            }
        }
        if !oracle.win.is_empty() {
            let m = bot.choose(&pos, &rules, seed).unwrap();
            prop_assert!(oracle.win.contains(&m), "{} not in {:?}", m, oracle.win);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn cases_are_reproducible_and_answer_as_the_oracle_does(seed in any::<u64>(), kind in 0..3usize) {
        let rules = Rules::default();
        let kind = [CaseKind::Accept, CaseKind::Legal, CaseKind::Reject(arbiter::games::network::Illegal::Cluster)][kind];
        let a = generate_case(kind, &rules, seed);
        prop_assert_eq!(&a, &generate_case(kind, &rules, seed));
        if let Some(case) = a {
            let mut replayed = Position::start();
            for &m in &case.game.moves {
                prop_assert!(check(&replayed, &rules, m).is_ok());
                replayed = play(&replayed, m);
            }
            prop_assert_eq!(replayed, case.game.position);
            let oracle = Oracle::new(&replayed, &rules);
            match kind {
                CaseKind::Accept => prop_assert!(oracle.legal.contains(&case.probe.unwrap())),
                CaseKind::Legal => prop_assert_eq!(case.expected, oracle.legal),
                _ => prop_assert!(check(&replayed, &rules, case.probe.unwrap()).is_err()),
            }
        }
    }
}
