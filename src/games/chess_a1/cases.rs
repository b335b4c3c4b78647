//! The chess assignment's test cases: each one calls one function, or runs `main()` on a script
//! of inputs, and what it returned and printed is compared with the oracle's answer, exactly.

use serde_json::{Value, json};

use super::case_file::CaseFile;
use super::extras::CastleSafety;
use super::judge::{first_difference, visible};
use super::oracle::{self, Expected};
use super::pyvalue::{Py, parse_value};
use super::referee::ChessA1Referee;
use super::shown::short;
use super::texts::Texts;
use super::transcript::{self, Transcript};
use crate::harness::host::{CallOutcome, CallRecord, HostCall};
use crate::harness::referee::{CaseSpec, Cases, GeneratedCase, Prepared, PreparedCase, Referee};
use crate::harness::verdict::{Judgement, Verdict};

/// What a case expects.
#[derive(Clone, Debug)]
enum Answer {
    /// A function's value and printed text.
    Call(Expected),
    /// `main()`'s transcript.
    Main(Transcript),
}

impl ChessA1Referee {
    /// CSSE7030's special moves with castling's reading, when `extras=on`.
    fn special(&self) -> Option<CastleSafety> {
        self.extras.then_some(self.castle)
    }

    fn answer(&self, file: &CaseFile, origin: &str) -> Result<Answer, String> {
        if file.function == "main" {
            let t = transcript::play_with(&file.inputs, &self.texts, self.special());
            if t.ending == transcript::Ending::OutOfInput {
                return Err(format!(
                    "{origin}: the script ends before the game does (end it with `q` and `y`)"
                ));
            }
            if t.used != file.inputs.len() {
                return Err(format!(
                    "{origin}: the game ends after input {}, but the script goes on",
                    t.used
                ));
            }
            return Ok(Answer::Main(t));
        }
        oracle::expect_with(&file.function, &file.args, &file.inputs, &self.texts, self.special())
            .map(Answer::Call)
            .map_err(|e| format!("{origin}: {e}"))
    }

    fn golden_json(&self, file: &CaseFile, answer: &Answer) -> Value {
        match answer {
            Answer::Call(e) if !file.inputs.is_empty() => json!({
                "call": file.call(),
                "inputs": file.inputs,
                "returns": e.value.to_string(),
                "prints": e.printed,
                "why": e.why,
            }),
            Answer::Call(e) => json!({
                "call": file.call(),
                "returns": e.value.to_string(),
                "prints": e.printed,
                "why": e.why,
            }),
            Answer::Main(t) => json!({
                "call": "main()",
                "inputs": file.inputs,
                "prints": t.text(),
                "ending": format!("{:?}", t.ending).to_lowercase(),
            }),
        }
    }
}

impl Cases for ChessA1Referee {
    fn check_args(&self, _case: &CaseSpec) -> String {
        self.game_args().join(" ")
    }

    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared {
        let origin = case.origin();
        // A fuzzed game (`fuzz`): many calls, each judged.
        if let Some(game) = super::fuzz_run::prepare(input, &origin, &self.texts) {
            return game;
        }
        let file = CaseFile::parse(input, &origin)?;
        let answer = self.answer(&file, &origin)?;
        let computed = self.golden_json(&file, &answer);
        let golden_used = golden
            .and_then(|g| serde_json::from_slice::<Value>(g).ok())
            .is_some_and(|g| g["returns"] == computed["returns"] && g["prints"] == computed["prints"]);
        Ok(Box::new(ChessCase { file, answer, golden_used }))
    }

    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String> {
        let origin = case.origin();
        let file = CaseFile::parse(input, &origin)?;
        let answer = self.answer(&file, &origin)?;
        Ok(crate::harness::referee::golden_text(&self.golden_json(&file, &answer)))
    }

    fn generate(&self, count: usize, seed: u64) -> Option<Vec<GeneratedCase>> {
        Some(super::generate::generate_with(count, seed, self.extras))
    }
}

/// One case with its answer.
struct ChessCase {
    file: CaseFile,
    answer: Answer,
    golden_used: bool,
}

