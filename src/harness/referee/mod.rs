//! The game as the harness sees it. The harness (bot runner, corpus walk, verifier, reports)
//! knows nothing of any game's rules: it asks a [`Referee`] what the game has, and each concern
//! is a trait of its own, as shakmaty keeps `Setup`, `FromSetup` and `Position` apart, so that a
//! game implements only what it has:
//!
//! - [`Cases`]: test cases with known answers, judged ([`PreparedCase`]);
//! - [`Builtins`]: bots that live inside arbiter ([`BuiltinBot`]);
//! - [`Fuzzing`]: random and rule-edge positions, shrinking, move kinds;
//! - [`Games`]: games in progress, for `match` and `replay` ([`GameState`]);
//! - [`Symmetry`]: positions that must get the same answer;
//! - [`Drawing`]: positions drawn as SVG for the HTML pages.
//!
//! A game without test cases (a simulation graded by win rates) answers `None` to
//! [`Referee::cases`], and the commands that need cases say so.

use std::path::PathBuf;

mod builtins;
mod cases;
mod concerns;
mod drawing;
mod fuzzing;
mod games;
mod golden;
mod info;
mod move_kind;
mod symmetry;
pub mod threats;
mod words;

pub use builtins::{BuiltinBot, Builtins, Player, PlayerTable, RandomAmong, random_pick};
pub use cases::{
    Cases, CategoryCheck, GeneratedCase, Prepared, PreparedCase, RobustnessBoards, judge_legal, stable_hash,
};
pub use drawing::{Drawing, Grid, GridStyle, Mark, MarkStyle, Scene, Stone};
pub use fuzzing::{Fuzzing, PlayedCase};
pub use games::{GameState, Games};
pub use golden::{golden_expected, golden_problem, golden_text};
pub use info::GameInfo;
pub use move_kind::{MoveKind, SoleAnswer, named, some_of};
pub use symmetry::Symmetry;
pub use threats::Threats;
pub use words::Words;

use super::analyst::Analyst;
use crate::side::Side;

/// One test case found in a corpus.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CaseSpec {
    /// The board file given to the bot.
    pub path: PathBuf,
    /// A short name for reports: `grade6/white/NAME`.
    pub name: String,
    /// The category the case tests (`grade6` for Advance, `block` for Pente): the folder it
    /// is in.
    pub category: String,
    /// The side the bot plays.
    pub side: Side,
    /// The course's answer board for this case, when the corpus comes with one.
    pub answer: Option<PathBuf>,
    /// Where the golden answer for this case lives (it may not exist).
    pub golden: Option<PathBuf>,
}

impl CaseSpec {
    /// The case's file as errors name it.
    pub fn origin(&self) -> String {
        self.path.display().to_string()
    }

    /// Refuses a case file that gives another side to move (`to_move`, written as the file
    /// writes it) than the side folder the case is in.
    pub fn check_side(&self, to_move: Side, written: &dyn std::fmt::Display) -> Result<(), String> {
        if to_move == self.side {
            return Ok(());
        }
        Err(format!(
            "{}: the file gives {written} to move, but the case is in a `{}` folder",
            self.origin(),
            self.side
        ))
    }
}

/// How a game's bots are run: the command line and the files they read and write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `BOT white|black IN OUT` (Advance): arguments name the side and both files; `BOT name`
    /// prints the bot's name.
    SideInOut,
    /// A program without arguments that reads `input` and writes `output` in its working
    /// folder (Pente). Files named in `persist` (`playdata.txt`) are kept from one turn of a game
    /// to the bot's next.
    FixedFiles { input: &'static str, output: &'static str, persist: &'static [&'static str] },
    /// A class or a module driven by calls (Network's `MachinePlayer`, the chess assignment's
    /// functions), hosted by arbiter's Java or Python host, or a program that speaks the host
    /// protocol itself (`docs/PROTOCOL.md`).
    Hosted(crate::harness::host::HostSpec),
}

/// A program a submission may bring to measure the machine before it plays (CSCI561: "you are
/// allowed to also provide a second program called calibrate.xxx ... we will run your
/// calibrate program once (and only once) before we run your agent").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The program's name in a submission's folder, beside `run` (`calibrate`).
    pub program: &'static str,
    /// The file it leaves in its folder, given to the bot in every run after (`calibration.txt`).
    pub file: &'static str,
    /// CPU seconds it may take.
    pub seconds: f64,
}

/// A game, as the harness sees it: its name and options, how its bots run, and which of the
/// concerns above it has.
pub trait Referee: Send + Sync {
    /// What the game declares once: its name, categories and words, usually read from its
    /// `game.toml` ([`GameInfo::of`]).
    fn info(&self) -> &'static GameInfo;

