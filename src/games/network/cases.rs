//! Network's test cases: cases that drive a student's `player.MachinePlayer` by calls
//! (replay a game, then offer a move or ask for one).
//!
//! A case's calls: `new {color}` for the side to move, the game's moves told to it
//! (`force` for its own, `opponent` for the other side's), then the call under test. What each
//! category asks (`docs/games/network/RULES.md`, "Answers"):
//! - `accept`: `forceMove` of a legal move returns true;
//! - `reject`: `forceMove` of an illegal move returns false, and leaves the player's board as it
//!   was (its `chooseMove` afterwards is legal in the case's position);
//! - a case file's `offer-opponent:` offers the move to `opponentMove` of a player of the other
//!   side instead, which must accept or refuse it alike;
//! - `legal`, `win`, `block`: `chooseMove` returns a move of the expected set.

use serde_json::{Value, json};

use super::case_file::CaseFile;
use super::oracle::{Category, Oracle, explain_illegal};
use super::referee::NetworkReferee;
use super::rules::check;
use super::text::parse_move;
use super::{Color, Move};
use crate::harness::host::{CallRecord, HostCall};
use crate::harness::referee::{
    CaseSpec, Cases, CategoryCheck, GeneratedCase, Prepared, PreparedCase, golden_expected, golden_problem,
    golden_text, judge_legal,
};
use crate::harness::verdict::{Judgement, Verdict};

/// What a case asks, from its category folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Accept,
    Reject,
    Choose(Category),
}

impl Ask {
    fn of(category: &str) -> Result<Ask, String> {
        match category {
            "accept" => Ok(Ask::Accept),
            "reject" => Ok(Ask::Reject),
            other => other.parse().map(Ask::Choose),
        }
    }
}

impl Cases for NetworkReferee {
    fn check_args(&self, case: &CaseSpec) -> String {
        let mut args = format!("--game network --side {} --category {}", case.side, case.category);
        for option in self.rules.describe() {
            args.push_str(&format!(" --rule {option}"));
        }
        args
    }

    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared {
        let origin = case.origin();
        let file = CaseFile::parse(input, &origin, &self.rules)?;
        case.check_side(file.position.to_move.side(), &file.position.to_move)?;
        let ask = Ask::of(&case.category).map_err(|e| format!("{origin}: {e}"))?;
        let oracle = Oracle::new(&file.position, &self.rules);
        let expected = match ask {
            Ask::Accept | Ask::Reject => {
                let offer = file
                    .offer
                    .ok_or_else(|| format!("{origin}: an `{}` case needs an `offer:` line", case.category))?;
                let legal = oracle.legal.contains(&offer);
                if legal != (ask == Ask::Accept) {
                    return Err(format!(
                        "{origin}: an `{}` case, but {offer} is {}legal here",
                        case.category,
                        if legal { "" } else { "not " }
                    ));
                }
                vec![offer]
            }
            Ask::Choose(category) => {
                let expected = oracle.expected(category);
                if expected.is_empty() || oracle.category() != Some(category) {
                    let why = oracle.no_moves_reason().unwrap_or_else(|| {
                        format!(
                            "the position is a `{}` case",
                            oracle.category().map_or("finished", Category::name)
                        )
                    });
                    return Err(format!("{origin}: a `{category}` case, but {why}"));
                }
                expected
            }
        };
        let strings = list(&expected);
        let golden_used = golden.is_some_and(|g| golden_expected(g).as_deref() == Some(&strings));
        Ok(Box::new(NetworkCase { file, oracle, ask, expected, golden_used }))
    }

    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String> {
        let prepared = self.prepare(case, input, None)?;
        let file = CaseFile::parse(input, &case.origin(), &self.rules)?;
        let oracle = Oracle::new(&file.position, &self.rules);
        let why = match file.offer {
            Some(offer) => match check(&file.position, &self.rules, offer) {
                Ok(()) => oracle.explain(offer),
                Err(rule) => explain_illegal(&file.position, &self.rules, offer, rule),
            },
            None => prepared
                .expected()
                .first()
                .and_then(|m| parse_move(m.as_bytes(), "move").ok())
                .map(|m| oracle.explain(m))
                .unwrap_or_default(),
        };
        let json = json!({
            "category": case.category,
            "to_move": file.position.to_move.to_string(),
            "offer": file.offer.map(|m| m.to_string()),
            "legal": oracle.legal.len(),
            "expected": prepared.expected(),
            "why": why,
        });
        Ok(golden_text(&json))
    }

