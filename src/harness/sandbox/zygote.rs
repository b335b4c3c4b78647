//! The zygote: one sandbox helper per grader, started once, that forks the helper of every run.
//!
//! Executing arbiter anew for every case costs more than the sandbox itself (loading and
//! relocating a large program, starting its runtime, tearing it down again). The zygote is
//! arbiter executed once as `arbiter __sandbox zygote`, single-threaded, so that it may fork
//! freely: the grader sends it each run's request with the run's pipes attached
//! (`SCM_RIGHTS`: stdin, stdout, stderr, status, control), and it forks a child that puts them
//! on descriptors 0 to 4 and becomes that run's helper. The grader gets the child's pid back
//! and holds it by a pidfd, which cannot be confused with a later process of the same number.
//!
//! The zygote ends when the grader does (its socket closes). It is a child subreaper: a run's
//! process that escaped (only possible without namespaces, and only if its helper was killed)
//! comes back to it, and is killed at the next request.

use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use super::helper;
use crate::harness::runner::tasks::children;

/// The descriptor on which the zygote finds its socket.
const SOCKET_FD: RawFd = 3;

/// The argument after [`super::HELPER_ARG`] that makes the helper a zygote.
pub(crate) const ZYGOTE_ARG: &str = "zygote";

/// The largest request the zygote reads.
const MAX_REQUEST: usize = 1 << 20;

/// The grader's end of a zygote.
struct Zygote {
    socket: OwnedFd,
    process: Child,
}

/// The zygotes of this grader, one per helper program.
fn zygotes() -> &'static Mutex<HashMap<PathBuf, Zygote>> {
    static ZYGOTES: OnceLock<Mutex<HashMap<PathBuf, Zygote>>> = OnceLock::new();
    ZYGOTES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Starts a run's helper: `request` (one JSON document) and the five descriptors go to the
/// zygote of `helper`, started if need be (and started again if it died). Returns the helper's
/// pid and a pidfd for it.
pub(crate) fn launch(helper: &Path, request: &[u8], fds: [RawFd; 5]) -> io::Result<(libc::pid_t, OwnedFd)> {
    let mut all = zygotes().lock().unwrap_or_else(|e| e.into_inner());
    for attempt in 0..2 {
        if !all.contains_key(helper) {
            all.insert(helper.to_path_buf(), start(helper)?);
        }
        let zygote = all.get_mut(helper).ok_or_else(|| io::Error::other("no zygote"))?;
        match ask(zygote, request, &fds) {
            Ok(found) => return Ok(found),
            Err(err) if attempt == 0 => {
                // A zygote that died (killed from outside) is replaced once.
                if let Some(mut dead) = all.remove(helper) {
                    let _ = dead.process.kill();
                    let _ = dead.process.wait();
                }
                let _ = err;
            }
            Err(err) => return Err(err),
        }
    }
    Err(io::Error::other("the sandbox's zygote cannot be started"))
}

/// Starts the zygote of `helper`.
fn start(helper: &Path) -> io::Result<Zygote> {
    let (ours, theirs) = socket_pair()?;
    let fd = theirs.as_raw_fd();
    let mut command = Command::new(helper);
    // Named as arbiter in `ps`, not after the file it is started from (`/proc/self/exe`).
    command.arg0(crate::harness::program::installed_path().unwrap_or_else(|| "arbiter".into()));
    command.arg(super::HELPER_ARG).arg(ZYGOTE_ARG).stdin(Stdio::null()).stdout(Stdio::null());
    // SAFETY: between fork and exec the closure only calls setsid and dup2, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            // Its own session: a ^C at the grader's terminal is the grader's to handle.
            if libc::setsid() == -1 || libc::dup2(fd, SOCKET_FD) == -1 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let process = command.spawn()?;
    drop(theirs);
    Ok(Zygote { socket: ours, process })
}

/// A `SOCK_SEQPACKET` pair: messages keep their bounds, and descriptors travel with them.
fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two descriptors, owned at once.
    unsafe {
        if libc::socketpair(libc::AF_UNIX, libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC, 0, fds.as_mut_ptr())
            != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok((OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])))
    }
}

/// Sends one request and reads the pid of the helper it started.
fn ask(zygote: &Zygote, request: &[u8], fds: &[RawFd; 5]) -> io::Result<(libc::pid_t, OwnedFd)> {
    send_with_fds(zygote.socket.as_raw_fd(), request, fds)?;
    let mut answer = [0u8; 4];
    // SAFETY: recv into a valid four-byte buffer.
    let n = unsafe { libc::recv(zygote.socket.as_raw_fd(), answer.as_mut_ptr().cast(), 4, 0) };
    if n != 4 {
        return Err(io::Error::other("the sandbox's zygote did not answer"));
    }
    let pid = i32::from_ne_bytes(answer);
    if pid <= 0 {
        return Err(io::Error::from_raw_os_error(-pid));
    }
    // The zygote reaps its children only when the next request comes, which waits for this
    // lock: the pid cannot have been reused yet.
    // SAFETY: pidfd_open with a pid and no flags; the descriptor is owned at once.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if pidfd < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((pid, unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) }))
}

