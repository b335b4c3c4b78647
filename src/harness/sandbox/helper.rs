//! A run's init: what the zygote's clone of itself does for one bot run.
//!
//! Three processes take part:
//!
//! 1. the zygote clones the run's init into new namespaces (or, without them, forks it);
//! 2. the init (PID 1 of the new PID namespace, or a child subreaper) joins the run's cgroup,
//!    builds the bot's root, starts the bot, watches it (and the order to stop on
//!    [`CONTROL_FD`]), kills everything left when it ends, reports its CPU time and copies the
//!    case folder back;
//! 3. the bot's process, which takes its own user, drops its capabilities, sets its limits,
//!    locks itself into a Landlock domain and a seccomp filter, closes every descriptor but
//!    0-2 and executes the bot.
//!
//! Every step is reported to the grader as an [`Event`] on [`STATUS_FD`].

use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use super::case_files::{self, CaseFiles};
use super::confine::{self, Landlocked, Reading};
use super::namespaces::{self, Entered};
use super::spec::{CONTROL_FD, Event, Request, STATUS_FD};
use super::watch::{self, Scope};
use super::{mounts, root, seccomp, view};
use crate::harness::runner::limits::{Limits, RlimitPlan};
use crate::harness::runner::report::os_message;
use crate::harness::runner::usage::{CpuTimes, Who};

/// How often the run's init looks at its memory, processes and disk when it watches them
/// itself.
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// How often the run's init wakes when it watches nothing (to reap orphans).
const IDLE_EVERY: Duration = Duration::from_millis(100);

/// The Landlock ABI that scopes signals and abstract sockets, required by strict mode.
const STRICT_ABI: i32 = 6;

/// Most files a bot may make in its case folder where no tmpfs bounds them.
const MAX_FILES: u64 = 4096;

/// In the zygote: starts the run's init for `request`, in new namespaces where it can, with
/// `fds` as its descriptors 0 to 4. Returns the init's pid, or a negative error number.
pub(crate) fn start_run(request: &Request, fds: &[std::os::fd::OwnedFd]) -> libc::pid_t {
    // SAFETY: geteuid and getegid have no preconditions.
    let outside = unsafe { (libc::geteuid(), libc::getegid()) };
    let mut entered = namespaces::plan(request.no_namespaces);
    let mut pid = -1;
    if let Ok((flags, _)) = &entered {
        pid = clone(flags.bits());
        if pid < 0 {
            entered = Err(format!("cannot make namespaces: {}", std::io::Error::last_os_error()));
        }
    }
    if pid < 0 {
        pid = clone(0);
    }
    match pid {
        -1 => -std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EAGAIN),
        0 => {
            take_fds(fds);
            begin_run(request, entered.map(|(_, e)| e), outside)
        }
        pid => pid,
    }
}

