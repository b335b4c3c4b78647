//! Judging test cases: what `verify`, `check`, `golden` and `grade` ask of a game whose bots are
//! graded on fixed positions with known answers.

use super::{CaseSpec, MoveKind};
use crate::harness::host::{CallRecord, HostCall};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// A case read and ready to judge, or what is wrong with its input ([`Cases::prepare`]).
pub type Prepared = Result<Box<dyn PreparedCase>, String>;

/// `Ok` when a case is what its category claims, else each thing wrong ([`Cases::check_category`]).
pub type CategoryCheck = Result<(), Vec<String>>;

/// A game's judge of test cases.
pub trait Cases: Send + Sync {
    /// The arguments of `arbiter check` that replay the judgement of a case (after the case
    /// board and the output file), e.g. `--side white --grade 6`.
    fn check_args(&self, case: &CaseSpec) -> String;

    /// Reads a case: its input board and, if given, its golden answer (used when it is up to
    /// date; otherwise the answers are computed). An error names what is wrong with the input.
    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared;

    /// The golden answer for a case, as the text of a JSON file.
    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String>;

    /// A fresh corpus for `arbiter generate`, `count` cases per category (or per kind within
    /// one), made from `seed`; `None` for a game whose generator is its own command (Advance's
    /// search for unique answers).
    fn generate(&self, _count: usize, _seed: u64) -> Option<Vec<GeneratedCase>> {
        None
    }

    /// Whether a case is what its category claims (`golden --check`): `Ok` when it is, else
    /// each thing wrong, in a sentence. E.g. a `win` case must have a winning move and a
    /// `golden` answer (the golden file's text, when there is one) within the win set. The
    /// default checks nothing.
    fn check_category(&self, _case: &CaseSpec, _input: &[u8], _golden: Option<&[u8]>) -> CategoryCheck {
        Ok(())
    }

    /// Inputs for `verify --robustness`, for games whose bots read a position file; `None`
    /// when the game's bots get no file to be fed badly.
    fn robustness_boards(&self) -> Option<RobustnessBoards> {
        None
    }
}

/// One case a game's generator made: where it goes in the corpus and its file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedCase {
    /// Its category folder (`block`).
    pub category: String,
    /// The side folder.
    pub side: Side,
    /// Its file name without `.txt`.
    pub name: String,
    /// The case file.
    pub text: String,
}

impl GeneratedCase {
    /// A generated case's own seed, from the corpus `seed`, the `group` it is made for (its
    /// category or kind) and its `index` there: a case stays the same when other groups are
    /// added, removed or made in another order.
    pub fn seed(seed: u64, group: &str, index: usize) -> u64 {
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(stable_hash(group.bytes()))
            .wrapping_add(index as u64 * 7919)
    }
}

/// A hash of `bytes` (FNV-1a) that is the same on every machine and in every build, unlike the
/// standard library's: for seeds drawn from names and positions, which a corpus must reproduce.
pub fn stable_hash(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Board files for the robustness checks.
pub struct RobustnessBoards {
    /// A well-formed position and the side to move in it.
    pub valid: (Vec<u8>, Side),
    /// A board with a character outside the game's set.
    pub invalid_chars: Vec<u8>,
    /// A board with too few characters.
    pub wrong_size: Vec<u8>,
    /// A well-formed position in which the side to move has no legal move.
    pub no_moves: (Vec<u8>, Side),
}

/// A test case ready to judge outputs.
pub trait PreparedCase: Send + Sync {
    /// Judges the bytes a bot wrote. `origin` labels errors; `strict` demands the strict format.
    fn judge(&self, output: &[u8], origin: &str, strict: bool) -> Judgement;

    /// Whether the answers came from an up-to-date golden file.
    fn golden_used(&self) -> bool;

    /// The expected answers, in the game's notation: what every failing verdict shows, even
    /// when the bot wrote nothing that could be judged (a crash, a timeout, no output).
    fn expected(&self) -> Vec<String>;

    /// Checks an answer board supplied with the corpus (the course's own answer): `None` when it
    /// is the single expected board, else what is wrong.
    fn check_answer(&self, answer: &[u8]) -> Option<String>;

    /// What kind of move `notation` is in this case's position, legal or not (`Zombie leap`), so
    /// that reports name every move with its kind and failures with different kinds of move are
    /// not taken for one bug. `None` for a game without kinds or a move it cannot read.
    fn move_kind(&self, _notation: &str) -> Option<MoveKind> {
        None
    }

    /// What the case's category asks for in this position, in a few words a report puts after
    /// the expected moves (`the winning move`, `the greatest material gain`, `a point that
    /// stops every threat`); `None` when the category's name says enough.
    fn asks(&self) -> Option<String> {
        None
    }

    /// The arguments of `arbiter expect` that explain this case's answers, given the case's
    /// board file (`--side white --grade 5`; `--game pente --category win`), for a game whose
    /// `expect` reads case files; `None` otherwise. Reports add `--why MOVE`.
    fn expect_args(&self) -> Option<String> {
        None
    }

    /// The case's position drawn for a person reading a failure, with the bot's move `played`
    /// (and, where few, the expected answers) marked where the game can mark them; `None` when
    /// the game draws nothing.
    fn picture(&self, _played: Option<&str>) -> Option<String> {
        None
    }

    /// The CPU time the case's own input gives the bot, if it gives one (Pente's input.txt: "If
    /// your agent runs for more than its given play time, it will be killed"). `verify` kills the
    /// bot after this much CPU time, unless its `--timeout` is smaller.
    fn time_limit(&self) -> Option<std::time::Duration> {
        None
    }

    /// For a game whose bots are hosted: the calls that make up the case, in order (set-up
    /// calls, then the calls under test). `None` for a case judged on an output file.
    fn script(&self) -> Option<Vec<HostCall>> {
        None
    }

    /// The command a student runs to see the case for themselves (the chess assignment's
    /// `python3 -c "from a1 import *; ..."`), when the game has one better than the calls.
    fn reproduce(&self) -> Option<String> {
        None
    }

    /// Judges the calls of [`PreparedCase::script`] as they went (the list stops early where
    /// the bot died or timed out). A verdict of `None` leaves it to the harness: the first call
    /// that failed (a timeout, an exception, a death) decides.
    fn judge_calls(&self, _calls: &[CallRecord]) -> Judgement {
        Judgement::default()
    }
}

/// Judges a legal move `mv` against a case's expected answers: a pass, explained by `why`, when
/// it is one of them; else a wrong move, for the reason `wrong` makes of `why`.
pub fn judge_legal<M: PartialEq>(
    j: &mut Judgement,
    mv: &M,
    expected: &[M],
    why: String,
    wrong: impl FnOnce(String) -> String,
) {
    if expected.contains(mv) {
        j.verdict = Some(Verdict::Pass);
        j.reason = why;
    } else {
        j.verdict = Some(Verdict::WrongMove);
        j.reason = wrong(why);
    }
}
