//! The grade oracle: each grade's set on the worked examples and on boards chosen to pin one
//! rule each (the -1000 and +1000 values, aggregation, interpretation sensitivity).

mod common;

use arbiter::Side::{self, Black, White};
use arbiter::advance::grades::{Aggregation, GradeReport, LOSS, WIN, grade_report};
use arbiter::advance::{Board, Engine, Kind, Move, Reference};
use common::{board, example_board};
use proptest::prelude::*;

fn report(board: &Board, side: Side) -> GradeReport {
    let engine = Reference;
    grade_report(&engine, &engine.load(board, side))
}

fn names(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(Move::to_string).collect();
    v.sort();
    v
}

#[test]
fn worked_examples_have_the_answers_the_assignment_gives() {
    let answers = [(4, "Zf3xf4"), (5, "Be7-d8"), (6, "Ma1xa7"), (7, "Mf1-f9")];
    for (grade, answer) in answers {
        let r = report(&example_board(grade), White);
        for agg in Aggregation::ALL {
            assert_eq!(names(r.expected(grade, agg)), vec![answer], "grade {grade} under {agg:?}");
        }
        assert!(!r.sensitive(), "grade {grade}");
    }
}

#[test]
fn grade5_and_grade6_expect_the_winning_move_when_there_is_one() {
    let r = report(&example_board(5), White);
    assert_eq!(names(&r.winning), vec!["Be7-d8"]);
    assert_eq!(r.expected(5, Aggregation::Min), r.winning.as_slice());
    assert_eq!(r.expected(6, Aggregation::Min), r.winning.as_slice());
    assert_eq!(r.expected(4, Aggregation::Min).len(), r.legal.len());
    assert!(r.candidates.is_empty(), "grade 7 values nothing when a winning move exists");
}

#[test]
fn grade6_takes_the_largest_gain_and_grade7_needs_no_values_for_a_single_best() {
    let r = report(&example_board(6), White);
    assert!(r.winning.is_empty());
    assert_eq!(r.gain("Ma1xa7".parse().unwrap()), Some(4));
    assert!(r.legal.iter().all(|&m| r.gain(m).unwrap() <= 4));
    assert!(r.candidates.is_empty());
}

#[test]
fn grade7_worked_example_values_follow_the_opponents_replies() {
    let r = report(&example_board(7), White);
    let value = |m: &str| r.candidate(m.parse().unwrap()).unwrap().value(Aggregation::Min).sum;
    // On f9 the Miner attacks both the Jester on c9 and the Catapult on h9: black saves one.
    assert_eq!(value("Mf1-f9"), -4);
    // On f6, f7 or f8 the black General takes it.
    for m in ["Mf1-f6", "Mf1-f7", "Mf1-f8"] {
        assert_eq!(value(m), -11, "{m}");
    }
    let others = r
        .candidates
        .iter()
        .filter(|c| !["Mf1-f9", "Mf1-f6", "Mf1-f7", "Mf1-f8"].contains(&c.mv.to_string().as_str()));
    for c in others {
        assert_eq!(c.value(Aggregation::Min).sum, -7, "{}", c.mv);
    }
    let f9 = r.candidate("Mf1-f9".parse().unwrap()).unwrap();
    let worst = f9.deciding_reply(Aggregation::Min).unwrap();
    assert_eq!(worst.value, -4);
    assert_eq!(worst.our_best.unwrap().to_string(), "Mf9xc9", "with the Catapult saved, the Jester falls");
}

#[test]
fn the_grade7_example_with_black_to_move_is_interpretation_sensitive() {
    // The rules page notes this: the three aggregations disagree.
    let r = report(&example_board(7), Black);
    assert!(r.sensitive());
    assert_eq!(r.expected(7, Aggregation::Min).len(), r.grade6.len(), "every move ties under min");
    assert_eq!(names(r.expected(7, Aggregation::Mean)), vec!["Ch9-i9"]);
}

#[test]
fn a_move_after_which_the_opponent_wins_at_once_is_worth_minus_1000() {
    // The Builder on c2 guards the back rank; if it leaves for rank 3, the black Miner's Mh3-h1
    // leaves the General on a1 in danger with no way out.
    let b = board(
        "........g
         .........
         .........
         .........
         ....Z....
         .........
         .......m.
         ##B......
         G........",
    );
    let r = report(&b, White);
    for m in ["Bc2-b3", "Bc2-c3", "Bc2-d3"] {
        let c = r.candidate(m.parse().unwrap()).unwrap();
        assert_eq!(c.opponent_win.map(|w| w.to_string()), Some("Mh3-h1".to_string()), "{m}");
        for agg in Aggregation::ALL {
            assert_eq!(c.value(agg).sum, LOSS);
            assert!(!r.expected(7, agg).contains(&c.mv));
        }
    }
    assert!(
        r.candidates.iter().filter(|c| c.opponent_win.is_none()).all(|c| c.value(Aggregation::Min).sum == -1)
    );
}

#[test]
fn a_move_after_which_every_reply_allows_a_win_is_worth_plus_1000() {
    // Both white moves take the black Dragon on f4 (gain 7). After the Dragon takes it, the lone
    // black General on a5 cannot escape a mating reply; after the Sentinel takes it, it can.
    // (Values confirmed by an independent implementation of the rules page.)
    let b = board(
        "......B..
         .........
         ....G....
         ......SD.
         g........
         .....d...
         .D.......
         .........
         .........",
    );
    let r = report(&b, White);
    let dragon = r.candidate("Dh6xf4".parse().unwrap()).unwrap();
    assert!(dragon.replies.iter().all(|reply| reply.our_win.is_some() && reply.value == WIN));
    assert_eq!(dragon.value(Aggregation::Min).sum, WIN);
    assert_eq!(r.candidate("Sg6xf4".parse().unwrap()).unwrap().value(Aggregation::Min).sum, 21);
    assert_eq!(names(r.expected(7, Aggregation::Min)), vec!["Dh6xf4"]);
}

