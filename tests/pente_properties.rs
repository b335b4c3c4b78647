//! Invariants of the Pente rules, oracle and bots over random positions: positions from random
//! games (as the generator makes them), and "busy" ones where the capture counts are set near
//! 10 and either player may be to move, so that threats and blocks are common.

mod pente_common;

use arbiter::games::pente::bots::{self, Bot, Minimax, RandomAdjacent};
use arbiter::games::pente::oracle::{Oracle, block_moves, block_moves_brute_force, first_winning_move};
use arbiter::games::pente::rules::{capture_count, effect};
use arbiter::games::pente::{
    Color, Opening, Point, Position, Rules, Status, Strictness, is_legal, legal_moves, parse_move, play,
    random_position, status, wins_at,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Either opening rule.
fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules { opening: Opening::Seed }), Just(Rules { opening: Opening::Tournament })]
}

/// A position after 0..160 random moves next to the stones.
fn played() -> impl Strategy<Value = (Position, Rules)> {
    (any::<u64>(), 0..160usize, rules()).prop_map(|(seed, stones, rules)| {
        (random_position(&mut ChaCha8Rng::seed_from_u64(seed), &rules, stones), rules)
    })
}

/// A position after 0..60 random moves, with capture counts of 0..=8 pieces each and a random
/// player to move: not always one a game could reach, but the rules and the oracle work on any
/// position. Fewer stones than [`played`] make positions where nobody can win at once commoner.
fn busy() -> impl Strategy<Value = (Position, Rules)> {
    (any::<u64>(), 0..60usize, rules(), 0..=4u32, 0..=4u32, any::<bool>()).prop_map(
        |(seed, stones, rules, white, black, flip)| {
            let mut pos = random_position(&mut ChaCha8Rng::seed_from_u64(seed), &rules, stones);
            pos.captured = [2 * white, 2 * black];
            if flip {
                pos.to_move = pos.to_move.opponent();
            }
            (pos, rules)
        },
    )
}

/// A busy position where the player to move cannot win at once and the opponent threatens to:
/// where the block set is defined.
fn threatened() -> impl Strategy<Value = (Position, Rules)> {
    busy().prop_filter("the opponent must threaten and the mover not win", |(pos, rules)| {
        first_winning_move(pos, rules).is_none()
            && first_winning_move(&Position { to_move: pos.to_move.opponent(), ..pos.clone() }, rules)
                .is_some()
    })
}

