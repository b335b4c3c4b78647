//! What fuzzing asks of Advance: random and edge positions, shrinking, and the sole answer of a
//! position when it has one.

use super::board::Board;
use super::cases::move_kind;
use super::engine::Engine;
use super::grade7_choice::grade7_min;
use super::referee::{AdvanceReferee, read_position};
use super::text::Strictness;
use crate::harness::referee::{Fuzzing, SoleAnswer};
use crate::side::Side;

impl<E: Engine + Clone + 'static> Fuzzing for AdvanceReferee<E> {
    fn any_move_category(&self) -> &'static str {
        "grade4"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let (board, side) = super::generate::random_position(&self.engine, seed);
        (board.to_text().into_bytes(), side)
    }

    fn shrink_steps(&self, input: &[u8], side: Side) -> Vec<Vec<u8>> {
        let Ok(board) = Board::parse(input, "input", Strictness::Lenient) else { return Vec::new() };
        super::shrink::simplifications(&board, side).into_iter().map(|b| b.to_text().into_bytes()).collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        Board::parse(input, "input", Strictness::Lenient).map_or(0, |b| b.occupied_count())
    }

    fn edge_sources(&self) -> Vec<String> {
        let mut names = super::edges::source_names();
        names.extend(super::temptations::source_names());
        names
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        let (board, side) = match super::temptations::Temptation::from_name(source) {
            Some(t) => super::temptations::tempting_position(t, seed)?,
            None => {
                let (kind, goal) = super::edges::parse_source(source)?;
                super::edges::edge_position(&self.engine, kind, goal, seed)?
            }
        };
        Some((board.to_text().into_bytes(), side))
    }

    fn auto_category(&self, input: &[u8], side: Side) -> Option<String> {
        let position = read_position(input, "input", side).ok()?;
        let sets = Sets::of(&self.engine, &position.board, side);
        // Grade 7 is left out: its answer may depend on how tied replies are read.
        [(4, &sets.legal), (5, &sets.winning), (6, &sets.grade6)]
            .into_iter()
            .find(|(_, set)| sets.boards(set) == 1)
            .map(|(grade, _)| format!("grade{grade}"))
    }

    fn sole_answer(&self, input: &[u8], side: Side, category: &str) -> Option<SoleAnswer> {
        let position = read_position(input, "input", side).ok()?;
        let board = &position.board;
        let sets = Sets::of(&self.engine, board, side);
        let grade = crate::harness::category::grade_number(category).unwrap_or(4);
        let (set, what) = if sets.boards(&sets.legal) == 1 {
            (sets.legal.clone(), "the only legal move")
        } else {
            match grade {
                5 | 6 if sets.boards(&sets.winning) == 1 => (sets.winning.clone(), "the only winning move"),
                6 => (sets.grade6.clone(), "the only move of greatest material gain (grade 6)"),
                7 => {
                    let pos = self.engine.load(board, side);
                    (grade7_min(&self.engine, &pos).moves, "the only grade-7 answer")
                }
                _ => return None,
            }
        };
        if sets.boards(&set) != 1 {
            return None;
        }
        let mv = set[0];
        Some(SoleAnswer {
            notation: mv.to_string(),
            kind: move_kind(board, side, mv),
            sentence: format!("{what} was {mv}, {}", super::edges::describe(board, side, mv)),
        })
    }
}

/// The legal moves of a position, its winning moves and its grade-6 set, without the grade-7
/// valuation a full grade report makes.
struct Sets {
    legal: Vec<super::notation::Move>,
    winning: Vec<super::notation::Move>,
    grade6: Vec<super::notation::Move>,
    /// The board after each legal move.
    after: Vec<Board>,
}

impl Sets {
    fn of<E: Engine>(engine: &E, board: &Board, side: Side) -> Sets {
        let pos = engine.load(board, side);
        let legal = engine.moves(&pos);
        let winning =
            legal.iter().copied().filter(|&m| !engine.has_legal_move(&engine.play(&pos, m))).collect();
        let after = legal.iter().map(|&m| engine.board(&engine.play(&pos, m))).collect();
        Sets { grade6: super::grades::grade6_set(engine, &pos), legal, winning, after }
    }

    /// The number of distinct boards the moves of `set` give (two moves may give one board).
    fn boards(&self, set: &[super::notation::Move]) -> usize {
        let mut seen: Vec<&Board> = Vec::new();
        for m in set {
            if let Some(i) = self.legal.iter().position(|l| l == m)
                && !seen.contains(&&self.after[i])
            {
                seen.push(&self.after[i]);
            }
        }
        seen.len()
    }
}
