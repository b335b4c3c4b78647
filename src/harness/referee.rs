//! The game as the harness sees it. The harness (bot runner, corpus walk, verifier, reports)
//! knows nothing of any game's rules: it asks a [`Referee`] to prepare each test case, to judge
//! what a bot wrote, and to play as a built-in bot. A second game plugs in by implementing these
//! traits.

use std::path::PathBuf;

use super::analyst::Analyst;
use super::verdict::Judgement;
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
}

/// A game's judge of test cases and source of built-in bots.
pub trait Referee: Send + Sync {
    /// The game's name, as `--game` takes it.
    fn game(&self) -> &'static str;

    /// The options that select this game and its rule options on arbiter's command line
    /// (`--game pente --rule opening=tournament`), for commands that run a built-in bot as a
    /// separate process. Plain words only: they are joined with spaces.
    fn game_args(&self) -> Vec<String> {
        vec!["--game".to_string(), self.game().to_string()]
    }

    /// The category that asks only for a legal move (Advance's `grade4`, Pente's `legal`): what
    /// fuzzing demands where nothing more is asked.
    fn any_move_category(&self) -> &'static str;

    /// The game's answers about single positions, for `moves`, `apply`, `perft`, `show` and
    /// `expect`.
    fn analyst(&self) -> &dyn Analyst;

    /// The case categories, in the order a marking profile's stages take them.
    fn categories(&self) -> &'static [&'static str];

    /// The marking profile used when none is given (JSON, as `--profile` reads).
    fn marking_profile(&self) -> &'static str;

    /// How the game's bots are run. Advance's `BOT side IN OUT` unless a game says otherwise.
    fn protocol(&self) -> Protocol {
        Protocol::SideInOut
    }

    /// The arguments of `arbiter check` that replay the judgement of a case (after the case
    /// board and the output file), e.g. `--side white --grade 6`.
    fn check_args(&self, case: &CaseSpec) -> String;

    /// Reads a case: its input board and, if given, its golden answer (used when it is up to
    /// date; otherwise the answers are computed). An error names what is wrong with the input.
    fn prepare(
        &self,
        case: &CaseSpec,
        input: &[u8],
        golden: Option<&[u8]>,
    ) -> Result<Box<dyn PreparedCase>, String>;

    /// The golden answer for a case, as the text of a JSON file.
    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String>;

    /// A built-in bot by name (`random`, `grade7`, ...), if the game has one by that name.
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>>;

    /// The names `builtin` accepts.
    fn builtin_names(&self) -> Vec<&'static str>;

    /// Boards for `verify --robustness`.
    fn robustness_boards(&self) -> RobustnessBoards;

    /// A random well-formed position (board file and side to move) for fuzzing, drawn from
    /// `seed` alone.
    fn random_position(&self, seed: u64) -> (Vec<u8>, Side);

    /// Every one-step simplification of a position that keeps it well-formed: one piece or wall
    /// removed, or one piece made simpler. Removals come first.
    fn shrink_steps(&self, input: &[u8], side: Side) -> Vec<Vec<u8>>;

    /// How many pieces and walls a board holds (the size shrinking reduces).
    fn size(&self, input: &[u8]) -> usize;

    /// A game from `start` (a board file with white to move, and the name errors should give
    /// it), or from the initial position.
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String>;

    /// The case's symmetric twins (same position up to a symmetry of the rules), each as a
    /// label, the twin's board file and the side to move in it. Empty when the board cannot be
    /// read (the case itself will report that).
    fn twins(&self, input: &[u8], side: Side) -> Vec<(String, Vec<u8>, Side)>;

    /// Names of position sources aimed at the edges of the rules (`general-swap/only`), which
    /// fuzzing mixes with [`Referee::random_position`]. A game without any gives none.
    fn edge_sources(&self) -> Vec<String> {
        Vec::new()
    }

    /// A well-formed position from the edge source `source`, drawn from `seed` alone; `None`
    /// when the source found none within its budget (or does not exist).
    fn edge_position(&self, _source: &str, _seed: u64) -> Option<(Vec<u8>, Side)> {
        None
    }

    /// The category a fuzzed position is best judged in when the user leaves it to the game:
    /// the strictest whose expected answer is a single board (Advance: grade 4 when there is one
    /// legal move, grade 5 for one winning move, grade 6 for one best material move), `None`
    /// to keep the caller's.
    fn auto_category(&self, _input: &[u8], _side: Side) -> Option<String> {
        None
    }

    /// The single answer `category` expects in a position, when the expected set is one board:
    /// the move a bot that fails there never played.
    fn sole_answer(&self, _input: &[u8], _side: Side, _category: &str) -> Option<SoleAnswer> {
        None
    }

    /// What kind of move `notation` is in a position (for a legal or an illegal move alike), so
    /// that failures with different kinds of move are not taken for one bug.
    fn move_kind(&self, _input: &[u8], _side: Side, _notation: &str) -> Option<MoveKind> {
        None
    }
}

