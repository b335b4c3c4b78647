//! A bot kept running for a whole session and driven a line at a time: the host of a game
//! whose bots are classes (a Java or Python bot read by a small driver) writes a request to its
//! stdin and reads its answer from its stdout, many times over.
//!
//! It runs exactly as [`super::run`] runs a bot, in the same sandbox, with the same limits on
//! the whole session: memory and processes for all its processes together, its case folder's
//! size, and [`Limits::timeout`] as the CPU time of the whole session. The idle cap does not
//! apply to the session (it waits for its opponent); every read takes a deadline instead, and
//! the caller holds each answer to a CPU budget and an idle budget of its own by reading
//! [`Interactive::cpu_time`] and [`Interactive::idle_time`] before and after.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, BorrowedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use super::capture::{Capture, Drained};
use super::{BotCommand, Limits, RunReport, Started, TimeLimit, os_message};

/// The longest line [`Interactive::recv_line`] returns; the rest of a longer line is read and
/// thrown away, so that a bot flooding its stdout cannot make the grader buffer without end.
pub const MAX_LINE: usize = 1 << 20;

/// How often a wait for the bot looks at its CPU time.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// What [`Interactive::recv_line`] got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recv {
    /// One line, without its `\n` (at most [`MAX_LINE`] bytes; see
    /// [`Interactive::line_was_cut`]). A last line without a newline comes as a line too.
    Line(Vec<u8>),
    /// The bot closed its stdout or ended (or was ended: [`Interactive::finish`] says why).
    Eof,
    /// No whole line came before the deadline.
    TimedOut,
}

/// Why a bot was not started when the fault is the grader's (its sandbox could not be set up,
/// however often it was tried), not the bot's: carried inside the [`io::Error`] of
/// [`Interactive::spawn`], and told apart by [`grader_failed`].
#[derive(Debug)]
struct GraderFailure(String);

impl std::fmt::Display for GraderFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GraderFailure {}

/// Whether `err`, from [`Interactive::spawn`], says the grader failed rather than the bot: a
/// caller then reports the grader's failure instead of blaming the submission.
pub fn grader_failed(err: &io::Error) -> bool {
    err.get_ref().is_some_and(|inner| inner.is::<GraderFailure>())
}

/// A sandboxed bot process with pipes to its stdin and stdout.
pub struct Interactive {
    started: Option<Started>,
    stdin: Option<File>,
    stdout: File,
    stderr: Option<Capture>,
    limits: Limits,
    /// Bytes read from stdout and not yet returned as a line.
    pending: Vec<u8>,
    /// The current line grew past [`MAX_LINE`]: throw bytes away until its end.
    discarding: bool,
    /// The last line returned was cut at [`MAX_LINE`].
    cut: bool,
    eof: bool,
    /// The time limit the session reached, if it did.
    limit: Option<TimeLimit>,
    command: BotCommand,
    dir: std::path::PathBuf,
}

impl Interactive {
    /// Starts `bot` with `args` in `dir` under `limits`, with its stdin and stdout connected to
    /// this value. Fails only when it cannot be started.
    pub fn spawn(
        bot: &BotCommand,
        args: &[OsString],
        dir: &Path,
        limits: &Limits,
    ) -> io::Result<Interactive> {
        // A sandbox that could not be set up ran nothing of the bot: tried again, as a run is,
        // and then said to be the grader's failure, not the bot's.
        let mut tries = 0;
        let mut started = loop {
            let mut started = match super::start(bot, args, dir, limits, true) {
                Ok(started) => started,
                Err(report) => return Err(io::Error::other(report.describe())),
            };
            match started.set_up(super::SETUP_WAIT) {
                Ok(()) => break started,
                Err(why) => {
                    let _ = started.conclude(None, limits);
                    tries += 1;
                    if tries >= super::SETUP_TRIES {
                        return Err(io::Error::other(GraderFailure(format!(
                            "not run: the grader failed, not the bot ({why}; tried {tries} times)"
                        ))));
                    }
                    std::thread::sleep(super::SETUP_PAUSE * tries);
                }
            }
        };
        let missing = || io::Error::other("a pipe to the bot is missing");
        let stdin = started.stdin.take().ok_or_else(missing)?;
        let stdout = started.stdout.take().ok_or_else(missing)?;
        let stderr = started.stderr.take().ok_or_else(missing)?;
        set_nonblocking(stdout.as_raw_fd())?;
        set_nonblocking(stdin.as_raw_fd())?;
        let stderr = Capture::spawn("bot-stderr", stderr, limits.capture_bytes)?;
        Ok(Interactive {
            started: Some(started),
            stdin: Some(stdin),
            stdout,
            stderr: Some(stderr),
            limits: limits.clone(),
            pending: Vec::new(),
            discarding: false,
            cut: false,
            eof: false,
            limit: None,
            command: bot.clone(),
            dir: dir.to_path_buf(),
        })
    }

