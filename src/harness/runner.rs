//! Running one bot process safely: limits, a time limit, captured output, and no survivors.
//!
//! A bot is an untrusted program. It may crash, hang, start children that hang, flood its
//! output, write huge files or allocate without end. [`run`] starts it with resource limits
//! ([`Limits`]), inside the sandbox unless that is off ([`crate::harness::sandbox`]), drains its
//! stdout and stderr on threads so it never blocks on a full pipe, and ends it when it has used
//! its CPU time ([`Limits::timeout`]) or has sat idle for too long ([`Limits::idle_limit`]),
//! whichever comes first. Then everything it started is killed, whether it timed out or exited normally.
//! [`Interactive`] runs a bot the same way but keeps it alive, talking to it over its stdin and
//! stdout a line at a time.
//!
//! The time limit is CPU time, read while the bot runs ([`cpu`]), and the backstop for a bot
//! that sleeps is idle time, the time none of its tasks was running or waiting for a processor
//! ([`idle`]): a neighbour that loads the machine slows a bot down but changes neither.
//!
//! Without the sandbox (`--sandbox off`) the bot runs in a session of its own and its process
//! group is killed at the end; a process that moves itself into another session escapes that
//! kill (the runner still returns on time). The sandbox closes that gap.
//!
//! This module knows nothing about the game: it runs a command and reports what happened.

mod capture;
mod command;
mod cpu;
mod idle;
mod interactive;
mod limits;
mod process;
pub mod slots;

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use capture::{Capture, Drained};
pub use command::{BotCommand, CommandError, quote};
use cpu::RunClock;
pub(crate) use cpu::{CgroupClock, children, read_cgroup};
pub use idle::{IdleMeter, IdleMethod, Tasks, idle_method};
pub use interactive::{Interactive, MAX_LINE, Recv};
pub(crate) use limits::RlimitPlan;
pub use limits::{AppliedLimits, IdleCap, Limits};

use super::sandbox;
pub use process::kill_all_running;
pub(crate) use process::{cpu_time, user_time};

/// How long to wait for a killed bot to finish dying before giving up on its exit status.
/// SIGKILL cannot be caught, so only a process stuck in the kernel takes this long.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// How long the sandbox gets, once told to stop a run, to kill its processes, hand back the
/// case folder and report the run's CPU time, before it is killed outright.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// How long to wait, after the process group is dead, for the output threads to reach the end
/// of their pipes. It is only ever used up when a process outside the group holds a pipe.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// The shortest wait between two readings of a run's CPU time.
const CPU_POLL_MIN: Duration = Duration::from_millis(10);

/// The longest wait between two readings of a run's CPU time.
const CPU_POLL_MAX: Duration = Duration::from_millis(250);

/// The shortest time between two looks at a run's idle time asked for by a caller that polls
/// (a hosted bot's session): the limits it guards are seconds long.
const IDLE_LOOK_MIN: Duration = Duration::from_millis(20);

/// How a bot run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The bot exited by itself with this status.
    Exited(i32),
    /// The bot was killed by a signal it did not catch (or sent itself): its number and name.
    Signaled(i32, &'static str),
    /// The bot used up its CPU time or sat idle for too long and was killed;
    /// [`RunReport::time_limit`] says which.
    TimedOut,
    /// The bot could not be started (no such program, not executable, ...): why.
    FailedToStart(String),
    /// The bot was killed for going over a limit set on all its processes together: which
    /// (e.g. "more than 4 GiB of memory in all").
    OverLimit(String),
    /// The bot ran, but its exit status could not be collected: why. Only happens if
    /// something else in this process reaps children or ignores SIGCHLD, or if a killed
    /// bot is stuck in the kernel for a long time.
    StatusUnknown(String),
}

/// Which time limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimit {
    /// It used its CPU time ([`Limits::timeout`]).
    Cpu,
    /// It sat idle, neither running nor waiting for a processor, for its idle limit
    /// ([`Limits::idle_limit`]).
    Idle,
}

