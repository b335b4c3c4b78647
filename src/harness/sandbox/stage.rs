//! Copies of the folders a bot must read but its user cannot: an honest bot never fails because
//! of the sandbox.
//!
//! When arbiter runs as root, each bot runs as a user of its own (uid 61000-61999), which owns
//! nothing: a submission in a folder made by `mktemp -d` (mode 0700), anything under `/root`, or
//! a file saved 0600 cannot be read by it. Such a folder is copied once, the first time a bot
//! needs it, into a folder of arbiter's own ([`stage_without`]), every file readable by others (and
//! executable where the original was), and the copy is what the bot reads: bound at the
//! original's path in its own root, or, without namespaces, named in its command instead of the
//! original. The copy is made without following any link (each step opened with `O_NOFOLLOW`
//! relative to its folder); a link is copied as a link, which resolves inside the sandbox only.
//! Copies are removed by [`release`].
//!
//! Interpreters' installations are not copied (they are large and shared): where the bot's user
//! cannot reach one, [`obstacle`] names the folder in the way, for a refusal that says what to
//! change.

use std::collections::HashMap;
use std::ffi::{CStr, CString, OsStr};
use std::fs;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Mutex;

/// Most entries (files, folders, links) a copied folder may hold.
const MAX_ENTRIES: u64 = 50_000;

/// Most bytes a copied folder may hold.
const MAX_BYTES: u64 = 512 << 20;

/// Deepest a copied folder may go.
const MAX_DEPTH: usize = 128;

/// When a folder last changed, as far as a look at the folder itself tells: its modification
/// and change times (ns). A file added, removed or renamed in it, or its mode changed, changes
/// them; a folder arbiter prepares (a hosted submission's build folder, written after its
/// compiler ran in the sandbox and then opened to bots) is then looked at and copied again
/// rather than given to the bot as it was.
type Stamp = (i128, i128);

fn stamp(path: &Path) -> Stamp {
    stat(path).map_or((0, 0), |st| {
        (
            i128::from(st.st_mtime) * 1_000_000_000 + i128::from(st.st_mtime_nsec),
            i128::from(st.st_ctime) * 1_000_000_000 + i128::from(st.st_ctime_nsec),
        )
    })
}

/// Copies made so far: (original folder, its stamp, the paths left out) -> its copy (or why it
/// could not be made).
type Copies = HashMap<(PathBuf, Stamp, Vec<PathBuf>), Result<PathBuf, String>>;
static STAGED: Mutex<Option<Copies>> = Mutex::new(None);

/// The folder holding this process's copies, once made.
static ROOT: Mutex<Option<PathBuf>> = Mutex::new(None);

/// What a user with no claim on a file (neither its owner nor in its group) may do with it.
fn others_may(mode: u32, want: u32) -> bool {
    mode & want == want
}

/// A file's mode and owner, as a report says them: "mode 0700, owner root".
fn describe(st: &libc::stat) -> String {
    let owner = nix::unistd::User::from_uid(nix::unistd::Uid::from_raw(st.st_uid))
        .ok()
        .flatten()
        .map_or_else(|| format!("uid {}", st.st_uid), |u| u.name);
    format!("mode {:04o}, owner {owner}", st.st_mode & 0o7777)
}

fn stat(path: &Path) -> Option<libc::stat> {
    let c = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: stat into a zeroed struct with a NUL-terminated path.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        (libc::stat(c.as_ptr(), &mut st) == 0).then_some(st)
    }
}

/// What [`obstacle`] found, by its arguments: looked at once per folder as it is (a
/// submission's tree may be large, and every case asks), until [`release`].
type Looked = HashMap<(PathBuf, Stamp, bool, bool), Option<String>>;
static LOOKED: Mutex<Option<Looked>> = Mutex::new(None);

/// Why a user with no claim on the files cannot reach `top` (when `ancestors`, through every
/// folder above it) and read everything in it (when `whole_tree`, else `top` itself): the
/// first thing in the way, or `None`. Stops looking after [`MAX_ENTRIES`] entries. Worked out
/// once per folder.
pub(crate) fn obstacle(top: &Path, ancestors: bool, whole_tree: bool) -> Option<String> {
    let key = (top.to_path_buf(), stamp(top), ancestors, whole_tree);
    if let Some(found) =
        LOOKED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).get(&key)
    {
        return found.clone();
    }
    let found = look(top, ancestors, whole_tree);
    LOOKED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, found.clone());
    found
}

