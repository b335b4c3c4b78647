//! Finding, measuring and killing the processes of a run, for the helper's own enforcement
//! where no cgroup does it: memory counted as proportional set size (so a page shared by
//! several processes counts once in all, and shared mappings count at all), and the number of
//! processes.

use std::fs;

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
                for child in children(pid) {
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

/// The children of every thread of `pid`.
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|t| fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|text| text.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<i32>>())
        .collect()
}

/// The memory the processes use together, in bytes (sum of their proportional set sizes).
pub(crate) fn memory(pids: &[i32]) -> u64 {
    pids.iter()
        .filter_map(|pid| fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok())
        .filter_map(|text| {
            let line = text.lines().find(|l| l.starts_with("Pss:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum::<u64>()
        * 1024
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
