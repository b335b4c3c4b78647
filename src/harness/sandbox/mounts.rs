//! The bot's view of the file system, arranged in its private mount namespace before it
//! starts: a `/proc` that shows only its own processes, empty scratch folders in place of
//! `/tmp`, `/var/tmp`, `/dev/shm` and `/run` (which hold other programs' sockets and files),
//! the grader's answers and arbiter itself covered up, and a size-limited folder of its own
//! for the case.
//!
//! Nothing done here is seen outside the namespace: the whole tree is made private first.

use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::mount::{MsFlags, mount};

/// Size of each scratch folder (`/tmp`, ...): enough for the lock files and shared-memory
/// segments runtimes make, not for storing data beside the case folder's limit.
const SCRATCH_BYTES: u64 = 4 << 20;

/// Folders replaced by empty scratch folders.
const SCRATCH: [&str; 4] = ["/tmp", "/var/tmp", "/dev/shm", "/run"];

/// Stops mounts made here from propagating to the rest of the system.
pub(crate) fn make_private() -> Result<(), String> {
    mount(None::<&str>, "/", None::<&str>, MsFlags::MS_REC | MsFlags::MS_PRIVATE, None::<&str>)
        .map_err(|e| format!("cannot make the mount tree private: {}", e.desc()))
}

/// Mounts a `/proc` for the new PID namespace. Fails where the host's `/proc` is partly
/// covered (as in many containers), in which case the bot sees the host's.
pub(crate) fn fresh_proc() -> Result<(), String> {
    let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    mount(Some("proc"), "/proc", Some("proc"), flags, None::<&str>).map_err(|e| e.desc().to_string())
}

/// Replaces the shared scratch folders with empty, small ones, keeping inside them the bot's
/// program folders that live there (read-only). Returns the scratch folders now in place.
pub(crate) fn scratch(readable: &[PathBuf]) -> Vec<PathBuf> {
    let mut done = Vec::new();
    for dir in SCRATCH {
        let path = Path::new(dir);
        // A symbolic link (`/var/run` -> `/run`) is covered through its target.
        if !path.symlink_metadata().is_ok_and(|m| m.is_dir()) || readable.iter().any(|r| path.starts_with(r))
        {
            continue;
        }
        let inside: Vec<&PathBuf> = outermost(readable.iter().filter(|r| r.starts_with(path)).collect());
        // Detached copies of those folders, taken before the tmpfs hides them.
        let kept: Vec<(OwnedFd, &PathBuf)> =
            inside.into_iter().filter_map(|r| Some((clone_tree(r)?, r))).collect();
        if tmpfs(path, SCRATCH_BYTES, 0o1777, false).is_err() {
            continue;
        }
        for (tree, at) in kept {
            if std::fs::create_dir_all(at).is_ok() {
                attach(&tree, at);
            }
        }
        done.push(path.to_path_buf());
    }
    done
}

/// Makes every folder in `readable` a read-only mount, so that the bot cannot change its own
/// program (or another bot's) even where a writable rule would cover it.
pub(crate) fn read_only(readable: &[PathBuf]) {
    for dir in readable {
        let bind = MsFlags::MS_BIND | MsFlags::MS_REC;
        if mount(Some(dir.as_path()), dir.as_path(), None::<&str>, bind, None::<&str>).is_ok() {
            let flags = MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY;
            let _ = mount(None::<&str>, dir.as_path(), None::<&str>, flags, None::<&str>);
        }
    }
}

/// Makes every mount read-only except `writable` (the case folder and the scratch folders).
/// Landlock governs reading and writing files, but not their metadata: without this a bot could
/// `chmod`, `touch` or set extended attributes on any file of the grader's it can reach by path
/// (its opponent's program, say).
pub(crate) fn freeze(writable: &[&Path]) -> Result<(), String> {
    set_read_only(Path::new("/"), true, true)?;
    for path in writable {
        set_read_only(path, false, false)?;
    }
    Ok(())
}

/// `AT_RECURSIVE`: a mount-attribute change applies to every mount under the one named.
const AT_RECURSIVE: libc::c_uint = 0x8000;
/// `MOUNT_ATTR_RDONLY`.
const MOUNT_ATTR_RDONLY: u64 = 1;

/// Sets and clears mount attributes (`mount_setattr(2)`) on the mount at `path` relative to
/// `dirfd`.
fn set_attributes(dirfd: i32, path: &CStr, flags: libc::c_uint, set: u64, clear: u64) -> std::io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        set: u64,
        clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let attr = MountAttr { set, clr: clear, propagation: 0, userns_fd: 0 };
    // SAFETY: mount_setattr gets a NUL-terminated path and a valid attribute struct of the size
    // passed.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            dirfd,
            path.as_ptr(),
            flags,
            &attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// Sets (or clears) the read-only attribute of the mount at `path` (and every mount under it,
