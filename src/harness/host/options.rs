//! What the grader says about how hosted submissions are prepared (support files, the class
//! to play): shared by [`super::hosted`], which picks a host, and the hosts that read it.

use std::path::PathBuf;

/// Options for preparing hosted submissions.
#[derive(Clone, Debug, Default)]
pub struct HostOptions {
    /// Files that replace arbiter's own support files (`--support a1_support.py`).
    pub support: Vec<PathBuf>,
    /// The class to play, for a game whose submissions name their own (`class = "..."` in the
    /// submission's `arbiter.toml`, or the grader's `--overrides`).
    pub class: Option<String>,
}
