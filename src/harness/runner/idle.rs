//! How long a run has sat idle: none of its tasks running on a processor or waiting for one.
//!
//! A run's time limit is CPU time. A bot that sleeps, or waits for input that never comes, uses
//! none, so a second limit stops it: its idle time ([`super::Limits::idle_limit`]). Wall time
//! would not do: on a machine that gives a bot a fifth of a core, a bot that computes sees five
//! seconds of wall time for each second of CPU, and a wall-clock cap punishes it for the
//! neighbours' work. Idle time counts only what the bot chose: sleeping, waiting on a pipe or a
//! disk, being stopped.
//!
//! The kernel counts, for every task (thread), the time it ran and the time it spent runnable
//! but waiting for a processor (`/proc/TID/schedstat`, first and second fields, in ns). Over
//! each interval between two looks the meter takes
//!
//! ```text
//! idle += max(0, wall - sum over tasks of (ran + waited) - forgiven)
//! ```
//!
//! The tasks are those of the run's cgroup (listed by the kernel, every thread of every
//! process) or, without one, those of the run's process tree.
//!
//! - **Several threads** add up their times, which can pass the wall time; the sum is then at
//!   least the time any of them was active, so the estimate of idleness is never above the
//!   truth: in the bot's favour.
//! - **Tasks that end between two looks** take their last times with them. Their CPU time is
//!   not lost (the run's clock counts it: the cgroup's counter, or the parent's count of reaped
//!   children), but their wait is, and counting it as idle would be against a bot that computes
//!   in short-lived children on a busy machine. So the CPU time the seen tasks do not account
//!   for, and each task that vanished, are *forgiven*: taken as active time, with a wait of
//!   [`WAIT_FACTOR`] times the machine's load per core for each second of that CPU time. This
//!   errs in the bot's favour; it lets a sleeper that keeps starting tiny threads stretch its
//!   idle time by at most that factor, paid for in CPU time.
//! - The kernel's pressure counters (`cpu.pressure` of a cgroup) are not used: they average the
//!   processors' stall times weighted by each one's busy time, so a thread that moves between
//!   two processors shows only part of its wait.
//!
//! Where the kernel gives no per-task wait (built without `CONFIG_SCHED_INFO`), the meter scales
//! instead: `idle += max(0, wall - cpu / share)`, the share being the machine's processors over
//! its runnable tasks at each look; [`idle_method`] says which, for the report header.

use std::collections::HashMap;
use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A forgotten task's wait is taken as this many times its CPU time, times the machine's
/// runnable tasks per processor (at least 1): generous, as it should be.
pub const WAIT_FACTOR: f64 = 2.0;

/// What a task that vanished between two looks is forgiven besides its CPU time: about one
/// scheduler time slice of waiting (scaled like [`WAIT_FACTOR`]).
const VANISHED: Duration = Duration::from_millis(10);

/// The CPU time seen tasks may seem not to account for without a task having ended: the run's
/// clock and the tasks are read a moment apart.
const EXACT_SLACK: Duration = Duration::from_millis(1);

/// Per process, when the run's CPU clock counts in clock ticks (the process tree in `/proc`):
/// two ticks of rounding each.
const TICK_SLACK: Duration = Duration::from_millis(20);

/// The most tasks whose `schedstat` a meter keeps open between looks; a run with more has the
/// rest opened and closed at each look, so that a bot that starts thousands of threads cannot
/// make arbiter run out of descriptors.
const KEPT_OPEN: usize = 64;

/// How idleness is measured on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleMethod {
    /// Each task's wait for a processor is read from the kernel: idle time is exact, or
    /// errs in the bot's favour.
    TaskWait,
    /// The kernel gives no per-task wait: idle time is wall time less CPU time scaled by the
    /// share of a processor the machine's load leaves each task.
    LoadScaled,
}

impl IdleMethod {
    /// A sentence for a report header, when the method is not the exact one.
    pub fn caveat(self) -> Option<&'static str> {
        match self {
            IdleMethod::TaskWait => None,
            IdleMethod::LoadScaled => Some(
                "idle limits scaled by the machine's load: this kernel reports no per-task wait for a \
                 processor (no /proc/PID/schedstat), so a bot's idle time is its wall time less its CPU \
                 time divided by the share of a processor the load left it",
            ),
        }
    }
}

