//! A submission's folder, opened once, and every file in it reached from that descriptor one
//! name at a time, links followed only while they stay inside.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use nix::dir::Dir;
use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, openat, readlinkat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstat, fstatat};

use super::Refused;
use crate::harness::files::Cap;

/// How many symbolic links one path may go through (the kernel's own limit).
const MAX_HOPS: usize = 40;

/// A folder opened as a descriptor: everything read in it is reached from there.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    path: PathBuf,
}

/// What an entry of a folder is, seen without following it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular file of this size.
    File { bytes: u64 },
    /// A folder.
    Folder,
    /// A symbolic link, and the target it names (never followed here).
    Link { target: PathBuf },
    /// A FIFO, socket or device: never opened.
    Other { what: &'static str },
}

/// One entry found by [`Folder::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path relative to the folder.
    pub path: PathBuf,
    pub kind: Kind,
}

/// What a file type is, in words.
fn what(stat: &FileStat) -> &'static str {
    match SFlag::from_bits_truncate(stat.st_mode & SFlag::S_IFMT.bits()) {
        SFlag::S_IFDIR => "a folder",
        SFlag::S_IFLNK => "a symbolic link",
        SFlag::S_IFIFO => "a FIFO",
        SFlag::S_IFSOCK => "a socket",
        SFlag::S_IFCHR => "a character device",
        SFlag::S_IFBLK => "a block device",
        SFlag::S_IFREG => "a regular file",
        _ => "of an unknown kind",
    }
}

fn is(stat: &FileStat, kind: SFlag) -> bool {
    stat.st_mode & SFlag::S_IFMT.bits() == kind.bits()
}

/// Opens `name` in `dir` as a handle on the entry itself: a link is not followed, and nothing
/// is opened for reading (a FIFO does not block, a device is not touched).
fn handle(dir: &OwnedFd, name: &OsStr) -> nix::Result<OwnedFd> {
    openat(dir, name, OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC, Mode::empty())
}

impl Folder {
    /// Opens the folder at `path` (as the grader named it).
    pub fn open(path: &Path) -> Result<Folder, Refused> {
        let fd =
            nix::fcntl::open(path, OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC, Mode::empty())
                .map_err(|e| Refused::Io { file: path.to_path_buf(), error: e.desc().to_string() })?;
        Ok(Folder { fd, path: path.to_path_buf() })
    }

    /// The path the folder was opened by.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entries under the folder, `depth` levels deep (1: its own entries), sorted by path:
    /// links, FIFOs and the like are listed as what they are, never followed or opened. Folders
    /// are entered through descriptors opened with `O_NOFOLLOW`. At most `most` entries: more
    /// is refused.
    pub fn list(&self, depth: usize, most: usize) -> Result<Vec<Entry>, Refused> {
        let mut found = Vec::new();
        // A descriptor of its own (not a dup, which would share the read position of the
        // folder's listing with every other listing).
        let top =
            openat(&self.fd, ".", OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC, Mode::empty())
                .map_err(|e| Refused::Io { file: self.path.clone(), error: e.desc().to_string() })?;
        let mut pending: Vec<(OwnedFd, PathBuf, usize)> = vec![(top, PathBuf::new(), 1)];
        while let Some((fd, at, level)) = pending.pop() {
            let io = |e: Errno| Refused::Io { file: at.clone(), error: e.desc().to_string() };
            let mut dir = Dir::from_fd(fd).map_err(io)?;
            let mut names: Vec<OsString> = Vec::new();
            for entry in dir.iter() {
                let entry = entry.map_err(io)?;
                let name = OsStr::from_bytes(entry.file_name().to_bytes());
                if name != "." && name != ".." {
                    names.push(name.to_os_string());
                }
            }
            let dir_fd = &dir;
            for name in names {
                if found.len() >= most {
                    return Err(Refused::TooMuch { file: self.path.clone(), limit: format!("{most} files") });
                }
                let path = at.join(&name);
                let io = |e: Errno| Refused::Io { file: path.clone(), error: e.desc().to_string() };
                let stat = match fstatat(dir_fd, name.as_os_str(), AtFlags::AT_SYMLINK_NOFOLLOW) {
                    Ok(stat) => stat,
                    // Removed since the listing: nothing to see.
                    Err(Errno::ENOENT) => continue,
                    Err(e) => return Err(io(e)),
                };
                let kind = if is(&stat, SFlag::S_IFREG) {
                    Kind::File { bytes: stat.st_size as u64 }
                } else if is(&stat, SFlag::S_IFDIR) {
                    if level < depth {
                        let flags =
                            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
                        match openat(dir_fd, name.as_os_str(), flags, Mode::empty()) {
                            Ok(sub) => pending.push((sub, path.clone(), level + 1)),
                            // Swapped for something else since: not entered.
                            Err(Errno::ENOTDIR | Errno::ELOOP | Errno::ENOENT) => {}
                            Err(e) => return Err(io(e)),
                        }
                    }
                    Kind::Folder
                } else if is(&stat, SFlag::S_IFLNK) {
                    match readlinkat(dir_fd, name.as_os_str()) {
                        Ok(target) => Kind::Link { target: PathBuf::from(target) },
                        Err(Errno::ENOENT | Errno::EINVAL) => continue,
                        Err(e) => return Err(io(e)),
                    }
                } else {
                    Kind::Other { what: what(&stat) }
                };
                found.push(Entry { path, kind });
            }
        }
        found.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(found)
    }