/// if `recursive`).
fn set_read_only(path: &Path, read_only: bool, recursive: bool) -> Result<(), String> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| "a path with a NUL byte".to_string())?;
    let (set, clear) = if read_only { (MOUNT_ATTR_RDONLY, 0) } else { (0, MOUNT_ATTR_RDONLY) };
    let flags = if recursive { AT_RECURSIVE } else { 0 };
    set_attributes(libc::AT_FDCWD, &c, flags, set, clear).map_err(|e| {
        format!("cannot make {} {}: {e}", path.display(), if read_only { "read-only" } else { "writable" })
    })
}

/// The paths of `paths` not inside another of them.
fn outermost(paths: Vec<&PathBuf>) -> Vec<&PathBuf> {
    paths.iter().filter(|p| !paths.iter().any(|q| q != *p && p.starts_with(q))).copied().collect()
}

/// A detached, read-only copy of the mount tree at `path`.
fn clone_tree(path: &Path) -> Option<OwnedFd> {
    const OPEN_TREE_CLONE: libc::c_uint = 1;
    let c = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: open_tree gets a NUL-terminated path and integer flags; the descriptor returned
    // is owned by `tree`.
    let tree = unsafe {
        let fd = libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            c.as_ptr(),
            OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint,
        );
        OwnedFd::from_raw_fd(i32::try_from(fd).ok().filter(|&fd| fd >= 0)?)
    };
    // A copy that stays writable is still better than none: the bind of `read_only` and
    // Landlock keep the bot from writing its program.
    let flags = libc::AT_EMPTY_PATH as libc::c_uint | AT_RECURSIVE;
    let _ = set_attributes(tree.as_raw_fd(), c"", flags, MOUNT_ATTR_RDONLY, 0);
    Some(tree)
}

/// Attaches a tree from [`clone_tree`] at `at`.
fn attach(tree: &OwnedFd, at: &Path) {
    const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 4;
    let (Ok(c), Ok(empty)) = (CString::new(at.as_os_str().as_bytes()), CString::new("")) else { return };
    // SAFETY: move_mount with a valid descriptor and NUL-terminated paths.
    unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            empty.as_ptr(),
            libc::AT_FDCWD,
            c.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        );
    }
}

/// What became of one path the bot must not see.
pub(crate) enum Hidden {
    Covered,
    /// Nothing is there to cover.
    Absent,
    /// Left visible, with the reason.
    Visible(String),
}

/// Covers `path` with an empty read-only folder (or `/dev/null`, for a file), unless it holds
/// one of the folders the bot needs to read.
pub(crate) fn hide(path: &Path, readable: &[PathBuf], case_dir: &Path) -> Hidden {
    let Ok(meta) = path.metadata() else { return Hidden::Absent };
    if readable.iter().any(|r| r.starts_with(path)) {
        return Hidden::Visible("it holds the bot's own program folder".to_string());
    }
    if case_dir.starts_with(path) {
        return Hidden::Visible("it holds the case folder".to_string());
    }
    let done = if meta.is_dir() {
        tmpfs(path, 4096, 0o000, true)
    } else {
        mount(Some("/dev/null"), path, None::<&str>, MsFlags::MS_BIND, None::<&str>)
            .map_err(|e| e.desc().to_string())
    };
    match done {
        Ok(()) => Hidden::Covered,
        Err(why) => Hidden::Visible(why),
    }
}

/// Mounts a tmpfs of `bytes` for the case at `dir`, making the mount point first if a scratch
/// folder now covers it.
pub(crate) fn case_folder(dir: &Path, bytes: u64) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    tmpfs(dir, bytes, 0o755, false)
}

fn tmpfs(at: &Path, bytes: u64, mode: u32, read_only: bool) -> Result<(), String> {
    let mut flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    if read_only {
        flags |= MsFlags::MS_RDONLY | MsFlags::MS_NOEXEC;
    }
    // Inodes are bounded too, so a bot cannot fill memory with millions of empty files.
    let options = format!("size={bytes},nr_inodes=4096,mode={mode:o}");
    mount(Some("tmpfs"), at, Some("tmpfs"), flags, Some(options.as_str()))
        .map_err(|e| format!("cannot mount a tmpfs on {}: {}", at.display(), e.desc()))
}
