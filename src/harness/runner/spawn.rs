//! Starting a run: the bot itself (`--sandbox off`), or the sandbox's helper through its
//! zygote, with the pipes, threads and clocks that watch it ([`Started`]); and [`run`], which
//! starts, waits and concludes one run, trying a sandbox that could not be set up again.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::capture::{Capture, Drained};
use super::command::BotCommand;
use super::cpu::RunClock;
use super::idle::{IdleMeter, Tasks};
use super::limits::{Limits, RlimitPlan};
use super::report::{Outcome, RunReport, os_message};
use super::supervise::{DRAIN_GRACE, Proc, Started, abandon};
use super::{process, slots};
use crate::harness::sandbox::cgroup::RunCgroup;
use crate::harness::sandbox::launch::{Launch, Running};
use crate::harness::sandbox::policy::Mode;

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
    // A sandbox that could not be set up (a host file rewritten at that moment, no process
    // left to start) ran nothing: it is tried again, and only then reported as the grader's
    // failure.
    let mut tries = 0;
    loop {
        let report = run_once(command, args, cwd, limits);
        if !matches!(report.outcome, Outcome::GraderError(_)) || tries + 1 >= SETUP_TRIES {
            return report;
        }
        tries += 1;
        std::thread::sleep(SETUP_PAUSE * tries);
    }
}

/// How many times a run whose sandbox could not be set up is tried in all.
pub(crate) const SETUP_TRIES: u32 = 3;

/// The longest a session waits for its sandbox to be set up before speaking to the bot (the
/// bot's own start-up is not in it: it begins with the bot's program).
pub(crate) const SETUP_WAIT: Duration = Duration::from_secs(10);

/// How long to wait before trying again (times the tries so far).
pub(crate) const SETUP_PAUSE: Duration = Duration::from_millis(50);

fn run_once(command: &BotCommand, args: &[OsString], cwd: &Path, limits: &Limits) -> RunReport {
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
        report.denials = crate::harness::sandbox::denials(command, &report.stderr, cwd, limits);
    }
    report
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
    if limits.sandbox.mode == Mode::Off {
        let mut cmd = Command::new(command.program());
        cmd.args(command.args()).args(args).current_dir(cwd);
        // A cgroup of its own where one can be made, joined before the bot starts: a process
        // that leaves the bot's session (setsid, a double fork) is still charged and killed.
        let tracker = RunCgroup::create(None, None);
        let joins: Vec<std::ffi::CString> = tracker
            .iter()
            .flat_map(RunCgroup::join_files)
            .filter_map(|p| std::ffi::CString::new(p.into_os_string().into_encoded_bytes()).ok())
            .collect();
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
                // "0" is the writing process; open, write and close are async-signal-safe.
                for file in &joins {
                    let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                    if fd >= 0 {
                        libc::write(fd, b"0".as_ptr().cast(), 1);
                        libc::close(fd);
                    }
                }
                plan.apply();
                Ok(())
            });
        }
        return spawn_child(cmd, report, piped_stdin, tracker);
    }
    match Launch::new(command, args, cwd, limits) {
        Ok(launch) => spawn_helper(launch, report, piped_stdin),
        Err(why) => Err(fail(report, why)),
    }
}

/// Runs a prepared sandbox launch, for the probe that finds out what the sandbox can do here.
pub(crate) fn start_launch(launch: Launch, limits: &Limits) -> Result<Started, Box<RunReport>> {
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
    tracker: Option<RunCgroup>,
) -> Result<Started, Box<RunReport>> {
    let stdin = if piped_stdin { Stdio::piped() } else { Stdio::null() };
    cmd.stdin(stdin).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(err) => {
            report.elapsed = start.elapsed();
            if let Some(cg) = tracker {
                cg.remove();
            }
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
            if let Some(cg) = tracker {
                cg.remove();
            }
            return Err(failed(
                report,
                format!("cannot start a thread to wait for it: {}", os_message(&err)),
            ));
        }
    };
    let clock = RunClock::new(pid, 0, tracker.as_ref().and_then(RunCgroup::cpu_clock));
    // Its tasks: the cgroup's where there is one (a detached process is still the run's).
    let tasks = run_tasks(tracker.as_ref(), pid);
    Ok(Started {
        stdin,
        stdout,
        stderr,
        tracker,
        ..watching(Proc::Child(child), pid, exited, clock, tasks, start, report)
    })
}