#[test]
fn means_over_different_numbers_of_replies_tie_when_equal() {
    // Zd4xb6 has 1 predicted reply worth 10, Sd5xb6 has 2 worth 10 each: means 10/1 and 20/2
    // are the same value, so both moves are answers under every aggregation.
    let b = board(
        "....B....
         .........
         ......#..
         .z..d.M..
         Gz.S.B...
         zM.Z....b
         M....j...
         ..gZ....z
         .s.....S.",
    );
    let r = report(&b, White);
    for agg in Aggregation::ALL {
        assert_eq!(names(r.expected(7, agg)), vec!["Sd5xb6", "Zd4xb6"], "{agg:?}");
    }
    assert!(!r.sensitive());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn grade_sets_nest_and_follow_their_definitions(pos in common::strategy::position_with(16)) {
        let r = report(&pos.board, pos.turn);
        for agg in Aggregation::ALL {
            let (g4, g5, g6, g7) = (r.expected(4, agg), r.expected(5, agg), r.expected(6, agg), r.expected(7, agg));
            prop_assert!(g5.iter().all(|m| g4.contains(m)));
            prop_assert!(g6.iter().all(|m| g5.contains(m)));
            prop_assert!(g7.iter().all(|m| g6.contains(m)));
            prop_assert_eq!(g4.is_empty(), r.legal.is_empty());
            prop_assert_eq!(g7.is_empty(), r.legal.is_empty());
            if !r.winning.is_empty() {
                prop_assert_eq!(g5, r.winning.as_slice());
                prop_assert_eq!(g7, r.winning.as_slice());
            }
        }
        if r.winning.is_empty() && !r.legal.is_empty() {
            let best = r.legal.iter().map(|&m| r.gain(m).unwrap()).max().unwrap();
            prop_assert!(best >= 0, "no move loses material for the mover");
            let expected: Vec<Move> = r.legal.iter().copied().filter(|&m| r.gain(m) == Some(best)).collect();
            prop_assert_eq!(r.grade6.clone(), expected);
        }
        // Grade 7 values every tied move exactly when it has to choose.
        let must_value = r.winning.is_empty() && r.grade6.len() > 1;
        prop_assert_eq!(r.candidates.len(), if must_value { r.grade6.len() } else { 0 });
        for c in &r.candidates {
            prop_assert!(c.opponent_win.is_some() || !c.replies.is_empty());
            let (min, max, mean) = (c.value(Aggregation::Min), c.value(Aggregation::Max), c.value(Aggregation::Mean));
            prop_assert!(min <= mean && mean <= max);
        }
        // A converted General never happens: conversions keep kinds, and Generals are never converted.
        prop_assert!(r.legal.iter().all(|m| !(m.kind == Kind::Jester && pos.board.piece(m.to).map(|p| p.kind) == Some(Kind::General) && m.action == arbiter::advance::Action::Convert)));
    }
}

/// The grade-7 choice (`grade7_min`, what the built-in grade-7 bot plays) against the full
/// report it shortens, on one position with both engines: the same moves in the same order, the
/// same best value, and the same greatest gain per engine.
fn assert_grade7_choice_agrees(board: &Board, side: Side) -> Result<(), TestCaseError> {
    use arbiter::advance::Fast;
    use arbiter::advance::grade7_choice::grade7_min;
    fn check<E: Engine>(engine: &E, board: &Board, side: Side) -> Result<(), TestCaseError> {
        let pos = engine.load(board, side);
        let full = grade_report(engine, &pos);
        let choice = grade7_min(engine, &pos);
        prop_assert_eq!(
            choice.moves.as_slice(),
            full.expected(7, Aggregation::Min),
            "{} on\n{}",
            engine.name(),
            board
        );
        let value = full.candidates.iter().map(|c| c.value(Aggregation::Min)).max();
        prop_assert_eq!(
            choice.value.map(arbiter::advance::grades::Value::whole),
            value,
            "{} on\n{}",
            engine.name(),
            board
        );
        let gain = full.legal.iter().map(|&m| full.gain(m).unwrap()).max();
        prop_assert_eq!(engine.best_gain(&pos), gain, "{} on\n{}", engine.name(), board);
        Ok(())
    }
    check(&Fast, board, side)?;
    check(&Reference, board, side)
}

/// A fixed seed: the same positions on every run and every machine.
fn seeded_runner(cases: u32) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[32; 32]))
}

#[test]
fn the_grade7_choice_agrees_with_the_full_report_on_random_positions() {
    let mut runner = seeded_runner(300);
    runner
        .run(&common::strategy::position_with(40), |p| assert_grade7_choice_agrees(&p.board, p.turn))
        .unwrap();
}

#[test]
fn the_grade7_choice_agrees_with_the_full_report_along_games() {
    // Positions of real games (crowded, many moves tied at grade 6): seeded random play from
    // the initial position, every ply checked.
    use arbiter::advance::Fast;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut checked = 0;
    for seed in 0..4u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut board, mut side) = (Board::initial(), White);
        for _ in 0..50 {
            assert_grade7_choice_agrees(&board, side).unwrap();
            checked += 1;
            let pos = Fast.load(&board, side);
            let Some(&mv) = Fast.moves(&pos).choose(&mut rng) else { break };
            board = Fast.board(&Fast.play(&pos, mv));
            side = side.opponent();
        }
    }
    assert!(checked >= 100, "only {checked} positions");
}
