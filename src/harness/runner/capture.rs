//! Draining a bot's stdout and stderr: keep the start, throw away the rest, never stop reading.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Instant;

/// What has been read from one stream so far.
#[derive(Debug, Default)]
struct Captured {
    data: Vec<u8>,
    /// More bytes came than were kept.
    truncated: bool,
    /// The runner has taken `data`; the thread must not add to it any more.
    closed: bool,
}

/// A thread reading one pipe to its end.
///
/// The captured bytes live behind a mutex rather than in the thread's return value so that
/// the runner can take what there is without waiting for the end of the stream, which never
/// comes if a process that escaped the bot's process group still holds the pipe open.
pub(super) struct Capture {
    shared: Arc<Mutex<Captured>>,
    done: Receiver<()>,
}

/// The result of draining one stream.
#[derive(Debug, Default)]
pub(super) struct Drained {
    pub(super) data: Vec<u8>,
    pub(super) truncated: bool,
}

impl Capture {
    /// Starts a thread that reads `reader` to its end, keeping the first `cap` bytes.
    pub(super) fn spawn<R>(name: &str, mut reader: R, cap: usize) -> io::Result<Capture>
    where
        R: Read + Send + 'static,
    {
        let shared = Arc::new(Mutex::new(Captured::default()));
        let (done_tx, done) = mpsc::channel();
        let theirs = Arc::clone(&shared);
        thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                drain(&mut reader, cap, &theirs);
                // The runner may have stopped waiting; then nobody listens, which is fine.
                let _ = done_tx.send(());
            })?;
        Ok(Capture { shared, done })
    }

    /// Waits until the stream ends or `deadline` passes, then takes what was captured. Past
    /// the deadline the thread goes on reading (and discarding) until the stream ends.
    pub(super) fn finish(self, deadline: Instant) -> Drained {
        let wait = deadline.saturating_duration_since(Instant::now());
        let _ = self.done.recv_timeout(wait);
        let mut captured = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        captured.closed = true;
        Drained {
            data: std::mem::take(&mut captured.data),
            truncated: captured.truncated,
        }
    }
}

/// Reads `reader` until end of stream or an error, storing up to `cap` bytes in `shared`.
fn drain(reader: &mut impl Read, cap: usize, shared: &Mutex<Captured>) {
    let mut buf = vec![0u8; 32 << 10];
    // Once the capture is full (or taken) there is nothing to store, and no need to lock.
    let mut full = false;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if full {
            continue;
        }
        let mut captured = shared.lock().unwrap_or_else(PoisonError::into_inner);
        if captured.closed {
            full = true;
            continue;
        }
        let room = cap.saturating_sub(captured.data.len());
        let kept = n.min(room);
        captured.data.extend_from_slice(&buf[..kept]);
        if kept < n {
            captured.truncated = true;
            full = true;
        }
    }
}
