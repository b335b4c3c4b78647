//! The few process-control calls std does not offer: waiting for an exit without reaping,
//! killing a process group, and naming signals.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// Process groups of bots that are running now, so that an interrupted arbiter (Ctrl-C) can take
/// them down: bots run in sessions of their own, so the terminal's signal does not reach them.
static RUNNING: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Records a running bot's process group.
pub(super) fn register(pgid: libc::pid_t) {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).push(pgid);
}

/// Forgets a bot's process group once it has been killed.
pub(super) fn unregister(pgid: libc::pid_t) {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != pgid);
}

/// Kills every bot process group still running.
pub fn kill_all_running() {
    for &pgid in RUNNING.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        kill_group(pgid);
    }
}

/// Starts a thread that waits for process `pid` (a child of this process) to terminate,
/// without reaping it, and reports on the returned channel.
///
/// Not reaping matters: as long as the bot's zombie is there, its pid (which is also its
/// process group id) cannot be given to another process, so killing the group afterwards
/// cannot hit an unrelated process group that happens to get the same number.
pub(super) fn watch_exit(pid: libc::pid_t) -> io::Result<Receiver<io::Result<()>>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new().name("bot-wait".to_owned()).spawn(move || {
        let _ = tx.send(wait_exit_no_reap(pid));
    })?;
    Ok(rx)
}

/// Blocks until child `pid` has terminated, leaving it a zombie for `Child::wait` to reap.
fn wait_exit_no_reap(pid: libc::pid_t) -> io::Result<()> {
    let id = libc::id_t::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    loop {
        // SAFETY: siginfo_t is a plain C struct for which all zero bytes is a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is valid and writable for the duration of the call. WNOWAIT leaves
        // the child waitable, so std's `Child::wait` still reaps it later.
        let rc = unsafe { libc::waitid(libc::P_PID, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if rc == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Starts a thread that waits for the process of `pidfd` (not necessarily a child of this
/// process) to terminate, and reports on the returned channel.
pub(super) fn watch_pidfd(pidfd: &OwnedFd) -> io::Result<Receiver<io::Result<()>>> {
    let fd = pidfd.try_clone()?;
    let (tx, rx) = mpsc::channel();
    thread::Builder::new().name("bot-wait".to_owned()).spawn(move || {
        let mut poll = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        let result = loop {
            // SAFETY: one valid pollfd; the descriptor stays open in this thread.
            let rc = unsafe { libc::poll(&mut poll, 1, -1) };
            if rc > 0 {
                break Ok(());
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                break Err(err);
            }
        };
        let _ = tx.send(result);
    })?;
    Ok(rx)
}

/// Sends SIGKILL to the process of `pidfd`. Errors are ignored: the only possible one is that
/// it has ended already.
pub(super) fn kill_pidfd(pidfd: &OwnedFd) {
    // SAFETY: pidfd_send_signal with a valid descriptor, no siginfo and no flags.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd.as_raw_fd(),
            libc::SIGKILL,
            std::ptr::null::<u8>(),
            0,
        );
    }
}

/// Sends SIGKILL to every process in process group `pgid`.
///
/// Errors are ignored: the only possible one is that the group is already gone.
pub(super) fn kill_group(pgid: libc::pid_t) {
    // kill(-1) would signal every process we may signal, and kill(0) our own group: never.
    if pgid <= 1 {
        return;
    }
    // SAFETY: kill has no memory-safety preconditions; a negative pid names a process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// The conventional name of signal `signal`, e.g. "SIGSEGV" for 11 on Linux.
pub(super) fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        #[cfg(any(target_os = "linux", target_os = "android"))]
        libc::SIGSTKFLT => "SIGSTKFLT",
        libc::SIGCHLD => "SIGCHLD",
        libc::SIGCONT => "SIGCONT",
        libc::SIGSTOP => "SIGSTOP",
        libc::SIGTSTP => "SIGTSTP",
        libc::SIGTTIN => "SIGTTIN",
        libc::SIGTTOU => "SIGTTOU",
        libc::SIGURG => "SIGURG",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGVTALRM => "SIGVTALRM",
        libc::SIGPROF => "SIGPROF",
        libc::SIGWINCH => "SIGWINCH",
        libc::SIGIO => "SIGIO",
        #[cfg(any(target_os = "linux", target_os = "android"))]
        libc::SIGPWR => "SIGPWR",
        libc::SIGSYS => "SIGSYS",
        _ => "unknown signal",
    }
}
