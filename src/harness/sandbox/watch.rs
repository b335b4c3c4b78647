//! Finding, measuring and killing the processes of a run, for the helper's own enforcement
//! where no cgroup does it: memory counted as proportional set size (so a page shared by
//! several processes counts once in all, and shared mappings count at all), plus what a
//! process can hold without mapping it: memfd files, bytes queued in its sockets, and System V
//! shared memory; the number of processes; and, without a tmpfs, the case folder's size.

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::MetadataExt;

/// Where the run's processes are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every process in the (fresh) `/proc` but the caller, which is PID 1 of the namespace.
    Namespace,
    /// The caller's descendants: without a PID namespace the caller is a subreaper, so
    /// processes that left their parent still come back under it.
    Descendants,
}

/// The pids of the run's processes, the caller excluded.
pub(crate) fn processes(scope: Scope) -> Vec<i32> {
    match scope {
        Scope::Namespace => fs::read_dir("/proc")
            .map(|dir| {
                dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
                    .filter(|&pid| pid != 1)
                    .collect()
            })
            .unwrap_or_default(),
        Scope::Descendants => {
            let mut found = Vec::new();
            let mut queue = vec![std::process::id() as i32];
            while let Some(pid) = queue.pop() {
                for child in crate::harness::runner::tasks::children(pid) {
                    if !found.contains(&child) {
                        found.push(child);
                        queue.push(child);
                    }
                }
            }
            found
        }
    }
}

/// The memory the processes use together, in bytes: their proportional set sizes, the
/// memfd files they hold, the bytes queued in their sockets, and (in the run's own IPC
/// namespace) System V shared memory.
pub(crate) fn memory(pids: &[i32], own_ipc: bool) -> u64 {
    let pss: u64 =
        pids.iter().filter_map(|&pid| proportional(pid).or_else(|| resident(pid))).sum::<u64>() * 1024;
    let held = held(pids);
    let sysv = if own_ipc { sysv_shm() } else { 0 };
    pss + held.memfd + super::sockets::queued(&held.sockets) + sysv
}

/// The proportional set size of `pid`, in KiB, where this process may read it.
fn proportional(pid: i32) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    kib(&text, "Pss:")
}

/// The resident and swapped memory of `pid`, in KiB, from `/proc/PID/status`, which anyone may
/// read: for a process that made itself non-dumpable, whose `smaps_rollup` (and descriptors)
/// only a process with the right to trace it may read. Pages it shares are counted whole.
fn resident(pid: i32) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(kib(&text, "VmRSS:")? + kib(&text, "VmSwap:").unwrap_or(0))
}

/// The number of KiB on the line starting with `key`.
fn kib(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok()
}

/// What the processes hold through their descriptors.
struct Held {
    /// Bytes of memfd files (counted once each).
    memfd: u64,
    /// Inodes of their sockets.
    sockets: HashSet<u64>,
}

fn held(pids: &[i32]) -> Held {
    let mut seen = HashSet::new();
    let mut held = Held { memfd: 0, sockets: HashSet::new() };
    for pid in pids {
        let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else { continue };
        for fd in fds.flatten() {
            let Ok(target) = fs::read_link(fd.path()) else { continue };
            let target = target.to_string_lossy();
            if let Some(inode) = target.strip_prefix("socket:[").and_then(|t| t.strip_suffix(']')) {
                if let Ok(inode) = inode.parse() {
                    held.sockets.insert(inode);
                }
            } else if target.starts_with("/memfd:")
                && let Ok(meta) = fs::metadata(fd.path())
                && seen.insert((meta.dev(), meta.ino()))
            {
                held.memfd += meta.blocks() * 512;
            }
        }
    }
    held
}

/// Bytes of System V shared memory in this IPC namespace (resident and swapped).
fn sysv_shm() -> u64 {
    let Ok(text) = fs::read_to_string("/proc/sysvipc/shm") else { return 0 };
    let mut lines = text.lines();
    let Some(header) = lines.next() else { return 0 };
    let columns: Vec<&str> = header.split_whitespace().collect();
    let at = |name: &str| columns.iter().position(|c| *c == name);
    let (Some(rss), swap) = (at("rss"), at("swap")) else { return 0 };
    lines
        .map(|l| {
            let fields: Vec<u64> = l.split_whitespace().map(|f| f.parse().unwrap_or(0)).collect();
            fields.get(rss).copied().unwrap_or(0) + swap.and_then(|s| fields.get(s).copied()).unwrap_or(0)
        })
        .sum()
}

/// Kills every process of the run, over and over until none is left: a process may fork
/// while the others are being killed.
pub(crate) fn kill_all(scope: Scope) {
    for _ in 0..1000 {
        let pids = processes(scope);
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            // SAFETY: kill with a positive pid and SIGKILL has no memory-safety preconditions.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        reap();
    }
}

/// Reaps every child that has exited, without waiting for the others.
pub(crate) fn reap() {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return;
        }
    }
}
