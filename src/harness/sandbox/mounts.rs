//! The mount calls the new root is built with, each with an error that names what failed.
//!
//! Everything here happens in the run's own mount namespace, made private first: nothing done
//! here is seen outside it.

use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use nix::mount::{MntFlags, MsFlags, mount, umount2};

/// `AT_RECURSIVE`: a mount-attribute change applies to every mount under the one named.
const AT_RECURSIVE: libc::c_uint = 0x8000;
/// `MOUNT_ATTR_RDONLY`.
pub(crate) const ATTR_RDONLY: u64 = 0x1;
/// `MOUNT_ATTR_NOSUID`.
pub(crate) const ATTR_NOSUID: u64 = 0x2;
/// `MOUNT_ATTR_NODEV`.
pub(crate) const ATTR_NODEV: u64 = 0x4;

/// Stops mounts made here from propagating to the rest of the system.
pub(crate) fn make_private() -> Result<(), String> {
    mount(None::<&str>, "/", None::<&str>, MsFlags::MS_REC | MsFlags::MS_PRIVATE, None::<&str>)
        .map_err(|e| format!("cannot make the mount tree private: {}", e.desc()))
}

/// Mounts a `/proc` for the new PID namespace at `at`.
pub(crate) fn proc(at: &Path) -> Result<(), String> {
    let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    mount(Some("proc"), at, Some("proc"), flags, None::<&str>).map_err(|e| e.desc().to_string())
}

/// Mounts a tmpfs of `bytes` (and at most `inodes` files) at `at`, its root folder of `mode`
/// owned by `owner`.
pub(crate) fn tmpfs(at: &Path, bytes: u64, inodes: u64, mode: u32, owner: Option<u32>) -> Result<(), String> {
    let flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    let mut options = format!("size={bytes},nr_inodes={inodes},mode={mode:o}");
    if let Some(id) = owner {
        options.push_str(&format!(",uid={id},gid={id}"));
    }
    mount(Some("tmpfs"), at, Some("tmpfs"), flags, Some(options.as_str()))
        .map_err(|e| format!("cannot mount a tmpfs on {}: {}", at.display(), e.desc()))
}

/// Binds `from` (and every mount under it) at `to`, then sets `attributes` (read-only,
/// nosuid, nodev) on all of them. `from` is opened once and what was opened is bound
/// ([`bind_opened`]).
pub(crate) fn bind(from: &Path, to: &Path, attributes: u64) -> Result<(), String> {
    let handle =
        open_path(from).map_err(|e| format!("cannot bind {} at {}: {e}", from.display(), to.display()))?;
    bind_opened(&handle, to, attributes)
        .map_err(|e| format!("cannot bind {} at {}: {e}", from.display(), to.display()))
}

/// `AT_EMPTY_PATH`: the call acts on the descriptor itself.
const AT_EMPTY_PATH: libc::c_uint = 0x1000;
/// `OPEN_TREE_CLONE`: a detached copy of the mount tree, to attach elsewhere.
const OPEN_TREE_CLONE: libc::c_uint = 0x1;
/// `MOVE_MOUNT_F_EMPTY_PATH` and `MOVE_MOUNT_T_EMPTY_PATH`: both ends named by descriptors.
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const MOVE_MOUNT_T_EMPTY_PATH: libc::c_uint = 0x40;

/// How many times a mount point that is missing for a moment (a host file being rewritten by
/// rename, as `/etc/passwd` is by `useradd`) is looked for again, and how long apart.
const TARGET_TRIES: u32 = 50;
const TARGET_PAUSE: std::time::Duration = std::time::Duration::from_millis(4);

