//! A process's threads and children as `/proc` lists them, numbered as the reader's PID
//! namespace numbers them: what the CPU clock, the idle clock, the sandbox's watch and the
//! pinning of a host all walk.

use std::fs;

/// The thread ids of process `pid`; `None` when it is gone (or `/proc` does not show it).
pub(crate) fn threads(pid: libc::pid_t) -> Option<Vec<libc::pid_t>> {
    let tasks = fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    Some(tasks.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).collect())
}

/// The children of every thread of `pid` (none when it is gone).
pub(crate) fn children(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|t| fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|text| text.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<_>>())
        .collect()
}

/// A thread parked until `release` is dropped, and its id: for tests of what `/proc` shows.
#[cfg(test)]
pub(crate) struct ParkedThread {
    /// The thread's id.
    pub tid: libc::pid_t,
    release: std::sync::mpsc::Sender<()>,
    handle: std::thread::JoinHandle<()>,
}

#[cfg(test)]
impl ParkedThread {
    /// Starts it; it stays until [`ParkedThread::end`], however slow the machine.
    pub fn start() -> ParkedThread {
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let handle = std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            tid_tx.send(unsafe { libc::gettid() }).unwrap();
            let _ = wait.recv();
        });
        ParkedThread { tid: tid_rx.recv().unwrap(), release, handle }
    }

    /// Lets it end, and waits until it has.
    pub fn end(self) {
        drop(self.release);
        self.handle.join().unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_lists_its_threads_and_children() {
        let me = std::process::id() as libc::pid_t;
        let mut child = std::process::Command::new("sleep").arg("5").spawn().expect("sleep starts");
        let thread = ParkedThread::start();
        let tid = thread.tid;
        let listed = threads(me).expect("this process shows in /proc");
        assert!(listed.contains(&me) && listed.contains(&tid), "{listed:?}");
        assert!(children(me).contains(&(child.id() as libc::pid_t)));
        child.kill().unwrap();
        child.wait().unwrap();
        thread.end();
        assert_eq!(threads(-5), None);
        assert!(children(-5).is_empty());
    }
}
