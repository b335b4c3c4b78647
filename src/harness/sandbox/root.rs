//! The bot's own root: a small tmpfs holding read-only binds of what a program needs and
//! nothing else, made the root with `pivot_root`, as isolate, nsjail and bubblewrap do.
//!
//! In it: the system folders ([`view::SYSTEM`]) with the secrets of `/etc` covered and a
//! generated `passwd` and `group`; the bot's own folder and its interpreters' installations
//! (read-only, at the paths they have outside, so that scripts and `#!` lines still work); a
//! `/dev` of the harmless devices; a `/proc` of its own; and one tmpfs of the run's disk size
//! shared by the case folder, `/tmp`, `/var/tmp` and `/dev/shm`. The grader's corpus, golden
//! answers, reports, other bots and sockets are not hidden: they are simply not there, by any
//! path, and `/proc/self/mountinfo` names none of them.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use super::mounts::{self, ATTR_NODEV, ATTR_NOSUID, ATTR_RDONLY};
use super::spec::Request;
use super::view;

/// Where the old root stays reachable while the new one is filled.
const OLD: &str = "/.old";

/// Where the run's disk tmpfs is mounted, its parts bound into place from there.
const DISK: &str = "/.disk";

/// Files of `/etc` no bot needs and some would like: password hashes, private keys, the
/// machine's SSH keys, sudo rules. Each is covered (an empty file or folder) where it exists.
const ETC_SECRETS: [&str; 12] = [
    "shadow",
    "shadow-",
    "gshadow",
    "gshadow-",
    "ssl/private",
    "ssh",
    "sudoers",
    "sudoers.d",
    "security/opasswd",
    "krb5.keytab",
    "pki/tls/private",
    "credstore",
];

/// Devices a program may open.
const DEVICES: [&str; 6] = ["null", "zero", "full", "random", "urandom", "tty"];

/// Size of the root tmpfs: folders and a few small generated files.
const ROOT_BYTES: u64 = 1 << 20;

/// Whether the new root for `request` holds `path`'s place: it lies under a system folder or a
/// folder the bot reads, which the root binds (a hidden one there is covered while it exists).
pub(crate) fn holds(request: &Request, path: &Path) -> bool {
    view::SYSTEM
        .iter()
        .map(Path::new)
        .chain(request.readable.iter().map(PathBuf::as_path))
        .any(|b| path.starts_with(b))
}

/// Builds the new root for `request` and enters it. `owner` is the bot's user id as the
/// helper writes it (the helper's own id inside a user namespace is the bot's already).
pub(crate) fn build(request: &Request, owner: u32) -> Result<(), String> {
    // The new root is mounted over a folder that exists everywhere; the tmpfs that covers it
    // moves away with pivot_root, and the old root keeps its own /tmp.
    let base = Path::new("/tmp");
    mounts::tmpfs(base, ROOT_BYTES, 4096, 0o755, None)?;
    mkdir(&base.join(&OLD[1..]))?;
    mounts::pivot_root(base, &base.join(&OLD[1..]))?;
    let old = Path::new(OLD);

    for dir in view::SYSTEM {
        place(old, Path::new(dir), ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV)?;
    }
    etc(old, request.uid)?;
    devices(old)?;
    // The scratch folders first: a bot's folder under /tmp is bound inside them. The case
    // folder last: it may lie inside a folder the bot reads (a grader whose TMPDIR is in the
    // bot's folder), and a later bind of that folder would cover it.
    disk(request, owner)?;
    let mut bound: Vec<PathBuf> = view::SYSTEM.iter().map(PathBuf::from).collect();
    let mut readable = request.readable.clone();
    readable.sort_by_key(|p| p.components().count());
    for path in readable {
        if let Some(hidden) = request.hidden.iter().find(|h| path.starts_with(h)) {
            // Binding it would show the grader's answers or reports; leaving it out would fail
            // the bot with a bare "No such file". Say what was refused instead.
            return Err(format!(
                "the bot needs {}, which is inside {}, a folder of the grader's answers or reports \
                 that no bot may see: write the reports (and keep the corpus) outside the bot's folder",
                path.display(),
                hidden.display()
            ));
        }
        if bound.iter().any(|b| path.starts_with(b)) || path.starts_with(&request.case_dir) {
            continue;
        }
        // A folder the bot's user could not read is replaced by its readable copy, at the
        // original's path.
        let source = request.staged.iter().find(|(at, _)| *at == path).map_or(&path, |(_, copy)| copy);
        place_from(old, source, &path, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV)?;
        bound.push(path);
    }
    case_folder(request)?;
    // The grader's answers, where a folder the bot reads holds them (a copy holds none).
    for path in &request.hidden {
        if bound.iter().any(|b| path.starts_with(b)) && path.symlink_metadata().is_ok() {
            cover(path)?;
        }
    }
    mkdir(Path::new("/proc"))?;
    mounts::proc(Path::new("/proc")).map_err(|why| format!("cannot mount /proc: {why}"))?;
    mkdir(Path::new("/run"))?;
    mounts::detach(old)?;
    fs::remove_dir(old).map_err(|e| format!("cannot remove {OLD}: {e}"))?;
    mounts::set_attributes(Path::new("/"), ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV, false)?;
    std::env::set_current_dir(&request.case_dir).map_err(|e| format!("cannot enter the case folder: {e}"))
}

