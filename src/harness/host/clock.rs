//! The CPU time a hosted bot is charged, read by arbiter from outside the host process: the
//! host (and the submission's code inside it) can neither see nor change it.
//!
//! - Every host: the run's cgroup counter (every process and thread of the run, to the
//!   nanosecond), kept open and read with one `pread`; without a cgroup, the runner's own
//!   reading of the run's process tree.
//! - A Java host, once [`BotClock::mark_runtime`] has been called (after its hello, before
//!   any class of the submission is loaded): the same, less the CPU time of the JVM's own
//!   threads that run no code of the student's (its JIT compilers, the VM thread that runs the
//!   serial garbage collector, the code-cache sweeper), read from
//!   `/proc/PID/task/TID/schedstat`. Those threads are told apart by the names they had at
//!   that moment, when no student code had run: a thread the student starts later and names
//!   `C2 CompilerThread0` is the student's all the same. Without a cgroup the JVM's process
//!   clock stands for the run (`clock_gettime` on its CPU clock: every thread, those that have
//!   ended included), and processes it starts are found when the case or game ends (see
//!   [`BotClock::process_time`]).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::time::Duration;

use crate::harness::runner::tasks::threads;
use crate::harness::runner::{CgroupClock, parse_cgroup};

/// Name prefixes (as `/proc/PID/task/TID/comm` shows them, 15 bytes at most) of the JVM's own
/// threads whose CPU time is not the student's: HotSpot's compilers, its VM thread (where the
/// serial collector runs), its parallel collector threads, the code-cache sweeper, and the
/// thread that hands references to their queues after a collection. The finalizer thread is
/// not among them: it runs the student's `finalize` methods.
const JVM_RUNTIME: &[&str] = &[
    "C1 CompilerThre",
    "C2 CompilerThre",
    "VM Thread",
    "GC Thread#",
    "G1 ",
    "Sweeper thread",
    "Reference Handl",
];

/// The CPU clock of one session's host.
pub struct BotClock {
    /// The run's cgroup counter, open.
    counter: Option<(File, CgroupClock)>,
    /// The host's top process (the JVM), as arbiter's PID namespace numbers it.
    pid: Option<libc::pid_t>,
    /// The JVM's own threads (their `schedstat`, open), once marked.
    runtime: Vec<File>,
    /// Every thread of the host when it was marked.
    baseline: Vec<libc::pid_t>,
    marked: bool,
    /// The highest reading so far: readings never go back.
    last: Duration,
    /// The run's total (runtime threads included) at the last reading.
    last_total: Option<Duration>,
}

impl BotClock {
    /// A clock for a run with cgroup counter `counter` (if any) and top process `pid`.
    pub(crate) fn new(counter: Option<(PathBuf, CgroupClock)>, pid: Option<libc::pid_t>) -> BotClock {
        let counter = counter.and_then(|(path, kind)| Some((File::open(path).ok()?, kind)));
        BotClock {
            counter,
            pid,
            runtime: Vec::new(),
            baseline: Vec::new(),
            marked: false,
            last: Duration::ZERO,
            last_total: None,
        }
    }

    /// Records the host's threads as they are now, and which of them are the JVM's own (see the
    /// module's documentation). Call once, after the hello (when `pid`, the host's top process,
    /// surely runs) and before the submission loads.
    pub fn mark_runtime(&mut self, pid: Option<libc::pid_t>) {
        self.pid = pid.or(self.pid);
        let Some(pid) = self.pid else { return };
        self.baseline = threads(pid).unwrap_or_default();
        self.runtime = self
            .baseline
            .iter()
            .filter(|tid| {
                let name =
                    std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/comm")).unwrap_or_default();
                JVM_RUNTIME.iter().any(|p| name.starts_with(p))
            })
            .filter_map(|tid| File::open(format!("/proc/{pid}/task/{tid}/schedstat")).ok())
            .collect();
        self.marked = true;
        // Readings from now on leave the runtime's threads out: they start again from here.
        self.last = Duration::ZERO;
        self.last_total = None;
    }

