//! A host process run by the runner's interactive run: in the sandbox like every program bot
//! (its own root, its own user, seccomp, the exact environment, its processes counted
//! together), or with per-process limits alone under `--sandbox off`.
//!
//! The session as a whole gets [`SESSION_CPU`] of CPU time, far more than any case or game
//! needs: each call is held to its own budget by [`super::Session`], which reads
//! [`Channel::cpu_time`] before and after. A session that uses it all up is ended and the pool
//! starts a fresh one.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::channel::{Channel, Recv};
use super::clock::BotClock;
use crate::harness::runner::{self, BotCommand, Interactive, Limits, RunReport};

/// CPU time one host process may use over its whole life (many cases, or one whole game).
pub const SESSION_CPU: Duration = Duration::from_secs(3600);

/// A running host and, once it has ended, how it ended.
pub struct Sandboxed {
    run: Option<Interactive>,
    clock: BotClock,
    ended: Option<RunReport>,
    started: Instant,
}

impl Sandboxed {
    /// Starts `bot` with `args` in `dir` under `limits` (its time limit replaced by
    /// [`SESSION_CPU`]), letting it also read `readable` (the host's own files and the
    /// submission's compiled classes, wherever arbiter put them).
    pub fn spawn(
        bot: &BotCommand,
        args: &[OsString],
        dir: &Path,
        limits: &Limits,
        readable: &[PathBuf],
    ) -> io::Result<Sandboxed> {
        let mut limits = Limits { timeout: SESSION_CPU, ..limits.clone() };
        limits.sandbox.allow_read.extend(readable.iter().cloned());
        let run = Interactive::spawn(bot, args, dir, &limits)?;
        let (counter, pid) = run.clock_parts();
        let clock = BotClock::new(counter, pid);
        Ok(Sandboxed { run: Some(run), clock, ended: None, started: Instant::now() })
    }

    /// Ends the process (if it still runs) and keeps its report.
    fn conclude(&mut self) {
        if let Some(run) = self.run.take() {
            self.ended = Some(run.finish());
        }
    }
}

impl Channel for Sandboxed {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let Some(run) = self.run.as_mut() else {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "the host has ended"));
        };
        let mut framed = Vec::with_capacity(line.len() + 1);
        framed.extend_from_slice(line);
        framed.push(b'\n');
        run.send(&framed)
    }

    fn recv_line(&mut self, deadline: Instant) -> Recv {
        let Some(run) = self.run.as_mut() else { return Recv::Eof };
        match run.recv_line(deadline) {
            runner::Recv::Line(_) if run.line_was_cut() => Recv::TooLong,
            runner::Recv::Line(line) => Recv::Line(line),
            runner::Recv::Eof => Recv::Eof,
            runner::Recv::TimedOut => Recv::TimedOut,
        }
    }

    fn cpu_time(&mut self) -> Duration {
        match (&mut self.run, &self.ended) {
            (Some(run), _) => self.clock.read(|| run.cpu_time()),
            // Once ended, the clock's last reading stands: the runner's total would count
            // the runtime's own threads again.
            (None, Some(report)) if !self.clock.is_marked() => report.cpu_time.unwrap_or_default(),
            (None, _) => self.clock.read(|| Duration::ZERO),
        }
    }

    fn mark_runtime(&mut self) {
        let pid = self.run.as_ref().and_then(|run| run.clock_parts().1);
        self.clock.mark_runtime(pid);
    }

    fn move_to(&mut self, cpu: usize) -> bool {
        let pid = self.run.as_ref().and_then(|run| run.clock_parts().1);
        pid.is_some_and(|pid| crate::harness::runner::affinity::pin_process(pid, cpu))
    }

    fn new_threads(&mut self) -> Vec<String> {
        if self.run.is_none() {
            return Vec::new();
        }
        self.clock.new_threads()
    }

    fn other_processes(&mut self) -> Option<Duration> {
        if self.clock.covers_processes() {
            return None;
        }
        let run = self.run.as_mut()?.cpu_time();
        let host = self.clock.process_time()?;
        Some(run.saturating_sub(host))
    }

    fn idle_time(&mut self) -> Duration {
        match (&mut self.run, &self.ended) {
            (Some(run), _) => run.idle_time(),
            (None, Some(report)) => report.idle.unwrap_or_default(),
            (None, None) => Duration::ZERO,
        }
    }

    /// Called once a call has failed (the host closed a pipe, or went silent): ends the
    /// process for good, so that what it reports is final.
    fn exit_status(&mut self) -> Option<String> {
        self.conclude();
        self.ended.as_ref().map(RunReport::describe)
    }

    fn stderr(&self) -> Vec<u8> {
        match (&self.run, &self.ended) {
            (Some(run), _) => run.stderr_so_far(),
            (None, Some(report)) => report.stderr.clone(),
            (None, None) => Vec::new(),
        }
    }

    fn stderr_written(&self) -> u64 {
        match (&self.run, &self.ended) {
            (Some(run), _) => run.stderr_written(),
            (None, Some(report)) if !report.stderr_truncated => report.stderr.len() as u64,
            // Bytes were dropped from the middle: no mark can be placed in what is kept.
            (None, _) => 0,
        }
    }

    fn stderr_since(&self, mark: u64) -> Vec<u8> {
        match (&self.run, &self.ended) {
            (Some(run), _) => run.stderr_since(mark),
            (None, Some(report)) if !report.stderr_truncated => {
                report.stderr.get(mark as usize..).unwrap_or_default().to_vec()
            }
            (None, Some(report)) => report.stderr.clone(),
            (None, None) => Vec::new(),
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn kill(&mut self) {
        self.conclude();
    }
}