fn look(top: &Path, ancestors: bool, whole_tree: bool) -> Option<String> {
    if ancestors {
        for above in top.ancestors().skip(1) {
            let st = stat(above)?;
            if !others_may(st.st_mode, 0o001) {
                return Some(format!("{} ({}) cannot be entered by others", above.display(), describe(&st)));
            }
        }
    }
    let st = stat(top)?;
    let is_dir = st.st_mode & libc::S_IFMT == libc::S_IFDIR;
    if !others_may(st.st_mode, if is_dir { 0o005 } else { 0o004 }) {
        return Some(format!("{} ({}) cannot be read by others", top.display(), describe(&st)));
    }
    if !is_dir || !whole_tree {
        return None;
    }
    let mut found = None;
    let _ = walk(top, &[], &mut |entry| {
        let kind = entry.st.st_mode & libc::S_IFMT;
        let want = match kind {
            libc::S_IFDIR => 0o005,
            libc::S_IFREG if entry.st.st_mode & 0o111 != 0 => 0o005,
            libc::S_IFREG => 0o004,
            _ => return Ok(()),
        };
        if !others_may(entry.st.st_mode, want) {
            found = Some(format!(
                "{} ({}) cannot be read by others",
                top.join(&entry.relative).display(),
                describe(&entry.st)
            ));
            return Err(String::new());
        }
        Ok(())
    });
    found
}

/// [`stage_without`], leaving nothing out.
#[cfg(test)]
pub(crate) fn stage(top: &Path) -> Result<PathBuf, String> {
    stage_without(top, &[])
}

/// A copy of the folder `top` that anyone may read, made once per folder as it is (again once
/// it has changed, see [`Stamp`]) and kept until [`release`]; why not, if it cannot be made
/// (too big, unreadable). The paths of `leave_out` that lie inside `top` are left out (the
/// grader's folders and arbiter itself: a copy is read at a path of its own, where nothing
/// hides them), and so are `$TMPDIR` and the folder of copies, should they lie inside (a
/// grader's: the copy must copy neither itself nor the case folders beside it).
pub(crate) fn stage_without(top: &Path, leave_out: &[PathBuf]) -> Result<PathBuf, String> {
    let mut staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
    let staged = staged.get_or_insert_with(HashMap::new);
    let temp = temp_dir();
    let copies = root()?;
    let skip: Vec<PathBuf> = leave_out
        .iter()
        .chain([&temp, &copies])
        .filter_map(|p| p.strip_prefix(top).ok())
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .collect();
    let key = (top.to_path_buf(), stamp(top), skip.clone());
    if let Some(found) = staged.get(&key) {
        return found.clone();
    }
    let made = fits(top, &skip).and_then(|()| copy_of(top, staged.len(), &skip));
    staged.insert(key, made.clone());
    made
}

/// Whether `top`, less `skip`, is small enough to copy ([`MAX_ENTRIES`], [`MAX_BYTES`]): looked
/// at before copying anything, so that a folder too big is not half copied in vain.
fn fits(top: &Path, skip: &[PathBuf]) -> Result<(), String> {
    let mut bytes = 0u64;
    walk(top, skip, &mut |entry| {
        if entry.st.st_mode & libc::S_IFMT == libc::S_IFREG {
            bytes += entry.st.st_size as u64;
            if bytes > MAX_BYTES {
                return Err(format!("it holds more than {}", super::bytes(MAX_BYTES)));
            }
        }
        Ok(())
    })
    .map_err(|why| format!("arbiter cannot copy {} for the sandbox: {why}", top.display()))
}

/// Removes every copy made by this process.
pub(crate) fn release() {
    STAGED.lock().unwrap_or_else(|e| e.into_inner()).take();
    LOOKED.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(root) = ROOT.lock().unwrap_or_else(|e| e.into_inner()).take() {
        remove(&root);
    }
}

/// Removes the folder `path` and everything in it, following no link.
fn remove(path: &Path) {
    if super::case_files::empty_tree(path).is_ok() {
        let _ = fs::remove_dir(path);
    }
}

/// This process's folder of copies: made on first use, searchable by others but not listable
/// (a bot reaches only the copy it is given the path of). Copies left by an arbiter that is no
/// longer running are removed on the way.
fn root() -> Result<PathBuf, String> {
    let mut root = ROOT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dir) = root.as_ref() {
        return Ok(dir.clone());
    }
    let base = temp_dir();
    if let Ok(entries) = fs::read_dir(&base) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.strip_prefix("arbiter-stage-")?.parse::<u32>().ok())
            else {
                continue;
            };
            let ours = entry.path().symlink_metadata().is_ok_and(|m| m.is_dir());
            if ours && !Path::new(&format!("/proc/{pid}")).exists() {
                remove(&entry.path());
            }
        }
    }
    let dir = base.join(format!("arbiter-stage-{}", std::process::id()));
    fs::DirBuilder::new()
        .mode(0o711)
        .create(&dir)
        .or_else(|e| if e.kind() == std::io::ErrorKind::AlreadyExists { Ok(()) } else { Err(e) })
        .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    // The umask may have taken bits away.
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o711)).map_err(|e| e.to_string())?;
    *root = Some(dir.clone());
    Ok(dir)
}

