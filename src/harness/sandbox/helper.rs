//! The sandbox helper: arbiter re-executed as `arbiter __sandbox`, a fresh single-threaded
//! process that sets up the sandbox for one bot run and starts the bot in it.
//!
//! Doing this in a process of its own, rather than between `fork` and `exec` of the
//! multithreaded grader, lets it allocate, read files and report errors freely. Three
//! processes take part:
//!
//! 1. the helper joins the run's cgroup, enters new namespaces, and waits for
//! 2. the run's init (PID 1 of the new PID namespace), which arranges the mounts, starts the
//!    bot, watches it, kills everything left when it ends, and copies the case folder back;
//! 3. the bot's process, which drops its capabilities, sets its limits, locks itself into a
//!    Landlock domain and executes the bot.
//!
//! Every step is reported to the grader as an [`Event`] on [`STATUS_FD`].

use std::ffi::CString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::{Duration, Instant};

use super::case_files::CaseFiles;
use super::confine::{self, Landlocked};
use super::namespaces::{self, Entered};
use super::spec::{Event, Request, STATUS_FD};
use super::watch::{self, Scope};
use super::{mounts, mounts::Hidden};
use crate::harness::runner::{Limits, RlimitPlan};

/// How often the helper looks at the run's memory and processes when it watches them itself.
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// The Landlock ABI that scopes signals and abstract sockets, required by strict mode.
const STRICT_ABI: i32 = 6;

/// Runs the helper; never returns.
pub fn main() -> ! {
    // The status descriptor must not reach the bot.
    // SAFETY: fcntl on a descriptor number; harmless if it is not open.
    unsafe {
        libc::fcntl(STATUS_FD, libc::F_SETFD, libc::FD_CLOEXEC);
    }
    let request = match read_request() {
        Ok(r) => r,
        Err(why) => finish(Event::SetupFailed { why }),
    };
    run(&request)
}

fn read_request() -> Result<Request, String> {
    let mut text = Vec::new();
    std::io::stdin()
        .take(1 << 20)
        .read_to_end(&mut text)
        .map_err(|e| format!("cannot read the request: {e}"))?;
    let request = serde_json::from_slice(&text).map_err(|e| format!("bad request: {e}"))?;
    // The bot's stdin is /dev/null, as without a sandbox.
    let null = CString::new("/dev/null").expect("no NUL");
    // SAFETY: open and dup2 with a valid path; the descriptor is closed after dup2.
    unsafe {
        let fd = libc::open(null.as_ptr(), libc::O_RDONLY);
        if fd >= 0 {
            libc::dup2(fd, 0);
            libc::close(fd);
        }
    }
    Ok(request)
}

/// Writes one event line; lines are short enough for a pipe to keep them whole.
pub(crate) fn emit(event: &Event) {
    let mut line = serde_json::to_vec(event).unwrap_or_default();
    line.push(b'\n');
    // SAFETY: write from a valid buffer of the given length.
    unsafe {
        libc::write(STATUS_FD, line.as_ptr().cast(), line.len());
    }
}

fn finish(event: Event) -> ! {
    emit(&event);
    std::process::exit(0)
}

fn layer(name: &str, detail: impl Into<String>) {
    emit(&Event::Layer { name: name.to_string(), detail: detail.into() });
}

fn missing(name: &str, why: impl Into<String>) {
    emit(&Event::Missing { name: name.to_string(), why: why.into() });
}

fn run(request: &Request) -> ! {
    // SAFETY: prctl with integer arguments. Should arbiter die, the sandbox dies with it.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
    for file in &request.cgroup_procs {
        if let Err(e) = std::fs::write(file, std::process::id().to_string()) {
            finish(Event::SetupFailed { why: format!("cannot join the cgroup {}: {e}", file.display()) });
        }
    }
    let entered = namespaces::enter();
    let abi = confine::kernel_abi();
    if request.strict {
        if let Err(why) = &entered {
            finish(Event::SetupFailed { why: format!("strict sandbox: no namespaces ({why})") });
        }
        if abi < STRICT_ABI {
            finish(Event::SetupFailed {
                why: format!("strict sandbox: Landlock ABI {abi} on this kernel, {STRICT_ABI} needed"),
            });
        }
    }
    match &entered {
        Ok(Entered::All) => layer("namespaces", "user, pid, network, mount, ipc, uts, cgroup"),
        Ok(Entered::WithoutUser) => {
            layer("namespaces", "pid, network, mount, ipc, uts, cgroup (no user namespace)")
        }
        Err(why) => missing("namespaces", why.clone()),
    }
    // SAFETY: this process is single-threaded, so the child may do anything after fork.
    match unsafe { libc::fork() } {
        -1 => finish(Event::SetupFailed { why: format!("fork: {}", std::io::Error::last_os_error()) }),
        0 => init(request, entered.is_ok()),
        child => {
            wait_for(child);
            std::process::exit(0)
        }
    }
}

