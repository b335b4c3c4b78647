//! Advance as the harness sees it: preparing test cases (golden or computed answers), judging
//! bot output into verdicts, and the built-in bots.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::answers_json::{answers_from_golden, golden_json};
use super::board::Board;
use super::engine::Engine;
use super::game_state::AdvanceGame;
use super::grade7_choice::grade7_min;
use super::grades::{Aggregation, grade_report, grade6};
use super::judge::{Answers, Finding, board_diff, closest, judge};
use super::mutants::{Blind, Mutant};
use super::position::Position;
use super::symmetry::Twin;
use super::text::Strictness;
use crate::harness::referee::{
    BuiltinBot, Builtins, CaseSpec, Cases, Fuzzing, GameInfo, GameState, Games, MoveKind, Prepared,
    PreparedCase, Referee, RobustnessBoards, SoleAnswer, Symmetry,
};
use crate::harness::verdict::Judgement;
use crate::side::Side;

/// The Advance referee, computing with engine `E`.
#[derive(Clone, Debug, Default)]
pub struct AdvanceReferee<E> {
    pub engine: E,
}

/// Reads a board file's bytes as a well-formed position with `side` to move.
fn read_position(input: &[u8], origin: &str, side: Side) -> Result<Position, String> {
    let board = read_board(input, origin)?;
    let position = Position::new(board, side);
    position
        .validate()
        .map_err(|e| format!("{origin}: not a well-formed position with {side} to move: {e}"))?;
    Ok(position)
}

/// Reads a board file's bytes as a bot reads them (leniently).
fn read_board(input: &[u8], origin: &str) -> Result<Board, String> {
    Board::parse(input, origin, Strictness::Lenient).map_err(|e| e.to_string())
}

/// What a built-in bot writes: the board file after one of `choices` drawn with `rng`, or why
/// it cannot play.
fn play_one_of<E: Engine>(
    engine: &E,
    pos: &E::Pos,
    choices: &[super::notation::Move],
    rng: &mut ChaCha8Rng,
    side: Side,
) -> Result<Vec<u8>, String> {
    let mv = *choices.choose(rng).ok_or_else(|| format!("{side} has no legal move"))?;
    Ok(engine.board(&engine.play(pos, mv)).to_text().into_bytes())
}

/// Advance's case categories: the assignment's grades.
pub const CATEGORIES: &[&str] = &["grade4", "grade5", "grade6", "grade7"];

/// The grade a case tests, from its category (`grade6`); the corpus walk only finds Advance's
/// four, so anything else is grade 4 (any legal move).
fn grade_of(case: &CaseSpec) -> u8 {
    crate::harness::category::grade_number(&case.category).unwrap_or(4)
}

impl<E: Engine + Clone + 'static> Referee for AdvanceReferee<E> {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/advance/game.toml"))
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        self
    }

    fn categories(&self) -> &'static [&'static str] {
        CATEGORIES
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![include_str!("../../../corpus/marking-profile.json")]
    }

    crate::concerns!(cases, builtins, fuzzing, games, symmetry, drawing);
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

impl<E: Engine + Clone + 'static> Builtins for AdvanceReferee<E> {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        if let Some(mutant) = Mutant::from_name(name) {
            return Some(Box::new(MutantBot { engine: self.engine.clone(), mutant }));
        }
        if let Some(blind) = Blind::from_name(name) {
            return Some(Box::new(BlindBot { engine: self.engine.clone(), blind }));
        }
        let grade = match name {
            "random" | "grade4" => 4,
            "grade5" => 5,
            "grade6" => 6,
            "grade7" => 7,
            _ => return None,
        };
        Some(Box::new(AdvanceBot { engine: self.engine.clone(), grade }))
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        let mut names = vec!["random", "grade5", "grade6", "grade7"];
        names.extend(Mutant::ALL.iter().map(|m| m.name()));
        names.extend(Blind::ALL.iter().map(|b| b.name()));
        names
    }
}

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

