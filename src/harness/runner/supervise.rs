//! Watching a started run until it ends or reaches a time limit, and concluding it: killing
//! what is left, reaping it, and accounting for its CPU time and outcome (the sandbox's reports
//! where it ran in one).

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::capture::{Capture, Drained};
use super::cpu::RunClock;
use super::cpu::{self, CgroupClock};
use super::idle::IdleMeter;
use super::limits::{AppliedLimits, Limits};
use super::process;
use super::report::{Outcome, RunReport, TimeLimit, os_message, outcome_of};
use super::usage::CpuTimes;
use crate::harness::sandbox::cgroup::RunCgroup;
use crate::harness::sandbox::launch::Launch;
use crate::harness::sandbox::spec::Event;
use std::fs::File;
use std::sync::mpsc::Receiver;

/// How long to wait for a killed bot to finish dying before giving up on its exit status.
/// SIGKILL cannot be caught, so only a process stuck in the kernel takes this long.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// How long the sandbox gets, once told to stop a run, to kill its processes, hand back the
/// case folder and report the run's CPU time, before it is killed outright.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// How long to wait, after the process group is dead, for the output threads to reach the end
/// of their pipes. It is only ever used up when a process outside the group holds a pipe.
pub(crate) const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// The shortest wait between two readings of a run's CPU time.
const CPU_POLL_MIN: Duration = Duration::from_millis(10);

/// The longest wait between two readings of a run's CPU time.
const CPU_POLL_MAX: Duration = Duration::from_millis(250);

/// The shortest time between two looks at a run's idle time asked for by a caller that polls
/// (a hosted bot's session): the limits it guards are seconds long.
const IDLE_LOOK_MIN: Duration = Duration::from_millis(20);

/// How often a session's setup is looked at while it is waited for.
const SETUP_LOOK: Duration = Duration::from_millis(2);

/// How long the events of a helper that has ended are waited for.
const SETUP_DRAIN: Duration = Duration::from_millis(500);

/// A bot process (or the sandbox helper running it) that has been started, and what watches
/// it.
pub(crate) struct Started {
    pub(super) process: Proc,
    pub(super) pid: libc::pid_t,
    /// The grader's ends of the bot's stdin (when piped), stdout and stderr.
    pub(super) stdin: Option<File>,
    pub(super) stdout: Option<File>,
    pub(super) stderr: Option<File>,
    pub(super) launch: Option<Launch>,
    /// Without the sandbox, the cgroup the bot was started in, if one could be made: it finds
    /// the processes that left the bot's session.
    pub(super) tracker: Option<RunCgroup>,
    /// The sandbox's reports, read on a thread.
    pub(super) status: Option<Capture>,
    /// Fires when the process has terminated (it is left unreaped).
    pub(super) exited: Receiver<io::Result<()>>,
    /// What the exit watcher said, once it has.
    pub(super) watched: Option<io::Result<()>>,
    pub(super) clock: RunClock,
    /// The run's idle time, measured look by look.
    pub(super) idle: IdleMeter,
    pub(super) start: Instant,
    /// The CPU time last read while the run went on.
    pub(super) cpu_seen: Duration,
    pub(super) report: RunReport,
}

/// The process the runner started.
pub(super) enum Proc {
    /// The bot itself (no sandbox): a child of this process.
    Child(Child),
    /// The run's sandbox helper, a child of the zygote, held by a pidfd.
    Helper(OwnedFd),
}

impl Started {
    /// The CPU time the run has used so far.
    pub(crate) fn cpu_time(&mut self) -> Duration {
        if self.watched.is_none() {
            self.cpu_seen = self.cpu_seen.max(self.clock.read());
        }
        self.cpu_seen
    }

    /// The cgroup counter of the run's CPU time and the bot's top process (see
    /// [`cpu::RunClock::counter`] and [`cpu::RunClock::bot_pid`]).
    pub(crate) fn clock_parts(&self) -> (Option<(std::path::PathBuf, CgroupClock)>, Option<libc::pid_t>) {
        (self.clock.counter(), self.clock.bot_pid())
    }