    /// Opens the regular file at `relative` for reading, following links only while they stay
    /// inside the folder; returns it and its size.
    pub fn open_file(&self, relative: &Path) -> Result<(File, u64), Refused> {
        let shown = relative.to_path_buf();
        let io = |e: Errno| Refused::Io { file: shown.clone(), error: e.desc().to_string() };
        // The names still to walk, each with the link whose target it comes from (an index into
        // `links`), to name that link if the name leads out.
        let mut queue: VecDeque<(OsString, Option<usize>)> = VecDeque::new();
        for part in relative.components() {
            match part {
                Component::Normal(name) => queue.push_back((name.to_os_string(), None)),
                Component::CurDir => {}
                // arbiter asks only for names it found inside: anything else is a mistake.
                _ => return Err(Refused::Missing { file: shown }),
            }
        }
        // The folders entered so far below the top, with their names (for messages).
        let mut folders: Vec<(OwnedFd, OsString)> = Vec::new();
        let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
        while let Some((part, from)) = queue.pop_front() {
            if part == "." || part.is_empty() {
                continue;
            }
            let here = folders.last().map_or(&self.fd, |(fd, _)| fd);
            let at: PathBuf = folders.iter().map(|(_, n)| n.as_os_str()).collect::<PathBuf>().join(&part);
            if part == ".." {
                // Only a link's target can say `..` (arbiter's own paths never do): climbing
                // above the top is leaving the folder.
                if folders.pop().is_none() {
                    let (link, target) = from.map_or((at.clone(), at), |i| links[i].clone());
                    return Err(Refused::Outside { file: shown, link, target });
                }
                continue;
            }
            let entry = match handle(here, &part) {
                Ok(fd) => fd,
                Err(Errno::ENOENT) => return Err(Refused::Missing { file: shown }),
                Err(e) => return Err(io(e)),
            };
            let stat = fstat(&entry).map_err(io)?;
            if is(&stat, SFlag::S_IFLNK) {
                if links.len() >= MAX_HOPS {
                    return Err(Refused::Loop { file: shown });
                }
                // The link read through the handle on the link itself: the same one just seen.
                let target = PathBuf::from(readlinkat(&entry, "").map_err(io)?);
                if target.is_absolute() {
                    return Err(Refused::Outside { file: shown, link: at, target });
                }
                for piece in target.components().rev() {
                    queue.push_front((piece.as_os_str().to_os_string(), Some(links.len())));
                }
                links.push((at, target));
                continue;
            }
            if is(&stat, SFlag::S_IFDIR) {
                if queue.is_empty() {
                    return Err(Refused::NotAFile { file: shown, what: "a folder" });
                }
                folders.push((entry, part));
                continue;
            }
            if !queue.is_empty() {
                return Err(Refused::Missing { file: shown });
            }
            if !is(&stat, SFlag::S_IFREG) {
                return Err(Refused::NotAFile { file: shown, what: what(&stat) });
            }
            // Opened for reading by name once more, without following a link, and checked to
            // be the very file the handle holds: nothing swapped in between is read.
            let flags =
                OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_NOCTTY | OFlag::O_CLOEXEC;
            let file = File::from(openat(here, part.as_os_str(), flags, Mode::empty()).map_err(io)?);
            let now = fstat(&file).map_err(io)?;
            if (now.st_dev, now.st_ino) != (stat.st_dev, stat.st_ino) || !is(&now, SFlag::S_IFREG) {
                return Err(Refused::Io { file: shown, error: "it changed while it was opened".into() });
            }
            return Ok((file, now.st_size as u64));
        }
        Err(Refused::NotAFile { file: shown, what: "the folder itself" })
    }

