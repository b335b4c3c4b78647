//! The game of Pente as USC's CSCI561 assignment specifies it: a 19x19 board, White opens on the
//! centre, pairs are captured by flanking, and five in a row or 10 captured pieces win.
//!
//! [`text`] reads and writes input.txt and output.txt.

pub mod board;
pub mod color;
pub mod point;
pub mod position;
pub mod text;

pub use board::Board;
pub use color::Color;
pub use point::Point;
pub use position::Position;
pub use text::{ParseError, Strictness, parse_move};