/// How this machine's kernel lets idleness be measured (worked out once).
pub fn idle_method() -> IdleMethod {
    static METHOD: OnceLock<IdleMethod> = OnceLock::new();
    *METHOD.get_or_init(|| {
        match fs::read_to_string("/proc/thread-self/schedstat").ok().as_deref().and_then(parse_schedstat) {
            Some(_) => IdleMethod::TaskWait,
            None => IdleMethod::LoadScaled,
        }
    })
}

/// Where a run's tasks are found.
#[derive(Debug, Clone)]
pub enum Tasks {
    /// A cgroup file listing the id of every thread in the cgroup (`tasks` in v1,
    /// `cgroup.threads` in v2), and the sandbox's helper process (its threads and its
    /// children's: the run's init before it joins the cgroup), which sets the run up.
    Cgroup {
        /// The cgroup's list of threads.
        file: PathBuf,
        /// The helper's pid.
        helper: libc::pid_t,
    },
    /// The process tree under this pid, itself included, and each process's threads.
    Tree(libc::pid_t),
}

/// A task's times from `/proc/TID/schedstat`, in ns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Sched {
    ran: u64,
    waited: u64,
}

/// One interval between two looks, as the meter judges it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Interval {
    /// Wall time.
    pub wall: Duration,
    /// The seen tasks' running and waiting time, summed.
    pub active: Duration,
    /// The seen tasks' running time, summed.
    pub ran: Duration,
    /// The CPU time the run's clock counted.
    pub cpu: Duration,
    /// The CPU time the seen tasks may seem not to account for without any having ended.
    pub slack: Duration,
    /// Tasks seen at the last look and gone now.
    pub vanished: usize,
    /// The machine's runnable tasks per processor (at least 1).
    pub load: f64,
}

impl Interval {
    /// The idle time in the interval, by per-task waits (see the module documentation).
    pub(crate) fn idle(&self) -> Duration {
        let unseen = self.cpu.saturating_sub(self.ran).saturating_sub(self.slack)
            + VANISHED * u32::try_from(self.vanished).unwrap_or(u32::MAX);
        let forgiven = unseen.mul_f64(1.0 + WAIT_FACTOR * self.load.max(1.0));
        self.wall.saturating_sub(self.active).saturating_sub(forgiven)
    }

    /// The idle time in the interval where no per-task wait is known: wall time less the CPU
    /// time it would have taken at the share of a processor the load leaves each task.
    pub(crate) fn idle_scaled(&self) -> Duration {
        self.wall.saturating_sub(self.cpu.mul_f64(self.load.max(1.0)))
    }
}

/// Measures one run's idle time, look by look.
#[derive(Debug)]
pub struct IdleMeter {
    tasks: Tasks,
    method: IdleMethod,
    /// Whether the run's CPU clock counts in ns (a cgroup) rather than clock ticks.
    exact_cpu: bool,
    last: Instant,
    last_cpu: Duration,
    seen: HashMap<libc::pid_t, Sched>,
    /// The seen tasks' `schedstat`, kept open (a JVM's two dozen threads are looked at every
    /// few tens of milliseconds of a game: one `pread` each rather than open, read, close).
    files: SchedFiles,
    idle: Duration,
}

impl IdleMeter {
    /// A meter for a run that started at `start`, its tasks found at `tasks`; `exact_cpu`
    /// when the CPU time passed to [`IdleMeter::look`] counts in ns rather than clock ticks.
    pub fn new(tasks: Tasks, exact_cpu: bool, start: Instant) -> IdleMeter {
        IdleMeter {
            tasks,
            method: idle_method(),
            exact_cpu,
            last: start,
            last_cpu: Duration::ZERO,
            seen: HashMap::new(),
            files: SchedFiles::default(),
            idle: Duration::ZERO,
        }
    }

    /// The idle time found by the last look.
    pub fn idle(&self) -> Duration {
        self.idle
    }

    /// When the last look was.
    pub fn last_look(&self) -> Instant {
        self.last
    }

