//! Reading the file a bot wrote, without trusting anything about it.
//!
//! The path may be a symbolic link to a file the bot must not see, a FIFO that never delivers,
//! or a file some leftover process holds a lease on (opening it would then wait for the
//! kernel's lease-break time, 45 s by default). So the file is opened without following links
//! and without blocking, must be a regular file, only its start is read, and the whole read
//! has a deadline.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Outputs larger than this are not read whole: no board file is anywhere near this size.
pub const MAX_OUTPUT_BYTES: u64 = 1 << 20;

/// The least time the read gets, even when the bot used its whole time budget.
const MIN_READ_TIME: Duration = Duration::from_millis(200);

/// The output file's first [`MAX_OUTPUT_BYTES`] bytes, or why there are none. Gives up at
/// `deadline` (or [`MIN_READ_TIME`] from now, whichever is later).
pub fn read_output(path: &Path, deadline: Instant) -> Result<Vec<u8>, String> {
    let wait = deadline.saturating_duration_since(Instant::now()).max(MIN_READ_TIME);
    let (tx, rx) = mpsc::channel();
    let owned: PathBuf = path.to_path_buf();
    // A thread, so that a read stuck in the kernel (a file system that never answers) costs the
    // grader the deadline and not more; the thread is left to finish on its own.
    let spawned = std::thread::Builder::new().name("read-output".into()).spawn(move || {
        let _ = tx.send(read_now(&owned));
    });
    if spawned.is_err() {
        return read_now(path);
    }
    rx.recv_timeout(wait)
        .unwrap_or_else(|_| Err(format!("the output file could not be read within {} ms", wait.as_millis())))
}

fn read_now(path: &Path) -> Result<Vec<u8>, String> {
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENOENT) => "the bot wrote no output file".to_string(),
            Some(libc::ELOOP) => "the output path is a symbolic link, not a regular file".to_string(),
            Some(libc::EWOULDBLOCK) => "the output file is held by a lease of another process".to_string(),
            _ => format!("cannot read the output: {e}"),
        })?;
    let meta = file.metadata().map_err(|e| format!("cannot read the output: {e}"))?;
    if !meta.is_file() {
        return Err("the output path is not a regular file".to_string());
    }
    let mut bytes = Vec::new();
    // Judge the start of a huge file: it is reported as malformed at the first line that is
    // too long or too many.
    file.take(MAX_OUTPUT_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the output: {e}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(1)
    }

    #[test]
    fn a_symbolic_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret"), "answer").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), dir.path().join("out")).unwrap();
        let err = read_output(&dir.path().join("out"), soon()).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let start = Instant::now();
        let err = read_output(&path, soon()).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn a_regular_file_is_read_up_to_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        std::fs::write(&path, vec![b'.'; (MAX_OUTPUT_BYTES + 10) as usize]).unwrap();
        assert_eq!(read_output(&path, soon()).unwrap().len() as u64, MAX_OUTPUT_BYTES);
        assert_eq!(
            read_output(&dir.path().join("none"), soon()).unwrap_err(),
            "the bot wrote no output file"
        );
    }
}
