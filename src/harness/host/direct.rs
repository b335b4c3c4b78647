//! A host process run without the sandbox: a session of its own with per-process limits, its
//! stdin and stdout as the protocol's pipes, its stderr kept (start and end) for the report.
//!
//! This is the channel for `--sandbox off`; the sandboxed channel is the runner's interactive
//! run. Both implement [`Channel`].

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::channel::{Channel, Recv};
use crate::harness::runner::{BotCommand, Limits, RlimitPlan};

/// The longest line a host may write; a longer one is cut here and reported as garbled.
pub const MAX_LINE: usize = 4 << 20;

/// A host process and the pipes to it.
pub struct Direct {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Recv>,
    stderr: Arc<Mutex<Vec<u8>>>,
    started: Instant,
}

impl Direct {
    /// Starts `bot` with `args` in `dir`, in a session of its own under `limits`' per-process
    /// limits.
    pub fn spawn(
        bot: &BotCommand,
        args: &[std::ffi::OsString],
        dir: &Path,
        limits: &Limits,
    ) -> io::Result<Direct> {
        let plan = RlimitPlan::new(limits);
        let mut command = Command::new(bot.program());
        command
            .args(bot.args())
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: between fork and exec the closure only makes plain system calls (setsid,
        // setrlimit) on values computed beforehand.
        unsafe {
            command.pre_exec(move || {
                if libc::setsid() == -1 {
                    return Err(io::Error::last_os_error());
                }
                plan.apply();
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr_pipe = child.stderr.take().ok_or_else(|| io::Error::other("no stderr pipe"))?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new().name("host-stdout".into()).spawn(move || read_lines(stdout, &tx))?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&stderr);
        let cap = limits.capture_bytes;
        thread::Builder::new()
            .name("host-stderr".into())
            .spawn(move || keep_stderr(stderr_pipe, &keep, cap))?;
        Ok(Direct { stdin: child.stdin.take(), child, lines, stderr, started: Instant::now() })
    }

    fn pgid(&self) -> i32 {
        i32::try_from(self.child.id()).unwrap_or(0)
    }
}

/// Sends each line the host writes; a line longer than [`MAX_LINE`] is cut and flagged.
fn read_lines(stdout: impl Read, tx: &mpsc::Sender<Recv>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => {
                let _ = tx.send(Recv::Eof);
                return;
            }
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                } else if line.len() > MAX_LINE {
                    let _ = tx.send(Recv::TooLong);
                    // Skip the rest of the overlong line.
                    let mut rest = Vec::new();
                    let _ = reader.read_until(b'\n', &mut rest);
                    continue;
                }
                if tx.send(Recv::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Keeps the first and last halves of `cap` bytes of stderr.
fn keep_stderr(mut pipe: impl Read, keep: &Mutex<Vec<u8>>, cap: usize) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        let mut kept = keep.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > cap {
            let half = cap / 2;
            let drop_to = kept.len() - half;
            kept.drain(half..drop_to);
        }
    }
}

/// CPU time (user + system, living and reaped children) of every process in group `pgid`.
pub(crate) fn group_cpu(pgid: i32) -> Duration {
    let ticks = procfs_ticks_per_second();
    let mut total: u64 = 0;
    let Ok(entries) = std::fs::read_dir("/proc") else { return Duration::ZERO };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // The command name is in parentheses and may hold spaces: fields start after the last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else { continue };
        let fields: Vec<&str> = rest.split(' ').collect();
        // After the name: state(0) ppid(1) pgrp(2) ... utime(11) stime(12) cutime(13) cstime(14).
        if fields.get(2).and_then(|f| f.parse::<i32>().ok()) != Some(pgid) {
            continue;
        }
        total += [11, 12, 13, 14]
            .iter()
            .filter_map(|&i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
            .sum::<u64>();
    }
    Duration::from_micros(total * 1_000_000 / ticks)
}

fn procfs_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(t).ok().filter(|&t| t > 0).unwrap_or(100)
}

impl Channel for Direct {
    fn send(&mut self, line: &[u8]) -> io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| io::Error::other("the host's stdin is closed"))?;
        stdin.write_all(line)?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    fn recv_line(&mut self, deadline: Instant) -> Recv {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(r) => r,
            Err(RecvTimeoutError::Timeout) => Recv::TimedOut,
            Err(RecvTimeoutError::Disconnected) => Recv::Eof,
        }
    }

    fn cpu_time(&self) -> Duration {
        group_cpu(self.pgid())
    }

    fn exit_status(&mut self) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        let status = self.child.try_wait().ok().flatten()?;
        Some(match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(signal)) => format!("was killed by signal {signal}"),
            _ => "ended".to_string(),
        })
    }

    fn stderr(&self) -> Vec<u8> {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn kill(&mut self) {
        self.stdin = None;
        let pgid = self.pgid();
        if pgid > 1 {
            // SAFETY: a negative pid names the host's own process group.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
    }
}

impl Drop for Direct {
    fn drop(&mut self) {
        self.kill();
    }
}