/// `path` as seen in the old root.
fn inside(old: &Path, path: &Path) -> PathBuf {
    old.join(path.strip_prefix("/").unwrap_or(path))
}

/// Binds `path` of the old root at the same path in the new one ([`place_from`]).
fn place(old: &Path, path: &Path, attributes: u64) -> Result<(), String> {
    place_from(old, path, path, attributes)
}

/// Binds `source` of the old root at `path` in the new one, making the mount point (a folder
/// or an empty file) and its parents first. The source is opened once, without following a
/// link, and what was opened is what is looked at and bound: a file replaced on the host
/// meanwhile changes nothing. A symbolic link is made again instead (a merged `/usr`'s
/// `/bin -> usr/bin`). Absent paths are skipped.
fn place_from(old: &Path, source: &Path, path: &Path, attributes: u64) -> Result<(), String> {
    let from = inside(old, source);
    let handle = match mounts::open_path(&from) {
        Ok(handle) => handle,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(()),
        Err(e) => return Err(format!("cannot open {}: {e}", source.display())),
    };
    let meta = fs::File::from(handle.try_clone().map_err(|e| e.to_string())?)
        .metadata()
        .map_err(|e| format!("cannot look at {}: {e}", source.display()))?;
    if let Some(parent) = path.parent() {
        mkdir(parent)?;
    }
    if meta.file_type().is_symlink() {
        let target =
            link_target(&handle).map_err(|e| format!("cannot read the link {}: {e}", from.display()))?;
        return symlink(&target, path).map_err(|e| format!("cannot make the link {}: {e}", path.display()));
    }
    if meta.is_dir() {
        mkdir(path)?;
    } else {
        fs::write(path, b"").map_err(|e| format!("cannot make {}: {e}", path.display()))?;
    }
    mounts::bind_opened(&handle, path, attributes)
        .map_err(|e| format!("cannot bind {} at {}: {e}", source.display(), path.display()))
}

/// The target of the symbolic link open (`O_PATH | O_NOFOLLOW`) at `link`.
fn link_target(link: &std::os::fd::OwnedFd) -> std::io::Result<PathBuf> {
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: readlinkat on a valid descriptor with an empty path, into a buffer of the length
    // given.
    let n = unsafe { libc::readlinkat(link.as_raw_fd(), c"".as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    buf.truncate(n as usize);
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(&buf)))
}

/// Covers `path` (in the new root) with an empty read-only folder or file.
fn cover(path: &Path) -> Result<(), String> {
    let empty = if path.is_dir() { Path::new("/.empty") } else { Path::new("/.empty-file") };
    if !empty.exists() {
        if empty.ends_with(".empty") {
            mkdir(empty)?;
            fs::set_permissions(empty, fs::Permissions::from_mode(0o000)).map_err(|e| e.to_string())?;
        } else {
            fs::write(empty, b"").map_err(|e| e.to_string())?;
            fs::set_permissions(empty, fs::Permissions::from_mode(0o000)).map_err(|e| e.to_string())?;
        }
    }
    mounts::bind(empty, path, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV)
}