/// Everything known about one bot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// How the run ended.
    pub outcome: Outcome,
    /// What the bot wrote to stdout: all of it, or its first and last [`Limits::capture_bytes`]
    /// halves joined by a line saying how many bytes were left out.
    pub stdout: Vec<u8>,
    /// What the bot wrote to stderr, kept like `stdout`.
    pub stderr: Vec<u8>,
    /// The bot wrote more to stdout than was kept.
    pub stdout_truncated: bool,
    /// The bot wrote more to stderr than was kept.
    pub stderr_truncated: bool,
    /// Wall-clock time from starting the bot to its exit (or to the kill, on a timeout).
    pub elapsed: Duration,
    /// The CPU-time limit the run had, to describe a [`Outcome::TimedOut`].
    pub timeout: Duration,
    /// The idle-time cap the run had, as a formula of `timeout`.
    pub idle_cap: IdleCap,
    /// The time none of the run's tasks was running or waiting for a processor, as last
    /// measured ([`idle`]); `None` when nothing could be started.
    pub idle: Option<Duration>,
    /// Which limit ended the run, for [`Outcome::TimedOut`].
    pub time_limit: Option<TimeLimit>,
    /// The resource limits that were actually set on the bot.
    pub limits_applied: AppliedLimits,
    /// What the sandbox reported about the run (empty without a sandbox).
    pub events: Vec<sandbox::Event>,
    /// CPU time (user + system) of the bot and every process it started. Set for every run
    /// that started, timeouts included; `None` only when nothing could be started.
    pub cpu_time: Option<Duration>,
    /// The user part of `cpu_time` (what the Unix `time` command reports as `user`, without the
    /// time the kernel spent for the bot), where it could be measured: from the sandbox's
    /// count of every process of the run, or the reaped bot's resource usage without the
    /// sandbox. Never more than `cpu_time`.
    pub user_time: Option<Duration>,
    /// What the sandbox kept from the bot that it seems to have needed: one sentence each,
    /// naming the option that would allow it (filled in when the bot failed).
    pub denials: Vec<String>,
}

impl RunReport {
    /// A report for a run about to start: no output yet, and an outcome to be replaced.
    fn starting(limits: &Limits, limits_applied: AppliedLimits) -> RunReport {
        RunReport {
            outcome: Outcome::TimedOut,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            elapsed: Duration::ZERO,
            timeout: limits.timeout,
            idle_cap: limits.idle_cap,
            idle: None,
            time_limit: None,
            limits_applied,
            events: Vec::new(),
            cpu_time: None,
            user_time: None,
            denials: Vec::new(),
        }
    }

    /// Whether the bot exited by itself with status 0.
    pub fn succeeded(&self) -> bool {
        self.outcome == Outcome::Exited(0)
    }

    /// One line saying how the run ended, e.g. "exited with status 3", "killed by signal 11
    /// (SIGSEGV)", "timed out: used 10.2 s of CPU time, its limit 10 s", "timed out: idle for
    /// 11 s ...", "could not start: No such file or directory". What the sandbox denied a failing
    /// bot follows, with the option that allows it.
    pub fn describe(&self) -> String {
        let cpu = self.cpu_time.unwrap_or_default();
        let mut line = match &self.outcome {
            Outcome::Exited(code) => format!("exited with status {code}"),
            Outcome::Signaled(signal, name) => format!("killed by signal {signal} ({name})"),
            Outcome::TimedOut => match self.time_limit {
                Some(TimeLimit::Idle) => format!(
                    "timed out: idle (neither running nor waiting for a processor) for {} of {} of wall \
                     time, having used {} of CPU time; its idle limit is {}{}",
                    format_seconds(self.idle.unwrap_or_default()),
                    format_seconds(self.elapsed),
                    format_seconds(cpu),
                    format_duration(self.idle_cap.of(self.timeout)),
                    self.idle_cap.formula(self.timeout).map(|f| format!(" ({f})")).unwrap_or_default()
                ),
                _ => format!(
                    "timed out: used {} of CPU time, its limit {}",
                    format_seconds(cpu.max(self.timeout)),
                    format_duration(self.timeout)
                ),
            },
            Outcome::FailedToStart(why) => format!("could not start: {why}"),
            Outcome::OverLimit(what) => format!("was killed for using {what}"),
            Outcome::StatusUnknown(why) => format!("exit status unknown: {why}"),
        };
        for denial in &self.denials {
            line.push_str("; ");
            line.push_str(denial);
        }
        line
    }

    /// The last `n_lines` lines of the captured stderr (invalid UTF-8 replaced), without a
    /// final newline. The end of stderr is always kept, so these are the bot's last words.
    pub fn stderr_tail(&self, n_lines: usize) -> String {
        let text = String::from_utf8_lossy(&self.stderr);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if n_lines == 0 || text.is_empty() {
            return String::new();
        }
        // The start of the n-th line from the end: just after the n-th newline from the end.
        let start = text.rmatch_indices('\n').nth(n_lines - 1).map_or(0, |(i, _)| i + 1);
        text[start..].to_owned()
    }
}