#[test]
fn threatened_positions_can_be_blocked_or_are_lost() {
    // The block properties below mean something only if the strategy reaches both kinds.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut blockable, mut lost) = (0, 0);
    for _ in 0..100 {
        let (pos, rules) = threatened().new_tree(&mut runner).unwrap().current();
        match block_moves(&pos, &rules) {
            Some(block) if block.is_empty() => lost += 1,
            Some(_) => blockable += 1,
            None => panic!("a threatened position has a block set"),
        }
    }
    assert!(blockable >= 20 && lost >= 20, "blockable {blockable}, lost {lost} of 100");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_positions_are_ongoing_and_could_come_from_a_game((pos, rules) in played()) {
        prop_assert_eq!(status(&pos), Status::Ongoing);
        prop_assert!(pos.inconsistencies().is_empty(), "{:?}", pos.inconsistencies());
        prop_assert!(!legal_moves(&pos, &rules).is_empty());
    }

    #[test]
    fn legal_moves_are_the_empty_points_the_opening_rule_allows((pos, rules) in busy()) {
        let legal = legal_moves(&pos, &rules);
        for p in Point::all() {
            let expected = pos.board.get(p).is_none() && rules.allows(&pos, p);
            prop_assert_eq!(legal.contains(&p), expected, "{}", p);
            prop_assert_eq!(is_legal(&pos, &rules, p), expected, "{}", p);
        }
    }

    #[test]
    fn play_adds_one_stone_and_moves_captured_pairs_to_the_movers_count((pos, rules) in busy()) {
        let mover = pos.to_move;
        let opponent = mover.opponent();
        for m in legal_moves(&pos, &rules) {
            let k = capture_count(&pos.board, m, mover);
            let after = play(&pos, m);
            prop_assert_eq!(after.board.count(mover), pos.board.count(mover) + 1);
            prop_assert_eq!(after.board.count(opponent), pos.board.count(opponent) - 2 * k);
            prop_assert_eq!(after.captured_by(mover), pos.captured_by(mover) + 2 * k as u32);
            prop_assert_eq!(after.captured_by(opponent), pos.captured_by(opponent));
            prop_assert_eq!(after.to_move, opponent);
            prop_assert_eq!(after.seconds_left, pos.seconds_left);
            // Stones placed so far only ever grow by the one stone.
            prop_assert_eq!(after.placed(mover), pos.placed(mover) + 1);
            prop_assert_eq!(after.placed(opponent), pos.placed(opponent));
            let captured = effect(&pos, m).captured_points();
            for p in Point::all() {
                let expected = if p == m {
                    Some(mover)
                } else if captured.contains(&p) {
                    None
                } else {
                    pos.board.get(p)
                };
                prop_assert_eq!(after.board.get(p), expected, "{} after {}", p, m);
            }
        }
    }

    #[test]
    fn a_winning_move_wins_and_no_other_move_ends_the_game_but_by_a_full_board((pos, rules) in busy()) {
        let mover = pos.to_move;
        for m in legal_moves(&pos, &rules) {
            let wins = wins_at(&pos, m);
            prop_assert_eq!(wins, effect(&pos, m).wins(), "{}", m);
            let after = status(&play(&pos, m));
            if wins {
                prop_assert!(matches!(after, Status::Won(c, _) if c == mover), "{} wins but gives {:?}", m, after);
            } else {
                prop_assert!(matches!(after, Status::Ongoing | Status::Drawn), "{} gives {:?}", m, after);
            }
        }
    }

    #[test]
    fn the_capture_set_captures_the_most((pos, rules) in busy()) {
        let oracle = Oracle::new(&pos, &rules);
        let most = legal_moves(&pos, &rules).iter().map(|&m| capture_count(&pos.board, m, pos.to_move)).max().unwrap_or(0);
        prop_assert_eq!(oracle.most_pairs, most);
        for m in legal_moves(&pos, &rules) {
            let best = most > 0 && capture_count(&pos.board, m, pos.to_move) == most;
            prop_assert_eq!(oracle.capture.contains(&m), best, "{}", m);
        }
    }

    #[test]
    fn input_text_round_trips((pos, _) in busy(), seconds in 0.001f64..1000.0) {
        let pos = Position { seconds_left: seconds, ..pos };
        let text = pos.to_input_text();
        prop_assert_eq!(Position::parse(text.as_bytes(), "in", Strictness::Strict).unwrap(), pos.clone());
        prop_assert_eq!(Position::from_text(&text.replace('\n', "\r\n")).unwrap(), pos);
    }

    #[test]
    fn a_changed_byte_is_read_or_reported_inside_the_file((pos, _) in played(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = pos.to_input_text().into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        if let Err(e) = Position::parse(&bytes, "in", Strictness::Lenient) {
            prop_assert!((1..=23).contains(&e.line) && e.column >= 1, "{}", e);
            prop_assert!(e.to_string().starts_with("in:"));
        }
    }

    #[test]
    fn moves_round_trip(index in 0..Point::COUNT, before in "[ \t\r\n]{0,3}", after in "[ \t\r\n]{0,3}") {
        let p = Point::from_index(index);
        let name = p.to_string();
        prop_assert_eq!(parse_move(name.as_bytes(), "out", Strictness::Strict), Ok(p));
        prop_assert_eq!(parse_move(format!("{name}\n").as_bytes(), "out", Strictness::Strict), Ok(p));
        prop_assert_eq!(parse_move(format!("{before}{name}{after}").as_bytes(), "out", Strictness::Lenient), Ok(p));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pruned_block_set_equals_the_brute_force((pos, rules) in prop_oneof![busy(), threatened()]) {
        prop_assert_eq!(block_moves(&pos, &rules), block_moves_brute_force(&pos, &rules));
    }

    #[test]
    fn block_moves_leave_the_opponent_no_win_and_other_moves_do((pos, rules) in threatened()) {
        let oracle = Oracle::new(&pos, &rules);
        let block = oracle.threats.block.as_ref().expect("a threatened position has a block set");
        prop_assert!(oracle.win.is_empty() && !oracle.threats.moves.is_empty());
        for m in &oracle.legal {
            let reply = first_winning_move(&play(&pos, *m), &rules);
            prop_assert_eq!(block.contains(m), reply.is_none(), "{}: opponent reply {:?}", m, reply);
        }
    }

    #[test]
    fn the_expected_set_is_one_of_the_oracles_sets_and_every_answer_is_explained((pos, rules) in busy()) {
        let oracle = Oracle::new(&pos, &rules);
        let Some((category, expected)) = oracle.expected_answers() else {
            prop_assert!(oracle.no_moves_reason().is_some());
            return Ok(());
        };
        prop_assert!(!expected.is_empty());
        prop_assert!(expected.iter().all(|m| oracle.legal.contains(m)));
        for m in expected.iter().take(3).chain(oracle.legal.iter().take(3)) {
            let text = oracle.explain(*m);
            prop_assert!(text.starts_with(&m.to_string()), "{}: {}", category, text);
        }
    }

    #[test]
    fn bots_always_answer_with_a_legal_move((pos, rules) in busy(), seed in any::<u64>()) {
        let random = RandomAdjacent.choose(&pos, &rules, seed).expect("a move");
        prop_assert!(is_legal(&pos, &rules, random));
        prop_assert!(bots::adjacent_moves(&pos, &rules).contains(&random));
        let minimax = Minimax { fixed_depth: Some(1) }.choose(&pos, &rules, seed).expect("a move");
        prop_assert!(is_legal(&pos, &rules, minimax));
        prop_assert_eq!(Minimax { fixed_depth: Some(1) }.choose(&pos, &rules, seed), Some(minimax));
        // A bot with a winning move takes one.
        if first_winning_move(&pos, &rules).is_some() {
            prop_assert!(wins_at(&pos, minimax), "minimax played {} and missed a win", minimax);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn minimax_at_depth_2_answers_legally_and_blocks_when_it_can((pos, rules) in threatened(), seed in any::<u64>()) {
        let m = Minimax { fixed_depth: Some(2) }.choose(&pos, &rules, seed).expect("a move");
        prop_assert!(is_legal(&pos, &rules, m));
        let oracle = Oracle::new(&pos, &rules);
        if let Some(block) = oracle.threats.block.as_ref().filter(|b| !b.is_empty()) {
            prop_assert!(block.contains(&m), "minimax played {} instead of one of {:?}", m, block);
        }
    }
}

#[test]
fn bots_have_nothing_to_say_once_the_game_is_over() {
    let mut pos = pente_common::stones(Color::White, "10K", "11L");
    pos.captured = [0, 10];
    let rules = Rules::default();
    assert_eq!(RandomAdjacent.choose(&pos, &rules, 1), None);
    assert_eq!(Minimax::default().choose(&pos, &rules, 1), None);
}
