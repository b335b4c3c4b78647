//! The game of Pente as USC's CSCI561 assignment specifies it: a 19x19 board, White opens on the
//! centre, pairs are captured by flanking, and five in a row or 10 captured pieces win.
//!
//! The rules page is `docs/games/pente/RULES.md`; [`rules`] implements it plainly, [`oracle`]
//! computes the right answers (legal, win, block and capture sets, and a position's category),
//! [`text`] reads and writes input.txt and output.txt, [`bots`] holds the graders' two kinds of
//! reference agent, [`perft`](mod@perft) counts move sequences and [`generate`] makes random positions.

#![warn(missing_docs)]

pub mod analyst;
pub mod board;
pub mod bots;
pub mod cases;
pub mod color;
pub mod corpus;
pub mod drawing;
pub mod fuzzing;
pub mod games;
pub mod generate;
pub mod move_text;
pub mod oracle;
pub mod perft;
pub mod point;
pub mod position;
pub mod referee;
pub mod rules;
pub mod text;

pub use board::Board;
pub use bots::{Bot, Minimax, RandomAdjacent};
pub use color::Color;
pub use generate::random_position;
pub use move_text::parse_move;
pub use oracle::{Category, Oracle, block_moves, capture_moves, threats, win_moves};
pub use perft::perft;
pub use point::Point;
pub use position::Position;
pub use rules::{
    Effect, Opening, Rules, Status, WinReason, effect, is_legal, legal_moves, play, status, wins_at,
};
pub use text::{ParseError, Strictness};
