//! Judging a bot's output board: which legal move it is and which grades it satisfies, or what
//! exactly is wrong with it.

use similar::TextDiff;

use super::board::Board;
use super::engine::Engine;
use super::explain::{Violation, diagnose};
use super::grades::{Aggregation, GradeReport};
use super::infer::{Change, attempted_moves, changes};
use super::notation::Move;
use super::text::{BoardError, Strictness};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// A legal move and the board after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub mv: Move,
    pub board: Board,
}

/// The oracle's answers for one position, in the form judging needs: every legal move with its
/// board, and the expected set of each grade (as indices into `legal`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    pub side: Side,
    pub legal: Vec<Answer>,
    /// Expected sets of grades 4, 5, 6 and 7, as indices into `legal`.
    pub grades: [Vec<usize>; 4],
}

impl Answers {
    /// The answers of a grade report (grade 7 under `agg`).
    pub fn from_report<E: Engine>(
        engine: &E,
        pos: &E::Pos,
        report: &GradeReport,
        agg: Aggregation,
    ) -> Answers {
        let legal: Vec<Answer> = report
            .legal
            .iter()
            .map(|&mv| Answer { mv, board: engine.board(&engine.play(pos, mv)) })
            .collect();
        let index = |set: &[Move]| -> Vec<usize> {
            set.iter()
                .map(|m| report.legal.iter().position(|l| l == m).expect("grade sets are legal"))
                .collect()
        };
        let grades = [4, 5, 6, 7].map(|g| index(report.expected(g, agg)));
        Answers { side: report.side, legal, grades }
    }

    /// The expected answers of `grade` (4 to 7).
    pub fn expected(&self, grade: u8) -> impl Iterator<Item = &Answer> {
        self.grades[usize::from(grade - 4)].iter().map(|&i| &self.legal[i])
    }

    /// The grades (4 to 7) whose expected set holds a move with this board.
    pub fn grades_of(&self, board: &Board) -> Vec<u8> {
        (4..=7).filter(|&g| self.expected(g).any(|a| &a.board == board)).collect()
    }

    /// The distinct boards of a grade's expected set.
    pub fn expected_boards(&self, grade: u8) -> Vec<&Board> {
        let mut boards: Vec<&Board> = Vec::new();
        for a in self.expected(grade) {
            if !boards.contains(&&a.board) {
                boards.push(&a.board);
            }
        }
        boards
    }
}

/// What a bot's output board is.
#[derive(Clone, Debug)]
pub enum Finding {
    /// Not a board file; where and why.
    Malformed(BoardError),
    /// The same board as the input: no move was played.
    Unchanged,
    /// The board after this legal move; `grades` are the grades whose expected sets contain it.
    Legal { mv: Move, board: Board, grades: Vec<u8> },
    /// No legal move gives this board.
    Illegal(Box<IllegalOutput>),
}

/// Everything known about an output that no legal move produces.
#[derive(Clone, Debug)]
pub struct IllegalOutput {
    pub board: Board,
    /// The move the bot most plausibly tried, and the rule it breaks.
    pub attempt: Option<(Move, Violation)>,
    /// The squares that differ from the input.
    pub changes: Vec<Change>,
    /// The legal moves whose boards differ least from the output, and by how many squares.
    pub closest: Vec<(Move, usize)>,
}

impl Finding {
    /// One sentence saying what the output is.
    pub fn reason(&self, side: Side) -> String {
        match self {
            Finding::Malformed(e) => format!("the output is not a board file: {e}"),
            Finding::Unchanged => "the output board is the input board: no move was played".to_string(),
            Finding::Legal { mv, .. } => format!("{mv} is a legal move for {side}"),
            Finding::Illegal(ill) => match &ill.attempt {
                Some((mv, violation)) => format!("{mv} is not legal: {violation}"),
                None => {
                    let list: Vec<String> = ill.changes.iter().map(Change::to_string).collect();
                    format!(
                        "no single move of any piece turns the input into the output ({} squares changed: {})",
                        ill.changes.len(),
                        list.join(", ")
                    )
                }
            },
        }
    }

    /// The verdict for a case of `grade` (with `None`, any legal move passes).
    pub fn verdict(&self, grade: Option<u8>) -> Verdict {
        match self {
            Finding::Malformed(_) => Verdict::MalformedOutput,
            Finding::Unchanged => Verdict::Unchanged,
            Finding::Illegal(_) => Verdict::IllegalMove,
            Finding::Legal { grades, .. } => match grade {
                Some(g) if !grades.contains(&g) => Verdict::WrongMove,
                _ => Verdict::Pass,
            },
        }
    }

    /// The judgement of this finding for a case of `grade`: verdict, reason, the move played
    /// (or tried), the grades it satisfies, the rule broken, where a malformed file goes wrong.
    /// Expected answers and diffs are the caller's to add.
    pub fn judgement(&self, side: Side, grade: Option<u8>) -> Judgement {
        let mut j = Judgement {
            verdict: Some(self.verdict(grade)),
            reason: self.reason(side),
            ..Judgement::default()
        };
        match self {
            Finding::Malformed(e) => j.location = Some((e.line, e.column)),
            Finding::Unchanged => {}
            Finding::Legal { mv, grades, .. } => {
                j.played = Some(mv.to_string());
                j.satisfies = grades.clone();
            }
            Finding::Illegal(ill) => {
                j.played = ill.attempt.as_ref().map(|(m, _)| m.to_string());
                j.rule = Some(self.rule().to_string());
            }
        }
        j
    }

