//! Verdicts: what happened to one test case, in words graders and students share.

use std::fmt;

/// The verdict of one test case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The bot played a move of the expected set.
    Pass,
    /// A legal move, but not one the case's grade expects.
    WrongMove,
    /// The output board is not reachable by a legal move.
    IllegalMove,
    /// The output file is not a board file.
    MalformedOutput,
    /// The bot wrote no output file.
    NoOutput,
    /// The output board is the input board.
    Unchanged,
    /// The bot died (non-zero exit or signal) without writing a board that could be judged.
    Crash,
    /// The bot ran out of time.
    Timeout,
    /// A hosted bot's call returned or printed something other than what the case expects
    /// (`forceMove` accepted an illegal move, a function returned the wrong value, `main()`
    /// printed another line).
    WrongAnswer,
    /// The case was not run: the submission was refused before any case ran, a stage below it
    /// failed under `--stop-at-gate`, or the bot had used up `--max-timeouts`. The reason says
    /// which. It scores as a failure.
    NotRun,
    /// The grader, not the bot, failed: the sandbox could not be set up for the case, even when
    /// tried again (a host file being rewritten at that moment, the machine out of processes).
    /// The bot did not run; the reason says why. Counted apart from the bot's own failures in
    /// every report, it scores no point: grade the submission again.
    GraderError,
}

impl Verdict {
    /// Every verdict, passing first.
    pub const ALL: [Verdict; 11] = [
        Verdict::Pass,
        Verdict::WrongMove,
        Verdict::IllegalMove,
        Verdict::MalformedOutput,
        Verdict::NoOutput,
        Verdict::Unchanged,
        Verdict::Crash,
        Verdict::Timeout,
        Verdict::WrongAnswer,
        Verdict::NotRun,
        Verdict::GraderError,
    ];

    /// The verdict as reports spell it: `pass`, `wrong-move`, `illegal-move`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::WrongMove => "wrong-move",
            Verdict::IllegalMove => "illegal-move",
            Verdict::MalformedOutput => "malformed-output",
            Verdict::NoOutput => "no-output",
            Verdict::Unchanged => "unchanged",
            Verdict::Crash => "crash",
            Verdict::Timeout => "timeout",
            Verdict::WrongAnswer => "wrong-answer",
            Verdict::NotRun => "not-run",
            Verdict::GraderError => "grader-error",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a game's referee says about one output file.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Judgement {
    /// One of pass, wrong-move, illegal-move, malformed-output, unchanged.
    pub verdict: Option<Verdict>,
    /// The move the output shows, in the game's notation (for an illegal output, the move the
    /// bot most plausibly tried), if there is one.
    pub played: Option<String>,
    /// The grades whose expected sets the move belongs to.
    pub satisfies: Vec<u8>,
    /// The expected answers for the case's grade, in notation.
    pub expected: Vec<String>,
    /// One or two sentences saying what is right or wrong.
    pub reason: String,
    /// A stable short name of the rule broken, for grouping (`protected-by-sentinel`, ...).
    pub rule: Option<String>,
    /// A diff of the output against the nearest expected answer.
    pub diff: Option<String>,
    /// For malformed output: line and column of the first problem.
    pub location: Option<(usize, usize)>,
    /// What caused the failure, when the game can tell better than the verdict and the rule
    /// (a notation error behind an illegal move); reports group failures by it.
    pub cause: Option<super::cause::Cause>,
    /// Further failures the same run showed after the first (a hosted case of many calls
    /// judged past its first wrong answer), each with its own verdict, rule and reason; `fuzz`
    /// counts each towards its own kind. Empty for most cases.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Judgement>,
}