    /// Reads the regular file at `relative` (see [`Folder::open_file`]) if it holds at most
    /// `cap.bytes` bytes; a larger one is refused by its size before a byte is read.
    pub fn read(&self, relative: &Path, cap: Cap) -> Result<Vec<u8>, Refused> {
        let (file, bytes) = self.open_file(relative)?;
        let too_large =
            |bytes| Refused::TooLarge { file: relative.to_path_buf(), bytes, cap: cap.bytes, what: cap.what };
        if bytes > cap.bytes {
            return Err(too_large(bytes));
        }
        let mut read = Vec::new();
        crate::harness::files::read_up_to(file, cap.bytes, &mut read)
            .map_err(|e| Refused::Io { file: relative.to_path_buf(), error: e.to_string() })?;
        if read.len() as u64 > cap.bytes {
            // It grew while it was read.
            return Err(too_large(read.len() as u64));
        }
        Ok(read)
    }

    /// The entry `name` of the folder itself, as what it is: a regular file is opened (and
    /// checked to be the entry seen), anything else is refused by its kind, a link with its
    /// target and never followed. For files a bot left, where no link is expected at all.
    pub fn open_own(&self, name: &OsStr) -> Result<(File, FileStat), Refused> {
        let shown = PathBuf::from(name);
        let io = |e: Errno| Refused::Io { file: shown.clone(), error: e.desc().to_string() };
        let entry = match handle(&self.fd, name) {
            Ok(fd) => fd,
            Err(Errno::ENOENT) => return Err(Refused::Missing { file: shown }),
            Err(e) => return Err(io(e)),
        };
        let stat = fstat(&entry).map_err(io)?;
        if is(&stat, SFlag::S_IFLNK) {
            let target = readlinkat(&entry, "").map(PathBuf::from).unwrap_or_default();
            return Err(Refused::Link { file: shown, target });
        }
        if !is(&stat, SFlag::S_IFREG) {
            return Err(Refused::NotAFile { file: shown, what: what(&stat) });
        }
        let flags =
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_NOCTTY | OFlag::O_CLOEXEC;
        let file = File::from(openat(&self.fd, name, flags, Mode::empty()).map_err(io)?);
        let now = fstat(&file).map_err(io)?;
        if (now.st_dev, now.st_ino) != (stat.st_dev, stat.st_ino) || !is(&now, SFlag::S_IFREG) {
            return Err(Refused::Io { file: shown, error: "it changed while it was opened".into() });
        }
        Ok((file, now))
    }

    /// Reads at most `bytes` bytes from the start of the file at `relative`.
    pub fn head(&self, relative: &Path, bytes: u64) -> Result<Vec<u8>, Refused> {
        let (file, _) = self.open_file(relative)?;
        let mut head = Vec::new();
        file.take(bytes)
            .read_to_end(&mut head)
            .map_err(|e| Refused::Io { file: relative.to_path_buf(), error: e.to_string() })?;
        Ok(head)
    }
}
