//! A sandboxed run being started: its request, sent to the zygote with the run's pipes, and
//! the cgroup it joins.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use super::cgroup::RunCgroup;
use super::spec::Request;
use super::zygote;
use crate::harness::runner::command::BotCommand;
use crate::harness::runner::cpu::CgroupClock;
use crate::harness::runner::limits::Limits;

/// A sandboxed run being started: its request for the helper, the grader's end of the
/// control pipe once it runs, and the cgroup it joins.
pub(crate) struct Launch {
    helper: PathBuf,
    request: Vec<u8>,
    /// The grader's end of the control pipe: closing it tells the helper to end the run.
    control: Option<File>,
    pub cgroup: Option<RunCgroup>,
}

/// A run's helper, started.
pub(crate) struct Running {
    /// Its pid, in this process's PID namespace.
    pub pid: libc::pid_t,
    /// A pidfd for it: readable once it has ended, and a way to kill it that cannot hit a
    /// later process of the same number.
    pub pidfd: OwnedFd,
    /// The reading end of its status pipe.
    pub status: File,
}

impl Launch {
    /// Prepares a sandboxed run of `bot` with `args` in `case_dir`; why not, if it cannot.
    pub(crate) fn new(
        bot: &BotCommand,
        args: &[OsString],
        case_dir: &Path,
        limits: &Limits,
    ) -> Result<Launch, String> {
        let request = super::request(bot, args, case_dir, limits, false)?;
        Launch::for_request(request, limits).map_err(|e| format!("cannot prepare the sandbox: {e}"))
    }

    pub(super) fn for_request(mut request: Request, limits: &Limits) -> io::Result<Launch> {
        let cgroup = RunCgroup::create(limits.memory_bytes, limits.max_processes);
        if let Some(cg) = &cgroup {
            request.cgroup_join = cg.join_files();
            request.cgroup_memory = cg.limits_memory();
            request.cgroup_pids = cg.limits_processes();
        }
        let helper = match &limits.sandbox.helper {
            Some(path) => path.clone(),
            // This very build, even if another has been installed at its path since.
            None => std::path::PathBuf::from(crate::harness::program::RUNNING),
        };
        let request = serde_json::to_vec(&request).map_err(io::Error::other)?;
        Ok(Launch { helper, request, control: None, cgroup })
    }

    /// Starts the run's helper (through the zygote) with `stdin` (`/dev/null` if `None`),
    /// `stdout` and `stderr` as the bot's.
    pub(crate) fn start(
        &mut self,
        stdin: Option<&OwnedFd>,
        stdout: &OwnedFd,
        stderr: &OwnedFd,
    ) -> io::Result<Running> {
        let cloexec = nix::fcntl::OFlag::O_CLOEXEC;
        let (status, status_writer) = nix::unistd::pipe2(cloexec).map_err(io::Error::from)?;
        let (control_reader, control) = nix::unistd::pipe2(cloexec).map_err(io::Error::from)?;
        let null = match stdin {
            Some(_) => None,
            None => Some(OwnedFd::from(File::open("/dev/null")?)),
        };
        let stdin = stdin.or(null.as_ref()).map_or(-1, AsRawFd::as_raw_fd);
        let fds = [
            stdin,
            stdout.as_raw_fd(),
            stderr.as_raw_fd(),
            status_writer.as_raw_fd(),
            control_reader.as_raw_fd(),
        ];
        let (pid, pidfd) = zygote::launch(&self.helper, &self.request, fds)?;
        self.control = Some(File::from(control));
        Ok(Running { pid, pidfd, status: File::from(status) })
    }

    /// Tells the helper to end the run now: kill every process of it, hand back the case
    /// folder, report its CPU time and exit.
    pub(crate) fn stop(&mut self) {
        self.control = None;
    }

    /// Where the run's CPU time can be read, if its cgroup counts it (and what it counted
    /// before the run).
    pub(crate) fn cpu_clock(&self) -> Option<(PathBuf, CgroupClock, std::time::Duration)> {
        self.cgroup.as_ref().and_then(RunCgroup::cpu_clock)
    }
}
