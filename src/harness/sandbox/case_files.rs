//! Moving the case's files into the bot's size-limited case folder and back out.
//!
//! The bot never writes to the grader's disk: the helper copies the top-level files of the
//! case folder into a tmpfs mounted over it, runs the bot there, and after every process of
//! the run is dead copies what the bot left back through a descriptor opened before the mount.
//! Symbolic links, folders and FIFOs the bot made come back as what they are (a link is
//! re-made with the same target, never followed), so the grader sees the folder as the bot
//! left it, without anything that can still change.

use std::ffi::{CString, OsString};
use std::fs::{self, File};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// One top-level entry of a case folder.
#[derive(Debug)]
enum Entry {
    File(Vec<u8>),
    Link(PathBuf),
    Dir,
    Fifo,
}

/// The case folder as the grader left it, and a handle on it that outlives the mount.
pub(crate) struct CaseFiles {
    dir: OwnedFd,
    names: Vec<(OsString, Entry)>,
}

impl CaseFiles {
    /// Opens `dir` and reads its top-level regular files (at most `limit` bytes in all).
    pub(crate) fn snapshot(dir: &Path, limit: u64) -> Result<CaseFiles, String> {
        let handle = File::options()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(dir)
            .map_err(|e| format!("cannot open the case folder {}: {e}", dir.display()))?;
        let mut names = Vec::new();
        let mut budget = limit;
        for entry in fs::read_dir(dir).map_err(|e| format!("cannot list the case folder: {e}"))? {
            let entry = entry.map_err(|e| format!("cannot list the case folder: {e}"))?;
            if let Some(read) = read_entry(&entry.path(), &mut budget)? {
                names.push((entry.file_name(), read));
            }
        }
        Ok(CaseFiles { dir: handle.into(), names })
    }

    /// Writes the snapshot into the (now mounted) case folder at `dir`.
    pub(crate) fn restore(&self, dir: &Path) -> Result<(), String> {
        for (name, entry) in &self.names {
            if let Entry::File(bytes) = entry {
                fs::write(dir.join(name), bytes).map_err(|e| format!("cannot copy a case file in: {e}"))?;
            }
        }
        Ok(())
    }

    /// Copies what is in the case folder at `dir` now back to the grader's folder, removing
    /// the files the bot removed.
    pub(crate) fn hand_back(&self, dir: &Path, limit: u64) -> Result<(), String> {
        let mut budget = limit;
        let mut now = Vec::new();
        for entry in fs::read_dir(dir).map_err(|e| format!("cannot list the case folder: {e}"))? {
            let entry = entry.map_err(|e| format!("cannot list the case folder: {e}"))?;
            if let Some(read) = read_entry(&entry.path(), &mut budget)? {
                now.push((entry.file_name(), read));
            }
        }
        for (name, _) in &self.names {
            if !now.iter().any(|(n, _)| n == name) {
                self.unlink(name);
            }
        }
        for (name, entry) in &now {
            self.unlink(name);
            self.make(name, entry)?;
        }
        Ok(())
    }

    fn unlink(&self, name: &OsString) {
        let Ok(c) = CString::new(name.as_bytes()) else { return };
        // SAFETY: plain system calls on a valid descriptor and a NUL-terminated name.
        unsafe {
            if libc::unlinkat(self.dir.as_raw_fd(), c.as_ptr(), 0) != 0 {
                libc::unlinkat(self.dir.as_raw_fd(), c.as_ptr(), libc::AT_REMOVEDIR);
            }
        }
    }

    fn make(&self, name: &OsString, entry: &Entry) -> Result<(), String> {
        let c = CString::new(name.as_bytes()).map_err(|_| "a file name with a NUL byte".to_string())?;
        let fd = self.dir.as_raw_fd();
        let failed = |what: &str| format!("cannot hand back {}: {what}", name.to_string_lossy());
        // SAFETY: each call gets a valid directory descriptor and NUL-terminated strings; the
        // descriptor returned by openat is owned by the File made from it.
        unsafe {
            match entry {
                Entry::File(bytes) => {
                    let flags =
                        libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
                    let raw = libc::openat(fd, c.as_ptr(), flags, 0o644);
                    if raw < 0 {
                        return Err(failed(&std::io::Error::last_os_error().to_string()));
                    }
                    File::from_raw_fd(raw).write_all(bytes).map_err(|e| failed(&e.to_string()))?;
                }
                Entry::Link(target) => {
                    let t = CString::new(target.as_os_str().as_bytes()).map_err(|_| failed("NUL in link"))?;
                    libc::symlinkat(t.as_ptr(), fd, c.as_ptr());
                }
                Entry::Dir => {
                    libc::mkdirat(fd, c.as_ptr(), 0o755);
                }
                Entry::Fifo => {
                    libc::mkfifoat(fd, c.as_ptr(), 0o644);
                }
            }
        }
        Ok(())
    }
}

/// Reads one entry without following links; regular files count against `budget`, and a
/// file beyond it is cut at the budget (the grader reports its start as malformed). Sockets
/// and devices are left out.
fn read_entry(path: &Path, budget: &mut u64) -> Result<Option<Entry>, String> {
    let Ok(meta) = path.symlink_metadata() else { return Ok(None) };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Ok(fs::read_link(path).ok().map(Entry::Link));
    }
    if kind.is_dir() {
        return Ok(Some(Entry::Dir));
    }
    if kind.is_fifo() {
        return Ok(Some(Entry::Fifo));
    }
    if !kind.is_file() {
        return Ok(None);
    }
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(*budget).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    *budget -= bytes.len() as u64;
    Ok(Some(Entry::File(bytes)))
}
