//! Advance's test cases: each position's answers (golden or computed), and a bot's output judged
//! against its grade's set.

use super::answers_json::{answers_from_golden, golden_json};
use super::board::Board;
use super::engine::Engine;
use super::grades::{Aggregation, grade_report};
use super::judge::{Answers, Finding, board_diff, closest, judge};
use super::referee::{AdvanceReferee, read_position};
use super::text::Strictness;
use crate::harness::referee::{CaseSpec, Cases, MoveKind, Prepared, PreparedCase, RobustnessBoards};
use crate::harness::verdict::Judgement;
use crate::side::Side;

/// The grade a case tests, from its category (`grade6`); the corpus walk only finds Advance's
/// four, so anything else is grade 4 (any legal move).
fn grade_of(case: &CaseSpec) -> u8 {
    crate::harness::category::grade_number(&case.category).unwrap_or(4)
}

impl<E: Engine + Clone + 'static> Cases for AdvanceReferee<E> {
    fn check_args(&self, case: &CaseSpec) -> String {
        format!("--side {} --grade {}", case.side, grade_of(case))
    }

    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared {
        let position = read_position(input, &case.origin(), case.side)?;
        let from_golden = golden.and_then(|g| answers_from_golden(g, &position.board, case.side));
        let golden_used = from_golden.is_some();
        let answers = match from_golden {
            Some(a) => a,
            None => {
                let pos = self.engine.load(&position.board, case.side);
                let report = grade_report(&self.engine, &pos);
                Answers::from_report(&self.engine, &pos, &report, Aggregation::Min)
            }
        };
        Ok(Box::new(AdvanceCase { board: position.board, answers, grade: grade_of(case), golden_used }))
    }

    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String> {
        let position = read_position(input, &case.origin(), case.side)?;
        let pos = self.engine.load(&position.board, case.side);
        let report = grade_report(&self.engine, &pos);
        let json = golden_json(&self.engine, &pos, &report, grade_of(case));
        Ok(crate::harness::referee::golden_text(&json))
    }

    fn robustness_boards(&self) -> Option<RobustnessBoards> {
        let initial = Board::initial().to_text();
        // The white General walled into a1 with nothing else to move: white has no legal move.
        let stuck = "....g....\n.........\n.........\n.........\n.........\n.........\n.........\n##.......\nG#.......\n";
        Some(RobustnessBoards {
            valid: (initial.clone().into_bytes(), Side::White),
            invalid_chars: initial.replacen("BZZZZZZZB", "BZZZXZZZB", 1).into_bytes(),
            wrong_size: initial.lines().take(8).map(|l| format!("{l}\n")).collect::<String>().into_bytes(),
            no_moves: (stuck.as_bytes().to_vec(), Side::White),
        })
    }
}

/// The kind of a move of `side` on `board` (legal or not), for grouping failures and naming
/// moves: `Zombie leap`, `Jester swap with the General`.
pub(crate) fn move_kind(board: &Board, side: Side, mv: super::notation::Move) -> MoveKind {
    let edge = super::edges::EdgeKind::of(board, side, mv);
    let name = match edge {
        Some(super::edges::EdgeKind::GeneralSwap) => "Jester swap with the General".to_string(),
        _ => format!("{} {}", mv.kind.name(), mv.action.name()),
    };
    MoveKind {
        piece: mv.kind.name().to_string(),
        action: mv.action.name().to_string(),
        edge: edge.map(|k| k.name().to_string()),
        name,
    }
}

/// A case with its answers.
struct AdvanceCase {
    board: Board,
    answers: Answers,
    grade: u8,
    golden_used: bool,
}

impl AdvanceCase {
    /// The diff of `board` against the nearest expected answer.
    fn diff_to_expected(&self, board: &Board) -> Option<String> {
        let near = closest(self.answers.expected(self.grade), board);
        let (mv, _) = near.first()?;
        let expected = &self.answers.legal.iter().find(|a| a.mv == *mv)?.board;
        Some(board_diff(expected, board, &format!("expected ({mv})"), "output"))
    }
}

