//! The chess assignment's `fuzz`: random valid games from the start, and at every position of
//! a game the questions Section 4 asks about a position (`is_move_valid` of every valid move
//! and of many invalid ones, `can_move`, `is_stalemate`, `check_game_over`'s value and printed
//! text, `update_board` of a valid move), each answered by the submission through one host
//! session per game and compared with the oracle ([`super::oracle::expect`]).
//!
//! A fuzzed case is a game file:
//!
//! ```text
//! # chess-a1 fuzz: a random game; every position of it is asked about
//! game: e2 e4, e7 e5, g1 f3
//! ask: every position
//! ```
//!
//! `ask: last position` asks only about the game's last position, and explicit `ask:` lines
//! (`ask: is_move_valid ((7, 4), (6, 4))`, `ask: can_move`) ask only those questions there. A
//! failing game shrinks to the earliest position that fails (asked alone), then to the one
//! question that fails, written as an ordinary case file (`call: ...`, ready for a corpus) whose
//! `# game:` comment holds the moves; last, a move of each player is dropped from the game while
//! the question still fails the same way.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::Move;
use super::oracle;
use super::referee::ChessA1Referee;
use super::rules::{check_move, status as rules_status};
use crate::harness::referee::Fuzzing;
use crate::side::Side;

pub use super::fuzz_game::{
    Ask, CAPTURES, GameCase, Query, parse_moves, parse_single, positions, queries, random_game, single_case,
};
use super::fuzz_game::{end_of, game_file, moves_text, side_of};
pub use super::fuzz_run::{GameRun, prepare};

/// The longest random game of the `random` source.
const MAX_PLIES: usize = 60;

/// The longest game of the `captures` source (captures first, so boards empty and games end).
const MAX_CAPTURE_PLIES: usize = 160;

impl Fuzzing for ChessA1Referee {
    fn any_move_category(&self) -> &'static str {
        "validation"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let plies = rng.gen_range(0..=MAX_PLIES);
        game_file(random_game(&mut rng, plies, false))
    }

    fn edge_sources(&self) -> Vec<String> {
        vec![CAPTURES.to_string()]
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        (source == CAPTURES).then(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let plies = rng.gen_range(20..=MAX_CAPTURE_PLIES);
            game_file(random_game(&mut rng, plies, true))
        })
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        if let Some(Ok(game)) = GameCase::parse(input, "fuzzed case") {
            let n = game.moves.len();
            return match &game.ask {
                // Each position alone, earliest first: the first that fails is the shortest
                // prefix (one position's questions per run, cheaper than replaying prefixes).
                Ask::Every => (0..=n)
                    .map(|k| {
                        GameCase { moves: game.moves[..k].to_vec(), ask: Ask::Last }.render().into_bytes()
                    })
                    .collect(),
                Ask::Last | Ask::These(_) => {
                    let list: Vec<Query> = game.questions().into_iter().map(|(_, q)| q).collect();
                    match list.len() {
                        0 => Vec::new(),
                        1 => vec![single_case(&game.moves, list[0])],
                        len => {
                            let half = len / 2;
                            [&list[..half], &list[half..]]
                                .into_iter()
                                .map(|part| {
                                    if part.len() == 1 {
                                        single_case(&game.moves, part[0])
                                    } else {
                                        GameCase { moves: game.moves.clone(), ask: Ask::These(part.to_vec()) }
                                            .render()
                                            .into_bytes()
                                    }
                                })
                                .collect()
                        }
                    }
                }
            };
        }
        // One question: drop a move of each player (so the same player is to move; each
        // player's other moves keep their order, taken in turn), while the rest stays a valid
        // game and the oracle's answer to the question stays the same (the
        // same valid move, the same broken rule, the same check or end of game): the
        // candidates most likely to fail the same way.
        let Some((moves, query)) = parse_single(input) else { return Vec::new() };
        let texts = &self.texts;
        let answer = |moves: &[Move]| {
            let (board, white) = end_of(moves);
            let args = query.args(&board, white);
            let expected = oracle::expect(query.function(), &args, texts).ok()?;
            let rule = match query {
                Query::IsMoveValid(mv) => check_move(&board, mv, white).err(),
                _ => None,
            };
            Some((expected.value, expected.printed, rule, rules_status(&board, white)))
        };
        let Some(wanted) = answer(&moves) else { return Vec::new() };
        let whites: Vec<Move> = moves.iter().step_by(2).copied().collect();
        let blacks: Vec<Move> = moves.iter().skip(1).step_by(2).copied().collect();
        let mut out = Vec::new();
        for a in 0..whites.len() {
            for c in 0..blacks.len() {
                let w = whites.iter().enumerate().filter(|&(k, _)| k != a).map(|(_, &m)| m);
                let mut b = blacks.iter().enumerate().filter(|&(k, _)| k != c).map(|(_, &m)| m);
                let mut shorter = Vec::with_capacity(moves.len());
                for m in w {
                    shorter.push(m);
                    shorter.extend(b.next());
                }
                if parse_moves(&moves_text(&shorter)).is_err() {
                    continue;
                }
                if let Query::UpdateBoard(mv) = query {
                    let (board, white) = end_of(&shorter);
                    if check_move(&board, mv, white).is_err() {
                        continue;
                    }
                }
                if answer(&shorter).as_ref() == Some(&wanted) {
                    out.push(single_case(&shorter, query));
                }
            }
        }
        out
    }

    fn size(&self, input: &[u8]) -> usize {
        match GameCase::parse(input, "fuzzed case") {
            Some(Ok(game)) => game.moves.len(),
            Some(Err(_)) => 0,
            None => parse_single(input).map_or(0, |(moves, _)| moves.len()),
        }
    }

    fn size_unit(&self) -> &'static str {
        "moves"
    }

    fn side_of(&self, input: &[u8]) -> Option<Side> {
        match GameCase::parse(input, "fuzzed case") {
            Some(Ok(game)) => Some(side_of(game.moves.len().is_multiple_of(2))),
            Some(Err(_)) => None,
            None => parse_single(input).map(|(moves, _)| side_of(moves.len().is_multiple_of(2))),
        }
    }
}