/// In a run's init, just cloned: the run's descriptors on 0 to 4, nothing else open, a
/// session of its own.
fn take_fds(fds: &[std::os::fd::OwnedFd]) {
    // SAFETY: plain descriptor calls. Each descriptor is first copied above 10, so that none
    // is overwritten before it is moved.
    unsafe {
        let high: Vec<std::os::fd::RawFd> = fds
            .iter()
            .map(|fd| libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(fd), libc::F_DUPFD_CLOEXEC, 10))
            .collect();
        for (target, fd) in high.iter().enumerate() {
            libc::dup2(*fd, target as std::os::fd::RawFd);
        }
        libc::syscall(libc::SYS_close_range, 5u32, u32::MAX, 0u32);
        libc::fcntl(STATUS_FD, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(CONTROL_FD, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::setsid();
    }
}

/// `clone` with `flags` (namespaces), like `fork`: the child runs on a copy of the stack.
fn clone(flags: libc::c_int) -> libc::pid_t {
    // SAFETY: clone without a new stack is fork with flags; the zygote is single-threaded, so
    // the child may do anything after it.
    unsafe {
        libc::syscall(
            libc::SYS_clone,
            (flags | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        ) as libc::pid_t
    }
}

/// In the run's init, first: the cgroup, the user mapping, the checks of strict mode, the
/// report of the namespaces; then the run.
fn begin_run(request: &Request, entered: Result<Entered, String>, outside: (u32, u32)) -> ! {
    // SAFETY: prctl with integer arguments. Should the zygote (that is, arbiter) die, the run
    // dies with it.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
    // The run goes on its slot's processor, with the grader's thread that speaks to it, or on
    // all the grader's, whichever thread of it started the zygote.
    crate::harness::runner::affinity::pin_this_thread(&request.cpus);
    if request.fail_setup {
        finish(Event::SetupFailed {
            why: "cannot bind /.passwd at /etc/passwd: No such file or directory (a failure injected by \
                  ARBITER_SANDBOX_FAIL_SETUPS)"
                .to_string(),
        });
    }
    for file in &request.cgroup_join {
        // "0" is the writing process, whatever its number in its own PID namespace.
        if let Err(e) = std::fs::write(file, "0") {
            finish(Event::SetupFailed { why: format!("cannot join the cgroup {}: {e}", file.display()) });
        }
    }
    if let Ok(Entered::All) = entered
        && let Err(why) = namespaces::map_user(request.uid, outside.0, outside.1)
    {
        finish(Event::SetupFailed { why: format!("cannot map the bot's user: {why}") });
    }
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
        let unlimited = |limit: Option<u64>, held: bool| limit.is_some() && !held;
        if unlimited(request.memory_bytes, request.cgroup_memory)
            || unlimited(request.max_processes, request.cgroup_pids)
        {
            finish(Event::SetupFailed {
                why: "strict sandbox: no cgroup can be made here to limit memory and processes".to_string(),
            });
        }
    }
    let identity = format!("uid {} (never 0, never arbiter's own)", request.uid);
    match &entered {
        Ok(Entered::All) => layer(
            "namespaces",
            format!("user (the bot is uid {} inside), pid, network, mount, ipc, uts, cgroup", request.uid),
        ),
        Ok(Entered::WithoutUser) => {
            layer("namespaces", format!("pid, network, mount, ipc, uts, cgroup; {identity}"))
        }
        Err(why) => {
            missing("namespaces", why.clone());
            if is_root() {
                layer("user", identity);
            }
        }
    }
    init(request, entered.is_ok())
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

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The run's init: PID 1 of the namespace (or, without one, a subreaper).
fn init(request: &Request, in_namespace: bool) -> ! {
    // SAFETY: prctl with integer arguments. Not dumpable: the bot cannot read this process's
    // memory, environment or executable through /proc. The death signal ends the run should
    // the helper be killed.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        if !in_namespace {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    }
    let scope = if in_namespace { Scope::Namespace } else { Scope::Descendants };
    let files = if in_namespace { Some(arrange_root(request)) } else { arrange_in_place(request) };
    // Worked out here, as the helper's user: the bot's may not be able to list the folders.
    let read = match landlock_read(request, in_namespace) {
        Ok(read) => read,
        Err(why) => finish(Event::SetupFailed { why }),
    };

    // SAFETY: single-threaded, as above.
    let bot = match unsafe { libc::fork() } {
        -1 => finish(Event::SetupFailed { why: format!("fork: {}", std::io::Error::last_os_error()) }),
        0 => start_bot(request, in_namespace, read),
        pid => pid,
    };
    let ending = supervise(bot, request, scope, in_namespace);
    watch::kill_all(scope);
    // Every process of the run has been reaped by now (by this process or by their parents),
    // so the children's usage covers the whole tree.
    let (cpu_us, user_us) = children_cpu_us();
    emit(&Event::Usage { cpu_us, user_us: Some(user_us) });
    match files {
        Some(files) => {
            if let Err(why) = files.hand_back(&request.case_dir, request.disk_bytes) {
                emit(&Event::CopyFailed { why });
            }
        }
        None => {
            if let Err(why) = case_files::flatten(&request.case_dir) {
                emit(&Event::CopyFailed { why });
            }
        }
    }
    finish(ending)
}

/// User and system CPU time of the reaped children of this process and theirs, and the user
/// part of it, in µs.
pub(crate) fn children_cpu_us() -> (u64, u64) {
    let used = CpuTimes::now(Who::RUSAGE_CHILDREN).unwrap_or_default();
    let micros = |d: std::time::Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
    (micros(used.total), micros(used.user))
}

/// In the run's mount namespace: the bot's new root, its case folder a tmpfs holding the
/// case's files. Returns the case snapshot, to copy back.
fn arrange_root(request: &Request) -> CaseFiles {
    if let Err(why) = mounts::make_private() {
        finish(Event::SetupFailed { why });
    }
    let files = match CaseFiles::snapshot(&request.case_dir, request.disk_bytes) {
        Ok(f) => f,
        Err(why) => finish(Event::SetupFailed { why }),
    };
    if let Err(why) = root::build(request, request.uid) {
        finish(Event::SetupFailed { why: format!("cannot build the bot's root: {why}") });
    }
    if let Err(why) = files.restore(&request.case_dir, request.uid) {
        finish(Event::SetupFailed { why });
    }
    layer(
        "root",
        "a new root (pivot_root) with the system folders, the bot's own folder and its interpreters, \
         read-only; nothing else",
    );
    layer("proc", "a /proc of its own");
    layer("disk", format!("{} for all files, in a tmpfs", super::bytes(request.disk_bytes)));
    files
}

/// Without namespaces: the case folder given to the bot's user (when arbiter is root, the bot
/// runs as a user of its own, which must be able to write it).
fn arrange_in_place(request: &Request) -> Option<CaseFiles> {
    if is_root()
        && let Err(why) = case_files::give(&request.case_dir, request.uid)
    {
        finish(Event::SetupFailed { why });
    }
    missing(
        "root",
        "no mount namespace: the bot sees the machine's system folders and its own, as far as Landlock \
         lets it (the grader's folders inside them left out, entry by entry)",
    );
    missing(
        "proc",
        "no /proc of its own: Landlock lets the bot's first process read its own entries and the \
         machine-wide ones, no other process's; the processes it starts cannot read /proc/self",
    );
    layer(
        "disk",
        format!(
            "{} and {MAX_FILES} files in the case folder, counted every {} ms",
            super::bytes(request.disk_bytes),
            WATCH_EVERY.as_millis()
        ),
    );
    None
}

/// In the bot's process: confine it and execute the bot. Never returns.
fn start_bot(request: &Request, in_namespace: bool, mut reading: Reading) -> ! {
    // SAFETY: setsid with no arguments.
    unsafe {
        libc::setsid();
    }
    if let Err(e) = std::env::set_current_dir(&request.case_dir) {
        abort_bot(Event::SetupFailed { why: format!("cannot enter the case folder: {e}") });
    }
    let limits = Limits {
        memory_bytes: request.memory_bytes,
        max_processes: request.max_processes,
        max_file_bytes: request.max_file_bytes,
        open_files: request.open_files,
        ..Limits::default()
    };
    RlimitPlan::new(&limits).apply();
    let own_user = is_root();
    if own_user {
        become_bot(request.uid, request.max_processes);
    }
    // SAFETY: prctl with integer arguments; the death signal is cleared by a change of user,
    // so it is set after it.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
    confine::drop_capabilities();
    // SAFETY: prctl with integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    }
    let mut write = vec![request.case_dir.clone()];
    if in_namespace {
        write.extend(["/tmp", "/var/tmp", "/dev/shm"].map(PathBuf::from));
    } else {
        // Its own /proc entries and the machine's, no other process's.
        reading.read.extend(confine::proc_rules(std::process::id()));
    }
    match confine::landlock(&reading, &write) {
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
            missing("landlock", "this kernel has no Landlock")
        }
        Err(why) => abort_bot(Event::SetupFailed { why }),
    }
    match seccomp::apply(!in_namespace, !own_user) {
        Ok(()) if in_namespace => layer("seccomp", "no ptrace, mount, unshare, keyctl, bpf, io_uring, perf"),
        Ok(()) if own_user => layer(
            "seccomp",
            "no socket but AF_UNIX socketpair, no System V IPC, no ptrace, mount, unshare, keyctl, bpf, \
             io_uring, perf",
        ),
        Ok(()) => layer(
            "seccomp",
            "no socket but AF_UNIX socketpair, no chmod/chown/utime/xattr by path, no System V IPC, no \
             ptrace, mount, unshare, keyctl, bpf, io_uring, perf",
        ),
        Err(why) => {
            if request.strict {
                abort_bot(Event::SetupFailed { why: format!("strict sandbox: {why}") });
            }
            missing("seccomp", why)
        }
    }
    // Every descriptor but 0-2 is closed when the bot starts (the status pipe included).
    // SAFETY: close_range with integer arguments.
    unsafe {
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, libc::CLOSE_RANGE_CLOEXEC);
    }
    if request.probe {
        std::process::exit(0);
    }
    let tmp = if in_namespace { PathBuf::from("/tmp") } else { request.case_dir.clone() };
    // Without a root of its own, the bot is given the copies of the folders its user could not
    // read by their own paths.
    let staged = if in_namespace { &[][..] } else { &request.staged[..] };
    // The status pipe is closed by the exec (close-on-exec, above), not before.
    emit(&Event::Ready);
    let err = Command::new(restage(&request.program, staged))
        .args(request.args.iter().map(|a| restage(a, staged)))
        .env_clear()
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .env("TMPDIR", tmp)
        .exec();
    let why = os_message(&err);
    let why = if err.kind() == std::io::ErrorKind::PermissionDenied && own_user {
        format!(
            "{why}: the sandbox runs bots as uid {}, which needs to read the program and every folder on its way \
             (chmod o+rx)",
            request.uid
        )
    } else {
        why
    };
    abort_bot(Event::StartFailed { why })
}