    /// A stable short name for what went wrong (`malformed`, `unchanged`, a rule from
    /// [`Violation::rule`], or `unreachable`), or `legal`.
    pub fn rule(&self) -> &'static str {
        match self {
            Finding::Malformed(_) => "malformed",
            Finding::Unchanged => "unchanged",
            Finding::Legal { .. } => "legal",
            Finding::Illegal(ill) => ill.attempt.as_ref().map_or("unreachable", |(_, v)| v.rule()),
        }
    }
}

/// Reads a bot's output and says what it is, given the input board and the oracle's answers.
pub fn judge(
    before: &Board,
    answers: &Answers,
    output: &[u8],
    origin: &str,
    strictness: Strictness,
) -> Finding {
    let board = match Board::parse(output, origin, strictness) {
        Ok(b) => b,
        Err(e) => return Finding::Malformed(e),
    };
    if &board == before {
        return Finding::Unchanged;
    }
    if let Some(answer) = answers.legal.iter().find(|a| a.board == board) {
        let grades = answers.grades_of(&board);
        return Finding::Legal { mv: answer.mv, board, grades };
    }
    let side = answers.side;
    // Of the moves that mechanically explain the change, prefer the mover's own pieces, and among
    // those the ones whose only fault is leaving the General in danger, then those whose shape
    // was right (a shot at a protected piece 3 squares away rather than a "shot" by a nearer
    // Catapult that could not reach it).
    let mut attempts: Vec<(Move, Violation)> = attempted_moves(before, &board)
        .into_iter()
        .filter_map(|mv| diagnose(before, side, mv).err().map(|v| (mv, v)))
        .collect();
    attempts.sort_by_key(|(_, v)| match v {
        Violation::GeneralInDanger { .. } => 0,
        Violation::OutOfReach { .. } => 2,
        Violation::NotYourPiece { .. } => 3,
        _ => 1,
    });
    let attempt = attempts.into_iter().next();
    // Among the legal moves nearest the output, those of the same piece or to the same square
    // as the attempt come first: they are what the bot most likely meant.
    let mut closest = closest(answers.legal.iter(), &board);
    if let Some((tried, _)) = &attempt {
        closest.sort_by_key(|(mv, d)| (*d, mv.from != tried.from, mv.to != tried.to));
    }
    Finding::Illegal(Box::new(IllegalOutput { changes: changes(before, &board), attempt, closest, board }))
}

/// The answers whose boards differ from `board` in the fewest squares (all that tie).
pub fn closest<'a>(answers: impl Iterator<Item = &'a Answer>, board: &Board) -> Vec<(Move, usize)> {
    let scored: Vec<(Move, usize)> = answers.map(|a| (a.mv, changes(&a.board, board).len())).collect();
    let best = scored.iter().map(|&(_, d)| d).min();
    scored.into_iter().filter(|&(_, d)| Some(d) == best).collect()
}

/// A line diff from `expected` to `actual`, in unified form with the given labels. Each line
/// carries its rank number: that keeps lines unique, so the diff pairs each changed rank with
/// itself instead of matching identical empty lines across ranks.
pub fn board_diff(expected: &Board, actual: &Board, expected_label: &str, actual_label: &str) -> String {
    // Rank numbers on the left and file letters below, so a student can name the squares
    // that differ without counting.
    let labelled = |b: &Board| -> String {
        let mut text: String =
            b.lines().iter().enumerate().map(|(i, line)| format!("{} {line}\n", 9 - i)).collect();
        text.push_str("  abcdefghi\n");
        text
    };
    let (a, b) = (labelled(expected), labelled(actual));
    TextDiff::from_lines(&a, &b)
        .unified_diff()
        .context_radius(9)
        .header(expected_label, actual_label)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advance::grades::grade_report;
    use crate::advance::{Engine, Reference};

    /// Two white Catapults could have removed the black Catapult on i4: the one on f4 shoots
    /// exactly 3 squares (forbidden only because i4 is protected), the nearer one on i6 cannot
    /// reach. The bot meant the shot whose shape is right.
    #[test]
    fn an_ambiguous_shot_is_read_as_the_one_in_range() {
        let before = Board::from_text(
            ".........\n.........\n.G.......\n........C\n.........\n.....C..c\n........s\n........g\n.........\n",
        )
        .unwrap();
        let after = Board::from_text(
            ".........\n.........\n.G.......\n........C\n.........\n.....C...\n........s\n........g\n.........\n",
        )
        .unwrap();
        let pos = Reference.load(&before, Side::White);
        let answers =
            Answers::from_report(&Reference, &pos, &grade_report(&Reference, &pos), Aggregation::Min);
        let Finding::Illegal(ill) =
            judge(&before, &answers, after.to_text().as_bytes(), "out", Strictness::Lenient)
        else {
            panic!("an illegal shot")
        };
        let (mv, violation) = ill.attempt.expect("an attempt");
        assert_eq!(mv.to_string(), "Cf4*i4");
        assert_eq!(violation.rule(), "protected-by-sentinel");
    }
}
