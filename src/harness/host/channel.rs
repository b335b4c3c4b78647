//! The pipe pair to a running host ([`super::sandboxed::Sandboxed`]), kept behind a trait so
//! that the session logic can be tested and other transports added.

use std::io;
use std::time::{Duration, Instant};

/// What reading the host's next line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    /// A whole line, without its line end.
    Line(Vec<u8>),
    /// The host closed its stdout (it exited, or is exiting).
    Eof,
    /// No line before the deadline.
    TimedOut,
    /// A line longer than the protocol allows.
    TooLong,
}

/// A running host process: write requests, read responses, measure its CPU time, end it.
pub trait Channel: Send {
    /// Writes one line (a newline is added) to the host's stdin.
    fn send(&mut self, line: &[u8]) -> io::Result<()>;

    /// The host's next stdout line, waiting at most until `deadline`.
    fn recv_line(&mut self, deadline: Instant) -> Recv;

    /// CPU time (user + system) the bot has used so far: every process and thread of the
    /// host, less the JVM's own threads once [`Channel::mark_runtime`] has been called.
    fn cpu_time(&mut self) -> Duration;

    /// Records the host's threads as they are now as the language runtime's own (a JVM's
    /// compilers and collector are then no longer charged). Called after the hello of a Java
    /// host, before any class of the submission loads.
    fn mark_runtime(&mut self) {}

    /// Moves the host's threads onto processor `cpu` alone (see `runner::affinity`); whether
    /// it could.
    fn move_to(&mut self, _cpu: usize) -> bool {
        false
    }

    /// Threads of the host that were not there when [`Channel::mark_runtime`] was called.
    fn new_threads(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// When [`Channel::cpu_time`] counts the host process alone (no cgroup): the CPU time
    /// other processes of the run have used so far (those the submission started).
    fn other_processes(&mut self) -> Option<Duration> {
        None
    }

    /// Time the host has sat idle so far: none of its tasks running or waiting for a processor
    /// (`runner::IdleMeter`). A transport that cannot tell gives its wall time.
    fn idle_time(&mut self) -> Duration {
        self.elapsed()
    }

    /// How the host ended, if it has: "exited with status 1", "was killed by signal 9".
    fn exit_status(&mut self) -> Option<String>;

    /// What the host has written to stderr so far (its start and end, when long).
    fn stderr(&self) -> Vec<u8>;

    /// How many bytes the host has written to stderr so far: a mark for
    /// [`Channel::stderr_since`].
    fn stderr_written(&self) -> u64;

    /// What is kept of what the host wrote to stderr after the first `mark` bytes: a reused
    /// host's output during one case, not what an earlier case left.
    fn stderr_since(&self, mark: u64) -> Vec<u8>;

    /// Wall time since the host started.
    fn elapsed(&self) -> Duration;

    /// Ends the host and everything it started.
    fn kill(&mut self);
}
