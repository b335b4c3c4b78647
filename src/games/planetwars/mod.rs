//! PlanetWars as UMN CSCI 1933 Project 4 specifies it: two players on a graph of planets joined
//! by weighted edges send shuttles of population to neighbouring planets; populations grow by a
//! planet's habitability up to its size; shuttles landing on a hostile planet fight with a 10%
//! advantage to the defender. Graded by win rates against built-in strategies.
//!
//! The rules page is `docs/games/planetwars/RULES.md`. One concept a file: [`map`] (the graph
//! and its planets' fixed attributes), [`planet`] (owners and growth), [`shuttle`], [`battle`]
//! (landings), [`turn`] (orders, their legality, one ply), [`visibility`] (what a player sees),
//! [`end`] (when a game is over), [`state`] (the whole game and its file), [`generate`] (random
//! maps), [`dot`] (the course's map files), [`fuzzing`] (games that find a strategy's throws,
//! loops and refused orders), [`bots`] (built-in strategies), [`drawing`] (a game as a picture),
//! and the harness's view: [`referee`], [`builtins`] (the strategies as bots), [`games`] (games
//! for the match runner) and [`analyst`] (the position commands).

#![warn(missing_docs)]

pub mod analyst;
pub mod battle;
pub mod bots;
pub mod builtins;
pub mod dot;
pub mod drawing;
pub mod end;
pub mod fuzzing;
pub mod games;
pub mod generate;
pub mod map;
pub mod planet;
pub mod referee;
pub mod refusal;
pub mod rules;
pub mod shuttle;
pub mod state;
pub mod turn;
pub mod visibility;

pub use battle::{Landing, land};
pub use end::{Ending, TURN_LIMIT, ending};
pub use map::{Edge, Map, PlanetInfo};
pub use planet::{Player, grow};
pub use refusal::Refusal;
pub use rules::Rules;
pub use shuttle::Shuttle;
pub use state::State;
pub use turn::{Order, TurnReport};