    /// Waits until the sandbox says the bot is about to start (or that its setup failed, or
    /// the run ended), at most `wait`. `Err` with why only where the setup failed: nothing of
    /// the bot ran. Without the sandbox there is nothing to wait for.
    pub(crate) fn set_up(&mut self, wait: Duration) -> Result<(), String> {
        if self.status.is_none() {
            return Ok(());
        }
        let mut deadline = Instant::now() + wait;
        let mut ended = false;
        loop {
            // Looked at before the events: a helper that ended has written its last event,
            // which the thread reading them may not have taken in yet.
            if !ended && self.ended_within(SETUP_LOOK) {
                ended = true;
                deadline = deadline.min(Instant::now() + SETUP_DRAIN);
            }
            let events = self.status.as_ref().map(Capture::so_far).unwrap_or_default();
            for line in events.split(|&b| b == b'\n') {
                match serde_json::from_slice::<Event>(line) {
                    Ok(Event::Ready) => return Ok(()),
                    Ok(Event::SetupFailed { why }) => {
                        return Err(format!("the sandbox could not be set up: {why}"));
                    }
                    _ => {}
                }
            }
            if Instant::now() >= deadline {
                return Ok(());
            }
            if ended {
                std::thread::sleep(SETUP_LOOK);
            }
        }
    }

    /// Whether the process has ended, waiting at most `wait` for it to.
    pub(crate) fn ended_within(&mut self, wait: Duration) -> bool {
        if self.watched.is_some() {
            return true;
        }
        match self.exited.recv_timeout(wait) {
            Ok(watch) => {
                self.watched = Some(watch);
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                self.watched = Some(Err(io::Error::other("the thread waiting for the bot stopped")));
                true
            }
        }
    }

    /// The time the run has sat idle so far (see [`idle`](super::idle)), looking again unless the last
    /// look was less than [`IDLE_LOOK_MIN`] ago.
    pub(crate) fn idle_time(&mut self) -> Duration {
        if self.watched.is_none() && self.idle.last_look().elapsed() >= IDLE_LOOK_MIN {
            self.look();
        }
        self.idle.idle()
    }

    /// Reads the run's CPU time and looks at its idle time, now.
    fn look(&mut self) {
        let cpu = self.clock.read();
        self.cpu_seen = self.cpu_seen.max(cpu);
        self.idle.look(cpu);
    }

    /// Waits for the run to end by itself or to reach a time limit, whichever is first;
    /// returns the limit it reached.
    pub(crate) fn wait(&mut self, limits: &Limits) -> Option<TimeLimit> {
        let idle_limit = limits.idle_limit();
        loop {
            // The soonest a limit can be reached: what is left of the CPU time, spent on every
            // processor at once, or what is left of the idle time.
            let cpu_left = limits.timeout.saturating_sub(self.cpu_seen) / cpu::online_cpus();
            let idle_left = idle_limit.saturating_sub(self.idle.idle());
            let wait = cpu_left.min(idle_left).clamp(CPU_POLL_MIN, CPU_POLL_MAX);
            if self.ended_within(wait) {
                return None;
            }
            self.look();
            if self.over_cpu(limits) {
                return Some(TimeLimit::Cpu);
            }
            if self.idle.idle() >= idle_limit {
                return Some(TimeLimit::Idle);
            }
        }
    }

    /// Whether the run has used more than its CPU time; a reading over the limit is taken
    /// again, so that a process counted twice while its parent reaped it cannot end a run.
    pub(crate) fn over_cpu(&mut self, limits: &Limits) -> bool {
        if self.cpu_time() < limits.timeout {
            return false;
        }
        self.cpu_seen = self.clock.read();
        self.cpu_seen >= limits.timeout
    }

