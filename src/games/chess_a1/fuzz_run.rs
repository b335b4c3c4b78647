//! Running a fuzzed chess-a1 game: its questions' calls with the oracle's answers
//! ([`super::oracle::expect`]), asked through one host session, and the judgement of what the
//! submission answered.

use serde_json::json;

use super::fuzz_game::{Ask, GameCase, Query, end_of, moves_text, parse_single, positions};
use super::oracle::{self, Expected};
use super::pyvalue::Py;
use super::rules::check_move;
use super::shown::short;
use super::texts::Texts;
use crate::harness::host::{CallOutcome, CallRecord, HostCall};
use crate::harness::referee::PreparedCase;
use crate::harness::verdict::{Judgement, Verdict};

/// One question with its expected answer.
struct Asked {
    /// Moves before its position.
    ply: usize,
    query: Query,
    /// The call as Python.
    call: String,
    expected: Expected,
}

/// A fuzzed game ready to run: its calls and their expected answers.
pub struct GameRun {
    game: GameCase,
    asked: Vec<Asked>,
}

/// The case of a game file, or of a case file that is one question of a fuzzed game (its
/// `# game:` comment names the moves); `None` for any other case file.
pub fn prepare(input: &[u8], origin: &str, texts: &Texts) -> Option<Result<Box<dyn PreparedCase>, String>> {
    let game = match GameCase::parse(input, origin) {
        Some(Ok(g)) => g,
        Some(Err(e)) => return Some(Err(e)),
        // A shrunk question: judged as in its game, so that it fails the same way.
        None => {
            let (moves, query) = parse_single(input)?;
            GameCase { moves, ask: Ask::These(vec![query]) }
        }
    };
    let all = positions(&game.moves);
    let mut asked = Vec::new();
    for (ply, query) in game.questions() {
        let (board, white) = all[ply];
        let args = query.args(&board, white);
        let call = super::pyvalue::render_call(query.function(), &args);
        match oracle::expect(query.function(), &args, texts) {
            Ok(expected) => asked.push(Asked { ply, query, call, expected }),
            Err(e) => return Some(Err(format!("{origin}: {e}"))),
        }
    }
    Some(Ok(Box::new(GameRun { game, asked })))
}

impl GameRun {
    /// Where a question is: after how many moves, and which.
    fn place(&self, a: &Asked) -> String {
        if a.ply == 0 {
            "at the start".to_string()
        } else {
            format!("after {} move(s) ({})", a.ply, moves_text(&self.game.moves[..a.ply]))
        }
    }

    /// A stable name for the kind of mistake, for grouping failures: for `is_move_valid`,
    /// which rule a wrongly accepted move breaks, or that a valid move was refused.
    fn rule(&self, a: &Asked, returned: &Py) -> String {
        match a.query {
            Query::IsMoveValid(mv) if returned.py_eq(&Py::Bool(true)) => {
                let (board, white) = end_of(&self.game.moves[..a.ply]);
                match check_move(&board, mv, white) {
                    Err(rule) => format!("is_move_valid-accepts-{}", rule.name()),
                    Ok(()) => "is_move_valid-returns".to_string(),
                }
            }
            Query::IsMoveValid(_) if a.expected.value == Py::Bool(true) => {
                "is_move_valid-rejects-valid".to_string()
            }
            q => format!("{}-returns", q.function()),
        }
    }
}

impl PreparedCase for GameRun {
    fn judge(&self, _output: &[u8], origin: &str, _strict: bool) -> Judgement {
        Judgement {
            verdict: Some(Verdict::MalformedOutput),
            reason: format!("{origin}: a fuzzed game is judged by its calls, not by an output file"),
            expected: self.expected(),
            ..Judgement::default()
        }
    }

    fn golden_used(&self) -> bool {
        false
    }

    fn expected(&self) -> Vec<String> {
        vec![format!("{} answers as the oracle gives them", self.asked.len())]
    }

    fn check_answer(&self, _answer: &[u8]) -> Option<String> {
        Some("a fuzzed chess-a1 game has no course answer file".to_string())
    }

