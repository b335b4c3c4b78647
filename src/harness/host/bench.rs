//! What hosting costs beyond the bot's own CPU time, for `arbiter bench`: a hosted turn (one
//! session, the same call again and again) and a hosted case or game (a fresh state each time:
//! `reset` or a new host, the case's calls, `end`).
//!
//! Each measurement gives the wall time, the CPU time the bot was charged, and arbiter's own
//! CPU time (this process, every thread), per unit. On an idle machine wall time less the bot's
//! CPU time is what hosting costs the grader; on a busy one, arbiter's CPU time is the steadier
//! figure.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::hosted::{HostCall, HostedBot};
use super::session::CallLimits;
use crate::harness::runner::Limits;
use crate::harness::runner::usage::{CpuTimes, Who};

/// One measurement: `units` turns or cases.
#[derive(Clone, Debug, Default)]
pub struct HostedCost {
    pub units: usize,
    pub wall: Duration,
    /// CPU time charged to the bot.
    pub bot_cpu: Duration,
    /// CPU time the host itself reported for its calls (`cpu_ns`; zero when it does not say).
    pub host_cpu: Duration,
    /// CPU time of arbiter's own process.
    pub arbiter_cpu: Duration,
    /// Units whose calls did not all return a value (a bench submission should have none).
    pub failed: usize,
}

impl HostedCost {
    /// Per unit, in milliseconds, as JSON.
    pub fn to_json(&self) -> Value {
        let per = |d: Duration| d.as_secs_f64() * 1000.0 / self.units.max(1) as f64;
        json!({
            "units": self.units,
            "failed": self.failed,
            "wall_ms": per(self.wall),
            "bot_cpu_ms": per(self.bot_cpu),
            "host_reported_cpu_ms": per(self.host_cpu),
            "beyond_bot_ms": per(self.wall.saturating_sub(self.bot_cpu)),
            "arbiter_cpu_ms": per(self.arbiter_cpu),
        })
    }
}

/// `turn` made `count` times in one session, after `start` (the calls that set up a player).
pub fn turns(
    bot: &HostedBot,
    start: &[HostCall],
    turn: &HostCall,
    count: usize,
    limits: &Limits,
) -> Result<HostedCost, String> {
    let (mut session, setup) = bot.game_session(limits)?;
    if let Some(why) = setup.as_ref().and_then(|s| s.failure()) {
        return Err(why);
    }
    for call in start {
        let record = call.clone().send(&mut session, CallLimits::cpu(limits.timeout));
        if let Some(why) = record.failure() {
            return Err(why);
        }
    }
    let limit = CallLimits::cpu(turn.limit.unwrap_or(limits.timeout));
    let mut cost = HostedCost { units: count, ..HostedCost::default() };
    let (started, own) = (Instant::now(), own_cpu());
    for _ in 0..count {
        let record = turn.clone().send(&mut session, limit);
        cost.bot_cpu += record.cpu;
        cost.host_cpu += session.host_cpu().unwrap_or_default();
        if record.value().is_none() {
            cost.failed += 1;
        }
    }
    cost.wall = started.elapsed();
    cost.arbiter_cpu = own_cpu().saturating_sub(own);
    let _ = bot.give_back(session);
    Ok(cost)
}

/// `count` cases, each the next of `scripts` (round and round), each in a fresh state.
pub fn cases(bot: &HostedBot, scripts: &[Vec<HostCall>], count: usize, limits: &Limits) -> HostedCost {
    let mut cost = HostedCost { units: count, ..HostedCost::default() };
    if scripts.is_empty() {
        return HostedCost::default();
    }
    let (started, own) = (Instant::now(), own_cpu());
    for script in scripts.iter().cycle().take(count) {
        let run = bot.run_script(script, limits);
        cost.bot_cpu += run.cpu();
        if run.start_error.is_some() || run.setup_failure().is_some() || run.calls.len() < script.len() {
            cost.failed += 1;
        }
    }
    cost.wall = started.elapsed();
    cost.arbiter_cpu = own_cpu().saturating_sub(own);
    cost
}

/// The CPU time (user + system) of this process so far, every thread.
fn own_cpu() -> Duration {
    CpuTimes::now(Who::RUSAGE_SELF).unwrap_or_default().total
}
