//! Position sources for `fuzz`: random positions, positions at the rules' edges and positions
//! that tempt a buggy bot, shrinking, and the single answer a failing bot missed.

use super::SoleAnswer;
use crate::harness::bot::Bot;
use crate::harness::runner::Limits;
use crate::harness::verdict::Judgement;
use crate::side::Side;

/// A fuzzed case a game played itself ([`Fuzzing::play_case`]): a whole game of the bot's
/// against one of the game's own, judged turn by turn.
#[derive(Clone, Debug, Default)]
pub struct PlayedCase {
    /// The first failure (or a pass), with the others after it in `also`.
    pub judgement: Judgement,
    /// How the game went, in a few words: `52 turns played`.
    pub process: String,
    /// The bot's last stderr lines.
    pub stderr_tail: String,
    /// The start of what the bot printed.
    pub stdout_head: String,
    /// How to see the game again.
    pub reproduce: String,
    /// The position where it first failed, drawn, if the game draws one.
    pub picture: Option<String>,
    /// CPU and wall time the bot used, in milliseconds.
    pub cpu_ms: Option<u64>,
    pub elapsed_ms: u64,
}

/// A game's sources of positions to fuzz a bot with, and how to shrink one.
pub trait Fuzzing: Send + Sync {
    /// The category that asks only for a legal move: what fuzzing demands where nothing more is
    /// asked. `legal` unless the game calls it otherwise (Advance's `grade4`, chess-a1's
    /// `validation`).
    fn any_move_category(&self) -> &'static str {
        "legal"
    }

    /// A random well-formed position (board file and side to move) for fuzzing, drawn from
    /// `seed` alone.
    fn random_position(&self, seed: u64) -> (Vec<u8>, Side);

    /// Every one-step simplification of a position that keeps it well-formed: one piece or wall
    /// removed, or one piece made simpler. Removals come first.
    fn shrink_steps(&self, input: &[u8], side: Side) -> Vec<Vec<u8>>;

    /// How many pieces and walls a board holds (the size shrinking reduces).
    fn size(&self, input: &[u8]) -> usize;

    /// What [`Fuzzing::size`] counts, in the plural, for reports: `pieces and walls`.
    fn size_unit(&self) -> &'static str {
        "pieces and walls"
    }

    /// The side to move in a position, when the game can tell from the file alone and it may
    /// differ from the side the position was drawn with (a chess-a1 game shrunk to fewer
    /// moves); `None` keeps the drawn side.
    fn side_of(&self, _input: &[u8]) -> Option<Side> {
        None
    }

    /// How a report says whose turn a shrunk case asks about, in the game's words: `white to
    /// move` (PlanetWars: `the strategy is player 1`).
    fn side_words(&self, side: Side) -> String {
        format!("{side} to move")
    }

    /// Names of the game's own position sources, aimed at the edges of the rules
    /// (`general-swap/only`) or at the bugs that tempt a bot into a forbidden move
    /// (`tempt/protected-shot`), which fuzzing mixes with [`Fuzzing::random_position`]. A game
    /// without any gives none.
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

    /// Whether the game's fuzzed cases are whole games it plays itself ([`Fuzzing::play_case`])
    /// rather than positions judged through its [`super::Cases`] (PlanetWars, which has none).
    fn plays_cases(&self) -> bool {
        false
    }

    /// Plays the fuzzed case `input` (a game: its map, seat, opponent and length) with `bot`
    /// and judges every turn; an error when the bot cannot play it at all. Only called when
    /// [`Fuzzing::plays_cases`] says so.
    fn play_case(
        &self,
        _input: &[u8],
        _bot: &Bot,
        _limits: &Limits,
        _seed: u64,
    ) -> Result<PlayedCase, String> {
        Err("this game's fuzzed cases are positions, judged as verify judges them".to_string())
    }

    /// The single answer `category` expects in a position, when the expected set is one board:
    /// the move a bot that fails there never played.
    fn sole_answer(&self, _input: &[u8], _side: Side, _category: &str) -> Option<SoleAnswer> {
        None
    }
}