    fn script(&self) -> Option<Vec<HostCall>> {
        Some(
            self.asked
                .iter()
                .map(|a| {
                    let (board, white) = end_of(&self.game.moves[..a.ply]);
                    let args = a.query.args(&board, white);
                    HostCall::new(
                        "call",
                        json!({
                            "function": a.query.function(),
                            "args": args.iter().map(Py::to_json).collect::<Vec<_>>(),
                        }),
                    )
                })
                .collect(),
        )
    }

    fn reproduce(&self) -> Option<String> {
        if let [a] = &self.asked[..] {
            let show = if a.expected.printed.is_some() {
                a.call.clone()
            } else {
                format!("print(repr({}))", a.call)
            };
            if !a.call.contains(['"', '$', '`', '\\']) {
                return Some(format!("python3 -c \"from a1 import *; {show}\""));
            }
        }
        Some(format!(
            "the {} calls of this game ({} move(s): {}); the shrunk case is one call",
            self.asked.len(),
            self.game.moves.len(),
            short(&moves_text(&self.game.moves))
        ))
    }

    fn judge_calls(&self, calls: &[CallRecord]) -> Judgement {
        let none = Judgement { expected: self.expected(), ..Judgement::default() };
        // Every call is judged, not only up to the first wrong answer: a bot that crashes on
        // an off-board move at every position would otherwise hide every later bug. The first
        // failure of each rule is kept, the first of all leads and the others go in `also`.
        let mut failures: Vec<Judgement> = Vec::new();
        for (a, call) in self.asked.iter().zip(calls) {
            let fail = |verdict: Verdict, rule: String, played: Option<String>, reason: String| Judgement {
                verdict: Some(verdict),
                rule: Some(rule),
                played,
                expected: vec![a.expected.value.to_string()],
                reason,
                ..Judgement::default()
            };
            let failure = match &call.outcome {
                CallOutcome::Value(v) => {
                    let returned = Py::from_json(v);
                    if !returned.py_eq(&a.expected.value) {
                        Some(fail(
                            Verdict::WrongAnswer,
                            self.rule(a, &returned),
                            Some(returned.to_string()),
                            format!(
                                "{}: {} returned {returned}, expected {}: {}",
                                self.place(a),
                                short(&a.call),
                                a.expected.value,
                                a.expected.why
                            ),
                        ))
                    } else if let Some(want) = &a.expected.printed
                        && *want != call.stdout
                    {
                        Some(fail(
                            Verdict::WrongAnswer,
                            format!("{}-prints", a.query.function()),
                            Some(returned.to_string()),
                            format!(
                                "{}: {} returned {returned} as it should, but printed {:?} where {:?} is expected: {}",
                                self.place(a),
                                short(&a.call),
                                call.stdout,
                                want,
                                a.expected.why
                            ),
                        ))
                    } else {
                        None
                    }
                }
                CallOutcome::Error(err) => {
                    let at = err.trace.first().map(|t| format!(" at {t}")).unwrap_or_default();
                    let rule = if err.kind == "load" { "missing" } else { "raises" };
                    Some(fail(
                        Verdict::Crash,
                        format!("{}-{rule}", a.query.function()),
                        None,
                        format!(
                            "{}: {} raised {}{at} (expected {}: {})",
                            self.place(a),
                            short(&a.call),
                            err.headline(),
                            a.expected.value,
                            a.expected.why
                        ),
                    ))
                }
                // A timeout or a death ends the session: the harness reports the call when
                // nothing failed before it.
                _ => break,
            };
            if let Some(f) = failure
                && !failures.iter().any(|g| g.verdict == f.verdict && g.rule == f.rule)
            {
                failures.push(f);
            }
        }
        if !failures.is_empty() {
            let mut first = failures.remove(0);
            first.also = failures;
            return first;
        }
        if calls.len() < self.asked.len() {
            return none;
        }
        Judgement {
            verdict: Some(Verdict::Pass),
            reason: format!(
                "{} answers after {} move(s) agree with the oracle",
                self.asked.len(),
                self.game.moves.len()
            ),
            ..none
        }
    }
}
