//! What a run reports: how it ended ([`Outcome`]), which time limit ended it ([`TimeLimit`]),
//! and everything else known about it ([`RunReport`]), with the sentences that describe it.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use super::limits::{AppliedLimits, IdleCap, Limits};
use super::process;
use crate::harness::sandbox::spec::Event;

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
    /// The grader could not run the bot: the sandbox could not be set up (or started), even
    /// when tried again. Why. Not the bot's doing: a case ending so is a grader error, never a
    /// verdict against the bot.
    GraderError(String),
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
    /// measured ([`idle`](super::idle)); `None` when nothing could be started.
    pub idle: Option<Duration>,
    /// Which limit ended the run, for [`Outcome::TimedOut`].
    pub time_limit: Option<TimeLimit>,
    /// The resource limits that were actually set on the bot.
    pub limits_applied: AppliedLimits,
    /// What the sandbox reported about the run (empty without a sandbox).
    pub events: Vec<Event>,
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
    pub(super) fn starting(limits: &Limits, limits_applied: AppliedLimits) -> RunReport {
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
            Outcome::GraderError(why) => format!("was not run: the grader failed ({why})"),
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

/// The outcome for a reaped bot; a SIGKILL after the timeout is the runner's own.
pub(super) fn outcome_of(status: ExitStatus, timed_out: bool) -> Outcome {
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
pub(crate) fn format_duration(d: Duration) -> String {
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
