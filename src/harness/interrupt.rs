//! Stopping early on Ctrl-C. By default an interrupt kills the running bots and ends arbiter at
//! once (exit status 130). A command that can report what it has done so far (`fuzz`) asks for
//! the first interrupt instead: running bots are still killed, a flag is raised that the command
//! polls, and it stops starting work, reports, writes its files and exits 130 itself. A second
//! Ctrl-C ends arbiter at once, as usual.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the running command wants to handle the first interrupt itself.
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// Whether an interrupt came while [`GRACEFUL`] was set.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks that the first Ctrl-C only raise [`interrupted`] instead of ending the process.
pub fn handle_interrupts() {
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// True once Ctrl-C was pressed while a command handles interrupts itself.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Called by the Ctrl-C handler: true when the command handles this interrupt (the first one
/// while it asked to), false when the process should end now.
pub fn request_stop() -> bool {
    GRACEFUL.load(Ordering::SeqCst) && !INTERRUPTED.swap(true, Ordering::SeqCst)
}