    fn generate(&self, count: usize, seed: u64) -> Option<Vec<GeneratedCase>> {
        Some(super::corpus::generate(&self.rules, count, seed))
    }

    /// A case of another category than its folder's is already refused by `prepare`; here the
    /// golden answer must also lie within the category's set.
    fn check_category(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> CategoryCheck {
        let expected = self.prepare(case, input, None).map_err(|e| vec![e])?.expected();
        let Some(golden) = golden else { return Ok(()) };
        match golden_problem(golden, &expected, &case.category, "moves") {
            Some(problem) => Err(vec![problem]),
            None => Ok(()),
        }
    }
}

fn list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The search depth a case's player is made with (`new MachinePlayer(color, CASE_DEPTH)`): two,
/// the depth the assignment expects within five seconds, and the least that sees a block.
pub const CASE_DEPTH: u32 = 2;

/// The calls that bring a new player of `color` (made with `depth`, or by the one-argument
/// constructor) to the end of `game`.
pub(super) fn set_up(color: Color, depth: Option<u32>, game: &[Move]) -> Vec<HostCall> {
    let args = match depth {
        Some(depth) => json!({ "color": color.word(), "depth": depth }),
        None => json!({ "color": color.word() }),
    };
    let mut calls = vec![HostCall::new("new", args)];
    let mut mover = Color::White;
    for mv in game {
        let op = if mover == color { "force" } else { "opponent" };
        calls.push(HostCall::new(op, json!({ "move": mv.to_string() })).must_return(json!(true)));
        mover = mover.opponent();
    }
    calls
}

/// One Network test case with its answers.
struct NetworkCase {
    file: CaseFile,
    oracle: Oracle,
    ask: Ask,
    expected: Vec<Move>,
    golden_used: bool,
}

impl NetworkCase {
    /// Judges a move the player chose, as text.
    fn judge_move(&self, text: &str, origin: &str) -> Judgement {
        let mut j = Judgement { expected: list(&self.expected), ..Judgement::default() };
        let mv = match parse_move(text.as_bytes(), origin) {
            Ok(mv) => mv,
            Err(e) => {
                j.verdict = Some(Verdict::MalformedOutput);
                j.location = Some((e.line, e.column));
                j.reason = format!("not a move like `add 34` or `step 34 56`: {}", e.message);
                return j;
            }
        };
        j.played = Some(mv.to_string());
        let pos = &self.file.position;
        let rules = &self.oracle.rules;
        match check(pos, rules, mv) {
            Err(rule) => {
                j.verdict = Some(Verdict::IllegalMove);
                j.rule = Some(rule.name().to_string());
                j.reason = explain_illegal(pos, rules, mv, rule);
            }
            Ok(()) => judge_legal(&mut j, &mv, &self.expected, self.oracle.explain(mv), |why| {
                let ask = category_name(self.ask);
                format!("{mv} is legal, but a `{ask}` case expects one of {}: {why}", some(&self.expected))
            }),
        }
        j
    }
}

fn category_name(ask: Ask) -> &'static str {
    match ask {
        Ask::Accept => "accept",
        Ask::Reject => "reject",
        Ask::Choose(c) => c.name(),
    }
}