/// Runs `command` with `args` appended, in directory `cwd`, under `limits`, and reports how
/// it went. Never panics and never hangs: a bot that cannot be started is a
/// [`Outcome::FailedToStart`] verdict, not an error.
///
/// The bot gets stdin from `/dev/null` and has its stdout and stderr captured. Unless
/// [`Limits::sandbox`] is off it runs inside the sandbox ([`crate::harness::sandbox`]), which
/// guarantees that nothing it started survives the run. Without the sandbox it runs in a new
/// session (so in a process group of its own), and when it exits, or when a time limit
/// passes, its whole process group is killed with SIGKILL, so children it left behind die too
/// and release the output pipes.
pub fn run(command: &BotCommand, args: &[OsString], cwd: &Path, limits: &Limits) -> RunReport {
    // One of the command's `--jobs` bots at once (a no-op inside a case's or a game's slot).
    let _slot = slots::take();
    let mut started = match start(command, args, cwd, limits, false) {
        Ok(started) => started,
        Err(report) => return *report,
    };
    let (stdout, stderr) = match start_captures(&mut started, limits.capture_bytes) {
        Ok(captures) => captures,
        Err(err) => {
            let why = format!("cannot start a thread to read its output: {}", os_message(&err));
            return started.abandon(why);
        }
    };
    let limit = started.wait(limits);
    let deadline = Instant::now() + DRAIN_GRACE;
    let mut report = started.conclude(limit, limits);
    let Drained { data, truncated } = stdout.finish(deadline);
    report.stdout = data;
    report.stdout_truncated = truncated;
    let Drained { data, truncated } = stderr.finish(deadline);
    report.stderr = data;
    report.stderr_truncated = truncated;
    if !report.succeeded() {
        report.denials = sandbox::denials(command, &report.stderr, cwd, limits);
    }
    report
}

/// A bot process (or the sandbox helper running it) that has been started, and what watches
/// it.
pub(crate) struct Started {
    process: Proc,
    pid: libc::pid_t,
    /// The grader's ends of the bot's stdin (when piped), stdout and stderr.
    stdin: Option<File>,
    stdout: Option<File>,
    stderr: Option<File>,
    launch: Option<sandbox::Launch>,
    /// The sandbox's reports, read on a thread.
    status: Option<Capture>,
    /// Fires when the process has terminated (it is left unreaped).
    exited: Receiver<io::Result<()>>,
    /// What the exit watcher said, once it has.
    watched: Option<io::Result<()>>,
    clock: RunClock,
    /// The run's idle time, measured look by look.
    idle: IdleMeter,
    start: Instant,
    /// The CPU time last read while the run went on.
    cpu_seen: Duration,
    report: RunReport,
}

/// The process the runner started.
enum Proc {
    /// The bot itself (no sandbox): a child of this process.
    Child(Child),
    /// The run's sandbox helper, a child of the zygote, held by a pidfd.
    Helper(OwnedFd),
}

