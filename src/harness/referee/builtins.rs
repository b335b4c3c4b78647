//! Built-in bots: players that live inside arbiter, for matches, fuzzing and examples.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::games::GameState;
use crate::side::Side;

/// A game's built-in bots.
pub trait Builtins: Send + Sync {
    /// A built-in bot by name (`random`, `grade7`, ...), if the game has one by that name.
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>>;

    /// The names `builtin` accepts.
    fn builtin_names(&self) -> Vec<&'static str>;
}

/// A bot that lives inside arbiter: plays one move on a board file's text.
pub trait BuiltinBot: Send + Sync {
    /// The bot's name, as `BOT name` would print it.
    fn name(&self) -> String;

    /// Reads a board (`origin` names it in errors), plays one move for `side`, and returns the
    /// board file text after it. Random choices follow `seed`.
    fn play(&self, input: &[u8], origin: &str, side: Side, seed: u64) -> Result<Vec<u8>, String>;

    /// Plays one move in `game` for `side` and returns what [`BuiltinBot::play`] would on the
    /// game's board file (which is what the default does). A game whose bots read its state in
    /// memory ([`GameState::as_any`]) gives the same answer without writing and reading the
    /// board's text: PlanetWars plays hundreds of turns a game.
    fn play_game(&self, game: &dyn GameState, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        self.play(&game.board_file(), "input.txt", side, seed)
    }
}

/// A game's own player, before the harness wraps it in a [`BuiltinBot`]: given a position of the
/// game and its rules, picks a move. A game names it with its own types (Network's `bots::Bot` is
/// `Player<Position, Rules, Move>`).
pub trait Player<Position, Rules, Move> {
    /// The bot's name, as a command line would spell it.
    fn name(&self) -> &'static str;

    /// A legal move for the player to move, or `None` when there is none (the game is over, or
    /// the player is walled in). The same position, rules and seed always give the same move.
    fn choose(&self, pos: &Position, rules: &Rules, seed: u64) -> Option<Move>;
}

/// One row of a [`PlayerTable`]: a player's name and the function that makes it.
pub type NamedPlayer<P> = (&'static str, fn() -> P);

/// A game's own players by name, each with the function that makes it: each name written once,
/// for looking a player up and for listing them all (`P` is the game's boxed [`Player`]).
pub struct PlayerTable<P: 'static>(pub &'static [NamedPlayer<P>]);

impl<P> PlayerTable<P> {
    /// A new player called `name`, if the table has one.
    pub fn make(&self, name: &str) -> Option<P> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, make)| make())
    }

    /// Every name, in the table's order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|(n, _)| *n).collect()
    }
}

/// A player that picks uniformly at random among the moves a function lists: a game's random bot,
/// written as one constant (Network's among all legal moves, Pente's among those next to a stone).
pub struct RandomAmong<Position, Rules, Move> {
    /// The bot's name, as a command line would spell it.
    pub name: &'static str,
    /// The moves it picks among, from a position and its rules.
    pub moves: fn(&Position, &Rules) -> Vec<Move>,
}

impl<Position, Rules, Move: Copy> Player<Position, Rules, Move> for RandomAmong<Position, Rules, Move> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose(&self, pos: &Position, rules: &Rules, seed: u64) -> Option<Move> {
        random_pick(&(self.moves)(pos, rules), seed)
    }
}

/// A uniformly random one of `moves` (`None` when there are none), chosen by `seed`: what every
/// game's random bot plays among the moves it considers.
pub fn random_pick<M: Copy>(moves: &[M], seed: u64) -> Option<M> {
    if moves.is_empty() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Some(moves[rng.gen_range(0..moves.len())])
}