/// Opens `path` as a handle (`O_PATH`), not following a link at its last step.
pub(crate) fn open_path(path: &Path) -> std::io::Result<OwnedFd> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    // SAFETY: open with a NUL-terminated path; the descriptor is owned at once.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Binds what the handle `from` names (and every mount under it) at `to`: a detached copy of
/// its mount tree is made from the handle, given `attributes` before anyone can see it, and
/// attached at `to`. What is bound is what was opened and checked, whatever the path names a
/// moment later; a mount point that is missing for a moment is looked for again.
pub(crate) fn bind_opened(from: &OwnedFd, to: &Path, attributes: u64) -> Result<(), String> {
    let empty = c"";
    // SAFETY: open_tree with a valid descriptor and an empty NUL-terminated path; the
    // descriptor returned is owned at once.
    let tree = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            from.as_raw_fd(),
            empty.as_ptr(),
            OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint | AT_EMPTY_PATH | AT_RECURSIVE,
        )
    };
    if tree < 0 {
        return Err(format!("open_tree: {}", std::io::Error::last_os_error()));
    }
    let tree = unsafe { OwnedFd::from_raw_fd(tree as i32) };
    if attributes != 0 {
        mount_setattr_fd(&tree, AT_EMPTY_PATH | AT_RECURSIVE, attributes)
            .map_err(|e| format!("cannot set its attributes: {e}"))?;
    }
    let mut tries = 0;
    loop {
        let attached = open_path(to).and_then(|target| {
            // SAFETY: move_mount between two valid descriptors, both paths empty.
            let rc = unsafe {
                libc::syscall(
                    libc::SYS_move_mount,
                    tree.as_raw_fd(),
                    empty.as_ptr(),
                    target.as_raw_fd(),
                    empty.as_ptr(),
                    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH,
                )
            };
            if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
        });
        match attached {
            Ok(()) => return Ok(()),
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) && tries < TARGET_TRIES => {
                tries += 1;
                std::thread::sleep(TARGET_PAUSE);
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// `mount_setattr(2)` on the (detached) mount tree open at `fd`.
fn mount_setattr_fd(fd: &OwnedFd, flags: libc::c_uint, set: u64) -> std::io::Result<()> {
    mount_setattr_at(fd.as_raw_fd(), c"", flags, set)
}

/// Sets mount attributes on the mount at `path` (and every mount under it, if `recursive`).
pub(crate) fn set_attributes(path: &Path, set: u64, recursive: bool) -> Result<(), String> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| "a path with a NUL byte".to_string())?;
    let flags = if recursive { AT_RECURSIVE } else { 0 };
    mount_setattr(&c, flags, set).map_err(|e| format!("cannot set the attributes of {}: {e}", path.display()))
}

/// `mount_setattr(2)` on the mount at `path`.
fn mount_setattr(path: &CStr, flags: libc::c_uint, set: u64) -> std::io::Result<()> {
    mount_setattr_at(libc::AT_FDCWD, path, flags, set)
}

/// `mount_setattr(2)` on the mount at `path` relative to `dir`.
fn mount_setattr_at(dir: libc::c_int, path: &CStr, flags: libc::c_uint, set: u64) -> std::io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        set: u64,
        clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let attr = MountAttr { set, clr: 0, propagation: 0, userns_fd: 0 };
    // SAFETY: mount_setattr gets a NUL-terminated path and a valid attribute struct of the size
    // passed.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            dir,
            path.as_ptr(),
            flags,
            &attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}

/// Makes `new_root` the root, the old one at `put_old` (inside it).
pub(crate) fn pivot_root(new_root: &Path, put_old: &Path) -> Result<(), String> {
    nix::unistd::pivot_root(new_root, put_old).map_err(|e| format!("pivot_root: {}", e.desc()))?;
    std::env::set_current_dir("/").map_err(|e| format!("cannot enter the new root: {e}"))
}

/// Detaches the mount at `path` and everything under it.
pub(crate) fn detach(path: &Path) -> Result<(), String> {
    umount2(path, MntFlags::MNT_DETACH).map_err(|e| format!("cannot detach {}: {}", path.display(), e.desc()))
}