    /// The game's name, as `--game` takes it.
    fn game(&self) -> &'static str {
        self.info().name
    }

    /// The options that select this game and its rule options on arbiter's command line
    /// (`--game pente --rule opening=tournament`), for commands that run a built-in bot as a
    /// separate process. Plain words only: they are joined with spaces.
    fn game_args(&self) -> Vec<String> {
        vec!["--game".to_string(), self.game().to_string()]
    }

    /// The game's answers about single positions, for `moves`, `apply`, `perft`, `show` and
    /// `expect`.
    fn analyst(&self) -> &dyn Analyst;

    /// How the game's bots are run. Advance's `BOT side IN OUT` unless a game says otherwise.
    fn protocol(&self) -> Protocol {
        Protocol::SideInOut
    }

    /// The CPU seconds a bot has for one move when the grader gives no `--timeout`: the course's
    /// own limit where its text states one (Network: "a time limit of five seconds" on
    /// `chooseMove()`), else 10.
    fn move_seconds(&self) -> f64 {
        10.0
    }

    /// The case categories, in the order a marking profile's stages take them (none for a game
    /// without test cases).
    fn categories(&self) -> &'static [&'static str] {
        self.info().categories
    }

    /// The game's own words for help texts and reports: its sides' names, its files, its
    /// rule options, and the words no other game may show ([`Words`]).
    fn words(&self) -> Words {
        self.info().words
    }

    /// The marking profile used when none is given (JSON, as `--profile` reads): the first of
    /// [`Referee::marking_profiles`].
    fn marking_profile(&self) -> &'static str {
        self.marking_profiles()[0]
    }

    /// Every marking profile the game ships (JSON), the default first: `--profile NAME` picks
    /// one by its `name` (Pente: `pente-cases`, `csci561`).
    fn marking_profiles(&self) -> Vec<&'static str>;

    /// This game's referee with the rule options `rules` (`KEY=VALUE`) applied over its own:
    /// what a marking profile's `"rules"` asks for. A game without rule options refuses any.
    fn with_rules(&self, rules: &[String]) -> Result<Box<dyn Referee>, String> {
        match rules.first() {
            None => Err(format!("{}: no rule options to apply", self.game())),
            Some(rule) => Err(format!("{} has no rule option `{rule}`", self.game())),
        }
    }

    /// The optional program a submission may bring to measure the machine, run once before its
    /// bot (Pente's `calibrate`, which leaves `calibration.txt`), if the game has one.
    fn calibration(&self) -> Option<Calibration> {
        None
    }

    /// The game's own speed measurements (`arbiter --game NAME bench`), as JSON, each kept for
    /// at least `min_time`; None for a game that has none (Advance's bench compares its two
    /// engines and is its own command).
    fn benchmark(&self, _min_time: std::time::Duration) -> Option<serde_json::Value> {
        None
    }

    /// The game's test cases, if it has any.
    fn cases(&self) -> Option<&dyn Cases> {
        None
    }

    /// The game's built-in bots, if it has any.
    fn builtins(&self) -> Option<&dyn Builtins> {
        None
    }

    /// The game's fuzzing sources, if it has any.
    fn fuzzing(&self) -> Option<&dyn Fuzzing> {
        None
    }

    /// Whole games between bots, if the game has them.
    fn games(&self) -> Option<&dyn Games> {
        None
    }

    /// The game's symmetries, if it has any.
    fn symmetry(&self) -> Option<&dyn Symmetry> {
        None
    }

    /// The game's drawings of its positions, if it draws them (for `--html`).
    fn drawing(&self) -> Option<&dyn Drawing> {
        None
    }

    /// [`Referee::cases`], or an error naming the game and what it lacks.
    fn require_cases(&self) -> Result<&dyn Cases, String> {
        self.cases().ok_or_else(|| format!("{} has no test cases: grade it by games", self.game()))
    }

    /// [`Referee::fuzzing`], or an error naming the game and what it lacks.
    fn require_fuzzing(&self) -> Result<&dyn Fuzzing, String> {
        self.fuzzing().ok_or_else(|| format!("{} has no position sources to fuzz with", self.game()))
    }

    /// [`Referee::games`], or an error naming the game and what it lacks.
    fn require_games(&self) -> Result<&dyn Games, String> {
        self.games().ok_or_else(|| format!("{} has no games between bots", self.game()))
    }

    /// A built-in bot by name, or an error listing the game's built-in bots.
    /// The name may carry the `builtin:` prefix that `--bot` takes and the error below prints.
    fn require_builtin(&self, name: &str) -> Result<Box<dyn BuiltinBot>, String> {
        let name = name.strip_prefix("builtin:").unwrap_or(name);
        let names = self.builtins().map(|b| b.builtin_names()).unwrap_or_default();
        if let Some(bot) = self.builtins().and_then(|b| b.builtin(name)) {
            return Ok(bot);
        }
        if names.is_empty() {
            return Err(format!("{} has no built-in bots", self.game()));
        }
        Err(format!(
            "there is no built-in bot `{name}`; the built-in bots are {}",
            names.iter().map(|n| format!("builtin:{n}")).collect::<Vec<_>>().join(", ")
        ))
    }
}
