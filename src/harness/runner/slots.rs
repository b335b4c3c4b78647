//! How many bots run at once across everything one command does: `grade --jobs N` runs at most
//! N, whether they are one submission's cases, its games, or several submissions'.
//!
//! A unit of work that runs a bot (a case with its rerun, a whole game, a bot's name, its
//! calibration, a hosted submission's compiling and loading) holds a [`Slot`] while it runs.
//! Slots are per thread and nest: a thread that holds one takes no second (a game's moves run
//! inside the game's slot), so nesting never waits on itself. Without [`set_limit`] slots are
//! free and never wait.

use std::cell::Cell;
use std::sync::{Condvar, Mutex};

/// The limit and the slots taken: `(limit, taken)`; no limit while `limit` is 0.
static SLOTS: Mutex<(usize, usize)> = Mutex::new((0, 0));
static FREED: Condvar = Condvar::new();

thread_local! {
    /// Whether this thread holds a slot.
    static HELD: Cell<bool> = const { Cell::new(false) };
}

/// At most `n` bots at once from now on, in the whole process (0: no limit).
pub fn set_limit(n: usize) {
    let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    slots.0 = n;
    FREED.notify_all();
}

/// A slot held by this thread; given back when dropped.
#[must_use = "a slot is given back when dropped"]
pub struct Slot {
    /// Whether this value took the slot (not one nested in a slot the thread held already).
    owned: bool,
}

/// Waits for a free slot and takes it; at once when this thread holds one already or there
/// is no limit.
pub fn take() -> Slot {
    if HELD.with(Cell::get) {
        return Slot { owned: false };
    }
    let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    while slots.0 > 0 && slots.1 >= slots.0 {
        slots = FREED.wait(slots).unwrap_or_else(|e| e.into_inner());
    }
    slots.1 += 1;
    HELD.with(|h| h.set(true));
    Slot { owned: true }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.owned {
            return;
        }
        HELD.with(|h| h.set(false));
        let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        slots.1 = slots.1.saturating_sub(1);
        FREED.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn slots_nest_on_a_thread_and_bound_threads_together() {
        set_limit(2);
        let running = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..6 {
                scope.spawn(|| {
                    let _outer = take();
                    // A nested take neither waits nor counts.
                    let _inner = take();
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        set_limit(0);
        assert!(most.load(Ordering::SeqCst) <= 2, "{}", most.load(Ordering::SeqCst));
    }
}