/// As root: becomes the bot's own user and group, with no other groups and its own process
/// limit (the kernel counts processes per user).
fn become_bot(uid: u32, max_processes: Option<u64>) {
    if let Some(n) = max_processes {
        let limit = libc::rlimit { rlim_cur: n as libc::rlim_t, rlim_max: n as libc::rlim_t };
        // SAFETY: setrlimit reads a valid struct.
        unsafe {
            libc::setrlimit(libc::RLIMIT_NPROC, &limit);
        }
    }
    // SAFETY: plain system calls with integer arguments.
    let failed = unsafe {
        libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(uid, uid, uid) != 0
            || libc::setresuid(uid, uid, uid) != 0
    };
    if failed {
        abort_bot(Event::SetupFailed {
            why: format!("cannot become uid {uid}: {}", std::io::Error::last_os_error()),
        });
    }
}

/// What Landlock lets the bot read (and execute). In its new root everything there is to
/// read, less the hidden paths inside the folders it holds (see below); without one, the
/// system folders, its own folder (or its copy), its interpreters and `--allow-read`, less
/// every hidden path any of them holds (see [`confine::without`]); its `/proc` entries are
/// added by the bot's process, which knows its pid.
///
/// The new root leaves out every hidden path but those inside a folder it holds (arbiter
/// installed in `/usr/local/bin`, say), over each of which an empty file or folder is mounted.
/// Replacing such a file outside (an upgrade of arbiter during a grade) takes its cover away,
/// since the kernel detaches a mount whose file is unlinked, and a run going on then would see
/// the new file; so would a run whose hidden path appeared after its cover was laid. So
/// Landlock allows the entries beside such a path as they were when the run was set up, and not
/// its folder, where a new file would appear. The folders on the way stay listable there: a
/// listing shows only names, the covers keep the rest, and a Python bot whose folder holds a
/// covered path still imports its modules (Python lists each folder it imports from). Where no
/// hidden path is in the root (the usual case), the whole root is allowed; so it is where a
/// folder on the way holds more than [`NAMESPACE_RULES`] entries (the covers alone then keep
/// the hidden paths, as they do at setup).
fn landlock_read(request: &Request, in_namespace: bool) -> Result<Reading, String> {
    let fail = |why: String| format!("cannot keep the grader's folders from the bot: {why}");
    if in_namespace {
        let in_root: Vec<PathBuf> =
            request.hidden.iter().filter(|h| root::holds(request, h)).cloned().collect();
        return Ok(match confine::without(&[PathBuf::from("/")], &in_root, NAMESPACE_RULES) {
            Ok((read, list)) => Reading { read, list },
            Err(_) => Reading { read: vec![PathBuf::from("/")], list: Vec::new() },
        });
    }
    let mut read: Vec<PathBuf> = view::SYSTEM.iter().map(PathBuf::from).collect();
    for path in &request.readable {
        match request.staged.iter().find(|(at, _)| at == path) {
            Some((_, copy)) => {
                read.push(copy.clone());
                // A folder copied to leave a hidden path out stays readable at its own path,
                // entry by entry, for a bot that names its files there (a script's absolute
                // paths, `--allow-read`); the copy is the folder it can list.
                if request.hidden.iter().any(|h| h.starts_with(path)) {
                    read.push(path.clone());
                }
            }
            None => read.push(path.clone()),
        }
    }
    // Without a root of its own, a listing would show the hidden folders' files by name.
    let (read, _) = confine::without(&read, &request.hidden, confine::MAX_RULES).map_err(fail)?;
    Ok(Reading { read, list: Vec::new() })
}