/// A few moves of a set, and how many in all.
fn some(moves: &[Move]) -> String {
    const SHOWN: usize = 6;
    let shown: Vec<String> = moves.iter().take(SHOWN).map(Move::to_string).collect();
    if moves.len() > SHOWN {
        format!("{} (and {} more)", shown.join(", "), moves.len() - SHOWN)
    } else {
        shown.join(", ")
    }
}

impl PreparedCase for NetworkCase {
    fn judge(&self, output: &[u8], origin: &str, _strict: bool) -> Judgement {
        match self.ask {
            Ask::Choose(_) => self.judge_move(&String::from_utf8_lossy(output), origin),
            Ask::Accept | Ask::Reject => {
                let text = String::from_utf8_lossy(output);
                let answer = match text.trim() {
                    "true" => true,
                    "false" => false,
                    other => {
                        return Judgement {
                            verdict: Some(Verdict::MalformedOutput),
                            reason: format!("expected `true` or `false`, found `{other}`"),
                            expected: self.expected(),
                            ..Judgement::default()
                        };
                    }
                };
                self.judge_answer(answer)
            }
        }
    }

    fn golden_used(&self) -> bool {
        self.golden_used
    }

    fn expected(&self) -> Vec<String> {
        match self.ask {
            Ask::Accept => vec!["true".to_string()],
            Ask::Reject => vec!["false".to_string()],
            Ask::Choose(_) => list(&self.expected),
        }
    }

    fn check_answer(&self, _answer: &[u8]) -> Option<String> {
        Some("Network cases have no course answer files".to_string())
    }

    fn picture(&self, played: Option<&str>) -> Option<String> {
        let mut text = self.file.position.to_text();
        if let Some(played) = played {
            text.push_str(&format!("the player's move: {played}\n"));
        }
        Some(text)
    }

    fn script(&self) -> Option<Vec<HostCall>> {
        let to_move = self.file.position.to_move;
        // An offer to opponentMove goes to a player of the other side.
        let color = if self.file.opponent { to_move.opponent() } else { to_move };
        let mut calls = set_up(color, Some(CASE_DEPTH), &self.file.game);
        let op = if self.file.opponent { "opponent" } else { "force" };
        match (self.ask, self.file.offer) {
            (Ask::Accept, Some(offer)) => calls.push(HostCall::new(op, json!({ "move": offer.to_string() }))),
            (Ask::Reject, Some(offer)) => {
                calls.push(HostCall::new(op, json!({ "move": offer.to_string() })));
                // Only the side to move can be asked for a move in the case's position.
                if !self.file.opponent {
                    calls.push(HostCall::new("choose", json!({})));
                }
            }
            _ => calls.push(HostCall::new("choose", json!({}))),
        }
        Some(calls)
    }

