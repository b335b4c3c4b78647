//! What the sandbox can do on this machine, found by setting it up once and running nothing.

use std::sync::atomic::Ordering;

use super::cgroup::RunCgroup;
use super::launch::Launch;
use super::policy::Mode;
use super::spec::Event;
use crate::harness::runner::command::BotCommand;
use crate::harness::runner::limits::Limits;
use crate::harness::runner::spawn::start_launch;

/// What the sandbox does on this machine, found by setting it up once without running a bot.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub mode: Mode,
    /// Layers in place: (name, detail).
    pub layers: Vec<(String, String)>,
    /// Layers missing: (name, why).
    pub missing: Vec<(String, String)>,
}

impl Summary {
    /// One line for a report header, e.g. "sandbox auto: namespaces (user, pid, ...);
    /// landlock ABI 7; memory 4 GiB for all processes (cgroup v1); ...".
    pub fn line(&self) -> String {
        let mode = match self.mode {
            Mode::Off => {
                let mut line = "sandbox off: bots run with per-process limits only".to_string();
                for (name, detail) in &self.layers {
                    line.push_str(&format!("; {name} {detail}"));
                }
                for (name, why) in &self.missing {
                    line.push_str(&format!("; NO {name} ({why})"));
                }
                return line;
            }
            Mode::Auto => "auto",
            Mode::Strict => "strict",
        };
        let mut parts: Vec<String> = self.layers.iter().map(|(n, d)| format!("{n} {d}")).collect();
        parts.extend(self.missing.iter().map(|(n, why)| format!("NO {n} ({why})")));
        format!("sandbox {mode}: {}", parts.join("; "))
    }
}

/// Sets the sandbox up once, runs nothing in it, and reports what it could do; in strict mode,
/// an error if it could not do everything. Takes a moment (a fork and a few mounts).
pub fn probe(limits: &Limits) -> Result<Summary, String> {
    let mode = limits.sandbox.mode;
    if mode == Mode::Off {
        // What finds the processes that leave the bot's session.
        let mut summary = Summary { mode, layers: Vec::new(), missing: Vec::new() };
        match RunCgroup::create(None, None) {
            Some(cg) => {
                summary.layers.push((
                    cg.kind().to_string(),
                    "for each run, so that a process that leaves the bot's session (setsid, a double \
                     fork) is still charged and killed"
                        .to_string(),
                ));
                cg.remove();
            }
            None => summary.missing.push((
                "cgroup".to_string(),
                "none can be made here: a process that leaves the bot's session (setsid, a double fork) \
                 is neither charged nor killed"
                    .to_string(),
            )),
        }
        return Ok(summary);
    }
    let dir = tempfile::Builder::new()
        .prefix("arbiter-probe-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let probe_bot = BotCommand::parse_in("true", dir.path()).map_err(|e| e.to_string())?;
    let request = super::request(&probe_bot, &[], dir.path(), limits, true)?;
    let launch = Launch::for_request(request, limits).map_err(|e| e.to_string())?;
    let mut summary = Summary { mode, layers: Vec::new(), missing: Vec::new() };
    match &launch.cgroup {
        Some(cg) => summary.layers.push((cg.kind().to_string(), cg.describe(limits))),
        None => summary.missing.push((
            "cgroup".to_string(),
            "none can be made here: memory and processes are measured by the sandbox every 10 ms \
             instead, and runs share the processors with no share of their own"
                .to_string(),
        )),
    }
    let report = match start_launch(launch, limits) {
        Ok(mut started) => {
            let limit = started.wait(limits);
            started.conclude(limit, limits)
        }
        Err(report) => *report,
    };
    for event in &report.events {
        match event {
            Event::Layer { name, detail } => {
                if name == "namespaces" {
                    super::NAMESPACES.store(1, Ordering::Relaxed);
                }
                summary.layers.push((name.clone(), detail.clone()))
            }
            Event::Missing { name, why } => {
                if name == "namespaces" {
                    super::NAMESPACES.store(2, Ordering::Relaxed);
                }
                summary.missing.push((name.clone(), why.clone()))
            }
            Event::SetupFailed { why } => return Err(format!("the sandbox cannot be set up: {why}")),
            _ => {}
        }
    }
    if !report.succeeded() && report.events.is_empty() {
        return Err(format!("the sandbox helper {}", report.describe()));
    }
    Ok(summary)
}
