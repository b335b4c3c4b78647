//! The game-agnostic harness: everything that runs bots and judges runs without knowing the
//! rules of the game being played.

pub mod runner;