/// Starts `command` with `args` in `cwd`: in the sandbox unless it is off, with stdin from
/// `/dev/null` or, if `piped_stdin`, a pipe (and then stdout a pipe the caller reads).
/// On failure, the report saying why.
pub(crate) fn start(
    command: &BotCommand,
    args: &[OsString],
    cwd: &Path,
    limits: &Limits,
    piped_stdin: bool,
) -> Result<Started, Box<RunReport>> {
    let plan = RlimitPlan::new(limits);
    let report = RunReport::starting(limits, plan.applied());
    let fail = |mut report: RunReport, why: String| {
        report.outcome = Outcome::FailedToStart(why);
        Box::new(report)
    };
    // std reports a missing working directory as a bare "No such file or directory", which
    // would look like a missing program.
    if let Err(why) = check_dir(cwd) {
        return Err(fail(report, why));
    }
    if limits.sandbox.mode == sandbox::Mode::Off {
        let mut cmd = Command::new(command.program());
        cmd.args(command.args()).args(args).current_dir(cwd);
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls are allowed. It calls setsid and setrlimit (plain system
        // calls) on values computed beforehand, and allocates nothing: io::Error::last_os_error
        // only reads errno.
        unsafe {
            cmd.pre_exec(move || {
                // A new session makes the bot the leader of a new process group whose id is
                // its pid, so the group can be killed as a whole; it also detaches the bot from
                // arbiter's terminal, so a ^C aimed at arbiter is arbiter's to handle.
                if libc::setsid() == -1 {
                    return Err(io::Error::last_os_error());
                }
                plan.apply();
                Ok(())
            });
        }
        return spawn_child(cmd, report, piped_stdin);
    }
    match sandbox::Launch::new(command, args, cwd, limits) {
        Ok(launch) => spawn_helper(launch, report, piped_stdin),
        Err(why) => Err(fail(report, why)),
    }
}

/// Runs a prepared sandbox launch, for the probe that finds out what the sandbox can do here.
pub(crate) fn start_launch(launch: sandbox::Launch, limits: &Limits) -> Result<Started, Box<RunReport>> {
    let report = RunReport::starting(limits, RlimitPlan::new(limits).applied());
    spawn_helper(launch, report, false)
}

fn failed(mut report: RunReport, why: String) -> Box<RunReport> {
    report.outcome = Outcome::FailedToStart(why);
    report.cpu_time = Some(Duration::ZERO);
    report.user_time = Some(Duration::ZERO);
    Box::new(report)
}

/// Spawns the bot itself (no sandbox) and starts watching it.
fn spawn_child(
    mut cmd: Command,
    mut report: RunReport,
    piped_stdin: bool,
) -> Result<Started, Box<RunReport>> {
    let stdin = if piped_stdin { Stdio::piped() } else { Stdio::null() };
    cmd.stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(err) => {
            report.elapsed = start.elapsed();
            return Err(failed(report, os_message(&err)));
        }
    };
    // A pid always fits in pid_t; 0 makes every later call on the group a no-op.
    let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
    process::register(pid);
    let stdin = child.stdin.take().map(|p| File::from(OwnedFd::from(p)));
    let stdout = child.stdout.take().map(|p| File::from(OwnedFd::from(p)));
    let stderr = child.stderr.take().map(|p| File::from(OwnedFd::from(p)));
    let exited = match process::watch_exit(pid) {
        Ok(exited) => exited,
        Err(err) => {
            abandon(pid, child);
            return Err(failed(
                report,
                format!("cannot start a thread to wait for it: {}", os_message(&err)),
            ));
        }
    };
    Ok(Started {
        process: Proc::Child(child),
        pid,
        stdin,
        stdout,
        stderr,
        launch: None,
        status: None,
        exited,
        watched: None,
        clock: RunClock::new(pid, 0, None),
        idle: IdleMeter::new(Tasks::Tree(pid), false, start),
        start,
        cpu_seen: Duration::ZERO,
        report,
    })
}

/// Starts the sandbox helper of `launch` (through the zygote) and starts watching it.
fn spawn_helper(
    mut launch: sandbox::Launch,
    report: RunReport,
    piped_stdin: bool,
) -> Result<Started, Box<RunReport>> {
    let pipes = (|| -> io::Result<_> {
        let stdin = if piped_stdin { Some(pipe()?) } else { None };
        Ok((stdin, pipe()?, pipe()?))
    })();
    let (stdin, (stdout, stdout_w), (stderr, stderr_w)) = match pipes {
        Ok(pipes) => pipes,
        Err(err) => return Err(failed(report, format!("cannot make pipes: {}", os_message(&err)))),
    };
    // The bot reads the pipe's first end; the grader writes its second.
    let (stdin_r, stdin_w) = match stdin {
        Some((r, w)) => (Some(r), Some(File::from(w))),
        None => (None, None),
    };
    let start = Instant::now();
    let running = match launch.start(stdin_r.as_ref(), &stdout_w, &stderr_w) {
        Ok(running) => running,
        Err(err) => {
            if let Some(cg) = launch.cgroup.take() {
                cg.remove();
            }
            return Err(failed(report, format!("cannot start the sandbox: {}", os_message(&err))));
        }
    };
    // The helper holds its own copies now; ours would keep the pipes from ever ending.
    drop((stdin_r, stdout_w, stderr_w));
    let sandbox::Running { pid, pidfd, status } = running;
    process::register(pid);
    let fail = |why: String, pidfd: &OwnedFd, launch: &mut sandbox::Launch, report: RunReport| {
        process::kill_pidfd(pidfd);
        process::unregister(pid);
        if let Some(cg) = launch.cgroup.take() {
            cg.remove();
        }
        Err(failed(report, why))
    };
    let status = match Capture::spawn("sandbox-status", status, 1 << 16) {
        Ok(capture) => capture,
        Err(err) => {
            return fail(
                format!("cannot read the sandbox's status: {}", os_message(&err)),
                &pidfd,
                &mut launch,
                report,
            );
        }
    };
    let exited = match process::watch_pidfd(&pidfd) {
        Ok(exited) => exited,
        Err(err) => {
            return fail(
                format!("cannot start a thread to wait for it: {}", os_message(&err)),
                &pidfd,
                &mut launch,
                report,
            );
        }
    };
    let clock = RunClock::new(pid, 1, launch.cpu_clock());
    // The run's tasks: its cgroup's, where there is one (and the helper's, which sets the run
    // up before its init joins the cgroup), else the helper's process tree.
    let tasks = match launch.cgroup.as_ref().and_then(sandbox::RunCgroup::threads_file) {
        Some(file) => Tasks::Cgroup { file, helper: pid },
        None => Tasks::Tree(pid),
    };
    let idle = IdleMeter::new(tasks, clock.counts_exactly(), start);
    Ok(Started {
        process: Proc::Helper(pidfd),
        pid,
        stdin: stdin_w,
        stdout: Some(File::from(stdout)),
        stderr: Some(File::from(stderr)),
        launch: Some(launch),
        status: Some(status),
        exited,
        watched: None,
        clock,
        idle,
        start,
        cpu_seen: Duration::ZERO,
        report,
    })
}

