//! The game of Network as UC Berkeley's CS61B Project 2 specifies it: an 8x8 board, ten chips
//! each, add moves then step moves, and a win by a network of six or more chips joining one's
//! two goal areas.
//!
//! The rules page is `docs/games/network/RULES.md`; [`rules`] implements it plainly (with
//! [`perft`], which counts move sequences) and [`connection`] finds networks, [`oracle`]
//! computes the right answers (legal, win, block), [`text`] reads and writes position files and
//! moves, [`bots`] holds the built-in players, [`generate`] makes random games and grading
//! cases, and [`bench`](mod@bench) times the hot paths.

#![warn(missing_docs)]

pub mod analyst;
pub mod bench;
pub mod board;
pub mod bots;
pub mod case_file;
pub mod cases;
pub mod color;
pub mod connection;
pub mod corpus;
pub mod drawing;
pub mod fuzzing;
pub mod games;
pub mod generate;
pub mod lines;
pub mod moves;
pub mod oracle;
pub mod position;
pub mod referee;
pub mod rules;
pub mod square;
pub mod text;

pub use analyst::NetworkAnalyst;
pub use board::Board;
pub use bots::{AlphaBeta, Bot, RandomPlayer};
pub use color::Color;
pub use connection::{find_network, has_network};
pub use moves::{Move, MoveFields};
pub use oracle::{Category, Oracle};
pub use position::{CHIPS_PER_PLAYER, Position};
pub use referee::NetworkReferee;
pub use rules::{
    DoubleNetwork, Illegal, Lift, Rules, Status, WinReason, check, is_legal, legal_moves, outcome, perft,
    play, status, wins,
};
pub use square::Square;
pub use text::{ParseError, parse_move};