/// `$TMPDIR` (or `/tmp`) where it really is, every link resolved, for comparing with the
/// canonical folders the bot reads.
pub(crate) fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir();
    dir.canonicalize().unwrap_or(dir)
}

/// Copies `top` into the folder of copies, as its `n`-th copy, without the paths `skip` (below
/// `top`) and what they hold.
fn copy_of(top: &Path, n: usize, skip: &[PathBuf]) -> Result<PathBuf, String> {
    let name = top.file_name().map_or_else(|| "root".into(), |n| n.to_string_lossy().into_owned());
    let at = root()?.join(format!("{n}-{name}"));
    if at.symlink_metadata().is_ok() {
        remove(&at);
    }
    make_dir(&at)?;
    let mut bytes = 0u64;
    let copied = walk(top, skip, &mut |entry| {
        let to = at.join(&entry.relative);
        match entry.st.st_mode & libc::S_IFMT {
            libc::S_IFDIR => make_dir(&to),
            libc::S_IFLNK => {
                let target = read_link_at(entry.dir, entry.name).map_err(|e| {
                    format!("cannot read the link {}: {e}", top.join(&entry.relative).display())
                })?;
                std::os::unix::fs::symlink(&target, &to).map_err(|e| format!("cannot copy a link: {e}"))
            }
            libc::S_IFREG => {
                bytes += entry.st.st_size as u64;
                if bytes > MAX_BYTES {
                    return Err(format!("it holds more than {}", super::bytes(MAX_BYTES)));
                }
                copy_file(entry, &to)
                    .map_err(|e| format!("cannot copy {}: {e}", top.join(&entry.relative).display()))
            }
            // FIFOs, sockets and devices are no part of a submission.
            _ => Ok(()),
        }
    });
    if let Err(why) = copied {
        remove(&at);
        return Err(format!("arbiter cannot copy {} for the sandbox: {why}", top.display()));
    }
    Ok(at)
}

/// Makes the folder `path`, readable and searchable by all.
fn make_dir(path: &Path) -> Result<(), String> {
    fs::DirBuilder::new()
        .mode(0o755)
        .create(path)
        .map_err(|e| format!("cannot make {}: {e}", path.display()))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())
}

/// Copies the regular file `entry` to `to`, opened without following a link and checked to be
/// the regular file it was listed as; readable by all, executable by all if it was by anyone.
fn copy_file(entry: &Entry, to: &Path) -> std::io::Result<()> {
    let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
    // SAFETY: openat with a valid descriptor and a NUL-terminated name; the descriptor is owned
    // at once.
    let fd = unsafe { libc::openat(entry.dir.as_raw_fd(), entry.name.as_ptr(), flags) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let from = fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    let meta = from.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("it changed while being copied"));
    }
    let mode = if meta.permissions().mode() & 0o111 != 0 { 0o755 } else { 0o644 };
    let mut out = fs::File::options().write(true).create_new(true).mode(mode).open(to)?;
    std::io::copy(&mut from.take(MAX_BYTES), &mut out)?;
    out.flush()?;
    out.set_permissions(fs::Permissions::from_mode(mode))
}