/// Most Landlock rules a run in its own root is given to keep a replaced arbiter from it (see
/// [`landlock_read`]): each costs the run about 2 µs to make.
const NAMESPACE_RULES: usize = 4_096;

/// `word` with a staged folder's path replaced by its copy's, where the word is that path or a
/// path inside it (also in a `:`-separated list, as a class path is).
fn restage(word: &std::ffi::OsStr, staged: &[(PathBuf, PathBuf)]) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    if staged.is_empty() {
        return word.to_os_string();
    }
    let parts: Vec<Vec<u8>> = word
        .as_bytes()
        .split(|&b| b == b':')
        .map(|part| {
            let path = std::path::Path::new(std::ffi::OsStr::from_bytes(part));
            for (at, copy) in staged {
                if let Ok(rest) = path.strip_prefix(at) {
                    let moved = if rest.as_os_str().is_empty() { copy.clone() } else { copy.join(rest) };
                    return moved.into_os_string().into_vec();
                }
            }
            part.to_vec()
        })
        .collect();
    std::ffi::OsString::from_vec(parts.join(&b':'))
}

/// Reports why the bot's process could not become the bot, and ends it.
fn abort_bot(event: Event) -> ! {
    emit(&event);
    // SAFETY: _exit ends the process without running anything else.
    unsafe { libc::_exit(127) }
}

