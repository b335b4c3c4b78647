//! The folder arbiter prepares a hosted submission in (the copy of its files, arbiter's host,
//! the compiled classes): arbiter's own, and readable by the user the sandbox runs the host as.
//!
//! Without namespaces, arbiter running as root runs each bot as a user of its own, which must
//! be able to read what arbiter prepared for it: a temporary folder is private (0700) and
//! arbiter's umask may be too. The folder itself is 0711 (passed through, not listed), and
//! everything in it 0755 or 0644. Nothing in it is secret: it holds the submission's own files
//! and arbiter's code; Landlock keeps other bots out of it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A new temporary folder named `prefix...`, and its canonical path.
pub fn make(prefix: &str) -> Result<(tempfile::TempDir, PathBuf), String> {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
    let path = dir.path().canonicalize().map_err(|e| e.to_string())?;
    Ok((dir, path))
}

/// Opens everything under `root` (made by arbiter, so walked without fear) to the sandbox's
/// user: folders 0755, files 0644, and `root` itself 0711.
pub fn open_to_bots(root: &Path) -> Result<(), String> {
    for entry in walkdir::WalkDir::new(root).min_depth(1) {
        let entry = entry.map_err(|e| format!("cannot open {} to the sandbox: {e}", root.display()))?;
        let mode = match entry.file_type() {
            t if t.is_dir() => 0o755,
            t if t.is_file() => 0o644,
            _ => continue,
        };
        set_mode(entry.path(), mode)?;
    }
    set_mode(root, 0o711)
}

fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("cannot open {} to the sandbox: {e}", path.display()))
}