    fn judge_calls(&self, calls: &[CallRecord]) -> Judgement {
        let none = Judgement { expected: self.expected(), ..Judgement::default() };
        let setup = 1 + self.file.game.len();
        // The set-up: every move of the game is legal, so each must be taken.
        for (n, call) in calls.iter().enumerate().take(setup).skip(1) {
            match call.value() {
                None => return none,
                Some(Value::Bool(true)) => {}
                Some(other) => {
                    let method = if call.op == "force" { "forceMove" } else { "opponentMove" };
                    return Judgement {
                        verdict: Some(Verdict::WrongAnswer),
                        reason: format!(
                            "while the game was replayed to the case's position, {method}({}) returned {other} for \
                             move {n} of the game, which is legal: {}",
                            call.args["move"].as_str().unwrap_or("?"),
                            self.file.game.iter().take(n).map(Move::to_string).collect::<Vec<_>>().join(", ")
                        ),
                        ..none
                    };
                }
            }
        }
        let Some(first) = calls.get(setup) else { return none };
        let Some(value) = first.value() else { return none };
        match self.ask {
            Ask::Choose(_) => match value {
                Value::String(text) => self.judge_move(text, "chooseMove"),
                Value::Null => Judgement {
                    verdict: Some(Verdict::WrongAnswer),
                    reason: "chooseMove returned null, but the player has legal moves".to_string(),
                    ..none
                },
                other => Judgement {
                    verdict: Some(Verdict::MalformedOutput),
                    reason: format!("chooseMove returned {other}, not a Move"),
                    ..none
                },
            },
            Ask::Accept | Ask::Reject => {
                let Value::Bool(answer) = value else {
                    return Judgement {
                        verdict: Some(Verdict::MalformedOutput),
                        reason: format!("{} returned {value}, not a boolean", self.method()),
                        ..none
                    };
                };
                let mut j = self.judge_answer(*answer);
                if self.ask == Ask::Reject && j.verdict == Some(Verdict::Pass) && !self.file.opponent {
                    // Refused, as it should be: the board must be as it was.
                    let Some(after) = calls.get(setup + 1) else { return none };
                    let Some(value) = after.value() else { return none };
                    let text = value.as_str().unwrap_or_default();
                    let legal = parse_move(text.as_bytes(), "chooseMove")
                        .is_ok_and(|mv| self.oracle.legal.contains(&mv));
                    if !legal {
                        j.verdict = Some(Verdict::WrongAnswer);
                        j.played = Some(text.to_string());
                        j.reason = format!(
                            "forceMove({}) returned false, as it should, but chooseMove then returned {value}, which is \
                             not legal in the case's position: the refused move changed the player's board",
                            self.expected[0]
                        );
                    }
                }
                j
            }
        }
    }
}

impl NetworkCase {
    /// The method the offer goes to.
    fn method(&self) -> &'static str {
        if self.file.opponent { "opponentMove" } else { "forceMove" }
    }

    /// Judges forceMove's (or opponentMove's) answer to the offered move.
    fn judge_answer(&self, answer: bool) -> Judgement {
        let j = self.judge_force_answer(answer);
        if !self.file.opponent {
            return j;
        }
        // The same judgement, said of opponentMove, and kept apart from forceMove's in the
        // rules (a player may check its own moves and not its opponent's).
        let rule = match (j.verdict, &j.rule) {
            (Some(Verdict::Pass), _) => j.rule.clone(),
            (_, Some(rule)) => Some(format!("opponentMove-accepts-{rule}")),
            (_, None) => Some("opponentMove-refuses-legal".to_string()),
        };
        Judgement { reason: j.reason.replacen("forceMove(", "opponentMove(", 1), rule, ..j }
    }

    /// Judges forceMove's answer to the offered move.
    fn judge_force_answer(&self, answer: bool) -> Judgement {
        let offer = self.expected[0];
        let pos = &self.file.position;
        let rules = &self.oracle.rules;
        let (verdict, reason, rule) = match (self.ask, answer, check(pos, rules, offer)) {
            (_, true, Ok(())) => (
                Verdict::Pass,
                format!("forceMove({offer}) returned true: {}", self.oracle.explain(offer)),
                None,
            ),
            (_, false, Err(rule)) => (
                Verdict::Pass,
                format!("forceMove({offer}) returned false: {}", explain_illegal(pos, rules, offer, rule)),
                Some(rule.name().to_string()),
            ),
            (_, false, Ok(())) => (
                Verdict::WrongAnswer,
                format!(
                    "forceMove({offer}) returned false, but the move is legal: {}",
                    self.oracle.explain(offer)
                ),
                None,
            ),
            (_, true, Err(rule)) => (
                Verdict::WrongAnswer,
                format!("forceMove({offer}) returned true, but {}", explain_illegal(pos, rules, offer, rule)),
                Some(rule.name().to_string()),
            ),
        };
        Judgement {
            verdict: Some(verdict),
            played: Some(answer.to_string()),
            expected: self.expected(),
            reason,
            rule,
            ..Judgement::default()
        }
    }
}