/// What kind of move a move is: the acting piece, the action, and the rule edge it sits on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct MoveKind {
    /// The acting piece (`Jester`).
    pub piece: String,
    /// The action (`swap`, `convert`, `capture`).
    pub action: String,
    /// The edge of the rules the move is on (`general-swap`), if any.
    pub edge: Option<String>,
}

/// A position's single expected answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SoleAnswer {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    pub kind: MoveKind,
    /// The verdict's sentence: "the only legal move was Jd4~e4, a swap with the General".
    pub sentence: String,
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
}

/// A bot that lives inside arbiter: plays one move on a board file's text.
pub trait BuiltinBot: Send + Sync {
    /// The bot's name, as `BOT name` would print it.
    fn name(&self) -> String;

    /// Reads a board (`origin` names it in errors), plays one move for `side`, and returns the
    /// board file text after it. Random choices follow `seed`.
    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String>;
}

/// A game in progress, for the match runner and for replaying records.
pub trait GameState: Send {
    /// The side to move.
    fn to_move(&self) -> Side;

    /// The position as a board file, to give the bot.
    fn board_file(&self) -> Vec<u8>;

    /// The position as records keep it: the board file without anything that depends on how
    /// long the bots took (Pente's clock line shows the game's starting time), so that a replay
    /// reaches the same text.
    fn record_file(&self) -> Vec<u8> {
        self.board_file()
    }

    /// Whether the side to move has a legal move (without one it loses).
    fn has_legal_move(&self) -> bool;

    /// Judges what the bot to move wrote: if it is the board after a legal move, plays that
    /// move and returns its notation; otherwise returns the judgement (malformed, unchanged or
    /// illegal, with the reason).
    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>>;

    /// Plays a move given in notation, if it is legal; otherwise says why not.
    fn play_notation(&mut self, notation: &str) -> Result<(), String>;

    /// Material of white and of black (what decides a game stopped at the move limit).
    fn material(&self) -> [i32; 2];

    /// The game's own ending, if it has come: the winner (`None` for a draw), a short name
    /// (`five`, `full-board`) and a sentence. Games that end only when the side to move has no
    /// legal move (Advance) never report one.
    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        None
    }

    /// Plies after which the game is stopped and decided on material, if the game has a limit
    /// (Advance: 100 moves each).
    fn move_limit(&self) -> Option<usize> {
        Some(200)
    }

    /// Seconds left on `side`'s clock, for games that have one (Pente); `None` otherwise.
    fn clock(&self, _side: Side) -> Option<f64> {
        None
    }

    /// Charges `side` the CPU seconds its move took; false when its clock has run out. Games
    /// without a clock (Advance) never run out.
    fn spend(&mut self, _side: Side, _seconds: f64) -> bool {
        true
    }
}
