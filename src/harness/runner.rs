//! Running one bot process safely: limits, a timeout, captured output, and no survivors.
//!
//! A bot is an untrusted program. It may crash, hang, start children that hang, flood its
//! output, write huge files or allocate without end. [`run`] starts it in a session of its
//! own with resource limits ([`Limits`]), drains its stdout and stderr on threads so it never
//! blocks on a full pipe, waits at most the timeout, and then kills its whole process group,
//! whether it timed out or exited normally, so that nothing it started outlives the run.
//!
//! What it cannot catch: a process that moves itself into another session or process group
//! (`setsid`, `setpgid`) escapes the group kill. The runner still returns on time in that
//! case (at most a second late), with whatever output was captured by then; the
//! thread reading a pipe such a process holds goes on reading, and discarding, until the
//! process closes it. Catching those too would take a cgroup or a PID namespace.
//!
//! This module knows nothing about the game: it runs a command and reports what happened.

mod capture;
mod command;
mod limits;
mod process;

use std::ffi::OsString;
use std::io::{self, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use capture::{Capture, Drained};
pub use command::{BotCommand, CommandError, quote};
pub(crate) use limits::RlimitPlan;
pub use limits::{AppliedLimits, Limits};

use super::sandbox;
pub(crate) use process::cpu_time;
pub use process::kill_all_running;

/// How long to wait for a killed bot to finish dying before giving up on its exit status.
/// SIGKILL cannot be caught, so only a process stuck in the kernel takes this long.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// How long to wait, after the process group is dead, for the output threads to reach the end
/// of their pipes. It is only ever used up when a process outside the group holds a pipe.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// How a bot run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The bot exited by itself with this status.
    Exited(i32),
    /// The bot was killed by a signal it did not catch (or sent itself): its number and name.
    Signaled(i32, &'static str),
    /// The bot ran past the timeout and was killed.
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
    /// The timeout the run had, to describe a [`Outcome::TimedOut`].
    pub timeout: Duration,
    /// The resource limits that were actually set on the bot.
    pub limits_applied: AppliedLimits,
    /// What the sandbox reported about the run (empty without a sandbox).
    pub events: Vec<sandbox::Event>,
    /// CPU time (user + system) of the bot and every process it started, when known.
    pub cpu_time: Option<Duration>,
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
            limits_applied,
            events: Vec::new(),
            cpu_time: None,
        }
    }

    /// Whether the bot exited by itself with status 0.
    pub fn succeeded(&self) -> bool {
        self.outcome == Outcome::Exited(0)
    }

    /// One line saying how the run ended, e.g. "exited with status 3", "killed by signal 11
    /// (SIGSEGV)", "timed out after 10 s", "could not start: No such file or directory".
    pub fn describe(&self) -> String {
        match &self.outcome {
            Outcome::Exited(code) => format!("exited with status {code}"),
            Outcome::Signaled(signal, name) => format!("killed by signal {signal} ({name})"),
            Outcome::TimedOut => format!("timed out after {}", format_duration(self.timeout)),
            Outcome::FailedToStart(why) => format!("could not start: {why}"),
            Outcome::OverLimit(what) => format!("was killed for using {what}"),
            Outcome::StatusUnknown(why) => format!("exit status unknown: {why}"),
        }
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
/// session (so in a process group of its own), and when it exits, or when the timeout passes,
/// its whole process group is killed with SIGKILL, so children it left behind die too and
/// release the output pipes.
pub fn run(command: &BotCommand, args: &[OsString], cwd: &Path, limits: &Limits) -> RunReport {
    let plan = RlimitPlan::new(limits);
    let mut report = RunReport::starting(limits, plan.applied());

    // std reports a missing working directory as a bare "No such file or directory", which
    // would look like a missing program.
    if let Err(why) = check_dir(cwd) {
        report.outcome = Outcome::FailedToStart(why);
        return report;
    }
    if limits.sandbox.mode != sandbox::Mode::Off {
        let mut launch = match sandbox::Launch::new(command, args, cwd, limits) {
            Ok(launch) => launch,
            Err(err) => {
                report.outcome =
                    Outcome::FailedToStart(format!("cannot prepare the sandbox: {}", os_message(&err)));
                return report;
            }
        };
        let report = supervise_launch(&mut launch, cwd, limits);
        if let Some(cg) = launch.cgroup.take() {
            cg.remove();
        }
        return report;
    }

    let mut cmd = Command::new(command.program());
    cmd.args(command.args())
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls are allowed. It calls setsid and setrlimit (plain system calls)
    // on values computed beforehand, and allocates nothing: io::Error::last_os_error only
    // reads errno.
    unsafe {
        cmd.pre_exec(move || {
            // A new session makes the bot the leader of a new process group whose id is its
            // pid, so the group can be killed as a whole; it also detaches the bot from
            // arbiter's terminal, so a ^C aimed at arbiter is arbiter's to handle.
            if libc::setsid() == -1 {
                return Err(io::Error::last_os_error());
            }
            plan.apply();
            Ok(())
        });
    }
    supervise(cmd, None, report, limits)
}

/// Runs a prepared sandbox launch (the helper) and reports on the bot it ran. Leaves the
/// launch's cgroup for the caller to remove.
pub(crate) fn supervise_launch(launch: &mut sandbox::Launch, cwd: &Path, limits: &Limits) -> RunReport {
    let plan = RlimitPlan::new(limits);
    let report = RunReport::starting(limits, plan.applied());
    let writer = launch.status_writer_fd();
    let mut cmd = std::mem::replace(&mut launch.command, Command::new("/"));
    cmd.current_dir(cwd);
    // SAFETY: between fork and exec the closure only calls setsid, dup2 and fcntl, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() == -1 {
                return Err(io::Error::last_os_error());
            }
            sandbox::install_status_fd(writer)
        });
    }
    supervise(cmd, Some(launch), report, limits)
}

