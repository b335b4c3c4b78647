//! What a corpus's answers exercise: the piece kinds and move kinds of each case's expected
//! answer, by grade. This is how we show the corpus is varied.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::board::Board;
use super::engine::Engine;
use super::grades::{Aggregation, grade_report};
use super::notation::{Action, Move};
use super::piece::Kind;
use crate::side::Side;

/// Counts of answers by grade.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Coverage {
    /// Cases per grade and side.
    pub cases: BTreeMap<u8, BTreeMap<Side, usize>>,
    /// Answers per piece kind, per grade.
    pub kinds: BTreeMap<Kind, BTreeMap<u8, usize>>,
    /// Answers per move kind (leap apart from capture), per grade.
    pub actions: BTreeMap<Action, BTreeMap<u8, usize>>,
    /// Cases whose expected set is not a single move (not counted above).
    pub ambiguous: Vec<String>,
}

impl Coverage {
    /// Adds one case: its expected answer at `grade` with `side` to move.
    pub fn add<E: Engine>(&mut self, engine: &E, name: &str, board: &Board, side: Side, grade: u8) {
        *self.cases.entry(grade).or_default().entry(side).or_default() += 1;
        let report = grade_report(engine, &engine.load(board, side));
        match report.expected(grade, Aggregation::Min) {
            [mv] => self.count(*mv, grade),
            set => self.ambiguous.push(format!("{name}: {} expected moves", set.len())),
        }
    }

    fn count(&mut self, mv: Move, grade: u8) {
        *self.kinds.entry(mv.kind).or_default().entry(grade).or_default() += 1;
        *self.actions.entry(mv.action).or_default().entry(grade).or_default() += 1;
    }

    /// The answers of `kind` in grades 5 to 7, the grades whose answers the course checks for
    /// variety.
    pub fn kind_5_to_7(&self, kind: Kind) -> usize {
        self.kinds.get(&kind).map_or(0, |by| (5..=7).map(|g| by.get(&g).unwrap_or(&0)).sum())
    }

    /// The answers of `action` in grades 5 to 7.
    pub fn action_5_to_7(&self, action: Action) -> usize {
        self.actions.get(&action).map_or(0, |by| (5..=7).map(|g| by.get(&g).unwrap_or(&0)).sum())
    }

    /// Markdown tables.
    pub fn markdown(&self) -> String {
        let grades: Vec<u8> = self.cases.keys().copied().collect();
        let mut out = String::new();
        let header = |first: &str| {
            let cols: Vec<String> = grades.iter().map(|g| format!("grade {g}")).collect();
            format!(
                "| {first} | {} | grades 5-7 |\n|---|{}---|\n",
                cols.join(" | "),
                "---|".repeat(grades.len())
            )
        };
        out.push_str(&header("cases (white + black)"));
        let cells: Vec<String> = grades
            .iter()
            .map(|g| {
                let by = &self.cases[g];
                format!("{} + {}", by.get(&Side::White).unwrap_or(&0), by.get(&Side::Black).unwrap_or(&0))
            })
            .collect();
        let total: usize =
            grades.iter().filter(|&&g| g >= 5).map(|g| self.cases[g].values().sum::<usize>()).sum();
        let _ = writeln!(out, "| all | {} | {total} |\n", cells.join(" | "));
        out.push_str(&header("piece that plays the answer"));
        for kind in Kind::ALL {
            let by = self.kinds.get(&kind);
            let cells: Vec<String> =
                grades.iter().map(|g| by.and_then(|b| b.get(g)).unwrap_or(&0).to_string()).collect();
            let _ = writeln!(out, "| {} | {} | {} |", kind.name(), cells.join(" | "), self.kind_5_to_7(kind));
        }
        out.push('\n');
        out.push_str(&header("kind of answer"));
        for action in Action::ALL {
            let by = self.actions.get(&action);
            let cells: Vec<String> =
                grades.iter().map(|g| by.and_then(|b| b.get(g)).unwrap_or(&0).to_string()).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                action.name(),
                cells.join(" | "),
                self.action_5_to_7(action)
            );
        }
        if !self.ambiguous.is_empty() {
            let _ = writeln!(out, "\nNot counted (no single expected move): {}", self.ambiguous.join("; "));
        }
        out
    }
}
