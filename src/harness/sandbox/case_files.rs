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
        let handle = open_unfollowed(dir, libc::O_DIRECTORY)
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

    /// Writes the snapshot into the (now mounted) case folder at `dir`, the files given to
    /// `owner` (the bot may rewrite its input in place).
    pub(crate) fn restore(&self, dir: &Path, owner: u32) -> Result<(), String> {
        for (name, entry) in &self.names {
            if let Entry::File(bytes) = entry {
                let path = dir.join(name);
                fs::write(&path, bytes).map_err(|e| format!("cannot copy a case file in: {e}"))?;
                std::os::unix::fs::chown(&path, Some(owner), Some(owner))
                    .map_err(|e| format!("cannot give a case file to the bot: {e}"))?;
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

/// Opens `path` for reading, with `flags` besides, never through a link: a bot may have left
/// one where its file was.
fn open_unfollowed(path: &Path, flags: libc::c_int) -> std::io::Result<File> {
    File::options().read(true).custom_flags(libc::O_NOFOLLOW | flags).open(path)
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
    let file = open_unfollowed(path, libc::O_NONBLOCK)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(*budget).read_to_end(&mut bytes).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    *budget -= bytes.len() as u64;
    Ok(Some(Entry::File(bytes)))
}

/// Gives the case folder and the files in it to user `uid` (the bot's, where it runs as a user
/// of its own without a tmpfs of its own).
pub(crate) fn give(dir: &Path, uid: u32) -> Result<(), String> {
    let chown = |path: &Path| {
        std::os::unix::fs::lchown(path, Some(uid), Some(uid))
            .map_err(|e| format!("cannot give {} to the bot's user: {e}", path.display()))
    };
    chown(dir)?;
    for entry in fs::read_dir(dir).map_err(|e| format!("cannot list the case folder: {e}"))?.flatten() {
        chown(&entry.path())?;
    }
    Ok(())
}

/// Empties every folder the bot made in the case folder, leaving the folders themselves (as
/// the sandbox hands back a case folder from a tmpfs: top-level entries only). Iterative and
/// descriptor-relative (`openat`, `unlinkat`), so that a tree of any depth is removed without
/// recursion and without following a link; a folder the bot made unreadable is opened up
/// first.
pub(crate) fn flatten(dir: &Path) -> Result<(), String> {
    for entry in fs::read_dir(dir).map_err(|e| format!("cannot list the case folder: {e}"))?.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            empty_tree(&entry.path()).map_err(|e| format!("cannot clear {}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Removes everything inside the folder `top`, however deep.
pub(crate) fn empty_tree(top: &Path) -> std::io::Result<()> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let open_at = |dir: Option<&OwnedFd>, name: &CString| -> std::io::Result<OwnedFd> {
        let base = dir.map_or(libc::AT_FDCWD, AsRawFd::as_raw_fd);
        // SAFETY: openat with a valid descriptor (or AT_FDCWD) and a NUL-terminated name; the
        // descriptor returned is owned at once.
        let fd = unsafe { libc::openat(base, name.as_ptr(), flags) };
        if fd < 0 { Err(std::io::Error::last_os_error()) } else { Ok(unsafe { OwnedFd::from_raw_fd(fd) }) }
    };
    let top = CString::new(top.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    let mut current = open_at(None, &top)?;
    // The names of the folders entered below `top`, to remove each on the way back up.
    let mut path: Vec<CString> = Vec::new();
    loop {
        let (files, folders) = list(&current)?;
        for name in &files {
            // SAFETY: unlinkat with a valid descriptor and a NUL-terminated name.
            unsafe { libc::unlinkat(current.as_raw_fd(), name.as_ptr(), 0) };
        }
        if let Some(folder) = folders.into_iter().next() {
            let child = match open_at(Some(&current), &folder) {
                Ok(child) => child,
                Err(e) if e.raw_os_error() == Some(libc::EACCES) => {
                    // SAFETY: fchmodat with a valid descriptor and a NUL-terminated name.
                    unsafe { libc::fchmodat(current.as_raw_fd(), folder.as_ptr(), 0o700, 0) };
                    open_at(Some(&current), &folder)?
                }
                Err(e) => return Err(e),
            };
            current = child;
            path.push(folder);
            continue;
        }
        if !files.is_empty() {
            continue;
        }
        // This folder is empty: go back up and remove it.
        let Some(name) = path.pop() else { return Ok(()) };
        let parent = open_at(Some(&current), &CString::new("..").map_err(std::io::Error::other)?)?;
        current = parent;
        // SAFETY: unlinkat with a valid descriptor and a NUL-terminated name.
        if unsafe { libc::unlinkat(current.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
}

/// The bytes stored under the folder `top` (blocks, so sparse files count what they hold) and
/// the number of entries, counting at most `max_entries`. Iterative and descriptor-relative
/// like [`empty_tree`], one folder open at a time: a tree of any depth costs no more than its
/// first `max_entries` entries.
pub(crate) fn measure_tree(top: &Path, max_entries: u64) -> (u64, u64) {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let open_at = |dir: libc::c_int, name: &CString| -> Option<OwnedFd> {
        // SAFETY: openat with a valid descriptor (or AT_FDCWD) and a NUL-terminated name; the
        // descriptor returned is owned at once.
        let fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
        (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
    };
    let size_at = |dir: &OwnedFd, name: &CString| -> u64 {
        // SAFETY: fstatat into a zeroed struct, with a valid descriptor and name.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstatat(dir.as_raw_fd(), name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) == 0 {
                st.st_blocks as u64 * 512
            } else {
                0
            }
        }
    };
    let Ok(top) = CString::new(top.as_os_str().as_bytes()) else { return (0, 0) };
    let Some(mut current) = open_at(libc::AT_FDCWD, &top) else { return (0, 0) };
    let Ok(up) = CString::new("..") else { return (0, 0) };
    let (mut bytes, mut entries) = (0u64, 0u64);
    // Per level entered: the folders still to visit there.
    let mut pending: Vec<Vec<CString>> = Vec::new();
    let mut folders = match list_all(&current) {
        Some((files, folders)) => {
            entries += files.len() as u64;
            bytes += files.iter().map(|f| size_at(&current, f)).sum::<u64>();
            folders
        }
        None => return (0, 0),
    };
    loop {
        if entries >= max_entries {
            return (bytes, entries);
        }
        if let Some(next) = folders.pop() {
            entries += 1;
            let Some(child) = open_at(current.as_raw_fd(), &next) else { continue };
            current = child;
            pending.push(folders);
            folders = match list_all(&current) {
                Some((files, inner)) => {
                    entries += files.len() as u64;
                    bytes += files.iter().map(|f| size_at(&current, f)).sum::<u64>();
                    inner
                }
                None => Vec::new(),
            };
            continue;
        }
        let Some(outer) = pending.pop() else { return (bytes, entries) };
        let Some(parent) = open_at(current.as_raw_fd(), &up) else { return (bytes, entries) };
        current = parent;
        folders = outer;
    }
}

/// Every entry of the folder open at `dir`: (not folders, folders).
pub(super) fn list_all(dir: &OwnedFd) -> Option<(Vec<CString>, Vec<CString>)> {
    let (mut files, mut folders) = (Vec::new(), Vec::new());
    // SAFETY: lseek on a valid descriptor.
    unsafe { libc::lseek(dir.as_raw_fd(), 0, libc::SEEK_SET) };
    loop {
        let (f, d, more) = read_batch(dir).ok()?;
        files.extend(f);
        folders.extend(d);
        if !more || files.len() + folders.len() > 1 << 16 {
            return Some((files, folders));
        }
    }
}

/// The entries of the folder open at `dir` (a batch of them): (not folders, folders).
fn list(dir: &OwnedFd) -> std::io::Result<(Vec<CString>, Vec<CString>)> {
    // SAFETY: lseek on a valid descriptor: read the folder from its start each time, as its
    // entries are being removed.
    unsafe { libc::lseek(dir.as_raw_fd(), 0, libc::SEEK_SET) };
    read_batch(dir).map(|(files, folders, _)| (files, folders))
}

/// One `getdents64` batch from where the folder open at `dir` is: (not folders, folders,
/// whether it read anything).
fn read_batch(dir: &OwnedFd) -> std::io::Result<(Vec<CString>, Vec<CString>, bool)> {
    let mut buf = vec![0u8; 32 << 10];
    // SAFETY: getdents64 into a valid buffer of the size given.
    let n = unsafe { libc::syscall(libc::SYS_getdents64, dir.as_raw_fd(), buf.as_mut_ptr(), buf.len()) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let (mut files, mut folders) = (Vec::new(), Vec::new());
    let mut at = 0usize;
    while at + 19 <= n as usize {
        let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
        let kind = buf[at + 18];
        let name_bytes = &buf[at + 19..at + reclen];
        let name = &name_bytes[..name_bytes.iter().position(|&b| b == 0).unwrap_or(name_bytes.len())];
        if name != b"."
            && name != b".."
            && !name.is_empty()
            && let Ok(name) = CString::new(name)
        {
            if kind == libc::DT_DIR {
                folders.push(name);
            } else {
                files.push(name);
            }
        }
        if reclen == 0 {
            break;
        }
        at += reclen;
    }
    Ok((files, folders, n > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_tree_is_removed_without_recursion() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        fs::create_dir(&top).unwrap();
        // Paths far longer than PATH_MAX (4096: each level adds 2 bytes), made with relative
        // mkdirs; deep enough that a removal by paths, or one recursing with a frame per
        // level on a test thread's stack, would fail. (20 000 levels took minutes on a loaded
        // overlay file system without testing more.)
        let depth = 6_000;
        let mut here = File::open(&top).unwrap();
        for i in 0..depth {
            let name = CString::new("d").unwrap();
            // SAFETY: mkdirat/openat with a valid descriptor and a NUL-terminated name.
            unsafe {
                libc::mkdirat(here.as_raw_fd(), name.as_ptr(), 0o755);
                if i % 300 == 0 {
                    let f = CString::new("f").unwrap();
                    let fd =
                        libc::openat(here.as_raw_fd(), f.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
                    libc::close(fd);
                }
                let fd = libc::openat(here.as_raw_fd(), name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
                here = File::from_raw_fd(fd);
            }
        }
        // One folder the bot made unreadable.
        fs::create_dir(top.join("locked")).unwrap();
        fs::write(top.join("locked/x"), "x").unwrap();
        fs::set_permissions(top.join("locked"), std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
        let (_, counted) = measure_tree(&top, 5000);
        assert_eq!(counted, 5000, "the count stops at its bound");
        let (bytes, all) = measure_tree(&top, u64::MAX);
        assert!(all > depth as u64 && bytes > 0, "{all} entries, {bytes} bytes");
        flatten(dir.path()).unwrap();
        assert_eq!(fs::read_dir(&top).unwrap().count(), 0);
        assert!(top.is_dir());
    }
}
