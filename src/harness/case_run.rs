//! A test case ready to run, how cases are run, and what came of one: the types `verify` and
//! the hosts' cases (`host::case`) both fill in, apart from the code that runs either.

use super::referee::{CaseSpec, MoveKind, PreparedCase};
use super::runner::Limits;
use super::verdict::{Judgement, Verdict};

/// How to run the cases.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub limits: Limits,
    /// Give the bot the same path as input and output.
    pub same_file: bool,
    /// Demand exactly 9 lines each ending in `\n`.
    pub strict: bool,
    /// The seed from which each case's seed for built-in bots is derived.
    pub seed: u64,
    /// Cases run at once.
    pub jobs: usize,
    /// Create the output file, empty, before the bot starts (for bots that can only open an
    /// existing file; it then counts as written only if the bot puts something in it).
    pub create_output: bool,
}

/// A test case ready to run: where it is, its input bytes, and its answers.
pub struct ReadyCase {
    pub spec: CaseSpec,
    /// The `arbiter check` arguments that judge this case by hand (from the game).
    pub check_args: String,
    pub input: Vec<u8>,
    pub prepared: Box<dyn PreparedCase>,
}

/// What happened in one case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CaseResult {
    pub path: String,
    pub name: String,
    /// The case's category (`grade6`), written as a grade number when it is one.
    #[serde(rename = "grade", serialize_with = "super::category::serialize")]
    pub category: String,
    pub side: crate::side::Side,
    pub verdict: Verdict,
    /// The bot's move in notation, when there is one.
    #[serde(rename = "move")]
    pub played: Option<String>,
    /// What kind of move the bot's move is (`Zombie leap`), when the game says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played_kind: Option<MoveKind>,
    /// The answers the case's category expects, whatever the verdict: a student whose bot
    /// crashed or ran out of time still learns what the right move was. Empty for a case not
    /// run: nothing was asked of the bot there, and the answer stays unknown to the student.
    pub expected: Vec<String>,
    /// The kind of the expected answer when every expected move is of one kind (a case with a
    /// single answer): the move a failing bot missed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_kind: Option<MoveKind>,
    /// The grades whose expected sets hold the bot's move.
    pub satisfies: Vec<u8>,
    pub reason: String,
    pub rule: Option<String>,
    pub diff: Option<String>,
    /// How the process ended: "exited with status 0", "timed out after 10 s", ...
    pub process: String,
    pub stderr_tail: String,
    pub stdout_head: String,
    /// The start of what the bot wrote to its output file (at most 4 KiB, invalid UTF-8
    /// replaced), when it wrote one.
    pub output: Option<String>,
    /// Wall-clock time the bot took, in milliseconds.
    pub elapsed_ms: u64,
    /// CPU time the bot used, in milliseconds (0 for a case not run), when the platform
    /// measured it.
    pub cpu_ms: Option<u64>,
    /// When the case timed out once and was run again (only a second timeout counts): how the
    /// first run went.
    pub timeout_rerun: Option<FirstRun>,
    /// One shell line that replays the case by hand, in the folder the bot command was typed
    /// in: it writes the board itself (to `case.txt`, copied to the bot's input), runs the bot
    /// and shows what it wrote. It needs neither the corpus, nor the grader's paths, nor
    /// arbiter (unless the bot is one of arbiter's own).
    pub reproduce: String,
    /// The `arbiter check` line that judges the output `reproduce` left, for those who have
    /// arbiter.
    pub check: String,
    /// Whether the expected answers came from a golden file.
    pub golden: bool,
    /// The seed a built-in bot used for this case.
    pub seed: u64,
    /// The position drawn by the game, the bot's move marked, for a failure's human report
    /// (not in JSON: the board is in the case file).
    #[serde(skip)]
    pub picture: Option<String>,
    /// What caused the failure, when the game can tell better than the verdict and the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<super::failure::Cause>,
    /// What the case's category asks for in this position (`the winning move`), when the game
    /// says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asks: Option<String>,
    /// The `arbiter expect` line that explains the answer, run where `reproduce` wrote
    /// `case.txt` (`arbiter expect case.txt --side white --grade 5 --why Be7-d8`), for a failure
    /// in a game whose `expect` reads case files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<String>,
    /// Whether the bot changed its input file (what a bot that writes its answer there does).
    pub input_changed: bool,
    /// Further failures the run showed after the first ([`Judgement::also`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Judgement>,
}

impl CaseResult {
    /// A result that says only which case it is (its file, name, category and side), its
    /// verdict and why: nothing played, expected or measured, nothing to replay it with. Who
    /// knows more fills it in.
    pub fn bare(
        path: String,
        name: String,
        category: String,
        side: crate::side::Side,
        verdict: Verdict,
        reason: String,
    ) -> CaseResult {
        CaseResult {
            path,
            name,
            category,
            side,
            verdict,
            played: None,
            played_kind: None,
            expected: Vec::new(),
            expected_kind: None,
            satisfies: Vec::new(),
            reason,
            rule: None,
            diff: None,
            process: String::new(),
            stderr_tail: String::new(),
            stdout_head: String::new(),
            output: None,
            elapsed_ms: 0,
            cpu_ms: None,
            timeout_rerun: None,
            reproduce: String::new(),
            check: String::new(),
            golden: false,
            seed: 0,
            picture: None,
            cause: None,
            asks: None,
            explain: None,
            input_changed: false,
            also: Vec::new(),
        }
    }

    /// Takes what the game's judge found in the bot's answer: the move it played, the grades
    /// that move satisfies, the rule broken, the diff, the cause and any further failures; and
    /// the expected answers when the judge names them (the case's own stay otherwise). The
    /// verdict and reason are the caller's to decide: the judge's are one input among others.
    pub fn take_judgement(&mut self, judgement: Judgement) {
        self.played = judgement.played;
        if !judgement.expected.is_empty() {
            self.expected = judgement.expected;
        }
        self.satisfies = judgement.satisfies;
        self.rule = judgement.rule;
        self.diff = judgement.diff;
        self.cause = judgement.cause;
        self.also = judgement.also;
    }
}

/// The first run of a case that timed out and was run again.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FirstRun {
    /// How it ended: "timed out after 10 s".
    pub process: String,
    pub elapsed_ms: u64,
    pub cpu_ms: Option<u64>,
}
