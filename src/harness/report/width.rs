//! The width the text report fits, shared by the report and its failure groups (below both, so
//! that neither imports the other).

/// The width the report fits.
pub const WIDTH: usize = 80;