    /// Whether [`BotClock::mark_runtime`] has been called.
    pub fn is_marked(&self) -> bool {
        self.marked
    }

    /// The bot's CPU time so far; `run` is the runner's reading of the whole run, used when
    /// there is neither a cgroup nor (for an unmarked host) anything finer.
    pub fn read(&mut self, run: impl FnOnce() -> Duration) -> Duration {
        let total = match (&self.counter, self.marked, self.pid) {
            (Some((file, kind)), _, _) => read_counter(file, *kind).unwrap_or_else(run),
            (None, true, Some(pid)) => process_clock(pid).unwrap_or_else(run),
            _ => run(),
        };
        // Nothing of the run has used a processor since the last reading (a host waiting for
        // its next request): the runtime's threads have not either, and their counters need
        // not be read again. Exact, not an estimate: the total covers them.
        if self.last_total == Some(total) {
            return self.last;
        }
        self.last_total = Some(total);
        let runtime: Duration = self.runtime.iter().filter_map(schedstat).sum();
        self.last = self.last.max(total.saturating_sub(runtime));
        self.last
    }

    /// The host's threads that were not there when it was marked, by name ("Thread-0 (12345)").
    pub fn new_threads(&self) -> Vec<String> {
        let Some(pid) = self.pid.filter(|_| self.marked) else { return Vec::new() };
        threads(pid)
            .unwrap_or_default()
            .into_iter()
            .filter(|tid| !self.baseline.contains(tid))
            .map(|tid| {
                let name =
                    std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/comm")).unwrap_or_default();
                format!("{} ({tid})", name.trim())
            })
            .collect()
    }

    /// Whether readings cover every process of the run (a cgroup), rather than the host
    /// process alone (a marked host without one): then the others' time is the run's less
    /// [`BotClock::process_time`].
    pub fn covers_processes(&self) -> bool {
        self.counter.is_some() || !self.marked
    }

    /// The JVM's process clock: the CPU time of every thread of the host process, live or
    /// ended; with the runner's reading of the whole run, what other processes used is the
    /// difference.
    pub fn process_time(&self) -> Option<Duration> {
        self.pid.and_then(process_clock)
    }
}

/// A cgroup counter, read again from its start.
fn read_counter(file: &File, kind: CgroupClock) -> Option<Duration> {
    let mut buf = [0u8; 512];
    let n = file.read_at(&mut buf, 0).ok()?;
    parse_cgroup(std::str::from_utf8(&buf[..n]).ok()?, kind)
}

/// The time a thread has run, from its `schedstat` (nanoseconds, first field).
fn schedstat(file: &File) -> Option<Duration> {
    let mut buf = [0u8; 128];
    let n = file.read_at(&mut buf, 0).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// The CPU clock of process `pid`: every thread's time, those that have ended included.
fn process_clock(pid: libc::pid_t) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: clock_getcpuclockid writes one clockid_t; clock_gettime one timespec.
    unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0 {
            return None;
        }
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        if libc::clock_gettime(clock, &mut ts) != 0 {
            return None;
        }
        Some(Duration::new(u64::try_from(ts.tv_sec).ok()?, u32::try_from(ts.tv_nsec).ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_read_by_its_clock_and_its_threads_by_id() {
        let me = std::process::id() as libc::pid_t;
        let mut clock = BotClock::new(None, None);
        clock.mark_runtime(Some(me));
        assert!(clock.process_time().is_some());
        let first = clock.read(|| Duration::ZERO);
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(clock.read(|| Duration::ZERO) > first);
        let (tx, rx) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            tx.send(unsafe { libc::gettid() }).unwrap();
            std::thread::sleep(Duration::from_millis(300));
        });
        let tid = rx.recv().unwrap();
        let found = clock.new_threads();
        assert!(found.iter().any(|t| t.ends_with(&format!("({tid})"))), "{found:?}");
        worker.join().unwrap();
    }
}