/// A pipe: (reading end, writing end), both closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(io::Error::from)
}

impl Started {
    /// The CPU time the run has used so far.
    pub(crate) fn cpu_time(&mut self) -> Duration {
        if self.watched.is_none() {
            self.cpu_seen = self.cpu_seen.max(self.clock.read());
        }
        self.cpu_seen
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

    /// The time the run has sat idle so far (see [`idle`]), looking again unless the last
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
                    sandbox::Event::Usage { cpu_us, .. } => Some(Duration::from_micros(*cpu_us)),
                    _ => None,
                })
                .unwrap_or(self.cpu_seen);
            user = report.events.iter().find_map(|e| match e {
                sandbox::Event::Usage { user_us, .. } => user_us.map(Duration::from_micros),
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
    fn abandon(mut self, why: String) -> RunReport {
        let mut report = std::mem::replace(
            &mut self.report,
            RunReport::starting(&Limits::default(), AppliedLimits::default()),
        );
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
    events: &[sandbox::Event],
    helper: Outcome,
    timed_out: bool,
    cgroup: Option<&sandbox::RunCgroup>,
    limits: &Limits,
) -> Outcome {
    use sandbox::Event;
    if timed_out {
        return Outcome::TimedOut;
    }
    let mut outcome = None;
    for event in events {
        let found = match event {
            Event::SetupFailed { why } => {
                return Outcome::FailedToStart(format!("the sandbox could not be set up: {why}"));
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
            Event::Layer { .. } | Event::Missing { .. } | Event::Usage { .. } | Event::Stopped => continue,
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
        let limit = limits.memory_bytes.map_or_else(|| "its limit".to_owned(), sandbox::bytes);
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
            return Ok((
                ExitStatus::from_raw(status),
                (process::cpu_time(&usage), process::user_time(&usage)),
            ));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Starts the threads that drain the run's stdout and stderr.
fn start_captures(started: &mut Started, cap: usize) -> io::Result<(Capture, Capture)> {
    let missing = || io::Error::other("output pipe missing");
    let stdout = started.stdout.take().ok_or_else(missing)?;
    let stderr = started.stderr.take().ok_or_else(missing)?;
    let stdout = Capture::spawn("bot-stdout", stdout, cap)?;
    let stderr = Capture::spawn("bot-stderr", stderr, cap)?;
    Ok((stdout, stderr))
}

/// Kills and reaps a bot that cannot be supervised.
fn abandon(pid: libc::pid_t, mut child: Child) {
    process::kill_group(pid);
    process::unregister(pid);
    // SIGKILL cannot be caught or ignored, so this wait is short.
    let _ = child.wait();
}

/// The outcome for a reaped bot; a SIGKILL after the timeout is the runner's own.
fn outcome_of(status: ExitStatus, timed_out: bool) -> Outcome {
    if let Some(code) = status.code() {
        Outcome::Exited(code)
    } else if let Some(signal) = status.signal() {
        if timed_out && signal == libc::SIGKILL {
            Outcome::TimedOut
        } else {
            Outcome::Signaled(signal, process::signal_name(signal))
        }
    } else {
        Outcome::StatusUnknown(format!("unrecognised wait status {status}"))
    }
}

/// Why `dir` cannot be a working directory, if it cannot.
fn check_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(format!("working directory {} is not a directory", dir.display())),
        Err(err) => Err(format!("working directory {}: {}", dir.display(), os_message(&err))),
    }
}

/// An I/O error's message without std's " (os error N)" suffix, which means nothing to a
/// student reading a report.
pub(crate) fn os_message(err: &io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_owned(),
        _ => text,
    }
}

/// A measured duration in seconds with one decimal: "10.3 s", "0.2 s".
fn format_seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// A duration as a person would write it: "10 s", "300 ms", "1.5 s".
fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        let text = format!("{:.3}", d.as_secs_f64());
        format!("{} s", text.trim_end_matches('0'))
    }
}
