//! Copies of a submission's files for the tools that use them (the Python host, javac), and
//! reading a file a bot left.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::Refused;
use super::folder::{Folder, Kind};
use crate::harness::files::Cap;

/// How much a copy of a submission may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The largest file copied.
    pub file_bytes: u64,
    /// All files copied together.
    pub total_bytes: u64,
    /// How many files are copied.
    pub files: usize,
    /// How many entries of the submission's folder are looked at (a `.git` folder included).
    pub listed: usize,
}

/// A submission's source files: far above any student's code (the largest PlanetWars or chess
/// submission is well under 1 MiB), far below what would strain the grader's disk.
pub const SOURCES: Caps =
    Caps { file_bytes: 16 << 20, total_bytes: 64 << 20, files: 10_000, listed: 200_000 };

/// Copies the files of `from` (looked for `depth` levels deep) whose path relative to it
/// `chosen` accepts into the folder `to`, at the same relative paths, as plain files of
/// arbiter's (0644, in folders 0755, readable by the sandbox's own user): a regular file is
/// copied; a link is resolved inside `from` ([`Folder::open_file`]) and copied as the file it
/// names; a link that names nothing is left out. A link out of `from`, a FIFO, socket or device,
/// or a file beyond `caps` refuses the copy, naming it, before anything of it is read. Returns
/// the relative paths copied, sorted.
pub fn copy_files(
    from: &Folder,
    to: &Path,
    depth: usize,
    chosen: &dyn Fn(&Path) -> bool,
    caps: &Caps,
) -> Result<Vec<PathBuf>, Refused> {
    let mut copied = Vec::new();
    let mut total = 0u64;
    make_folder(to, Path::new(""))?;
    for entry in from.list(depth, caps.listed)? {
        if matches!(entry.kind, Kind::Folder) || !chosen(&entry.path) {
            continue;
        }
        if let Kind::Other { what } = entry.kind {
            return Err(Refused::NotAFile { file: entry.path, what });
        }
        let (file, bytes) = match from.open_file(&entry.path) {
            Ok(opened) => opened,
            Err(Refused::Missing { .. }) if matches!(entry.kind, Kind::Link { .. }) => continue,
            Err(why) => return Err(why),
        };
        if bytes > caps.file_bytes {
            return Err(Refused::TooLarge {
                file: entry.path,
                bytes,
                cap: caps.file_bytes,
                what: "one file of a submission",
            });
        }
        total += bytes;
        if total > caps.total_bytes {
            return Err(Refused::TooMuch {
                file: entry.path,
                limit: format!("{} bytes in all", caps.total_bytes),
            });
        }
        if copied.len() >= caps.files {
            return Err(Refused::TooMuch { file: entry.path, limit: format!("{} files", caps.files) });
        }
        if let Some(parent) = entry.path.parent() {
            make_folder(to, parent)?;
        }
        copy_one(file, &to.join(&entry.path), caps.file_bytes)
            .map_err(|e| Refused::Io { file: entry.path.clone(), error: e.to_string() })?;
        copied.push(entry.path);
    }
    Ok(copied)
}

/// Writes what `file` holds (at most `cap` bytes: one file that grew since it was measured is
/// cut there) to a new file at `dest`, mode 0644 whatever the umask.
fn copy_one(file: File, dest: &Path, cap: u64) -> io::Result<()> {
    let mut out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(dest)?;
    out.set_permissions(fs::Permissions::from_mode(0o644))?;
    io::copy(&mut file.take(cap), &mut out)?;
    Ok(())
}

/// Makes `to/relative` and every folder on the way below `to` (mode 0755 whatever the umask).
fn make_folder(to: &Path, relative: &Path) -> Result<(), Refused> {
    let io = |e: io::Error| Refused::Io { file: relative.to_path_buf(), error: e.to_string() };
    let mut at = to.to_path_buf();
    let parts = std::iter::once(std::ffi::OsStr::new("")).chain(relative.iter());
    for part in parts {
        if !part.is_empty() {
            at.push(part);
        }
        match fs::create_dir(&at) {
            Ok(()) => fs::set_permissions(&at, fs::Permissions::from_mode(0o755)).map_err(io)?,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(e)),
        }
    }
    Ok(())
}

/// Reads the file at `path` that a bot left in a folder of arbiter's (Pente's `calibration.txt`
/// in the calibrate program's case folder): that entry itself, which must be a regular file
/// with no other name (a link of either kind is refused: a symbolic one is never followed, a
/// hard one may name a file the bot could not read), of at most `cap.bytes` bytes.
pub fn read_left(path: &Path, cap: Cap) -> Result<Vec<u8>, Refused> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| Refused::Missing { file: path.to_path_buf() })?;
    let folder = Folder::open(parent)?;
    let (file, stat) = folder.open_own(name)?;
    let shown = PathBuf::from(name);
    if stat.st_nlink > 1 {
        // nlink_t is u64 here, u32 on some targets.
        #[allow(clippy::unnecessary_cast)]
        let links = stat.st_nlink as u64;
        return Err(Refused::HardLink { file: shown, links });
    }
    let bytes = stat.st_size as u64;
    if bytes > cap.bytes {
        return Err(Refused::TooLarge { file: shown, bytes, cap: cap.bytes, what: cap.what });
    }
    let mut read = Vec::new();
    crate::harness::files::read_up_to(file, cap.bytes, &mut read)
        .map_err(|e| Refused::Io { file: shown.clone(), error: e.to_string() })?;
    if read.len() as u64 > cap.bytes {
        return Err(Refused::TooLarge {
            file: shown,
            bytes: read.len() as u64,
            cap: cap.bytes,
            what: cap.what,
        });
    }
    Ok(read)
}