/// Waits for the bot to end, enforcing the limits no cgroup or tmpfs enforces, and for the
/// order to stop; returns how it ended.
fn supervise(bot: libc::pid_t, request: &Request, scope: Scope, in_namespace: bool) -> Event {
    let memory = request.memory_bytes.filter(|_| !request.cgroup_memory);
    let processes = request.max_processes.filter(|_| !request.cgroup_pids);
    let disk = (!in_namespace).then_some(request.disk_bytes);
    let watching = memory.is_some() || processes.is_some() || disk.is_some();
    // SAFETY: pidfd_open with a pid and no flags; the descriptor is owned below.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, bot, 0) };
    let pidfd = (pidfd >= 0).then(|| unsafe { std::os::fd::OwnedFd::from_raw_fd(pidfd as i32) });
    let tick = if watching || pidfd.is_none() { WATCH_EVERY } else { IDLE_EVERY };
    let mut next_look = Instant::now();
    loop {
        let mut fds = [
            libc::pollfd { fd: CONTROL_FD, events: libc::POLLIN, revents: 0 },
            libc::pollfd {
                fd: pidfd.as_ref().map_or(-1, std::os::fd::AsRawFd::as_raw_fd),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: two valid pollfd structs.
        unsafe {
            libc::poll(fds.as_mut_ptr(), 2, tick.as_millis() as i32);
        }
        if fds[0].revents != 0 {
            let mut byte = [0u8; 1];
            // SAFETY: read into a one-byte buffer.
            let n = unsafe { libc::read(CONTROL_FD, byte.as_mut_ptr().cast(), 1) };
            if n <= 0 {
                return Event::Stopped;
            }
        }
        loop {
            let mut status = 0;
            // SAFETY: waitpid writes only to `status`.
            let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if pid == bot {
                return if libc::WIFEXITED(status) {
                    Event::Exited { code: libc::WEXITSTATUS(status) }
                } else {
                    Event::Signaled { signal: libc::WTERMSIG(status) }
                };
            }
            if pid <= 0 {
                break;
            }
        }
        if !watching || Instant::now() < next_look {
            continue;
        }
        next_look = Instant::now() + WATCH_EVERY;
        let pids = watch::processes(scope);
        if let Some(limit) = processes
            && pids.len() as u64 > limit
        {
            return Event::OverLimit { what: format!("more than {limit} processes at once") };
        }
        if let Some(limit) = memory
            && watch::memory(&pids, in_namespace) > limit
        {
            return Event::OverLimit {
                what: format!("more than {} of memory, all its processes together", super::bytes(limit)),
            };
        }
        if let Some(limit) = disk {
            let (bytes, files) = case_files::measure_tree(&request.case_dir, MAX_FILES + 1);
            if bytes > limit || files > MAX_FILES {
                return Event::OverLimit {
                    what: format!(
                        "more than {} or {MAX_FILES} files in its case folder",
                        super::bytes(limit)
                    ),
                };
            }
        }
    }
}