impl PreparedCase for AdvanceCase {
    fn judge(&self, output: &[u8], origin: &str, strict: bool) -> Judgement {
        let strictness = if strict { Strictness::Strict } else { Strictness::Lenient };
        let finding = judge(&self.board, &self.answers, output, origin, strictness);
        let mut j = finding.judgement(self.answers.side, Some(self.grade));
        j.expected = self.expected();
        match &finding {
            Finding::Malformed(_) => {}
            Finding::Unchanged => j.diff = self.diff_to_expected(&self.board),
            Finding::Illegal(ill) => j.diff = self.diff_to_expected(&ill.board),
            Finding::Legal { mv, board, grades } if !grades.contains(&self.grade) => {
                let best = grades.iter().max().map_or("no".to_string(), |g| format!("a grade-{g}"));
                j.reason = format!(
                    "{mv} is legal and {best} answer, but grade {} expects {}",
                    self.grade,
                    j.expected.join(" or ")
                );
                j.diff = self.diff_to_expected(board);
            }
            Finding::Legal { .. } => {}
        }
        j
    }

    fn golden_used(&self) -> bool {
        self.golden_used
    }

    fn expected(&self) -> Vec<String> {
        self.answers.expected(self.grade).map(|a| a.mv.to_string()).collect()
    }

    fn move_kind(&self, notation: &str) -> Option<MoveKind> {
        Some(move_kind(&self.board, self.answers.side, notation.parse().ok()?))
    }

    fn asks(&self) -> Option<String> {
        let legal = self.answers.legal.len();
        let set = |grade: u8| self.answers.expected(grade).count();
        // Grade 5 expects the winning moves when there are any, else every legal move.
        let wins = set(5) < legal;
        let winning = if set(5) == 1 { "the winning move" } else { "a winning move" };
        Some(
            match self.grade {
                4 if legal == 1 => "the only legal move",
                4 => "any legal move",
                _ if wins => winning,
                5 => "any legal move (none wins)",
                6 => "the greatest material gain (no move wins)",
                _ if set(6) == 1 => "the greatest material gain (no move wins, and one move gains most)",
                _ => "the move of greatest material gain worth most after the opponent's predicted reply",
            }
            .to_string(),
        )
    }

    fn expect_args(&self) -> Option<String> {
        Some(format!("--side {} --grade {}", self.answers.side, self.grade))
    }

    fn picture(&self, _played: Option<&str>) -> Option<String> {
        // The move itself shows in the diff of boards; this is the position it was played in.
        Some(format!("{}{} to move\n", super::labelled_board::draw(&self.board), self.answers.side))
    }

    fn check_answer(&self, answer: &[u8]) -> Option<String> {
        let finding = judge(&self.board, &self.answers, answer, "answer", Strictness::Lenient);
        let boards = self.answers.expected_boards(self.grade);
        let expected: Vec<String> = self.answers.expected(self.grade).map(|a| a.mv.to_string()).collect();
        let ours = expected.join(" ");
        match finding {
            Finding::Legal { board, .. } if boards.len() == 1 && *boards[0] == board => None,
            Finding::Legal { mv, grades, .. } if grades.contains(&self.grade) => Some(format!(
                "the course's answer {mv} is expected, but so are other boards: the grade-{} set is {ours}",
                self.grade
            )),
            Finding::Legal { mv, .. } => {
                Some(format!("the course's answer {mv} is not in the grade-{} set ({ours})", self.grade))
            }
            other => {
                Some(format!("the course's answer is not a legal move: {}", other.reason(self.answers.side)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::{Reference, reference};

    #[test]
    fn the_robustness_boards_are_what_they_say() {
        let boards =
            AdvanceReferee { engine: Reference }.robustness_boards().expect("Advance bots read a board file");
        let (stuck, side) = &boards.no_moves;
        let position = read_position(stuck, "stuck", *side).unwrap();
        assert!(reference::legal_moves(&position.board, *side).is_empty());
        assert!(read_position(&boards.valid.0, "valid", boards.valid.1).is_ok());
        assert!(read_position(&boards.invalid_chars, "x", Side::White).unwrap_err().contains("found `X`"));
        assert!(
            read_position(&boards.wrong_size, "x", Side::White)
                .unwrap_err()
                .contains("expected 9 lines, found 8")
        );
    }
}
