//! The CPU time a run has used so far, read while it runs: the time limit is CPU time, so the
//! runner must see it grow, not only learn the total once the run has ended.
//!
//! Two sources, the better first:
//!
//! - the run's cgroup (`cpu.stat` in v2, `cpuacct.usage` in v1), which counts every process
//!   that ever was in it, to the nanosecond;
//! - otherwise the run's process tree in `/proc`: for each of its processes, the time it used
//!   and the time of the children it has reaped (`utime + stime + cutime + cstime`). Nothing a
//!   run starts leaves the tree while the run lasts (the sandbox's init is the namespace's
//!   PID 1 or a child subreaper), so this counts everything, at the kernel's clock-tick
//!   resolution.
//!
//! The sandbox's own processes (the helper and the run's init) are plumbing: their own time is
//! left out, the time of everything below them counted.

use std::fs;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// Where a run's CPU time is read.
#[derive(Debug, Clone)]
pub(crate) struct RunClock {
    /// The process at the top of the run: the sandbox's init, or the bot itself.
    root: libc::pid_t,
    /// How many levels from the root are plumbing whose own time is not the bot's (1 for the
    /// sandbox's init, 0 without a sandbox).
    plumbing: usize,
    /// A cgroup file counting the run's CPU time, with how to read it and what it counted
    /// before the run.
    cgroup: Option<(PathBuf, CgroupClock, Duration)>,
}

/// The format of a cgroup's CPU counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CgroupClock {
    /// v2 `cpu.stat`: `usage_usec N`.
    V2,
    /// v1 `cpuacct.usage`: nanoseconds.
    V1,
}

impl RunClock {
    /// A clock for the process tree under `root`, whose top `plumbing` levels are not the bot.
    pub(crate) fn new(
        root: libc::pid_t,
        plumbing: usize,
        cgroup: Option<(PathBuf, CgroupClock, Duration)>,
    ) -> RunClock {
        RunClock { root, plumbing, cgroup }
    }

    /// The cgroup file that counts the run's CPU time, and its format, when the run has one
    /// (a hosted bot's clock keeps it open and reads it between calls).
    pub(crate) fn counter(&self) -> Option<(PathBuf, CgroupClock)> {
        self.cgroup.as_ref().map(|(file, kind, _)| (file.clone(), *kind))
    }

    /// The bot's own top process: the first process below the plumbing (the sandbox's init),
    /// or the root itself without a sandbox.
    pub(crate) fn bot_pid(&self) -> Option<libc::pid_t> {
        if self.plumbing == 0 {
            return Some(self.root);
        }
        walk_to(self.root, self.plumbing + 1)
            .into_iter()
            .find(|(_, depth, _)| *depth == self.plumbing)
            .map(|(pid, _, _)| pid)
    }

    /// Whether [`RunClock::read`] counts in ns (a cgroup's counter) rather than clock ticks.
    pub(crate) fn counts_exactly(&self) -> bool {
        self.cgroup.is_some()
    }

    /// The CPU time the run has used so far.
    pub(crate) fn read(&self) -> Duration {
        if let Some((file, kind, base)) = &self.cgroup
            && let Some(total) = read_cgroup(file, *kind)
        {
            // The cgroup counts the whole run: only the plumbing's own time is taken off, so
            // only its levels are read (a JVM's dozens of threads are not walked at every
            // look, which a hosted bot's calls make thousands of times a game).
            let plumbing_self: u64 = walk_to(self.root, self.plumbing).iter().map(|(_, _, t)| t.own).sum();
            return total.saturating_sub(*base).saturating_sub(ticks(plumbing_self));
        }
        let tree = walk(self.root);
        let counted: u64 = tree
            .iter()
            .map(|(_, depth, t)| if *depth < self.plumbing { t.children } else { t.own + t.children })
            .sum();
        ticks(counted)
    }
}

/// A process's CPU times, in clock ticks.
#[derive(Debug, Clone, Copy, Default)]
struct Times {
    /// Its own user and system time.
    own: u64,
    /// The user and system time of the children it has reaped.
    children: u64,
}

/// The processes under `root` (itself included), each with its depth and times.
fn walk(root: libc::pid_t) -> Vec<(libc::pid_t, usize, Times)> {
    walk_to(root, usize::MAX)
}

/// The processes under `root` less than `levels` deep (`root` is at depth 0), each with its
/// depth and times.
fn walk_to(root: libc::pid_t, levels: usize) -> Vec<(libc::pid_t, usize, Times)> {
    let mut found = Vec::new();
    let mut queue = vec![(root, 0usize)];
    while let Some((pid, depth)) = queue.pop() {
        if depth >= levels {
            continue;
        }
        let Some(times) = times(pid) else { continue };
        found.push((pid, depth, times));
        if depth + 1 >= levels {
            continue;
        }
        for child in super::tasks::children(pid) {
            if !found.iter().any(|(p, _, _)| *p == child) {
                queue.push((child, depth + 1));
            }
        }
    }
    found
}

/// The times of `pid` from `/proc/PID/stat`.
fn times(pid: libc::pid_t) -> Option<Times> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may contain anything, spaces included.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<u64> = rest.split_whitespace().skip(11).take(4).filter_map(|f| f.parse().ok()).collect();
    match fields[..] {
        [utime, stime, cutime, cstime] => Some(Times { own: utime + stime, children: cutime + cstime }),
        _ => None,
    }
}

/// Clock ticks as a duration.
fn ticks(n: u64) -> Duration {
    static HZ: OnceLock<u64> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    let hz =
        *HZ.get_or_init(|| u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100).max(1));
    Duration::from_micros(n.saturating_mul(1_000_000) / hz)
}

/// The CPU time a cgroup has counted.
pub(crate) fn read_cgroup(file: &std::path::Path, kind: CgroupClock) -> Option<Duration> {
    parse_cgroup(&fs::read_to_string(file).ok()?, kind)
}

/// The CPU time in a cgroup counter file's text.
pub(crate) fn parse_cgroup(text: &str, kind: CgroupClock) -> Option<Duration> {
    match kind {
        CgroupClock::V2 => text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))
            .and_then(|v| v.trim().parse().ok())
            .map(Duration::from_micros),
        CgroupClock::V1 => text.trim().parse().ok().map(Duration::from_nanos),
    }
}

/// The number of processors online: a run cannot use CPU time faster than this.
pub(crate) fn online_cpus() -> u32 {
    static CPUS: OnceLock<u32> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    *CPUS.get_or_init(|| {
        u32::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }).unwrap_or(1).max(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_times_and_a_tree() {
        let me = std::process::id() as libc::pid_t;
        let mut x = 0u64;
        for i in 0..3_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(times(me).is_some());
        assert_eq!(walk(me)[0].0, me);
        assert!(online_cpus() >= 1);
    }

    #[test]
    fn cgroup_counters_are_read_in_both_formats() {
        let dir = tempfile::tempdir().unwrap();
        let v2 = dir.path().join("cpu.stat");
        fs::write(&v2, "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n").unwrap();
        assert_eq!(read_cgroup(&v2, CgroupClock::V2), Some(Duration::from_micros(1500)));
        let v1 = dir.path().join("cpuacct.usage");
        fs::write(&v1, "2000000000\n").unwrap();
        assert_eq!(read_cgroup(&v1, CgroupClock::V1), Some(Duration::from_secs(2)));
    }
}