    /// Kills what is left of the run (after asking the sandbox to end it, if it has not ended
    /// by itself), reaps it and reports how it went, `limit` being the time limit it reached.
    /// Output is left to the caller.
    pub(crate) fn conclude(mut self, limit: Option<TimeLimit>, limits: &Limits) -> RunReport {
        let mut report =
            std::mem::replace(&mut self.report, RunReport::starting(limits, AppliedLimits::default()));
        report.elapsed = self.start.elapsed();
        report.idle = Some(self.idle.idle());
        if self.watched.is_none()
            && let Some(launch) = self.launch.as_mut()
        {
            // The sandbox kills every process of the run, hands back the case folder and
            // says how much CPU time the run used.
            launch.stop();
            self.ended_within(STOP_GRACE);
        }
        // The process is still unreaped here, so its pid (= the group id) is still taken.
        // Kill the group before reaping: that ends any children it left behind, and with them
        // the last writers of the output pipes, so the capture threads reach end of file.
        match &self.process {
            Proc::Child(_) => process::kill_group(self.pid),
            Proc::Helper(pidfd) => process::kill_pidfd(pidfd),
        }
        if let Some(cg) = self.tracker.take() {
            // Last reading, detached processes included; then every one of them is killed.
            self.cpu_seen = self.cpu_seen.max(self.clock.read());
            cg.remove();
        }
        process::unregister(self.pid);
        if self.watched.is_none() {
            self.ended_within(KILL_GRACE);
        }
        let timed_out = limit.is_some();
        let mut rusage_cpu = None;
        let reaps = matches!(self.process, Proc::Child(_));
        report.outcome = match self.watched.take() {
            // The zygote reaps the helper; its outcome is in its reports.
            Some(Ok(())) if !reaps => Outcome::StatusUnknown("the sandbox ended without a report".to_owned()),
            Some(Ok(())) => match reap(self.pid) {
                Ok((status, cpu)) => {
                    rusage_cpu = Some(cpu);
                    outcome_of(status, timed_out)
                }
                Err(err) => Outcome::StatusUnknown(os_message(&err)),
            },
            Some(Err(err)) => Outcome::StatusUnknown(os_message(&err)),
            // Still alive after SIGKILL (stuck in the kernel). Leave it; dropping the child
            // does not wait, and the wait thread ends once the process does.
            None if timed_out => Outcome::TimedOut,
            None => Outcome::StatusUnknown("the process did not end after SIGKILL".to_owned()),
        };
        let mut cpu = self.cpu_seen.max(rusage_cpu.map(|(all, _)| all).unwrap_or_default());
        let mut user = rusage_cpu.map(|(_, user)| user);
        if let Some(status) = self.status.take() {
            let Drained { data, .. } = status.finish(Instant::now() + DRAIN_GRACE);
            report.events = data
                .split(|&b| b == b'\n')
                .filter(|line| !line.is_empty())
                .filter_map(|line| serde_json::from_slice(line).ok())
                .collect();
            // The sandbox's count is exact: every process of the run, reaped.
            cpu = report
                .events
                .iter()
                .find_map(|e| match e {
                    Event::Usage { cpu_us, .. } => Some(Duration::from_micros(*cpu_us)),
                    _ => None,
                })
                .unwrap_or(self.cpu_seen);
            user = report.events.iter().find_map(|e| match e {
                Event::Usage { user_us, .. } => user_us.map(Duration::from_micros),
                _ => None,
            });
            let helper = std::mem::replace(&mut report.outcome, Outcome::TimedOut);
            let cgroup = self.launch.as_ref().and_then(|l| l.cgroup.as_ref());
            report.outcome = sandboxed_outcome(&report.events, helper, timed_out, cgroup, limits);
        }
        report.cpu_time = Some(cpu);
        report.user_time = user.map(|u| u.min(cpu));
        report.time_limit = limit;
        // A run that used more than its CPU time is a timeout however it ended, even one that
        // ended between two readings of its clock: the verdict must not depend on when the
        // clock was read.
        if limit.is_none() && cpu > limits.timeout && !matches!(report.outcome, Outcome::FailedToStart(_)) {
            report.outcome = Outcome::TimedOut;
            report.time_limit = Some(TimeLimit::Cpu);
        }
        if let Some(cg) = self.launch.as_mut().and_then(|l| l.cgroup.take()) {
            cg.remove();
        }
        report
    }