impl<E: Engine + Clone + 'static> Games for AdvanceReferee<E> {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        let board = match start {
            Some((origin, bytes)) => {
                Board::parse(bytes, origin, Strictness::Lenient).map_err(|e| e.to_string())?
            }
            None => Board::initial(),
        };
        // White moves first.
        Ok(Box::new(AdvanceGame::new(self.engine.clone(), &board, Side::White)?))
    }
}

impl<E: Engine + Clone + 'static> Symmetry for AdvanceReferee<E> {
    fn twins(&self, input: &[u8], side: Side) -> Vec<(String, Vec<u8>, Side)> {
        let Ok(board) = Board::parse(input, "input", Strictness::Lenient) else { return Vec::new() };
        Twin::ALL
            .iter()
            .map(|twin| {
                let (b, s) = twin.board(&board, side);
                (twin.name().to_string(), b.to_text().into_bytes(), s)
            })
            .collect()
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

/// A built-in bot: plays uniformly at random among its grade's expected set (grade 4 being every
/// legal move).
pub struct AdvanceBot<E> {
    engine: E,
    grade: u8,
}

impl<E: Engine> BuiltinBot for AdvanceBot<E> {
    fn name(&self) -> String {
        if self.grade == 4 { "arbiter-random".to_string() } else { format!("arbiter-grade{}", self.grade) }
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let pos = self.engine.load(&board, side);
        let choices = match self.grade {
            4 => self.engine.moves(&pos),
            // The same sets as the full report's, without valuing grade 7's candidates.
            5 | 6 => {
                let g6 = grade6(&self.engine, &pos);
                if self.grade == 5 && g6.winning.is_empty() { g6.legal } else { g6.set }
            }
            _ => grade7_min(&self.engine, &pos).moves,
        };
        play_one_of(&self.engine, &pos, &choices, &mut ChaCha8Rng::seed_from_u64(seed), side)
    }
}

/// A bot with a planted rule bug (see [`Mutant`]): plays a move only its bug allows whenever
/// there is one, else a grade-6 move (a winning move, else the greatest material gain).
pub struct MutantBot<E> {
    engine: E,
    mutant: Mutant,
}

impl<E: Engine> BuiltinBot for MutantBot<E> {
    fn name(&self) -> String {
        format!("arbiter-{}", self.mutant.name())
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let buggy = self.mutant.buggy_moves(&board, side);
        if let Some(&mv) = buggy.choose(&mut rng) {
            return Ok(super::reference::apply(&board, mv).to_text().into_bytes());
        }
        let pos = self.engine.load(&board, side);
        let choices = super::grades::grade6_set(&self.engine, &pos);
        play_one_of(&self.engine, &pos, &choices, &mut rng, side)
    }
}

/// A bot with a blind spot (see [`Blind`]): plays the grade-6 choice among the legal moves it
/// sees, and fails with "no legal move" when it sees none.
pub struct BlindBot<E> {
    engine: E,
    blind: Blind,
}

impl<E: Engine> BuiltinBot for BlindBot<E> {
    fn name(&self) -> String {
        format!("arbiter-{}", self.blind.name())
    }

    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = read_board(input, origin)?;
        let pos = self.engine.load(&board, side);
        let seen: Vec<_> =
            self.engine.moves(&pos).into_iter().filter(|&m| self.blind.sees(&board, side, m)).collect();
        let winning: Vec<_> = seen
            .iter()
            .copied()
            .filter(|&m| !self.engine.has_legal_move(&self.engine.play(&pos, m)))
            .collect();
        let choices = if winning.is_empty() {
            let gain = |m| self.engine.advantage(&self.engine.play(&pos, m), side);
            let best = seen.iter().map(|&m| gain(m)).max();
            seen.iter().copied().filter(|&m| Some(gain(m)) == best).collect()
        } else {
            winning
        };
        play_one_of(&self.engine, &pos, &choices, &mut ChaCha8Rng::seed_from_u64(seed), side)
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