    /// Writes `line` to the bot's stdin (add the `\n` yourself). Waits while the bot does not
    /// read, up to [`Limits::idle_limit`] of its idle time; fails if the bot has closed its
    /// stdin or ended, or sat idle that long without reading.
    pub fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let idle_limit = self.idle_time() + self.limits.idle_limit();
        let mut rest = line;
        while !rest.is_empty() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "the bot's stdin is closed"));
            };
            match stdin.write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let fd = stdin.as_raw_fd();
                    if self.idle_time() >= idle_limit {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "the bot does not read its stdin",
                        ));
                    }
                    wait_for(fd, libc::POLLOUT, LOOK_EVERY);
                    if self.over_limit() {
                        return Err(io::Error::new(io::ErrorKind::BrokenPipe, "the bot has ended"));
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads the bot's next line, waiting at most until `wall_deadline`.
    pub fn recv_line(&mut self, wall_deadline: Instant) -> Recv {
        loop {
            if let Some(line) = self.take_line() {
                return Recv::Line(line);
            }
            if self.eof {
                if self.pending.is_empty() {
                    return Recv::Eof;
                }
                self.cut = false;
                return Recv::Line(std::mem::take(&mut self.pending));
            }
            let now = Instant::now();
            if now >= wall_deadline {
                return Recv::TimedOut;
            }
            let mut buf = [0u8; 16 << 10];
            match self.stdout.read(&mut buf) {
                Ok(0) => self.eof = true,
                Ok(n) => self.store(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    // Output that is ready is read first: the session's CPU time is looked at
                    // only when the bot keeps its answer waiting.
                    let ready = wait_for(
                        self.stdout.as_raw_fd(),
                        libc::POLLIN,
                        (wall_deadline - now).min(LOOK_EVERY),
                    );
                    if !ready && self.over_limit() {
                        self.eof = true;
                    }
                }
                Err(_) => self.eof = true,
            }
        }
    }

    /// Whether the last line [`Interactive::recv_line`] returned was longer than
    /// [`MAX_LINE`] and cut there.
    pub fn line_was_cut(&self) -> bool {
        self.cut
    }

    /// What the bot has written to stderr so far (its start and end, when long).
    pub fn stderr_so_far(&self) -> Vec<u8> {
        self.stderr.as_ref().map(Capture::so_far).unwrap_or_default()
    }

    /// How many bytes the bot has written to stderr so far: a mark for
    /// [`Interactive::stderr_since`].
    pub fn stderr_written(&self) -> u64 {
        self.stderr.as_ref().map_or(0, Capture::total)
    }

    /// What is kept of what the bot wrote to stderr after the first `mark` bytes.
    pub fn stderr_since(&self, mark: u64) -> Vec<u8> {
        self.stderr.as_ref().map(|c| c.since(mark)).unwrap_or_default()
    }

    /// The CPU time every process of the session has used so far.
    pub fn cpu_time(&mut self) -> Duration {
        self.started.as_mut().map_or(Duration::ZERO, Started::cpu_time)
    }

    /// Where the session's CPU time can be read without this value: the run's cgroup counter
    /// (if it has one) and the bot's top process, for a host's finer clock.
    pub(crate) fn clock_parts(
        &self,
    ) -> (Option<(std::path::PathBuf, super::CgroupClock)>, Option<libc::pid_t>) {
        self.started.as_ref().map_or((None, None), Started::clock_parts)
    }

    /// The time the session has sat idle so far: none of its tasks running or waiting for a
    /// processor (see [`super::idle`]). Read at most every few tens of milliseconds; between
    /// reads the last value is given again.
    pub fn idle_time(&mut self) -> Duration {
        self.started.as_mut().map_or(Duration::ZERO, Started::idle_time)
    }

    /// Ends the session: closes the bot's stdin, kills every process of it, reaps them and
    /// reports how it went (stdout holds what was read and not returned as a line).
    pub fn finish(mut self) -> RunReport {
        self.stdin = None;
        let Some(started) = self.started.take() else {
            return RunReport::starting(&self.limits, Default::default());
        };
        let deadline = Instant::now() + super::DRAIN_GRACE;
        let mut report = started.conclude(self.limit, &self.limits);
        report.stdout = std::mem::take(&mut self.pending);
        if let Some(stderr) = self.stderr.take() {
            let Drained { data, truncated } = stderr.finish(deadline);
            report.stderr = data;
            report.stderr_truncated = truncated;
        }
        if !report.succeeded() {
            report.denials =
                crate::harness::sandbox::denials(&self.command, &report.stderr, &self.dir, &self.limits);
        }
        report
    }

    /// Whether the session has used its CPU time (and is now being ended) or has ended.
    fn over_limit(&mut self) -> bool {
        let limits = self.limits.clone();
        let Some(started) = self.started.as_mut() else { return true };
        if started.ended_within(Duration::ZERO) {
            return true;
        }
        if started.over_cpu(&limits) {
            self.limit = Some(TimeLimit::Cpu);
            return true;
        }
        false
    }

    /// A complete line from what was read, if there is one.
    fn take_line(&mut self) -> Option<Vec<u8>> {
        let at = self.pending.iter().position(|&b| b == b'\n');
        match at {
            Some(at) => {
                let mut line: Vec<u8> = self.pending.drain(..=at).collect();
                line.pop();
                self.cut = false;
                Some(line)
            }
            None if self.pending.len() >= MAX_LINE => {
                self.discarding = true;
                self.cut = true;
                Some(std::mem::take(&mut self.pending))
            }
            None => None,
        }
    }

    /// Keeps `bytes` read from stdout, dropping the rest of a line that was cut.
    fn store(&mut self, mut bytes: &[u8]) {
        if self.discarding {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    self.discarding = false;
                    bytes = &bytes[at + 1..];
                }
                None => return,
            }
        }
        let room = MAX_LINE.saturating_sub(self.pending.len());
        match bytes.iter().position(|&b| b == b'\n') {
            // Whole lines are kept whole, however many came at once.
            Some(_) => self.pending.extend_from_slice(bytes),
            None => self.pending.extend_from_slice(&bytes[..bytes.len().min(room)]),
        }
    }
}

impl Drop for Interactive {
    fn drop(&mut self) {
        if let Some(started) = self.started.take() {
            let _ = started.conclude(self.limit, &self.limits);
        }
    }
}

/// Makes `fd` non-blocking.
fn set_nonblocking(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == -1 {
            return Err(io::Error::other(os_message(&io::Error::last_os_error())));
        }
    }
    Ok(())
}

/// Waits until `fd` is ready for `events` or `wait` has passed; says whether it is ready.
fn wait_for(fd: i32, events: libc::c_short, wait: Duration) -> bool {
    // SAFETY: the descriptor is open for the duration of the call.
    let fd = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut poll = libc::pollfd { fd: fd.as_raw_fd(), events, revents: 0 };
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd.
    unsafe { libc::poll(&mut poll, 1, ms) > 0 }
}