/// Spawns `cmd`, captures its output, waits at most the timeout, kills its process group,
/// and fills in `report`. With a sandbox launch, `cmd` is the helper: it is handed its
/// request, and the outcome is the bot's, as the helper reports it.
fn supervise(
    mut cmd: Command,
    mut launch: Option<&mut sandbox::Launch>,
    mut report: RunReport,
    limits: &Limits,
) -> RunReport {
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(err) => {
            report.outcome = Outcome::FailedToStart(os_message(&err));
            report.elapsed = start.elapsed();
            return report;
        }
    };
    // A pid always fits in pid_t; 0 makes every later call on the group a no-op.
    let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
    process::register(pid);

    let mut status = None;
    if let Some(launch) = launch.as_deref_mut() {
        launch.spawned();
        // The request is small and the helper reads it before anything else; if the helper
        // died already the write fails, and its exit tells why.
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&launch.request);
        }
        status = match launch.take_status().and_then(|f| Capture::spawn("sandbox-status", f, 1 << 16)) {
            Ok(capture) => Some(capture),
            Err(err) => {
                abandon(pid, child);
                report.outcome =
                    Outcome::FailedToStart(format!("cannot read the sandbox's status: {}", os_message(&err)));
                return report;
            }
        };
    }

    let (stdout, stderr) = match start_captures(&mut child, limits.capture_bytes) {
        Ok(captures) => captures,
        Err(err) => {
            abandon(pid, child);
            report.outcome = Outcome::FailedToStart(format!(
                "cannot start a thread to read its output: {}",
                os_message(&err)
            ));
            return report;
        }
    };
    let exited = match process::watch_exit(pid) {
        Ok(exited) => exited,
        Err(err) => {
            abandon(pid, child);
            report.outcome =
                Outcome::FailedToStart(format!("cannot start a thread to wait for it: {}", os_message(&err)));
            return report;
        }
    };

    let (timed_out, watch) = match exited.recv_timeout(limits.timeout) {
        Ok(watch) => (false, Some(watch)),
        Err(RecvTimeoutError::Timeout) => (true, None),
        Err(RecvTimeoutError::Disconnected) => (false, None),
    };
    report.elapsed = start.elapsed();

    // The bot is still unreaped here, so its pid (= the group id) is still taken. Kill the
    // group before reaping: that ends any children it left behind, and with them the last
    // writers of the output pipes, so the capture threads reach end of file.
    process::kill_group(pid);
    process::unregister(pid);

    let watch = match watch {
        Some(watch) => Some(watch),
        None if timed_out => exited.recv_timeout(KILL_GRACE).ok(),
        None => None,
    };
    report.outcome = match watch {
        Some(Ok(())) => match reap(pid) {
            Ok((status, cpu)) => {
                report.cpu_time = Some(cpu);
                outcome_of(status, timed_out)
            }
            Err(err) => Outcome::StatusUnknown(os_message(&err)),
        },
        Some(Err(err)) => Outcome::StatusUnknown(os_message(&err)),
        // Still alive after SIGKILL (stuck in the kernel). Leave it; dropping `child` does
        // not wait, and the wait thread ends once the process does.
        None if timed_out => Outcome::TimedOut,
        None => Outcome::StatusUnknown("the thread waiting for the bot stopped".to_owned()),
    };

    let deadline = Instant::now() + DRAIN_GRACE;
    if let Some(status) = status {
        let Drained { data, .. } = status.finish(deadline);
        report.events = data
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .filter_map(|line| serde_json::from_slice(line).ok())
            .collect();
        let helper = std::mem::replace(&mut report.outcome, Outcome::TimedOut);
        report.cpu_time = report.events.iter().find_map(|e| match e {
            sandbox::Event::Usage { cpu_us } => Some(Duration::from_micros(*cpu_us)),
            _ => None,
        });
        let cgroup = launch.and_then(|l| l.cgroup.as_ref());
        report.outcome = sandboxed_outcome(&report.events, helper, timed_out, cgroup, limits);
    }
    let Drained { data, truncated } = stdout.finish(deadline);
    report.stdout = data;
    report.stdout_truncated = truncated;
    let Drained { data, truncated } = stderr.finish(deadline);
    report.stderr = data;
    report.stderr_truncated = truncated;
    report
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
            Event::Layer { .. } | Event::Missing { .. } | Event::Usage { .. } => continue,
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
/// reaped descendants used. `wait4` rather than `Child::wait`, for the resource usage.
fn reap(pid: libc::pid_t) -> io::Result<(ExitStatus, Duration)> {
    loop {
        let mut status = 0;
        // SAFETY: wait4 writes only to `status` and `usage`.
        let (rc, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let rc = libc::wait4(pid, &mut status, 0, &mut usage);
            (rc, usage)
        };
        if rc == pid {
            return Ok((ExitStatus::from_raw(status), process::cpu_time(&usage)));
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Starts the threads that drain the child's stdout and stderr.
fn start_captures(child: &mut Child, cap: usize) -> io::Result<(Capture, Capture)> {
    let missing = || io::Error::other("output pipe missing");
    let stdout = child.stdout.take().ok_or_else(missing)?;
    let stderr = child.stderr.take().ok_or_else(missing)?;
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