    /// Looks at the run's tasks now, `cpu` being the CPU time the run's clock has counted;
    /// returns the idle time so far.
    pub fn look(&mut self, cpu: Duration) -> Duration {
        let now = Instant::now();
        let wall = now.saturating_duration_since(self.last);
        let mut interval = Interval {
            wall,
            cpu: cpu.saturating_sub(self.last_cpu),
            load: load_per_core(),
            ..Interval::default()
        };
        let idle = match self.method {
            IdleMethod::TaskWait => {
                let (current, processes) = read_tasks(&self.tasks, &mut self.files);
                self.files.keep_only(&current);
                let (mut ran, mut waited) = (0u64, 0u64);
                for (tid, now) in &current {
                    let before = self.seen.get(tid).copied().unwrap_or_default();
                    // A smaller count than before is a new task that got a dead one's id.
                    let before = if now.ran >= before.ran && now.waited >= before.waited {
                        before
                    } else {
                        Sched::default()
                    };
                    ran += now.ran - before.ran;
                    waited += now.waited - before.waited;
                }
                interval.vanished = self.seen.keys().filter(|tid| !current.contains_key(tid)).count();
                interval.ran = Duration::from_nanos(ran);
                interval.active = Duration::from_nanos(ran.saturating_add(waited));
                interval.slack = if self.exact_cpu {
                    EXACT_SLACK
                } else {
                    TICK_SLACK * u32::try_from(processes.max(1)).unwrap_or(u32::MAX)
                };
                self.seen = current;
                interval.idle()
            }
            IdleMethod::LoadScaled => interval.idle_scaled(),
        };
        self.idle += idle;
        self.last = now;
        self.last_cpu = self.last_cpu.max(cpu);
        self.idle
    }
}

/// Tasks' `schedstat` files kept open between looks, by task id.
#[derive(Debug, Default)]
struct SchedFiles(HashMap<libc::pid_t, File>);

impl SchedFiles {
    /// Task `tid`'s times, from its file kept open, or else from `path` (then kept open). A task
    /// that has ended fails to read through its old descriptor, even when a new task has been
    /// given its id: that one is opened afresh by its path.
    fn read(&mut self, tid: libc::pid_t, path: &str) -> Option<Sched> {
        if let Some(file) = self.0.get(&tid) {
            if let Some(sched) = pread_sched(file) {
                return Some(sched);
            }
            self.0.remove(&tid);
        }
        let file = File::open(path).ok()?;
        let sched = pread_sched(&file)?;
        if self.0.len() < KEPT_OPEN {
            self.0.insert(tid, file);
        }
        Some(sched)
    }

    /// Closes the files of tasks not in `current`.
    fn keep_only(&mut self, current: &HashMap<libc::pid_t, Sched>) {
        self.0.retain(|tid, _| current.contains_key(tid));
    }
}

/// The run's tasks and their times, and how many processes they make up.
fn read_tasks(tasks: &Tasks, files: &mut SchedFiles) -> (HashMap<libc::pid_t, Sched>, usize) {
    let mut found = HashMap::new();
    match tasks {
        Tasks::Cgroup { file, helper } => {
            let text = fs::read_to_string(file).unwrap_or_default();
            for tid in text.split_whitespace().filter_map(|t| t.parse::<libc::pid_t>().ok()) {
                if let Some(s) = files.read(tid, &format!("/proc/{tid}/schedstat")) {
                    found.insert(tid, s);
                }
            }
            for pid in std::iter::once(*helper).chain(super::tasks::children(*helper)) {
                add_threads(pid, &mut found, files);
            }
            // Processes are not told apart here: the CPU clock of a cgroup counts in ns.
            (found, 1)
        }
        Tasks::Tree(root) => {
            let processes = tree(*root);
            for pid in &processes {
                add_threads(*pid, &mut found, files);
            }
            (found, processes.len())
        }
    }
}

/// Adds the threads of process `pid` and their times to `found`.
fn add_threads(pid: libc::pid_t, found: &mut HashMap<libc::pid_t, Sched>, files: &mut SchedFiles) {
    for tid in super::tasks::threads(pid).unwrap_or_default() {
        if let Some(s) = files.read(tid, &format!("/proc/{pid}/task/{tid}/schedstat")) {
            found.insert(tid, s);
        }
    }
}

/// The processes under `root`, itself included.
fn tree(root: libc::pid_t) -> Vec<libc::pid_t> {
    let mut found = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        if found.contains(&pid) || !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        found.push(pid);
        queue.extend(super::tasks::children(pid));
    }
    found
}