impl ChessCase {
    fn judge_value(&self, expected: &Expected, returned: &Py, printed: &str) -> Judgement {
        let call = short(&self.file.call());
        let mut j = Judgement {
            expected: self.expected(),
            played: Some(returned.to_string()),
            ..Judgement::default()
        };
        if !returned.py_eq(&expected.value) {
            j.verdict = Some(Verdict::WrongAnswer);
            j.rule = Some(format!("{}-returns", self.file.function));
            j.reason = format!("{call} returned {returned}, expected {}: {}", expected.value, expected.why);
            return j;
        }
        if let Some(want) = &expected.printed
            && let Some(diff) = first_difference(want, printed, &[])
        {
            j.verdict = Some(Verdict::WrongAnswer);
            j.rule = Some(format!("{}-prints", self.file.function));
            j.reason = format!(
                "{call} returned {returned} as it should, but printed {} where {} is expected: {}",
                quote(printed),
                quote(want),
                expected.why
            );
            j.diff = Some(diff);
            return j;
        }
        j.verdict = Some(Verdict::Pass);
        j.reason = format!("{call} returned {returned}: {}", expected.why);
        j
    }

    fn judge_main(&self, t: &Transcript, call: &CallRecord) -> Judgement {
        let expected = t.text();
        let mut j = Judgement { expected: self.expected(), ..Judgement::default() };
        let inputs =
            self.file.inputs.iter().map(|i| format!("`{}`", visible(i))).collect::<Vec<_>>().join(", ");
        let how = match &call.outcome {
            CallOutcome::Value(v) => match v["ended"].as_str().unwrap_or("returned") {
                "returned" => None,
                "eof" => Some("then asked for more input than the script gives (EOFError)".to_string()),
                other => Some(format!("then ended by sys.exit ({other})")),
            },
            CallOutcome::Error(e) => {
                let at = e.trace.first().map(|t| format!(" at {t}")).unwrap_or_default();
                Some(format!("then raised {}{at}", e.headline()))
            }
            _ => return Judgement { expected: self.expected(), ..Judgement::default() },
        };
        match first_difference(&expected, &call.stdout, &t.steps) {
            None => {
                j.verdict = Some(Verdict::Pass);
                j.reason = format!(
                    "main() printed the expected {} lines for inputs {inputs}",
                    expected.lines().count()
                );
            }
            Some(diff) => {
                j.verdict = Some(Verdict::WrongAnswer);
                j.rule = Some("main-transcript".to_string());
                let first = diff.lines().next().unwrap_or_default().trim_end_matches(':').to_string();
                j.reason = format!(
                    "main() with inputs {inputs} printed other text: {first}{}",
                    how.map(|h| format!("; main() {h}")).unwrap_or_default()
                );
                j.diff = Some(diff);
            }
        }
        j
    }
}

fn quote(text: &str) -> String {
    if text.is_empty() { "nothing".to_string() } else { format!("\"{}\"", visible(text)) }
}

impl PreparedCase for ChessCase {
    fn judge(&self, output: &[u8], origin: &str, _strict: bool) -> Judgement {
        // `arbiter check CASE OUTPUT`: the output is the returned value's repr, or for main()
        // the printed text.
        let text = String::from_utf8_lossy(output);
        match &self.answer {
            Answer::Call(e) => match parse_value(text.trim()) {
                Ok(v) => self.judge_value(e, &v, e.printed.as_deref().unwrap_or_default()),
                Err(why) => Judgement {
                    verdict: Some(Verdict::MalformedOutput),
                    reason: format!("{origin}: not a Python value: {why}"),
                    expected: self.expected(),
                    ..Judgement::default()
                },
            },
            Answer::Main(t) => {
                let record = CallRecord {
                    op: "main".into(),
                    args: Value::Null,
                    outcome: CallOutcome::Value(json!({"ended": "returned"})),
                    stdout: text.into_owned(),
                    cpu: std::time::Duration::ZERO,
                    wall: std::time::Duration::ZERO,
                };
                self.judge_main(t, &record)
            }
        }
    }

