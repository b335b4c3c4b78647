//! The processor of a slot: a thread that holds a [`super::slots::Slot`] and plays a game with
//! a hosted bot moves onto it ([`super::slots::pin`]), and so does the bot's host.
//!
//! A hosted bot and arbiter take turns: arbiter writes a request, the bot computes and writes
//! its answer while arbiter waits, and so on, tens of thousands of times a grading. When the
//! two sit on different processors, every hand-over wakes a sleeping processor with an
//! interrupt, which in a virtual machine costs far more than the turn's own work: a one-byte
//! pipe round trip between two processes took 4 to 16 µs of CPU time on each side across the
//! project's 2-core machine's processors, against 1.4 to 2.2 µs on one processor (as busy as
//! the machine's own host was, on two days). Only one of the two
//! runs at a time, so sharing a processor costs neither of them anything.
//!
//! Nothing here changes a verdict: limits count the CPU time a bot used and the time it sat
//! idle (neither running nor waiting for a processor), never the time it waited for one. A
//! bot's threads share its slot's processor (as they would share one busy machine's), so a
//! bot that starts threads gains nothing from them, as under a CPU-time limit it never did.
//!
//! Slots are numbered from 0; slot `i` has the `(i + k) mod n`-th of the `n` processors
//! the grader may use, where `k` comes from the grader's process id, so that several graders on
//! one machine do not all crowd its first processor. With one processor, or when the
//! processors cannot be read, nothing is pinned.

use std::sync::OnceLock;

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The processors the grader may use, as they were when first asked (before any thread of it
/// was pinned): read from the process's first thread, which is never pinned for long.
pub(crate) fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(|| {
        let process = Pid::from_raw(std::process::id() as i32);
        let Ok(set) = sched_getaffinity(process) else { return Vec::new() };
        (0..CpuSet::count()).filter(|&cpu| set.is_set(cpu).unwrap_or(false)).collect()
    })
}

/// Reads the processors the grader may use now, before any slot is taken: call it from the
/// main thread at the start (a thread pinned later would otherwise be read as all there is).
pub fn init() {
    allowed();
}

/// The processor of slot `index`, if slots have processors on this machine.
pub(crate) fn processor_of(index: usize) -> Option<usize> {
    let cpus = allowed();
    if cpus.len() < 2 {
        return None;
    }
    let offset = std::process::id() as usize;
    Some(cpus[(index + offset) % cpus.len()])
}

/// Runs the calling thread (and what it starts from now on) on `cpus` alone. An empty list,
/// or a processor that cannot be set (gone from the grader's cpuset), leaves the thread as it
/// was: pinning only saves time.
pub(crate) fn pin_this_thread(cpus: &[usize]) {
    let mut set = CpuSet::new();
    if cpus.is_empty() || cpus.iter().any(|&c| set.set(c).is_err()) {
        return;
    }
    let _ = sched_setaffinity(Pid::from_raw(0), &set);
}

/// Moves every thread of process `pid` (as arbiter's PID namespace numbers it) onto `cpu`
/// alone, for a host started elsewhere that a pinned thread takes over; whether every one could
/// be moved. Its later threads start where their creator runs.
pub(crate) fn pin_process(pid: libc::pid_t, cpu: usize) -> bool {
    let mut set = CpuSet::new();
    if set.set(cpu).is_err() {
        return false;
    }
    let Some(threads) = super::tasks::threads(pid) else { return false };
    let mut all = true;
    for tid in threads {
        all &= sched_setaffinity(Pid::from_raw(tid), &set).is_ok();
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The processors the calling thread may run on, from the kernel.
    fn mine() -> Vec<usize> {
        let set = sched_getaffinity(Pid::from_raw(0)).unwrap();
        (0..CpuSet::count()).filter(|&c| set.is_set(c).unwrap()).collect()
    }

    #[test]
    fn a_pinned_thread_runs_on_its_processor_alone_until_unpinned() {
        init();
        if allowed().len() < 2 {
            println!("SKIPPED: one processor here, so nothing is pinned");
            assert_eq!(processor_of(0), None);
            return;
        }
        std::thread::spawn(|| {
            let cpu = processor_of(1).unwrap();
            assert!(allowed().contains(&cpu));
            assert_ne!(processor_of(0), processor_of(1), "two slots, two processors");
            pin_this_thread(&[cpu]);
            assert_eq!(mine(), vec![cpu]);
            pin_this_thread(allowed());
            assert_eq!(mine(), allowed());
        })
        .join()
        .unwrap();
    }
}
