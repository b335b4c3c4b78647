//! The one way arbiter reads a file a submission brought, or a file a bot left: never through a
//! symbolic link that leads out of where the file belongs, never a file that is not a regular
//! one, never more than a cap.
//!
//! arbiter runs as the grader, who can read the golden answers, the course's folder, every
//! classmate's submission and whatever else the machine holds. A submission is a folder someone
//! else filled: a file in it may be a symbolic link to any of those, a FIFO that blocks the
//! reader forever, or a 1 GiB file. Anything arbiter (or a tool it runs outside the sandbox)
//! opens there with links followed hands the submission what the link names: the answers
//! themselves, copied next to its code. So:
//!
//! - A submission's folder is opened once ([`Folder::open`]); every file in it is reached from
//!   that descriptor, one name at a time (`openat` with `O_PATH | O_NOFOLLOW`), and the
//!   descriptor is checked (`fstat`) before anything is read: never a path looked at first and
//!   opened after, so a file swapped for a link in between is never followed.
//! - A symbolic link is followed only as far as it stays inside the submission's folder: a
//!   relative link to a sibling file (`helpers.py -> utils.py`, `lib/x.py -> ../x.py`) is
//!   resolved by arbiter itself, name by name, and stands for that file. A link whose target is
//!   absolute, or goes up past the folder's top, is refused with its name and target
//!   ([`Refused::Outside`]), before anything of it is read.
//! - Only regular files are read. A FIFO, socket or device is refused by what it is, without
//!   being opened for reading (`O_PATH` opens nothing).
//! - Sizes are checked on the open descriptor before a byte is read: a submission bringing a
//!   1 GiB file is refused with the file's name and size ([`Refused::TooLarge`]), not copied.
//! - Copies ([`copy_files`]) are plain files and folders made by arbiter (0644, 0755): a copy
//!   holds no link, so nothing that later reads it (the Python host, javac, both in the
//!   sandbox) can be led out of it either.
//! - A file a bot left in a folder of arbiter's (Pente's `calibration.txt`, in the calibrate
//!   program's case folder) is read by [`read_left`]: that file itself and no link at all,
//!   regular, with no second name (a hard link), capped.
//!
//! Why a link inside the submission is followed rather than refused: an honest student's
//! sibling link (one module under two names, a folder layout kept by a link) works on their
//! machine, and refusing it would fail them for nothing: arbiter resolves it within the folder
//! and so never reads anything the submission does not hold. Why a link out is refused rather
//! than dropped: a student who linked a file from elsewhere (the course's support file, a
//! shared library folder) is told at once which link, and to copy the file instead, rather
//! than meeting a puzzling import or compile error case after case. A link that names nothing
//! (an editor's lock file, `.#a1.py -> user@host.123`) holds nothing and is left out of a copy.
//!
//! The folder itself is opened as the grader named it on the command line (that path is the
//! grader's choice); everything inside it is the submission's. See docs/SUBMISSION_FILES.md.

mod copy;
mod folder;

pub use copy::{Caps, SOURCES, copy_files, read_left};
pub use folder::{Entry, Folder, Kind};

use std::path::PathBuf;

/// Why a file of a submission (or one a bot left) is not read. The messages are shown to the
/// student: they name the file, relative to the submission's folder.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A symbolic link (`link`, met on the way to `file`) leads out of the folder: its target is
    /// absolute, or climbs above the folder's top.
    #[error(
        "{}{} is a symbolic link to {}, outside its own folder: arbiter reads only the \
         submission's own files (copy the file into the folder instead of linking it)",
        prefix(file, link),
        link.display(),
        target.display()
    )]
    Outside { file: PathBuf, link: PathBuf, target: PathBuf },
    /// A file arbiter reads only as itself is a symbolic link (a file a bot left).
    #[error("{} is a symbolic link (to {}), not a file", file.display(), target.display())]
    Link { file: PathBuf, target: PathBuf },
    /// Not a regular file: a folder, FIFO, socket or device.
    #[error("{} is {what}, not a regular file", file.display())]
    NotAFile { file: PathBuf, what: &'static str },
    /// A regular file with another name elsewhere (a hard link), where only a file of the bot's
    /// own making is expected.
    #[error("{} is a hard link to a file elsewhere ({links} names), not a file of its own", file.display())]
    HardLink { file: PathBuf, links: u64 },
    /// Larger than allowed.
    #[error("{} is {bytes} bytes, more than the {cap} allowed for {what}", file.display())]
    TooLarge { file: PathBuf, bytes: u64, cap: u64, what: &'static str },
    /// More files, or more bytes in all, than a submission may bring.
    #[error("the submission's files are more than {limit}: {}", file.display())]
    TooMuch { file: PathBuf, limit: String },
    /// The file, or a folder on the way, does not exist (a link that names nothing included).
    #[error("{} does not exist", file.display())]
    Missing { file: PathBuf },
    /// Too many links on the way (a loop).
    #[error("{}: too many symbolic links on the way (a loop?)", file.display())]
    Loop { file: PathBuf },
    /// Something else went wrong reading or copying it.
    #[error("cannot read {}: {error}", file.display())]
    Io { file: PathBuf, error: String },
}

/// `file: ` before a link's message when the link is not the file itself.
fn prefix(file: &std::path::Path, link: &std::path::Path) -> String {
    if file == link { String::new() } else { format!("{}: ", file.display()) }
}

#[cfg(test)]
mod tests;
