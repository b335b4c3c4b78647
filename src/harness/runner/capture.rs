//! Draining a bot's stdout and stderr: keep the start and the end, throw away the middle,
//! never stop reading.
//!
//! Both ends matter: the start shows what the bot was doing, the end holds the message it died
//! with (an exception's stack trace comes last).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Instant;

/// What has been read from one stream so far.
#[derive(Debug, Default)]
struct Captured {
    /// The first bytes, up to half the cap.
    head: Vec<u8>,
    /// The latest bytes after the head, up to the other half of the cap.
    tail: VecDeque<u8>,
    /// Bytes dropped between head and tail.
    omitted: u64,
    /// The runner has taken the capture; the thread must not add to it any more.
    closed: bool,
}

impl Captured {
    fn store(&mut self, bytes: &[u8], cap: usize) {
        let head_cap = cap / 2;
        let into_head = bytes.len().min(head_cap.saturating_sub(self.head.len()));
        self.head.extend_from_slice(&bytes[..into_head]);
        self.tail.extend(&bytes[into_head..]);
        let tail_cap = cap - head_cap;
        if self.tail.len() > tail_cap {
            let excess = self.tail.len() - tail_cap;
            self.tail.drain(..excess);
            self.omitted += excess as u64;
        }
    }

    /// How many bytes the stream has given so far, kept or dropped.
    fn total(&self) -> u64 {
        self.head.len() as u64 + self.omitted + self.tail.len() as u64
    }

    /// What of the bytes after the first `mark` is still kept, with the marker where bytes
    /// were dropped: a reused host's output since one of its cases began.
    fn since(&self, mark: u64) -> Vec<u8> {
        let head = self.head.len() as u64;
        if mark < head {
            let mut data = self.head[mark as usize..].to_vec();
            if self.omitted > 0 {
                data.extend_from_slice(format!("\n[... {} bytes omitted ...]\n", self.omitted).as_bytes());
            }
            data.extend(self.tail.iter());
            return data;
        }
        let skip = (mark - head).saturating_sub(self.omitted) as usize;
        self.tail.iter().skip(skip).copied().collect()
    }

    /// Head and tail joined as [`Captured::take`] joins them, leaving them in place.
    fn copy(&self) -> Vec<u8> {
        let mut data = self.head.clone();
        if self.omitted > 0 {
            data.extend_from_slice(format!("\n[... {} bytes omitted ...]\n", self.omitted).as_bytes());
        }
        data.extend(self.tail.iter());
        data
    }

    /// Head and tail joined, with a marker where bytes were dropped.
    fn take(&mut self) -> Drained {
        let mut data = std::mem::take(&mut self.head);
        let truncated = self.omitted > 0;
        if truncated {
            data.extend_from_slice(format!("\n[... {} bytes omitted ...]\n", self.omitted).as_bytes());
        }
        data.extend(self.tail.drain(..));
        Drained { data, truncated }
    }
}

/// A thread reading one pipe to its end.
///
/// The captured bytes live behind a mutex rather than in the thread's return value so that
/// the runner can take what there is without waiting for the end of the stream, which never
/// comes if a process that escaped the bot's process group still holds the pipe open.
pub(super) struct Capture {
    shared: Arc<Mutex<Captured>>,
    done: Receiver<()>,
    /// A copy of the pipe's read end, for [`Capture::settle`] (a settled capture only).
    pipe: Option<OwnedFd>,
}

/// The result of draining one stream.
#[derive(Debug, Default)]
pub(super) struct Drained {
    pub(super) data: Vec<u8>,
    pub(super) truncated: bool,
}

impl Capture {
    /// Starts a thread that reads `reader` to its end, keeping the first and the last `cap / 2`
    /// bytes.
    pub(super) fn spawn<R>(name: &str, mut reader: R, cap: usize) -> io::Result<Capture>
    where
        R: Read + Send + 'static,
    {
        Capture::start(name, None, move |shared| drain(&mut reader, cap, shared))
    }

    /// Like [`Capture::spawn`], for a pipe whose reader must be able to tell that everything
    /// written so far has been stored ([`Capture::settle`]): the thread reads only while it
    /// holds the lock, once the pipe has something to read.
    pub(super) fn spawn_settled<R>(name: &str, mut reader: R, cap: usize) -> io::Result<Capture>
    where
        R: Read + AsFd + Send + 'static,
    {
        let pipe = reader.as_fd().try_clone_to_owned()?;
        Capture::start(name, Some(pipe), move |shared| drain_under_lock(&mut reader, cap, shared))
    }

    /// Starts the thread that runs `read` on the capture's store, and says when it is done.
    fn start<F>(name: &str, pipe: Option<OwnedFd>, read: F) -> io::Result<Capture>
    where
        F: FnOnce(&Mutex<Captured>) + Send + 'static,
    {
        let shared = Arc::new(Mutex::new(Captured::default()));
        let (done_tx, done) = mpsc::channel();
        let theirs = Arc::clone(&shared);
        thread::Builder::new().name(name.to_owned()).spawn(move || {
            read(&theirs);
            // The runner may have stopped waiting; then nobody listens, which is fine.
            let _ = done_tx.send(());
        })?;
        Ok(Capture { shared, done, pipe })
    }

