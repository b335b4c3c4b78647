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
use crate::harness::runner::{self, BotCommand, Interactive, Limits, RunReport};

/// CPU time one host process may use over its whole life (many cases, or one whole game).
pub const SESSION_CPU: Duration = Duration::from_secs(3600);

/// A running host and, once it has ended, how it ended.
pub struct Sandboxed {
    run: Option<Interactive>,
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
        Ok(Sandboxed { run: Some(run), ended: None, started: Instant::now() })
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
            (Some(run), _) => run.cpu_time(),
            (None, Some(report)) => report.cpu_time.unwrap_or_default(),
            (None, None) => Duration::ZERO,
        }
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

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn kill(&mut self) {
        self.conclude();
    }
}
