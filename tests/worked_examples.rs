//! The four worked examples of the assignment, as the rules page states them (white to move).

mod common;

use arbiter::Side::White;
use arbiter::advance::Kind;
use arbiter::advance::reference::{apply, has_legal_move, legal_moves};
use common::example_board;

#[test]
fn grade4_the_only_legal_move_is_the_zombie_taking_the_dragon() {
    assert_eq!(common::notations(&example_board(4), White), vec!["Zf3xf4"]);
}

#[test]
fn grade5_builder_e7_to_d8_wins_and_is_the_only_winning_move() {
    let b = example_board(5);
    let winning: Vec<String> = legal_moves(&b, White)
        .into_iter()
        .filter(|&mv| !has_legal_move(&apply(&b, mv), White.opponent()))
        .map(|mv| mv.to_string())
        .collect();
    assert_eq!(winning, vec!["Be7-d8"]);
}

#[test]
fn grade6_the_only_move_that_gains_four_is_the_miner_taking_the_miner() {
    let b = example_board(6);
    let before = b.advantage(White);
    let gains: Vec<(i32, String)> = legal_moves(&b, White)
        .into_iter()
        .map(|mv| (apply(&b, mv).advantage(White) - before, mv.to_string()))
        .collect();
    let best = gains.iter().map(|(g, _)| *g).max().unwrap();
    let best_moves: Vec<&String> = gains.iter().filter(|(g, _)| *g == best).map(|(_, m)| m).collect();
    assert_eq!(best, 4);
    assert_eq!(best_moves, vec!["Ma1xa7"]);
}

#[test]
fn grade7_has_twenty_legal_moves_four_by_the_general_sixteen_by_the_miner() {
    let b = example_board(7);
    let moves = legal_moves(&b, White);
    assert_eq!(moves.len(), 20);
    assert_eq!(moves.iter().filter(|m| m.kind == Kind::General).count(), 4);
    assert_eq!(moves.iter().filter(|m| m.kind == Kind::Miner).count(), 16);
    assert!(moves.iter().any(|m| m.to_string() == "Mf1-f9"));
}