/// A `schedstat` file's times, read again from its start.
fn pread_sched(file: &File) -> Option<Sched> {
    let mut buf = [0u8; 128];
    let n = file.read_at(&mut buf, 0).ok()?;
    parse_schedstat(std::str::from_utf8(&buf[..n]).ok()?)
}

/// `/proc/TID/schedstat`: time run (ns), time waited for a processor (ns), time slices.
fn parse_schedstat(text: &str) -> Option<Sched> {
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>().ok());
    let ran = fields.next()??;
    let waited = fields.next()??;
    Some(Sched { ran, waited })
}

/// The machine's runnable tasks per processor now (from `/proc/loadavg`'s `R/T` field, less
/// the one reading it), at least 1; 1 when it cannot be read.
fn load_per_core() -> f64 {
    let runnable = fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().nth(3)?.split_once('/')?.0.parse::<f64>().ok())
        .map_or(1.0, |r| (r - 1.0).max(1.0));
    (runnable / f64::from(super::cpu::online_cpus())).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn an_interval_is_idle_for_what_no_task_ran_or_waited() {
        let sleeping = Interval { wall: ms(100), load: 1.0, slack: EXACT_SLACK, ..Interval::default() };
        assert_eq!(sleeping.idle(), ms(100));
        // Running 20 ms and waiting 70 ms for a processor leaves 10 ms idle.
        let starved = Interval { active: ms(90), ran: ms(20), cpu: ms(20), ..sleeping };
        assert_eq!(starved.idle(), ms(10));
        // Two threads busy at once add up past the wall time: not idle, never negative.
        let threads = Interval { active: ms(190), ran: ms(190), cpu: ms(190), ..sleeping };
        assert_eq!(threads.idle(), Duration::ZERO);
    }

    #[test]
    fn the_wait_of_tasks_that_ended_unseen_is_forgiven() {
        // 30 ms of CPU time went to a child that ended between two looks; its wait for a
        // processor was lost with it. At 3 runnable tasks per processor it is forgiven
        // 30 ms x (1 + 2 x 3) = 210 ms of the interval.
        let gone = Interval { wall: ms(300), cpu: ms(30), load: 3.0, ..Interval::default() };
        assert_eq!(gone.idle(), ms(90));
        // A task that vanished is forgiven a time slice even without CPU time to show:
        // 10 ms x (1 + 2 x 1).
        let vanished = Interval { vanished: 1, load: 1.0, cpu: Duration::ZERO, ..gone };
        assert_eq!(vanished.idle(), ms(270));
        // CPU time within the slack is the clocks' rounding, not a task that ended.
        let rounding = Interval { cpu: ms(1), load: 1.0, slack: EXACT_SLACK, ..gone };
        assert_eq!(rounding.idle(), ms(300));
    }

    #[test]
    fn without_per_task_waits_cpu_time_is_scaled_by_the_load() {
        // A fifth of a core: 100 ms of CPU time in 500 ms of wall time is busy all along.
        let busy = Interval { wall: ms(500), cpu: ms(100), load: 5.0, ..Interval::default() };
        assert_eq!(busy.idle_scaled(), Duration::ZERO);
        let half = Interval { cpu: ms(50), ..busy };
        assert_eq!(half.idle_scaled(), ms(250));
    }

    #[test]
    fn a_kept_file_of_a_task_that_ended_is_not_read_again() {
        let mut files = SchedFiles::default();
        let worker = crate::harness::runner::tasks::ParkedThread::start();
        let tid = worker.tid;
        let path = format!("/proc/{tid}/schedstat");
        assert!(files.read(tid, &path).is_some());
        assert!(files.read(tid, &path).is_some(), "read again through the kept file");
        assert_eq!(files.0.len(), 1);
        worker.end();
        // The kernel lets go of an ended thread a moment after it is joined.
        let gone = (0..100).any(|_| {
            std::thread::sleep(ms(10));
            files.read(tid, &path).is_none()
        });
        assert!(gone, "an ended thread is still read");
        assert!(files.0.is_empty(), "its file is closed");
    }

    #[test]
    fn schedstat_lines_are_read() {
        assert_eq!(parse_schedstat("123 456 7\n"), Some(Sched { ran: 123, waited: 456 }));
        assert_eq!(parse_schedstat("123\n"), None);
        assert_eq!(parse_schedstat(""), None);
    }
}