/// Waits for `pid` to end, reaping it.
fn wait_for(pid: libc::pid_t) -> Option<i32> {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        if rc == pid {
            return Some(status);
        }
        if rc < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

/// The run's init: PID 1 of the namespace (or, without one, a subreaper).
fn init(request: &Request, in_namespace: bool) -> ! {
    // SAFETY: prctl with integer arguments. Not dumpable: the bot cannot read this process's
    // memory, environment or executable through /proc. The death signal ends the run should
    // the helper be killed (on a timeout).
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        if !in_namespace {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    }
    let scope = if in_namespace { Scope::Namespace } else { Scope::Descendants };
    let (files, scratch) = if in_namespace { arrange_mounts(request) } else { (None, Vec::new()) };

    // SAFETY: single-threaded, as above.
    let bot = match unsafe { libc::fork() } {
        -1 => finish(Event::SetupFailed { why: format!("fork: {}", std::io::Error::last_os_error()) }),
        0 => start_bot(request, &scratch, in_namespace),
        pid => pid,
    };
    let ending = supervise(bot, request, scope);
    watch::kill_all(scope);
    // Every process of the run has been reaped by now (by this process or by their parents),
    // so the children's usage covers the whole tree.
    emit(&Event::Usage { cpu_us: children_cpu_us() });
    if let Some(files) = files
        && let Err(why) = files.hand_back(&request.case_dir, request.disk_bytes)
    {
        emit(&Event::CopyFailed { why });
    }
    finish(ending)
}

/// User and system CPU time of the reaped children of this process and theirs, in µs.
pub(crate) fn children_cpu_us() -> u64 {
    // SAFETY: getrusage writes only to the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    u64::try_from(crate::harness::runner::cpu_time(&usage).as_micros()).unwrap_or(u64::MAX)
}

/// Sets up the bot's file system view; returns the case snapshot (to copy back) and the
/// scratch folders the bot may write.
fn arrange_mounts(request: &Request) -> (Option<CaseFiles>, Vec<std::path::PathBuf>) {
    if let Err(why) = mounts::make_private() {
        finish(Event::SetupFailed { why });
    }
    match mounts::fresh_proc() {
        Ok(()) => layer("proc", "a /proc of its own"),
        Err(why) => missing("proc", format!("the host's /proc is shown ({why})")),
    }
    let files = match CaseFiles::snapshot(&request.case_dir, request.disk_bytes) {
        Ok(f) => f,
        Err(why) => finish(Event::SetupFailed { why }),
    };
    let scratch = mounts::scratch(&request.readable);
    mounts::read_only(&request.readable);
    let mut covered = 0;
    for path in &request.hidden {
        match mounts::hide(path, &request.readable, &request.case_dir) {
            Hidden::Covered => covered += 1,
            Hidden::Absent => {}
            Hidden::Visible(why) => missing("hidden", format!("{} stays visible: {why}", path.display())),
        }
    }
    layer("hidden", format!("{covered} path(s) covered"));
    if let Err(why) = mounts::case_folder(&request.case_dir, request.disk_bytes) {
        finish(Event::SetupFailed { why });
    }
    if let Err(why) = files.restore(&request.case_dir) {
        finish(Event::SetupFailed { why });
    }
    layer("disk", format!("{} for all files, in a tmpfs", super::bytes(request.disk_bytes)));
    (Some(files), scratch)
}

/// In the bot's process: confine it and execute the bot. Never returns.
fn start_bot(request: &Request, scratch: &[std::path::PathBuf], in_namespace: bool) -> ! {
    // SAFETY: setsid and prctl with integer arguments.
    unsafe {
        libc::setsid();
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
    if in_namespace {
        freeze(request, scratch);
    }
    if let Err(e) = std::env::set_current_dir(&request.case_dir) {
        abort_bot(Event::SetupFailed { why: format!("cannot enter the case folder: {e}") });
    }
    let limits = Limits {
        memory_bytes: request.memory_bytes,
        max_processes: request.max_processes,
        max_file_bytes: request.max_file_bytes,
        ..Limits::default()
    };
    RlimitPlan::new(&limits).apply();
    confine::drop_capabilities();
    match confine::landlock(&request.case_dir, &request.readable, scratch) {
        Ok(Landlocked::Fully(abi)) => {
            layer("landlock", format!("ABI {abi}: files, TCP, signals, abstract sockets"))
        }
        Ok(Landlocked::Partly(abi)) => {
            layer("landlock", format!("ABI {abi}: only what this kernel supports"))
        }
        Ok(Landlocked::No) => {
            if request.strict {
                abort_bot(Event::SetupFailed { why: "strict sandbox: Landlock is not enforced".into() });
            }
            missing(
                "landlock",
                "this kernel has no Landlock: files outside the case folder are not protected",
            )
        }
        Err(why) => abort_bot(Event::SetupFailed { why }),
    }
    if request.probe {
        std::process::exit(0);
    }
    let err = Command::new(&request.program)
        .args(&request.args)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| passed_on(&name.to_string_lossy())))
        .env("TMPDIR", &request.case_dir)
        .exec();
    abort_bot(Event::StartFailed { why: crate::harness::runner::os_message(&err) })
}

