//! The mount calls the new root is built with, each with an error that names what failed.
//!
//! Everything here happens in the run's own mount namespace, made private first: nothing done
//! here is seen outside it.

use std::ffi::{CStr, CString};
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
/// nosuid, nodev) on all of them.
pub(crate) fn bind(from: &Path, to: &Path, attributes: u64) -> Result<(), String> {
    let flags = MsFlags::MS_BIND | MsFlags::MS_REC;
    mount(Some(from), to, None::<&str>, flags, None::<&str>)
        .map_err(|e| format!("cannot bind {} at {}: {}", from.display(), to.display(), e.desc()))?;
    if attributes != 0 {
        set_attributes(to, attributes, true)?;
    }
    Ok(())
}

/// Sets mount attributes on the mount at `path` (and every mount under it, if `recursive`).
pub(crate) fn set_attributes(path: &Path, set: u64, recursive: bool) -> Result<(), String> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| "a path with a NUL byte".to_string())?;
    let flags = if recursive { AT_RECURSIVE } else { 0 };
    mount_setattr(&c, flags, set).map_err(|e| format!("cannot set the attributes of {}: {e}", path.display()))
}

/// `mount_setattr(2)` on the mount at `path`.
fn mount_setattr(path: &CStr, flags: libc::c_uint, set: u64) -> std::io::Result<()> {
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
            libc::AT_FDCWD,
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
