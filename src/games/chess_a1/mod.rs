//! The text chess of UQ's CSSE1001/CSSE7030 Assignment 1 (2021): a Python module `a1.py` of
//! functions and a `main()` game, graded by calling each function and by comparing what
//! `main()` prints for scripts of inputs.
//!
//! The rules page is `docs/games/chess-a1/RULES.md`. [`board`] is the assignment's board and
//! positions, [`rules`] move validity, check, checkmate and stalemate, [`extras`] CSSE7030's
//! promotion, castling and en passant (`--rule extras=on`), [`oracle`] the expected
//! answer of every required function, [`transcript`] the expected output of `main()`,
//! [`texts`] the fixed texts (a replaceable profile), [`pyvalue`] Python values as case files
//! and the host carry them, [`case_file`] and [`generate`] the cases, [`judge`] failure
//! reports, [`fuzzing`] random games for `fuzz`, [`referee`] the harness's view, [`analyst`] the position commands.

pub mod analyst;
pub mod board;
pub mod case_file;
pub mod cases;
pub mod drawing;
pub mod extras;
pub mod extras_cases;
pub mod fuzz_game;
pub mod fuzz_run;
pub mod fuzzing;
pub mod generate;
pub mod judge;
pub mod oracle;
pub mod pyvalue;
pub mod referee;
pub mod rules;
pub mod shown;
pub mod texts;
pub mod transcript;

pub use board::{Board, Move, Pos};
pub use pyvalue::Py;
pub use referee::ChessA1Referee;
pub use texts::Texts;