    /// Kills and reaps a run that cannot be supervised; the report says why.
    pub(super) fn abandon(mut self, why: String) -> RunReport {
        let mut report = std::mem::replace(
            &mut self.report,
            RunReport::starting(&Limits::default(), AppliedLimits::default()),
        );
        if let Some(cg) = self.tracker.take() {
            cg.remove();
        }
        match self.process {
            Proc::Child(child) => abandon(self.pid, child),
            Proc::Helper(pidfd) => {
                process::kill_pidfd(&pidfd);
                process::unregister(self.pid);
            }
        }
        if let Some(cg) = self.launch.as_mut().and_then(|l| l.cgroup.take()) {
            cg.remove();
        }
        report.outcome = Outcome::FailedToStart(why);
        report.cpu_time = Some(Duration::ZERO);
        report.user_time = Some(Duration::ZERO);
        report
    }
}

/// The bot's outcome from what the sandbox helper reported. A setup failure outranks
/// everything; a limit the sandbox or the kernel enforced outranks the signal it was enforced
/// with.
fn sandboxed_outcome(
    events: &[Event],
    helper: Outcome,
    timed_out: bool,
    cgroup: Option<&RunCgroup>,
    limits: &Limits,
) -> Outcome {
    if timed_out {
        return Outcome::TimedOut;
    }
    let mut outcome = None;
    for event in events {
        let found = match event {
            Event::SetupFailed { why } => {
                return Outcome::GraderError(format!("the sandbox could not be set up: {why}"));
            }
            Event::StartFailed { why } => return Outcome::FailedToStart(why.clone()),
            Event::OverLimit { what } => Outcome::OverLimit(what.clone()),
            Event::Exited { code } => Outcome::Exited(*code),
            Event::Signaled { signal } => Outcome::Signaled(*signal, process::signal_name(*signal)),
            Event::CopyFailed { why } => {
                return Outcome::StatusUnknown(format!(
                    "the sandbox could not hand back the case folder: {why}"
                ));
            }
            Event::Layer { .. }
            | Event::Missing { .. }
            | Event::Usage { .. }
            | Event::Stopped
            | Event::Ready => continue,
        };
        if !matches!(outcome, Some(Outcome::OverLimit(_))) {
            outcome = Some(found);
        }
    }
    let outcome = match outcome {
        Some(outcome) => outcome,
        None => return Outcome::StatusUnknown(format!("the sandbox ended without a report ({helper:?})")),
    };
    if outcome != Outcome::Exited(0)
        && let Some(cg) = cgroup
        && cg.out_of_memory()
    {
        let limit =
            limits.memory_bytes.map_or_else(|| "its limit".to_owned(), crate::harness::sandbox::bytes);
        return Outcome::OverLimit(format!("more than {limit} of memory, all its processes together"));
    }
    outcome
}

/// Reaps child `pid` (which has terminated), returning its status and the CPU time it and its
/// reaped descendants used (user + system, and user). `wait4` rather than `Child::wait`, for the resource usage.
fn reap(pid: libc::pid_t) -> io::Result<(ExitStatus, (Duration, Duration))> {
    loop {
        let mut status = 0;
        // SAFETY: wait4 writes only to `status` and `usage`.
        let (rc, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let rc = libc::wait4(pid, &mut status, 0, &mut usage);
            (rc, usage)
        };
        if rc == pid {
            let used = CpuTimes::of(&usage);
            return Ok((ExitStatus::from_raw(status), (used.total, used.user)));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Kills and reaps a bot that cannot be supervised.
pub(super) fn abandon(pid: libc::pid_t, mut child: Child) {
    process::kill_group(pid);
    process::unregister(pid);
    // SIGKILL cannot be caught or ignored, so this wait is short.
    let _ = child.wait();
}