    fn golden_used(&self) -> bool {
        self.golden_used
    }

    fn expected(&self) -> Vec<String> {
        match &self.answer {
            Answer::Call(e) => {
                let mut out = vec![e.value.to_string()];
                if let Some(p) = &e.printed {
                    out.push(format!("printing {}", quote(p)));
                }
                out
            }
            Answer::Main(t) => {
                vec![format!("{} lines of output, ending {:?}", t.text().lines().count(), t.ending)]
            }
        }
    }

    fn check_answer(&self, _answer: &[u8]) -> Option<String> {
        Some("chess-a1 cases have no course answer files".to_string())
    }

    fn picture(&self, _played: Option<&str>) -> Option<String> {
        let board = self.file.args.iter().find_map(Py::as_board)?;
        Some(Texts::default().board(&board))
    }

    fn script(&self) -> Option<Vec<HostCall>> {
        Some(vec![match &self.answer {
            Answer::Call(_) if !self.file.inputs.is_empty() => HostCall::new(
                "call",
                json!({
                    "function": self.file.function,
                    "args": self.file.args.iter().map(Py::to_json).collect::<Vec<_>>(),
                    "stdin": self.file.stdin(),
                }),
            ),
            Answer::Call(_) => HostCall::new(
                "call",
                json!({
                    "function": self.file.function,
                    "args": self.file.args.iter().map(Py::to_json).collect::<Vec<_>>(),
                }),
            ),
            Answer::Main(_) => HostCall::new("main", json!({ "stdin": self.file.stdin() })),
        }])
    }

    fn reproduce(&self) -> Option<String> {
        let single = |t: &str| format!("'{}'", t.replace('\'', "'\\''"));
        match &self.answer {
            Answer::Main(_) => {
                let lines: Vec<String> = self.file.inputs.iter().map(|l| single(l)).collect();
                Some(format!("printf '%s\\n' {} | python3 a1.py", lines.join(" ")))
            }
            Answer::Call(e) => {
                let call = self.file.call();
                let show = if e.printed.is_some() && self.file.inputs.is_empty() {
                    call.clone()
                } else {
                    format!("print(repr({call}))")
                };
                let feed = if self.file.inputs.is_empty() {
                    String::new()
                } else {
                    let lines: Vec<String> = self.file.inputs.iter().map(|l| single(l)).collect();
                    format!("printf '%s\\n' {} | ", lines.join(" "))
                };
                (!call.contains(['"', '$', '`', '\\']))
                    .then(|| format!("{feed}python3 -c \"from a1 import *; {show}\""))
            }
        }
    }

    fn judge_calls(&self, calls: &[CallRecord]) -> Judgement {
        let none = Judgement { expected: self.expected(), ..Judgement::default() };
        let Some(call) = calls.first() else { return none };
        match (&self.answer, &call.outcome) {
            (Answer::Main(t), _) => self.judge_main(t, call),
            (Answer::Call(e), CallOutcome::Value(v)) => self.judge_value(e, &Py::from_json(v), &call.stdout),
            (Answer::Call(_), CallOutcome::Error(err)) if err.kind == "load" => Judgement {
                verdict: Some(Verdict::Crash),
                rule: Some(format!("{}-missing", self.file.function)),
                reason: format!("{}: the case calls {}", err.message, short(&self.file.call())),
                ..none
            },
            (Answer::Call(e), CallOutcome::Error(err)) => {
                let at = if err.trace.is_empty() {
                    String::new()
                } else {
                    format!(
                        "\n  at {}",
                        err.trace.iter().take(5).cloned().collect::<Vec<_>>().join("\n  at ")
                    )
                };
                Judgement {
                    verdict: Some(Verdict::Crash),
                    rule: Some(format!("{}-raises", self.file.function)),
                    reason: format!(
                        "{} raised {} (expected {}: {}){at}",
                        short(&self.file.call()),
                        err.headline(),
                        e.value,
                        e.why
                    ),
                    ..none
                }
            }
            _ => none,
        }
    }
}