/// The secrets of `/etc` covered, and `passwd` and `group` that know the bot's user.
fn etc(old: &Path, uid: u32) -> Result<(), String> {
    if !Path::new("/etc").is_dir() {
        return Ok(());
    }
    for secret in ETC_SECRETS {
        let path = Path::new("/etc").join(secret);
        if inside(old, &path).symlink_metadata().is_ok_and(|m| !m.file_type().is_symlink()) {
            cover(&path)?;
        }
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/tmp".to_string());
    let passwd = format!(
        "root:x:0:0:root:/root:/bin/sh\nbot:x:{uid}:{uid}:bot:{home}:/bin/sh\n\
         nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    );
    let group = format!("root:x:0:\nbot:x:{uid}:\nnogroup:x:65534:\n");
    for (name, text) in [("passwd", passwd), ("group", group)] {
        let made = PathBuf::from(format!("/.{name}"));
        fs::write(&made, text).map_err(|e| format!("cannot write {}: {e}", made.display()))?;
        fs::set_permissions(&made, fs::Permissions::from_mode(0o644)).map_err(|e| e.to_string())?;
        let at = Path::new("/etc").join(name);
        if at.exists() {
            mounts::bind(&made, &at, ATTR_RDONLY | ATTR_NOSUID | ATTR_NODEV)?;
        }
    }
    Ok(())
}

/// A `/dev` of the devices a program may use, and the usual links.
fn devices(old: &Path) -> Result<(), String> {
    let dev = Path::new("/dev");
    mkdir(dev)?;
    for name in DEVICES {
        let from = old.join("dev").join(name);
        if from.exists() {
            let at = dev.join(name);
            fs::write(&at, b"").map_err(|e| format!("cannot make {}: {e}", at.display()))?;
            mounts::bind(&from, &at, ATTR_NOSUID)?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        symlink(target, dev.join(name)).map_err(|e| format!("cannot make /dev/{name}: {e}"))?;
    }
    Ok(())
}

/// One tmpfs of the run's disk size, of which the case folder, `/tmp`, `/var/tmp` and
/// `/dev/shm` are parts: all the bot writes, together, is held to `--max-disk-mb`.
fn disk(request: &Request, owner: u32) -> Result<(), String> {
    let disk = Path::new(DISK);
    mkdir(disk)?;
    // Inodes are bounded too, so that a bot cannot fill memory with millions of empty files.
    mounts::tmpfs(disk, request.disk_bytes, 4096, 0o755, Some(owner))?;
    for (part, mode) in [("tmp", 0o1777), ("shm", 0o1777), ("case", 0o755)] {
        let path = disk.join(part);
        mkdir(&path)?;
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).map_err(|e| e.to_string())?;
        std::os::unix::fs::chown(&path, Some(owner), Some(owner))
            .map_err(|e| format!("cannot give {} to the bot: {e}", path.display()))?;
    }
    for (part, at) in [("tmp", "/tmp"), ("tmp", "/var/tmp"), ("shm", "/dev/shm")] {
        let at = Path::new(at);
        mkdir(at)?;
        mounts::bind(&disk.join(part), at, ATTR_NOSUID | ATTR_NODEV)?;
    }
    Ok(())
}

/// The case folder, the disk tmpfs's third part, bound at the case's own path (the bot may be
/// given it; under /tmp it is made in the shared tmpfs).
///
/// The disk tmpfs itself stays mounted at [`DISK`]: all it holds is the bot's own case folder
/// and scratch folders, which the bot has anyway, and an unmount costs a wait for the kernel's
/// RCU grace period (1 to 7 ms a run on this project's machine), where everything else of the
/// root takes under a millisecond.
fn case_folder(request: &Request) -> Result<(), String> {
    mkdir(&request.case_dir)?;
    mounts::bind(&Path::new(DISK).join("case"), &request.case_dir, ATTR_NOSUID | ATTR_NODEV)
}

/// Makes `path` and its parents (in the new root's tmpfs, or the disk tmpfs).
fn mkdir(path: &Path) -> Result<(), String> {
    fs::create_dir_all(path).map_err(|e| format!("cannot make {}: {e}", path.display()))
}
