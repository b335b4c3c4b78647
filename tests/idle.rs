//! The idle meter and the idle cap: a bot that sleeps is stopped after about its timeout of
//! idleness, and a bot that computes on a machine that gives it a fifth of a processor is judged
//! by its CPU time alone. The machine is loaded by burners in cgroups of their own (as other
//! graders' jobs are), so these tests are a binary of their own: they would slow the runner's
//! other tests down. They assert verdicts and what the meter measured, never how long a run took.
#![cfg(unix)]

mod common;

use std::fs;
use std::thread;
use std::time::{Duration, Instant};

use arbiter::harness::runner::{IdleMeter, Limits, Outcome, Tasks, TimeLimit, run};
use common::bots::{burner, script};
use tempfile::TempDir;

/// The time task `pid` has waited for a processor, from `/proc/PID/schedstat`.
fn waited(pid: u32) -> Duration {
    let text = fs::read_to_string(format!("/proc/{pid}/schedstat")).unwrap_or_default();
    Duration::from_nanos(text.split_whitespace().nth(1).and_then(|w| w.parse().ok()).unwrap_or(0))
}

#[test]
fn the_idle_meter_finds_a_sleeping_child_idle() {
    let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    let start = Instant::now();
    let mut meter = IdleMeter::new(Tasks::Tree(child.id() as i32), false, start);
    thread::sleep(Duration::from_millis(600));
    let idle = meter.look(Duration::ZERO);
    let wall = start.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    // Nearly all of it idle: all but the moment it took the child to start sleeping (longer
    // when the other tests here load the machine).
    assert!(idle >= wall / 2 && idle <= wall, "{idle:?} of {wall:?}");
}

#[test]
fn the_idle_meter_finds_a_spinning_child_busy_beside_burners() {
    let Some(_burners) =
        common::burners::Burners::for_share(0.2, "the_idle_meter_finds_a_spinning_child_busy_beside_burners")
    else {
        return;
    };
    let mut child = std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
    let start = Instant::now();
    let mut meter = IdleMeter::new(Tasks::Tree(child.id() as i32), false, start);
    let mut idle = Duration::ZERO;
    for _ in 0..10 {
        thread::sleep(Duration::from_millis(150));
        idle = meter.look(Duration::ZERO);
    }
    let wall = start.elapsed();
    let waited = waited(child.id());
    let _ = child.kill();
    let _ = child.wait();
    // The burners kept it waiting for a processor most of the time (else this proves nothing),
    // and none of that wait is idle.
    assert!(waited >= wall / 4, "the burners did not starve the spinner: waited {waited:?} of {wall:?}");
    assert!(idle <= wall / 10, "a spinning child was found idle {idle:?} of {wall:?}");
}

#[test]
fn a_sleeper_is_caught_after_its_timeout_of_idleness() {
    let dir = TempDir::new().unwrap();
    let bot = script(dir.path(), "bot.sh", "sleep 30\n");
    let limits = Limits { timeout: Duration::from_millis(500), ..Limits::default() };
    let r = run(&bot, &[], dir.path(), &limits);
    assert_eq!(r.outcome, Outcome::TimedOut, "{}", r.describe());
    assert_eq!(r.time_limit, Some(TimeLimit::Idle), "{}", r.describe());
    // Stopped at its idle limit, 1 x its CPU limit + 1 s, not at a multiple of it.
    assert_eq!(limits.idle_limit(), Duration::from_millis(1500));
    let idle = r.idle.unwrap();
    assert!(idle >= limits.idle_limit() && idle < limits.idle_limit() * 2, "{}", r.describe());
    assert!(
        r.describe().contains("its idle limit is 1.5 s (1 x its 500 ms CPU limit + 1 s)"),
        "{}",
        r.describe()
    );
}

#[test]
fn a_starved_cpu_bound_bot_is_judged_by_its_cpu_time_alone() {
    let test = "a_starved_cpu_bound_bot_is_judged_by_its_cpu_time_alone";
    let Some(_burners) = common::burners::Burners::for_share(0.2, test) else { return };
    let dir = TempDir::new().unwrap();
    // With a fifth of a processor, 1.3 s of CPU time takes about 6.5 s of wall time: more than
    // 3 x the limit + 1 s, the old wall-clock cap, but never idle.
    let limits = Limits { timeout: Duration::from_millis(1500), ..Limits::default() };
    let r = run(&burner(dir.path(), 1300), &[], dir.path(), &limits);
    assert_eq!(r.outcome, Outcome::Exited(0), "{}", r.describe());
    assert!(r.idle.unwrap() < limits.idle_limit(), "{:?}", r.idle);
    let r = run(&burner(dir.path(), 3000), &[], dir.path(), &limits);
    assert_eq!(r.outcome, Outcome::TimedOut, "{}", r.describe());
    assert_eq!(r.time_limit, Some(TimeLimit::Cpu), "{}", r.describe());
    // A sleeper beside the same burners is still caught by its idleness.
    let r = run(&script(dir.path(), "sleep.sh", "sleep 30\n"), &[], dir.path(), &limits);
    assert_eq!(r.time_limit, Some(TimeLimit::Idle), "{}", r.describe());
}
