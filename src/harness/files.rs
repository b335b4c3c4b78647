//! Reading files with a size cap, and writing result files atomically.
//!
//! Boards, golden answers, game records and profiles may come from anywhere: a student's
//! repository, a bot's output, a folder someone else filled. Reading one whole without a cap
//! lets a single huge (or endless, like `/dev/zero`) file exhaust the grader's memory, so every
//! such read goes through [`read_capped`], which stops one byte past the cap.
//!
//! Result files (Gradescope's `results.json`, JUnit XML, JSON reports, game records) are read by
//! other programs, possibly while arbiter is still running or after it was killed. [`write_atomic`]
//! writes a temporary file beside the target, flushes it to disk and renames it over the target,
//! so a reader sees the old file or the new one, never half of one.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

/// A size cap for one kind of file: the most bytes read, and what the file is, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    pub bytes: u64,
    /// What such a file is, e.g. "a board file".
    pub what: &'static str,
}

/// A board is 9 lines of 9 characters; 64 KiB leaves room for any sloppy line ends or a
/// trailing comment while refusing anything that is plainly not a board.
pub const BOARD: Cap = Cap { bytes: 64 << 10, what: "a board file" };
/// A golden answer file (the largest in the corpus is under 40 KiB).
pub const GOLDEN: Cap = Cap { bytes: 16 << 20, what: "a golden answer file" };
/// A game record written by `match --records`.
pub const GAME_RECORD: Cap = Cap { bytes: 16 << 20, what: "a game record" };
/// A marking profile.
pub const PROFILE: Cap = Cap { bytes: 1 << 20, what: "a marking profile" };

/// Why a capped read failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    // The cause is part of the message and deliberately not a `source`, so that error chains
    // (`{:#}`) do not print it twice.
    #[error("cannot read {path}: {cause}")]
    Io { path: String, cause: io::Error },
    /// The file is larger than the cap. `size` is its size when the file system says (a regular
    /// file), else `None` (a pipe or a device, of which only the cap and one byte were read).
    #[error("{}", too_large_message(path, *.size, cap))]
    TooLarge { path: String, size: Option<u64>, cap: Cap },
}

impl ReadError {
    /// Whether the file does not exist (callers for which a missing file is normal check this).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { cause, .. } if cause.kind() == io::ErrorKind::NotFound)
    }
}

fn too_large_message(path: &str, size: Option<u64>, cap: &Cap) -> String {
    match size {
        Some(size) => format!("{path} is {size} bytes, more than the {} allowed for {}", cap.bytes, cap.what),
        None => format!("{path} is larger than the {} bytes allowed for {}", cap.bytes, cap.what),
    }
}

/// Reads the whole of `path` if it holds at most `cap.bytes` bytes; a larger file is refused
/// without being read whole (at most one byte past the cap is read, in case the file system
/// reported no size or the file grew).
pub fn read_capped(path: &Path, cap: Cap) -> Result<Vec<u8>, ReadError> {
    let io_error = |cause| ReadError::Io { path: path.display().to_string(), cause };
    let too_large = |size| ReadError::TooLarge { path: path.display().to_string(), size, cap };
    let file = File::open(path).map_err(io_error)?;
    let meta = file.metadata().map_err(io_error)?;
    if meta.is_file() && meta.len() > cap.bytes {
        return Err(too_large(Some(meta.len())));
    }
    let mut bytes = Vec::new();
    read_up_to(file, cap.bytes, &mut bytes).map_err(io_error)?;
    if bytes.len() as u64 > cap.bytes {
        // A pipe or a device, or a file that grew while it was read: its size is not known.
        return Err(too_large(None));
    }
    Ok(bytes)
}

/// [`read_capped`], as UTF-8 text.
pub fn read_capped_text(path: &Path, cap: Cap) -> Result<String, ReadError> {
    let bytes = read_capped(path, cap)?;
    String::from_utf8(bytes).map_err(|e| ReadError::Io {
        path: path.display().to_string(),
        cause: io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// Reads at most `cap + 1` bytes of `reader` into `bytes`: one more than allowed tells a file
/// at the cap from a larger one. Used for standard input too.
pub fn read_up_to(reader: impl Read, cap: u64, bytes: &mut Vec<u8>) -> io::Result<()> {
    reader.take(cap.saturating_add(1)).read_to_end(bytes).map(|_| ())
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder (a rename
/// across file systems is not atomic), flushed to disk, then renamed over `path`. The folder is
/// flushed too, so that the rename itself survives a crash of the machine.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{} does not name a file", path.display()))
    })?;
    // A dot-file named after the target, so a leftover (after a kill) says where it came from.
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{}.", name.to_string_lossy()))
        .suffix(".tmp")
        .tempfile_in(folder)?;
    temp.write_all(bytes)?;
    // The temporary file is private (0600); a results file is not secret, and other programs
    // (Gradescope's harness, a CI upload step) may run as another user.
    use std::os::unix::fs::PermissionsExt;
    temp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644))?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    // Not every file system can sync a folder; the rename is done either way.
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Cap = Cap { bytes: 8, what: "a tiny file" };

    #[test]
    fn files_up_to_the_cap_are_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eight.txt");
        std::fs::write(&path, b"12345678").unwrap();
        assert_eq!(read_capped(&path, TINY).unwrap(), b"12345678");
        assert_eq!(read_capped_text(&path, TINY).unwrap(), "12345678");
    }

    #[test]
    fn larger_files_are_refused_with_their_name_and_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nine.txt");
        std::fs::write(&path, b"123456789").unwrap();
        let e = read_capped(&path, TINY).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{} is 9 bytes, more than the 8 allowed for a tiny file", path.display())
        );
        assert!(!e.is_not_found());
    }

    #[test]
    fn endless_files_are_read_only_to_the_cap() {
        let e = read_capped(Path::new("/dev/zero"), TINY).unwrap_err();
        assert_eq!(e.to_string(), "/dev/zero is larger than the 8 bytes allowed for a tiny file");
    }

    #[test]
    fn a_missing_file_says_so() {
        let e = read_capped(Path::new("/no/such/file"), TINY).unwrap_err();
        assert!(e.is_not_found());
        assert!(e.to_string().starts_with("cannot read /no/such/file: "), "{e}");
    }

    #[test]
    fn atomic_writes_replace_the_file_and_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into())
            .collect();
        assert_eq!(names, vec!["results.json"]);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
        assert!(write_atomic(&dir.path().join("no-such-folder/x.json"), b"x").is_err());
    }
}
