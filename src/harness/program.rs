//! arbiter's own program: the path it was installed at, and the file to start this very build
//! again from.
//!
//! The two differ once the file at the installed path is replaced during a run (an upgrade,
//! or a rebuild while a grading runs): `current_exe` then names the old file `PATH (deleted)`,
//! which cannot be started or hidden, while the new file at `PATH` is another build.

use std::path::PathBuf;

/// The file that starts this very build again (the sandbox's zygote), whatever has been
/// installed at its path since: the kernel keeps the running program's file.
pub const RUNNING: &str = "/proc/self/exe";

/// The kernel's mark on the program's path once its file has been removed or replaced.
const DELETED: &str = " (deleted)";

/// The path arbiter was started from, as installed (canonical: a link to it is resolved): what
/// the sandbox hides from bots, what a built-in bot's command line starts, and what reports
/// shorten to `arbiter`. After the file has been replaced it is still that path (where the new
/// file now is), not `PATH (deleted)`.
pub fn installed_path() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let exe = std::env::current_exe().ok()?;
    // A program whose own name ends so, still in place, is left as it is.
    if exe.exists() {
        return Some(exe);
    }
    let installed = exe.as_os_str().as_bytes().strip_suffix(DELETED.as_bytes());
    Some(installed.map_or(exe.clone(), |bytes| PathBuf::from(std::ffi::OsStr::from_bytes(bytes))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installed_path_is_this_test_program() {
        let path = installed_path().expect("a program path");
        assert!(path.is_file(), "{}", path.display());
        assert!(!path.to_string_lossy().ends_with(DELETED));
        let running = std::fs::canonicalize(RUNNING).expect("/proc/self/exe resolves");
        assert_eq!(running, path.canonicalize().unwrap());
    }
}