/// The target of the link `name` in the folder open at `dir`.
fn read_link_at(dir: &OwnedFd, name: &CStr) -> std::io::Result<PathBuf> {
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: readlinkat into a buffer of the length given.
    let n = unsafe { libc::readlinkat(dir.as_raw_fd(), name.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    buf.truncate(n as usize);
    Ok(PathBuf::from(OsStr::from_bytes(&buf)))
}

/// One entry met by [`walk`].
struct Entry<'a> {
    /// Its path below the top folder.
    relative: PathBuf,
    /// The folder it is in, open.
    dir: &'a OwnedFd,
    name: &'a CStr,
    /// Its status, the entry itself (a link is not followed).
    st: libc::stat,
}

/// Visits every entry under the folder `top` but the paths `skip` (below `top`) and what they
/// hold, parents before children, following no link and opening each folder relative to its
/// parent; stops at the first error `visit` returns, and fails beyond [`MAX_ENTRIES`] entries or
/// [`MAX_DEPTH`] levels.
fn walk(
    top: &Path,
    skip: &[PathBuf],
    visit: &mut dyn FnMut(&Entry) -> Result<(), String>,
) -> Result<(), String> {
    let dir_flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let c = CString::new(top.as_os_str().as_bytes()).map_err(|_| "a path with a NUL byte".to_string())?;
    // SAFETY: open with a NUL-terminated path; the descriptor is owned at once.
    let fd = unsafe { libc::open(c.as_ptr(), dir_flags) };
    if fd < 0 {
        return Err(format!("cannot open {}: {}", top.display(), std::io::Error::last_os_error()));
    }
    // Folders still to list: (their parent, open; their name; their path below the top).
    let mut pending: Vec<(Rc<OwnedFd>, Option<CString>, PathBuf)> =
        vec![(Rc::new(unsafe { OwnedFd::from_raw_fd(fd) }), None, PathBuf::new())];
    let mut entries = 0u64;
    while let Some((parent, name, relative)) = pending.pop() {
        let dir = match name {
            None => parent,
            Some(name) => {
                // SAFETY: openat with a valid descriptor and a NUL-terminated name.
                let fd = unsafe { libc::openat(parent.as_raw_fd(), name.as_ptr(), dir_flags) };
                if fd < 0 {
                    return Err(format!(
                        "cannot open {}: {}",
                        top.join(&relative).display(),
                        std::io::Error::last_os_error()
                    ));
                }
                Rc::new(unsafe { OwnedFd::from_raw_fd(fd) })
            }
        };
        let (files, folders) = super::case_files::list_all(&dir)
            .ok_or_else(|| format!("cannot list {}", top.join(&relative).display()))?;
        for name in files.into_iter().chain(folders) {
            entries += 1;
            if entries > MAX_ENTRIES {
                return Err(format!("it holds more than {MAX_ENTRIES} files and folders"));
            }
            // SAFETY: fstatat into a zeroed struct with a valid descriptor and name.
            let st = unsafe {
                let mut st: libc::stat = std::mem::zeroed();
                if libc::fstatat(dir.as_raw_fd(), name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) != 0 {
                    continue;
                }
                st
            };
            let below = relative.join(OsStr::from_bytes(name.as_bytes()));
            if skip.contains(&below) {
                continue;
            }
            visit(&Entry { relative: below.clone(), dir: &dir, name: &name, st })?;
            if st.st_mode & libc::S_IFMT == libc::S_IFDIR {
                if below.components().count() > MAX_DEPTH {
                    return Err(format!("it is more than {MAX_DEPTH} folders deep"));
                }
                pending.push((Rc::clone(&dir), Some(name), below));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_folder_is_found_and_copied_open_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("bot");
        fs::create_dir_all(top.join("lib/deep")).unwrap();
        fs::write(top.join("run"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(top.join("run"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(top.join("lib/deep/weights.bin"), vec![7u8; 100_000]).unwrap();
        fs::set_permissions(top.join("lib/deep/weights.bin"), fs::Permissions::from_mode(0o600)).unwrap();
        let secret = dir.path().join("secret.txt");
        fs::write(&secret, "the answers").unwrap();
        std::os::unix::fs::symlink(&secret, top.join("lib/answers")).unwrap();
        fs::set_permissions(&top, fs::Permissions::from_mode(0o700)).unwrap();

        let why = obstacle(&top, false, true).unwrap();
        assert!(why.contains("cannot be read by others") && why.contains("0700"), "{why}");
        let copy = stage(&top).unwrap();
        assert_eq!(stage(&top).unwrap(), copy, "made once");
        assert_eq!(obstacle(&copy, false, true), None);
        let mode = |p: &Path| fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&copy.join("run")), 0o755);
        assert_eq!(mode(&copy.join("lib/deep/weights.bin")), 0o644);
        assert_eq!(fs::read(copy.join("lib/deep/weights.bin")).unwrap().len(), 100_000);
        // The link is copied as a link: arbiter never read what it points to.
        assert_eq!(fs::read_link(copy.join("lib/answers")).unwrap(), secret);
        // A file added later (a build folder's compiled classes) is in the next copy.
        fs::write(top.join("classes.jar"), "jar").unwrap();
        let again = stage(&top).unwrap();
        assert_ne!(again, copy, "copied again once changed");
        assert_eq!(fs::read(again.join("classes.jar")).unwrap(), b"jar");
        release();
        assert!(!copy.exists() && !again.exists());
    }
}
