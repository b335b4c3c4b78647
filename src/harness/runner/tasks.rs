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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_lists_its_threads_and_children() {
        let me = std::process::id() as libc::pid_t;
        let mut child = std::process::Command::new("sleep").arg("5").spawn().expect("sleep starts");
        let (tx, rx) = std::sync::mpsc::channel();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        // Alive until the listing is done, however slow the machine.
        let thread = std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            tx.send(unsafe { libc::gettid() }).unwrap();
            let _ = wait.recv();
        });
        let tid = rx.recv().unwrap();
        let listed = threads(me).expect("this process shows in /proc");
        assert!(listed.contains(&me) && listed.contains(&tid), "{listed:?}");
        assert!(children(me).contains(&(child.id() as libc::pid_t)));
        child.kill().unwrap();
        child.wait().unwrap();
        done.send(()).unwrap();
        thread.join().unwrap();
        assert_eq!(threads(-5), None);
        assert!(children(-5).is_empty());
    }
}
