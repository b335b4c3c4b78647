//! Whole games: what `match` and `replay` ask of a game whose bots play each other.

use crate::harness::host::HostCall;
use crate::harness::verdict::Judgement;
use crate::side::Side;

/// A game's source of games in progress.
pub trait Games: Send + Sync {
    /// A game from `start` (a board file with white to move, and the name errors should give
    /// it), or from the initial position.
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String>;

    /// As [`Games::new_game`], for a game whose initial position is drawn at random
    /// (PlanetWars' maps): without `start`, the position of `seed`. The match runner gives the
    /// same seed to games 2k-1 and 2k, so each bot plays the same draw once with each colour.
    fn new_game_seeded(
        &self,
        start: Option<(&str, &[u8])>,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, String> {
        self.new_game(start)
    }

    /// The endings of the files `match --start DIR` takes from a folder as start positions
    /// (besides `txt`, every game's board files): PlanetWars also reads the course's `dot` maps.
    fn start_extensions(&self) -> &'static [&'static str] {
        &["txt"]
    }

    /// Whether a hosted bot that answered the calls of [`GameState::host_start`] with `greeting`
    /// (the last call's value) takes part in a tournament: PlanetWars' strategies say so with
    /// `compete()`. Every bot does by default.
    fn enters_tournament(&self, _greeting: &serde_json::Value) -> bool {
        true
    }
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

    /// Sets both sides' clocks to `seconds` as the game starts (`match --clock`), for games that
    /// have one; the records' boards then show it as the starting time. Games without a clock
    /// ignore it.
    fn set_clock(&mut self, _seconds: f64) {}

    /// Sets what is left on `side`'s clock, as a record gives it after a move (`replay`, so
    /// that an ending decided on time is decided again). Games without a clock ignore it.
    fn set_clock_left(&mut self, _side: Side, _seconds: f64) {}

    /// Charges `side` the CPU seconds its move took; false when its clock has run out. Games
    /// without a clock (Advance) never run out.
    fn spend(&mut self, _side: Side, _seconds: f64) -> bool {
        true
    }

    /// For hosted bots: the calls that set up `side`'s player when the game starts (Network:
    /// `new {"color": "white"}`).
    fn host_start(&self, _side: Side) -> Vec<HostCall> {
        Vec::new()
    }

    /// For hosted bots: the call that asks the side to move for its move. What it returns is
    /// judged as [`GameState::play_output`] judges a file: a string as its text, any other
    /// value as JSON.
    fn host_turn(&self) -> HostCall {
        HostCall::new("turn", serde_json::json!({}))
    }

    /// For hosted bots: what happens when the call for a move throws (the host answers with an
    /// exception and lives on); `partial` is what the host says the bot had done before it
    /// threw, if anything (PlanetWars: the orders already queued). `None` (the default): the
    /// side forfeits. `Some(output)`: the turn is played as if the bot had answered `output`
    /// (PlanetWars under the course engine's reading: the queued orders, or none), the
    /// exception kept in the game record's notes.
    fn after_exception(&self, _partial: Option<&serde_json::Value>) -> Option<Vec<u8>> {
        None
    }

    /// For hosted bots: the calls that tell `side` the move its opponent just played (Network:
    /// `opponent {"move": ...}`). A call that fails (throws, times out) forfeits the game for
    /// `side`.
    fn host_notify(&self, _side: Side, _notation: &str) -> Vec<HostCall> {
        Vec::new()
    }

    /// The game itself, for the game's own built-in bots to read its state in memory (see
    /// [`super::BuiltinBot::play_game`]) rather than through [`GameState::board_file`]'s text.
    /// `None` (the default) keeps them on the text.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}