    /// Waits (a few milliseconds at the most) until what the writer has put into the pipe is
    /// stored: a host's stderr written before its answer belongs to the call it answered, and
    /// must be there when that case's report is taken, not in the next case's.
    pub(super) fn settle(&self) {
        let Some(pipe) = &self.pipe else { return };
        for _ in 0..SETTLE_TRIES {
            // Holding the lock, the thread is not between a read and its store.
            let held = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
            let mut pending: libc::c_int = 0;
            // SAFETY: FIONREAD writes one int; the descriptor is this capture's own copy.
            let asked = unsafe { libc::ioctl(pipe.as_raw_fd(), libc::FIONREAD, &mut pending) };
            if asked != 0 || pending == 0 || held.closed {
                return;
            }
            drop(held);
            thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// What has been captured so far, the stream still being read (a running session's
    /// stderr, shown when one of its calls fails).
    pub(super) fn so_far(&self) -> Vec<u8> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).copy()
    }

    /// How many bytes the stream has given so far, a mark for [`Capture::since`].
    pub(super) fn total(&self) -> u64 {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).total()
    }

    /// What is kept of the bytes the stream gave after the first `mark`.
    pub(super) fn since(&self, mark: u64) -> Vec<u8> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).since(mark)
    }

    /// Waits until the stream ends or `deadline` passes, then takes what was captured. Past
    /// the deadline the thread goes on reading (and discarding) until the stream ends.
    pub(super) fn finish(self, deadline: Instant) -> Drained {
        let wait = deadline.saturating_duration_since(Instant::now());
        let _ = self.done.recv_timeout(wait);
        let mut captured = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        captured.closed = true;
        captured.take()
    }
}

/// How many times [`Capture::settle`] looks before giving up on a writer that never stops.
const SETTLE_TRIES: u32 = 50;

/// Like [`drain`], but each read happens under the lock, once the pipe is readable, so that a
/// reader holding the lock knows no read is halfway to its store.
fn drain_under_lock<R: Read + AsFd>(reader: &mut R, cap: usize, shared: &Mutex<Captured>) {
    let mut buf = vec![0u8; 32 << 10];
    loop {
        let mut poll = libc::pollfd { fd: reader.as_fd().as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one pollfd for a descriptor the reader owns.
        if unsafe { libc::poll(&mut poll, 1, -1) } < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        let mut captured = shared.lock().unwrap_or_else(PoisonError::into_inner);
        // The pipe is readable (or closed): this read does not wait.
        let n = match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if !captured.closed {
            captured.store(&buf[..n], cap);
        }
    }
}

/// Reads `reader` until end of stream or an error, storing its head and tail in `shared`.
fn drain(reader: &mut impl Read, cap: usize, shared: &Mutex<Captured>) {
    let mut buf = vec![0u8; 32 << 10];
    // Once the capture is taken there is nothing to store, and no need to lock.
    let mut closed = false;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if closed {
            continue;
        }
        let mut captured = shared.lock().unwrap_or_else(PoisonError::into_inner);
        closed = captured.closed;
        if !closed {
            captured.store(&buf[..n], cap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_head_and_tail_and_counts_the_middle() {
        let mut c = Captured::default();
        for chunk in [&b"0123"[..], b"4567", b"89"] {
            c.store(chunk, 6);
        }
        let d = c.take();
        assert!(d.truncated);
        assert_eq!(String::from_utf8(d.data).unwrap(), "012\n[... 4 bytes omitted ...]\n789");
    }

    #[test]
    fn short_streams_are_kept_whole() {
        let mut c = Captured::default();
        c.store(b"hello", 64);
        let d = c.take();
        assert!(!d.truncated);
        assert_eq!(d.data, b"hello");
    }

    #[test]
    fn since_a_mark_gives_only_what_came_after_it() {
        let mut c = Captured::default();
        c.store(b"case one\n", 64);
        let mark = c.total();
        c.store(b"case two\n", 64);
        assert_eq!(c.since(mark), b"case two\n");
        assert_eq!(c.since(0), b"case one\ncase two\n");
        assert_eq!(c.since(c.total()), b"");
    }

    #[test]
    fn since_a_mark_in_a_capped_stream_keeps_what_is_left() {
        let mut c = Captured::default();
        for chunk in [&b"0123"[..], b"4567", b"89"] {
            c.store(chunk, 6);
        }
        // Kept: head "012", 4 bytes dropped, tail "789".
        assert_eq!(c.total(), 10);
        assert_eq!(c.since(8), b"89");
        assert_eq!(c.since(5), b"789", "a mark among the dropped bytes keeps the whole tail");
        assert_eq!(String::from_utf8(c.since(1)).unwrap(), "12\n[... 4 bytes omitted ...]\n789");
    }
}
