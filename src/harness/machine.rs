//! How busy the machine was during a run, for the report header: a grader reading a timeout on
//! a shared server needs to know whether the bot was slow or the machine was full.
//!
//! Linux tells it in two files: `/proc/loadavg` (runnable tasks, averaged over a minute) and
//! the first line of `/proc/stat` (CPU time spent by all cores, by kind, since boot). A
//! [`Snapshot`] is taken when the run starts; [`Snapshot::load`] compares it with the machine
//! now. On a system without these files every figure is absent rather than made up.

use std::time::Instant;

use serde::{Deserialize, Serialize};

/// The machine's counters at one moment.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The one-minute load average.
    load: Option<f64>,
    /// The CPU time counters of all cores.
    cpu: Option<CpuTimes>,
    at: Instant,
}

/// CPU time of all cores since boot, in clock ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CpuTimes {
    /// All the time counted, busy or not.
    total: u64,
    /// Idle, or waiting for a disk.
    idle: u64,
    /// Time the hypervisor gave to other guests while this one had work (`steal`).
    steal: u64,
}

/// How busy the machine was over a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// Cores this process may use.
    pub cores: usize,
    /// The one-minute load average when the run started.
    pub load_start: Option<f64>,
    /// The one-minute load average when the report was written.
    pub load_end: Option<f64>,
    /// The share of all cores' time that was busy over the run, in percent.
    pub busy_percent: Option<f64>,
    /// The share of all cores' time stolen by the hypervisor over the run, in percent.
    pub steal_percent: Option<f64>,
    /// How bots' idle time was measured, when not exactly (the kernel reports no per-task wait
    /// for a processor): see [`crate::harness::runner::IdleMethod`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_time: Option<String>,
}

impl Snapshot {
    /// The machine's counters now.
    pub fn take() -> Snapshot {
        let load = std::fs::read_to_string("/proc/loadavg").ok().and_then(|t| parse_loadavg(&t));
        let cpu = std::fs::read_to_string("/proc/stat").ok().and_then(|t| parse_stat(&t));
        Snapshot { load, cpu, at: Instant::now() }
    }

    /// How busy the machine has been since this snapshot. Over less than a tenth of a second
    /// the counters (in ticks of 10 ms) say nothing, so the shares are left out.
    pub fn load(&self) -> Load {
        let now = Snapshot::take();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let shares = match (self.cpu, now.cpu) {
            (Some(a), Some(b)) if now.at.duration_since(self.at).as_millis() >= 100 => shares(a, b),
            _ => None,
        };
        Load {
            cores,
            load_start: self.load,
            load_end: now.load,
            busy_percent: shares.map(|s| s.0),
            steal_percent: shares.map(|s| s.1),
            idle_time: crate::harness::runner::idle_method().caveat().map(str::to_string),
        }
    }
}

impl Load {
    /// One line for a report header: "machine: 2 cores; load 8.54 at the start, 6.95 at the
    /// end; 97% busy, 0.4% stolen by the hypervisor over the run".
    pub fn line(&self) -> String {
        let mut parts = vec![format!("{} core{}", self.cores, if self.cores == 1 { "" } else { "s" })];
        match (self.load_start, self.load_end) {
            (Some(a), Some(b)) => parts.push(format!("load {a:.2} at the start, {b:.2} at the end")),
            (Some(a), None) => parts.push(format!("load {a:.2} at the start")),
            _ => {}
        }
        if let (Some(busy), Some(steal)) = (self.busy_percent, self.steal_percent) {
            parts.push(format!("{busy:.0}% busy, {steal:.1}% stolen by the hypervisor over the run"));
        }
        let mut line = format!("machine: {}", parts.join("; "));
        if self.loaded() {
            line.push_str(" (loaded: more runnable tasks than cores, so wall-clock times are longer)");
        }
        if let Some(caveat) = &self.idle_time {
            line.push_str("; ");
            line.push_str(caveat);
        }
        line
    }

    /// Whether more tasks wanted to run than there were cores, at the start or the end.
    pub fn loaded(&self) -> bool {
        [self.load_start, self.load_end].into_iter().flatten().any(|l| l > self.cores as f64)
    }
}

/// The one-minute load average from `/proc/loadavg` ("0.52 0.58 0.59 1/467 12345").
fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok().filter(|l: &f64| l.is_finite() && *l >= 0.0)
}

/// The counters of the `cpu` line of `/proc/stat`: user nice system idle iowait irq softirq
/// steal (guest time is already counted in user and nice).
fn parse_stat(text: &str) -> Option<CpuTimes> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let numbers: Vec<u64> = line.split_whitespace().skip(1).map_while(|w| w.parse().ok()).collect();
    if numbers.len() < 4 {
        return None;
    }
    let at = |i: usize| numbers.get(i).copied().unwrap_or(0);
    let total = numbers.iter().take(8).fold(0u64, |sum, n| sum.saturating_add(*n));
    Some(CpuTimes { total, idle: at(3).saturating_add(at(4)), steal: at(7) })
}

/// (busy, stolen) in percent of all the time between two readings, to a tenth.
fn shares(a: CpuTimes, b: CpuTimes) -> Option<(f64, f64)> {
    let total = b.total.checked_sub(a.total).filter(|t| *t > 0)? as f64;
    let idle = b.idle.saturating_sub(a.idle) as f64;
    let steal = b.steal.saturating_sub(a.steal) as f64;
    let tenth = |x: f64| (x * 1000.0 / total).round() / 10.0;
    Some((tenth((total - idle).max(0.0)), tenth(steal)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_files_are_read_and_odd_ones_give_nothing() {
        assert_eq!(parse_loadavg("8.54 6.95 5.11 10/155 7707\n"), Some(8.54));
        assert_eq!(parse_loadavg("x"), None);
        assert_eq!(parse_loadavg(""), None);
        let stat = "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n";
        assert_eq!(parse_stat(stat), Some(CpuTimes { total: 1000, idle: 800, steal: 0 }));
        assert_eq!(parse_stat("cpu0 1 2 3 4\n"), None);
        assert_eq!(parse_stat("cpu  1 2\n"), None);
    }

    #[test]
    fn shares_are_of_the_time_between_two_readings() {
        let a = CpuTimes { total: 1000, idle: 800, steal: 0 };
        let b = CpuTimes { total: 2000, idle: 1100, steal: 50 };
        assert_eq!(shares(a, b), Some((70.0, 5.0)));
        assert_eq!(shares(a, a), None, "no time passed");
        assert_eq!(shares(b, a), None, "counters went back (a reboot?)");
    }

    #[test]
    fn the_line_says_when_the_machine_was_loaded() {
        let load = Load {
            cores: 2,
            load_start: Some(8.54),
            load_end: Some(6.95),
            busy_percent: Some(97.0),
            steal_percent: Some(0.4),
            idle_time: None,
        };
        assert_eq!(
            load.line(),
            "machine: 2 cores; load 8.54 at the start, 6.95 at the end; 97% busy, 0.4% stolen by the \
             hypervisor over the run (loaded: more runnable tasks than cores, so wall-clock times are longer)"
        );
        let idle = Load { load_start: Some(0.1), load_end: None, busy_percent: None, ..load };
        assert_eq!(idle.line(), "machine: 2 cores; load 0.10 at the start");
        let scaled = Load { idle_time: Some("idle limits scaled".to_string()), ..idle };
        assert_eq!(scaled.line(), "machine: 2 cores; load 0.10 at the start; idle limits scaled");
    }
}
