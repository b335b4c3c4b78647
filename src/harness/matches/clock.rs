//! Time in games with a clock: each game's starting clock drawn from a range, and the CPU and
//! idle limits of one move from what is left on the mover's clock and idle budget.

use crate::harness::verify::case_seed;

/// Game `number`'s starting clock, drawn from `[low, high]` seconds by `seed` (whole seconds
/// where the range holds one): the same for every run with the seed, whatever the order the
/// games are played in.
pub fn varied_clock([low, high]: [f64; 2], seed: u64, number: usize) -> f64 {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(case_seed(seed, &format!("clock {number}")));
    let (first, last) = (low.ceil(), high.floor());
    if first <= last { rng.gen_range(first as u64..=last as u64) as f64 } else { low }
}

/// A side with a clock may sit idle (no task running or waiting for a processor) over a game
/// this many times its starting clock, plus [`IDLE_GRACE`].
pub const IDLE_BUDGET_TIMES: f64 = 1.0;

/// Seconds of idle time a move may take beyond what is left on its clock, and a game beyond
/// [`IDLE_BUDGET_TIMES`] x its starting clock: time to read a program from a disk.
pub const IDLE_GRACE: f64 = 1.0;

/// The idle time a side with a starting clock of `clock` seconds may spend over a game.
pub fn game_idle_budget(clock: f64) -> f64 {
    IDLE_BUDGET_TIMES * clock + IDLE_GRACE
}

/// The CPU time a bot whose clock counts only user time may use beyond what is left on its
/// clock before it is killed: the runner watches user + system time as the bot runs, and the
/// system part is not the bot's to pay for.
pub const SYSTEM_ALLOWANCE: f64 = 1.0;

/// The limits of one move in a game with a clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLimits {
    /// The CPU time after which the move is killed.
    pub cpu: std::time::Duration,
    /// The idle time after which the move is killed.
    pub idle: std::time::Duration,
    /// Whether the idle cap is what is left of the side's idle budget for the game rather than
    /// the move's own cap.
    pub by_budget: bool,
}

/// The limits of one move by a side with `left` seconds on its clock and `idle_left` seconds of
/// its game's idle budget: the CPU time after which it is killed (what is left on the clock,
/// with [`SYSTEM_ALLOWANCE`] when the clock counts only user time) and its idle cap, there only
/// to stop a bot that sleeps instead of computing (the clock left + [`IDLE_GRACE`], within the
/// idle budget).
pub fn move_limits(left: f64, idle_left: f64, counts_system: bool) -> MoveLimits {
    let cpu = if counts_system { left } else { left + SYSTEM_ALLOWANCE };
    let own = left + IDLE_GRACE;
    let idle = own.min(idle_left).max(0.05);
    let secs = |s: f64| std::time::Duration::from_secs_f64(s.max(0.01));
    MoveLimits { cpu: secs(cpu), idle: secs(idle), by_budget: idle_left < own }
}
