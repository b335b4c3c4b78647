//! Symmetries of the rules: positions that must get the same answer up to a transformation,
//! for `verify --variants`.

use crate::side::Side;

/// A game's symmetries.
pub trait Symmetry: Send + Sync {
    /// The case's symmetric twins (same position up to a symmetry of the rules), each as a
    /// label, the twin's board file and the side to move in it. Empty when the board cannot be
    /// read (the case itself will report that).
    fn twins(&self, input: &[u8], side: Side) -> Vec<(String, Vec<u8>, Side)>;
}