/// Starts the sandbox helper of `launch` (through the zygote) and starts watching it.
fn spawn_helper(mut launch: Launch, report: RunReport, piped_stdin: bool) -> Result<Started, Box<RunReport>> {
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
            let mut report = failed(report, String::new());
            report.outcome = Outcome::GraderError(format!("cannot start the sandbox: {}", os_message(&err)));
            return Err(report);
        }
    };
    // The helper holds its own copies now; ours would keep the pipes from ever ending.
    drop((stdin_r, stdout_w, stderr_w));
    let Running { pid, pidfd, status } = running;
    process::register(pid);
    // Its status read on a thread, and its end watched for; without either the run cannot be
    // followed, and is ended at once.
    let watched = (|| -> Result<_, String> {
        let status = Capture::spawn("sandbox-status", status, 1 << 16)
            .map_err(|err| format!("cannot read the sandbox's status: {}", os_message(&err)))?;
        let exited = process::watch_pidfd(&pidfd)
            .map_err(|err| format!("cannot start a thread to wait for it: {}", os_message(&err)))?;
        Ok((status, exited))
    })();
    let (status, exited) = match watched {
        Ok(both) => both,
        Err(why) => {
            process::kill_pidfd(&pidfd);
            process::unregister(pid);
            if let Some(cg) = launch.cgroup.take() {
                cg.remove();
            }
            return Err(failed(report, why));
        }
    };
    let clock = RunClock::new(pid, 1, launch.cpu_clock());
    // The run's tasks: its cgroup's, where there is one (and the helper's, which sets the run
    // up before its init joins the cgroup), else the helper's process tree.
    let tasks = run_tasks(launch.cgroup.as_ref(), pid);
    Ok(Started {
        stdin: stdin_w,
        stdout: Some(File::from(stdout)),
        stderr: Some(File::from(stderr)),
        launch: Some(launch),
        status: Some(status),
        ..watching(Proc::Helper(pidfd), pid, exited, clock, tasks, start, report)
    })
}

/// A run just started (`process`, as `pid`, at `start`) and watched from now on: `exited`
/// fires when it ends, `clock` reads its CPU time, and its idle time is measured over `tasks`.
/// No pipe, launch, tracker or status yet: the start that made them adds them.
fn watching(
    process: Proc,
    pid: libc::pid_t,
    exited: Receiver<io::Result<()>>,
    clock: RunClock,
    tasks: Tasks,
    start: Instant,
    report: RunReport,
) -> Started {
    let idle = IdleMeter::new(tasks, clock.counts_exactly(), start);
    Started {
        process,
        pid,
        stdin: None,
        stdout: None,
        stderr: None,
        launch: None,
        tracker: None,
        status: None,
        exited,
        watched: None,
        clock,
        idle,
        start,
        cpu_seen: Duration::ZERO,
        report,
    }
}

/// A pipe: (reading end, writing end), both closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(io::Error::from)
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

/// Why `dir` cannot be a working directory, if it cannot.
fn check_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(format!("working directory {} is not a directory", dir.display())),
        Err(err) => Err(format!("working directory {}: {}", dir.display(), os_message(&err))),
    }
}

/// The tasks whose idleness counts for a run: its cgroup's threads where it has a cgroup (a
/// detached process is still the run's), else the process tree under `pid`.
fn run_tasks(cgroup: Option<&RunCgroup>, pid: libc::pid_t) -> Tasks {
    match cgroup.and_then(RunCgroup::threads_file) {
        Some(file) => Tasks::Cgroup { file, helper: pid },
        None => Tasks::Tree(pid),
    }
}
