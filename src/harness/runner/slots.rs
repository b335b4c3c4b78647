//! How many bots run at once across everything one command does: `grade --jobs N` runs at most
//! N, whether they are one submission's cases, its games, or several submissions'.
//!
//! A unit of work that runs a bot (a case with its rerun, a whole game, a bot's name, its
//! calibration, a hosted submission's compiling and loading) holds a [`Slot`] while it runs.
//! Slots are per thread and nest: a thread that holds one takes no second (a game's moves run
//! inside the game's slot), so nesting never waits on itself. Without [`set_limit`] slots are
//! free and never wait.
//!
//! Each slot held is numbered (the lowest number free), and has that number's processor
//! ([`super::affinity`]). A thread that is about to take turns with a bot (a hosted bot's
//! session) moves onto it with [`pin`], and the bots it starts from then on run there too.
//! Other work stays free to use every processor: a compiler's or a JVM's own threads run
//! beside the bot when a processor is spare.

use std::cell::Cell;
use std::sync::{Condvar, Mutex};

use super::affinity;

/// The limit (none while 0) and which slot numbers are taken.
struct Taken {
    limit: usize,
    numbers: Vec<bool>,
}

impl Taken {
    fn count(&self) -> usize {
        self.numbers.iter().filter(|&&t| t).count()
    }
}

static SLOTS: Mutex<Taken> = Mutex::new(Taken { limit: 0, numbers: Vec::new() });
static FREED: Condvar = Condvar::new();

thread_local! {
    /// Whether this thread holds a slot.
    static HELD: Cell<bool> = const { Cell::new(false) };
    /// The processor of the slot this thread holds, if slots have processors here.
    static PROCESSOR: Cell<Option<usize>> = const { Cell::new(None) };
    /// Whether this thread runs on that processor alone ([`pin`]).
    static PINNED: Cell<bool> = const { Cell::new(false) };
}

/// At most `n` bots at once from now on, in the whole process (0: no limit).
pub fn set_limit(n: usize) {
    affinity::init();
    let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    slots.limit = n;
    FREED.notify_all();
}

/// The processor of this thread's slot (see [`super::affinity`]). `None` when the thread
/// holds no slot or slots have no processors here (one processor).
pub fn processor() -> Option<usize> {
    PROCESSOR.with(Cell::get)
}

/// Moves this thread onto its slot's processor until it gives the slot back, and with it the
/// bots it starts from now on: for a thread about to take turns with a bot, which then hand
/// over on one processor. Nothing without a slot or a processor.
pub fn pin() {
    if let Some(cpu) = processor()
        && !PINNED.with(Cell::get)
    {
        affinity::pin_this_thread(&[cpu]);
        PINNED.with(|p| p.set(true));
    }
}

/// The processor this thread is [`pin`]ned to, if it is.
pub(crate) fn pinned() -> Option<usize> {
    processor().filter(|_| PINNED.with(Cell::get))
}

/// The processors a bot started by this thread may run on: its slot's once [`pin`]ned, else
/// every one the grader may use (whatever the process that starts the bot was left on).
/// Empty when they cannot be read.
pub(crate) fn processors() -> Vec<usize> {
    match pinned() {
        Some(cpu) => vec![cpu],
        None => affinity::allowed().to_vec(),
    }
}

/// A slot held by this thread; given back when dropped.
#[must_use = "a slot is given back when dropped"]
pub struct Slot {
    /// The slot's number, when this value took it (not one nested in a slot the thread held
    /// already).
    number: Option<usize>,
}

/// Waits for a free slot and takes it; at once when this thread holds one already or there
/// is no limit.
pub fn take() -> Slot {
    if HELD.with(Cell::get) {
        return Slot { number: None };
    }
    let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    while slots.limit > 0 && slots.count() >= slots.limit {
        slots = FREED.wait(slots).unwrap_or_else(|e| e.into_inner());
    }
    let number = match slots.numbers.iter().position(|&t| !t) {
        Some(free) => free,
        None => {
            slots.numbers.push(false);
            slots.numbers.len() - 1
        }
    };
    slots.numbers[number] = true;
    drop(slots);
    HELD.with(|h| h.set(true));
    PROCESSOR.with(|p| p.set(affinity::processor_of(number)));
    Slot { number: Some(number) }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(number) = self.number else { return };
        HELD.with(|h| h.set(false));
        PROCESSOR.with(|p| p.set(None));
        if PINNED.with(|p| p.replace(false)) {
            affinity::pin_this_thread(affinity::allowed());
        }
        let mut slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(taken) = slots.numbers.get_mut(number) {
            *taken = false;
        }
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
