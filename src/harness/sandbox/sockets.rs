//! The bytes a run keeps queued in its UNIX sockets, which no memory limit counts: data written
//! to a socket whose peer never reads it sits in kernel buffers, charged to no process's memory
//! and (for UNIX sockets) to no cgroup. The kernel's socket-diagnostics interface
//! (`NETLINK_SOCK_DIAG`) reports each socket's buffer use; the watchdog adds up those of the
//! run's own sockets.

use std::collections::HashSet;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `SOCK_DIAG_BY_FAMILY`.
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// `UDIAG_SHOW_MEMINFO` (0x10 is `UDIAG_SHOW_RQLEN`, which the kernel answers with another
/// attribute).
const UDIAG_SHOW_MEMINFO: u32 = 0x20;
/// `UNIX_DIAG_MEMINFO`.
const UNIX_DIAG_MEMINFO: u16 = 5;
/// Index of `SK_MEMINFO_RMEM_ALLOC` and `SK_MEMINFO_WMEM_ALLOC` in the meminfo array.
const RMEM_ALLOC: usize = 0;
const WMEM_ALLOC: usize = 2;

/// The request: a netlink header and a `unix_diag_req`.
#[repr(C)]
struct DumpRequest {
    len: u32,
    kind: u16,
    flags: u16,
    seq: u32,
    pid: u32,
    family: u8,
    protocol: u8,
    pad: u16,
    states: u32,
    inode: u32,
    show: u32,
    cookie: [u32; 2],
}

/// Bytes allocated to the receive and send buffers of the UNIX sockets whose inodes are in
/// `inodes` (0 when there are none, or when the kernel will not say).
pub(crate) fn queued(inodes: &HashSet<u64>) -> u64 {
    if inodes.is_empty() {
        return 0;
    }
    dump()
        .map_or(0, |all| all.iter().filter(|(inode, _)| inodes.contains(inode)).map(|(_, bytes)| bytes).sum())
}

/// Every UNIX socket the kernel reports in this network namespace: (inode, buffered bytes).
fn dump() -> Option<Vec<(u64, u64)>> {
    // SAFETY: socket with integer arguments; the descriptor is owned at once.
    let fd = unsafe {
        let fd =
            libc::socket(libc::AF_NETLINK, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, libc::NETLINK_SOCK_DIAG);
        if fd < 0 {
            return None;
        }
        OwnedFd::from_raw_fd(fd)
    };
    let request = DumpRequest {
        len: std::mem::size_of::<DumpRequest>() as u32,
        kind: SOCK_DIAG_BY_FAMILY,
        flags: (libc::NLM_F_REQUEST | libc::NLM_F_DUMP) as u16,
        seq: 1,
        pid: 0,
        family: libc::AF_UNIX as u8,
        protocol: 0,
        pad: 0,
        states: u32::MAX,
        inode: 0,
        show: UDIAG_SHOW_MEMINFO,
        cookie: [u32::MAX; 2],
    };
    // SAFETY: send from a valid struct of the size given.
    let sent = unsafe {
        libc::send(fd.as_raw_fd(), (&raw const request).cast(), std::mem::size_of::<DumpRequest>(), 0)
    };
    if sent < 0 {
        return None;
    }
    let mut found = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        // SAFETY: recv into a valid buffer of the size given.
        let n = unsafe { libc::recv(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n <= 0 {
            return Some(found);
        }
        let mut at = 0usize;
        let end = n as usize;
        while at + 16 <= end {
            let len = u32::from_ne_bytes(buf[at..at + 4].try_into().ok()?) as usize;
            let kind = u16::from_ne_bytes(buf[at + 4..at + 6].try_into().ok()?);
            if len < 16 || at + len > end {
                return Some(found);
            }
            if kind == libc::NLMSG_DONE as u16 || kind == libc::NLMSG_ERROR as u16 {
                return Some(found);
            }
            if let Some(socket) = parse(&buf[at + 16..at + len]) {
                found.push(socket);
            }
            at += (len + 3) & !3;
        }
    }
}

/// One `unix_diag_msg` and its attributes: the inode and the buffered bytes.
fn parse(body: &[u8]) -> Option<(u64, u64)> {
    // family, type, state, pad (4 bytes), inode (4), cookie (8).
    let inode = u32::from_ne_bytes(body.get(4..8)?.try_into().ok()?);
    let mut at = 16;
    let mut bytes = 0u64;
    while at + 4 <= body.len() {
        let len = u16::from_ne_bytes(body[at..at + 2].try_into().ok()?) as usize;
        let kind = u16::from_ne_bytes(body[at + 2..at + 4].try_into().ok()?);
        if len < 4 || at + len > body.len() {
            break;
        }
        if kind == UNIX_DIAG_MEMINFO {
            let value = |i: usize| -> u64 {
                body.get(at + 4 + i * 4..at + 8 + i * 4)
                    .and_then(|b| b.try_into().ok())
                    .map_or(0, |b| u64::from(u32::from_ne_bytes(b)))
            };
            bytes = value(RMEM_ALLOC) + value(WMEM_ALLOC);
        }
        at += (len + 3) & !3;
    }
    Some((u64::from(inode), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn bytes_queued_in_a_socket_pair_are_counted() {
        let (mut a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        a.set_nonblocking(true).unwrap();
        let chunk = [7u8; 4096];
        let mut written = 0;
        while written < 100_000 {
            match a.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        let inode = |fd: i32| std::fs::metadata(format!("/proc/self/fd/{fd}")).unwrap().ino();
        let inodes: HashSet<u64> = [inode(a.as_raw_fd()), inode(b.as_raw_fd())].into();
        if dump().is_none() {
            eprintln!("SKIPPED: bytes_queued_in_a_socket_pair_are_counted: no NETLINK_SOCK_DIAG here");
            return;
        }
        let counted = queued(&inodes);
        assert!(counted >= written as u64 / 2, "counted {counted} of {written} bytes queued");
    }
}
