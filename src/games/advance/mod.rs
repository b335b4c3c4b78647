//! The game of Advance: its board, notation and rules, and two engines that apply them.
//!
//! Everything about the game lives under this module; the harness (bot runner, corpus walk,
//! reports, CLI) only talks to it through the interfaces re-exported here.

pub mod analyst;
pub mod answers_json;
pub mod bench_positions;
pub mod board;
pub mod builtins;
pub mod cases;
pub mod coverage;
pub mod differential;
pub mod drawing;
pub mod edges;
pub mod engine;
pub mod explain;
pub mod fast;
pub mod fuzzing;
pub mod game_state;
pub mod generate;
pub mod grade7_choice;
pub mod grades;
pub mod infer;
pub mod judge;
pub mod labelled_board;
pub mod mutants;
pub mod notation;
pub mod piece;
pub mod planter;
pub mod position;
pub mod referee;
pub mod reference;
pub mod shrink;
pub mod square;
pub mod symmetry;
pub mod temptations;
pub mod text;

pub use board::Board;
pub use engine::Engine;
pub use fast::Fast;
pub use notation::{Action, Move};
pub use piece::{Cell, Kind, Piece};
pub use position::{Position, PositionError};
pub use reference::Reference;
pub use square::Square;
pub use text::{BoardError, Strictness};