/// `sendmsg` of `bytes` with descriptors attached.
fn send_with_fds(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let fd_bytes = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE is a pure computation.
    let space = unsafe { libc::CMSG_SPACE(fd_bytes as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec { iov_base: bytes.as_ptr() as *mut libc::c_void, iov_len: bytes.len() };
    // SAFETY: msghdr is a plain C struct; zero is a valid start.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    // SAFETY: the control buffer has room for one header and `fds`, as CMSG_SPACE computed.
    unsafe {
        let header = libc::CMSG_FIRSTHDR(&msg);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(fd_bytes as u32) as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr().cast::<u8>(), libc::CMSG_DATA(header), fd_bytes);
        if libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// `recvmsg` of one request and its descriptors; `None` at the end of the socket.
fn receive(socket: RawFd, bytes: &mut Vec<u8>) -> Option<Vec<OwnedFd>> {
    // Received into the buffer's spare room, never zeroed first: zeroing a megabyte per
    // request cost more than the rest of the zygote's work, and after a fork every page of it
    // was copied again (the run's init still shared them).
    bytes.clear();
    bytes.reserve(MAX_REQUEST);
    // SAFETY: CMSG_SPACE is a pure computation.
    let space = unsafe { libc::CMSG_SPACE((8 * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = vec![0u8; space];
    let mut iov = libc::iovec { iov_base: bytes.as_mut_ptr().cast(), iov_len: MAX_REQUEST };
    // SAFETY: msghdr is a plain C struct; zero is a valid start.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = space as _;
    let n = loop {
        // SAFETY: recvmsg into the buffers set up above.
        let n = unsafe { libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC) };
        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        break n;
    };
    if n <= 0 {
        return None;
    }
    // SAFETY: the kernel wrote `n` bytes (at most MAX_REQUEST, the capacity reserved above).
    unsafe { bytes.set_len(n as usize) };
    let mut fds = Vec::new();
    // SAFETY: walking the control messages the kernel wrote, within `msg_controllen`.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&msg);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                let count =
                    ((*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / std::mem::size_of::<RawFd>();
                for i in 0..count {
                    fds.push(OwnedFd::from_raw_fd(std::ptr::read_unaligned(data.add(i))));
                }
            }
            header = libc::CMSG_NXTHDR(&msg, header);
        }
    }
    Some(fds)
}

/// Runs the zygote (`arbiter __sandbox zygote`), which starts every run; never returns.
pub fn main() -> ! {
    if std::env::args_os().nth(2).is_some_and(|a| a == ZYGOTE_ARG) {
        serve();
    }
    eprintln!("arbiter {}: the sandbox helper is started by arbiter itself", super::HELPER_ARG);
    std::process::exit(2)
}

/// The zygote's loop; never returns.
pub(crate) fn serve() -> ! {
    // SAFETY: prctl with integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
    // Started from `/proc/self/exe`, the zygote and its helpers would be `exe` in `ps` and `top`.
    let _ = nix::sys::prctl::set_name(c"arbiter");
    let mut helpers: Vec<libc::pid_t> = Vec::new();
    // One buffer for every request: a fresh megabyte each time would be zeroed each time.
    let mut request = Vec::with_capacity(MAX_REQUEST);
    while let Some(fds) = receive(SOCKET_FD, &mut request) {
        reap(&mut helpers);
        let answer: i32 = if fds.len() != 5 {
            -libc::EINVAL
        } else {
            match serde_json::from_slice(&request) {
                Ok(request) => {
                    let pid = helper::start_run(&request, &fds);
                    if pid > 0 {
                        helpers.push(pid);
                    }
                    pid
                }
                Err(_) => -libc::EINVAL,
            }
        };
        drop(fds);
        // SAFETY: send from a valid four-byte buffer.
        unsafe {
            libc::send(SOCKET_FD, answer.to_ne_bytes().as_ptr().cast(), 4, libc::MSG_NOSIGNAL);
        }
    }
    std::process::exit(0)
}

/// Reaps the helpers that have ended, and kills any other process that came back to the
/// zygote (a run's process whose helper and init were killed before they could end it).
fn reap(helpers: &mut Vec<libc::pid_t>) {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            break;
        }
        helpers.retain(|&h| h != pid);
    }
    let me = std::process::id() as libc::pid_t;
    for child in children(me) {
        if !helpers.contains(&child) {
            // SAFETY: kill with a positive pid of this process's own child.
            unsafe {
                libc::kill(child, libc::SIGKILL);
            }
        }
    }
}
