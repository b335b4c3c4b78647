//! The game viewer.