/// In a mount namespace of the bot's own (so that the run's init can still write the case
/// files back), makes every mount read-only but the case folder and the scratch folders.
fn freeze(request: &Request, scratch: &[std::path::PathBuf]) {
    if let Err(e) = nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWNS) {
        missing("read-only", format!("no mount namespace of its own: {}", e.desc()));
        return;
    }
    let mut writable: Vec<&std::path::Path> = vec![request.case_dir.as_path()];
    writable.extend(scratch.iter().map(|p| p.as_path()));
    match mounts::freeze(&writable) {
        Ok(()) => layer("read-only", "every mount but the case folder and scratch folders"),
        Err(why) => missing("read-only", why),
    }
}

/// Whether an environment variable of arbiter's reaches the bot: what programs and language
/// runtimes need to start, and nothing else, so that a token in the grader's environment stays
/// there.
fn passed_on(name: &str) -> bool {
    const NAMES: [&str; 10] =
        ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "JAVA_HOME", "GOROOT"];
    const PREFIXES: [&str; 5] = ["LC_", "DOTNET_", "PYENV_", "PYTHON", "NODE_"];
    NAMES.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Reports why the bot's process could not become the bot, and ends it.
fn abort_bot(event: Event) -> ! {
    emit(&event);
    // SAFETY: _exit ends the process without running anything else.
    unsafe { libc::_exit(127) }
}

/// Waits for the bot to end, enforcing the limits no cgroup enforces; returns how it ended.
fn supervise(bot: libc::pid_t, request: &Request, scope: Scope) -> Event {
    let memory = request.memory_bytes.filter(|_| !request.cgroup_memory);
    let processes = request.max_processes.filter(|_| !request.cgroup_pids);
    let watching = memory.is_some() || processes.is_some();
    let mut next_look = Instant::now();
    loop {
        let mut status = 0;
        let flags = if watching { libc::WNOHANG } else { 0 };
        // SAFETY: waitpid writes only to `status`.
        let pid = unsafe { libc::waitpid(-1, &mut status, flags) };
        if pid == bot {
            return if libc::WIFEXITED(status) {
                Event::Exited { code: libc::WEXITSTATUS(status) }
            } else {
                Event::Signaled { signal: libc::WTERMSIG(status) }
            };
        }
        if pid < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Event::SetupFailed { why: "lost track of the bot's process".into() };
        }
        if pid > 0 || !watching {
            continue;
        }
        if Instant::now() >= next_look {
            next_look = Instant::now() + WATCH_EVERY;
            let pids = watch::processes(scope);
            if let Some(limit) = processes
                && pids.len() as u64 > limit
            {
                return Event::OverLimit { what: format!("more than {limit} processes at once") };
            }
            if let Some(limit) = memory
                && watch::memory(&pids) > limit
            {
                return Event::OverLimit {
                    what: format!("more than {} of memory, all its processes together", super::bytes(limit)),
                };
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
