//! A conversation with one host process: the hello, then one request and one response at a
//! time, each call timed in CPU time and killed at its limit, or when it has sat idle (none of
//! the host's tasks running or waiting for a processor) for longer than its idle cap.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::channel::{Channel, Recv};
use super::protocol::{HostError, RawResponse, RequestRef, VERSION};
use crate::harness::escape::escape_controls;

/// How often a waiting call looks at the host's CPU time.
const POLL: Duration = Duration::from_millis(10);

/// Most text of a call's captured stdout that is kept.
const MAX_STDOUT: usize = 64 << 10;

/// What one call may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// CPU time (user + system, all of the host's processes and threads).
    pub cpu: Duration,
    /// Idle time (no task of the host running or waiting for a processor), to stop a host
    /// that sleeps or waits instead of computing; a busy machine does not lengthen it.
    pub idle: Duration,
}

impl CallLimits {
    /// A CPU limit with the harness's usual idle cap (`runner::IdleCap`'s default): the limit
    /// plus a second.
    pub fn cpu(limit: Duration) -> CallLimits {
        CallLimits { cpu: limit, idle: crate::harness::runner::IdleCap::default().of(limit) }
    }
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// The host answered with a result.
    Value(Value),
    /// The host answered with an error (the submission threw, or could not be loaded).
    Error(HostError),
    /// The call went over its CPU or idle limit; the host was killed. Says which.
    TimedOut(String),
    /// The host ended during the call: how ("exited with status 1").
    Died(String),
    /// The host answered something that is not a response to this call: what.
    Garbled(String),
}

/// One call and what came of it, as judges read it.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRecord {
    /// The operation.
    pub op: String,
    /// Its arguments.
    pub args: Value,
    /// How it ended.
    pub outcome: CallOutcome,
    /// What the submission printed during the call.
    pub stdout: String,
    /// CPU time the call took.
    pub cpu: Duration,
    /// Wall time the call took.
    pub wall: Duration,
}

impl CallRecord {
    /// The result, when the call returned one.
    pub fn value(&self) -> Option<&Value> {
        match &self.outcome {
            CallOutcome::Value(v) => Some(v),
            _ => None,
        }
    }

    /// One line saying how a call that returned no value ended.
    pub fn failure(&self) -> Option<String> {
        match &self.outcome {
            CallOutcome::Value(_) => None,
            CallOutcome::Error(e) => Some(format!("{} threw {}", self.op, e.headline())),
            CallOutcome::TimedOut(why) => Some(format!("{} {why}", self.op)),
            CallOutcome::Died(how) => Some(format!("the bot {how} during {}", self.op)),
            CallOutcome::Garbled(what) => Some(format!("during {}: {what}", self.op)),
        }
    }
}

/// A running host that has said hello.
pub struct Session {
    channel: Box<dyn Channel>,
    next_id: u64,
    /// The host's own description from its hello (`java 17.0.15`).
    pub host: String,
    dead: Option<String>,
    /// The host's working folder, removed after the host is gone.
    dir: Option<tempfile::TempDir>,
}

impl Session {
    /// Waits for the host's hello, at most `limits` (start-up: a JVM takes a while).
    pub fn start(mut channel: Box<dyn Channel>, limits: CallLimits) -> Result<Session, String> {
        let cpu_start = channel.cpu_time();
        let idle_start = channel.idle_time();
        let line = match wait_line(channel.as_mut(), Instant::now(), (cpu_start, idle_start), limits) {
            Ok(line) => line,
            Err(why) => {
                let tail = stderr_tail(&channel.stderr(), 8);
                channel.kill();
                return Err(format!("the bot did not start: {why}{}", tail_suffix(&tail)));
            }
        };
        let hello =
            RawResponse::parse(&line).map_err(|e| format!("the bot's first line is not a hello: {e}"))?;
        if hello.hello.as_deref() != Some("arbiter-host") {
            channel.kill();
            return Err(format!(
                "the bot's first line must be {{\"hello\": \"arbiter-host\", \"protocol\": {VERSION}}}, not {:?}",
                escape_controls(&String::from_utf8_lossy(&line[..line.len().min(120)]))
            ));
        }
        if hello.protocol != Some(VERSION) {
            channel.kill();
            return Err(format!("the bot speaks protocol {:?}; arbiter speaks {VERSION}", hello.protocol));
        }
        Ok(Session { channel, next_id: 1, host: hello.host.unwrap_or_default(), dead: None, dir: None })
    }

    /// Sends one request and waits for its response within `limits`. After a timeout, a
    /// death or a garbled answer the host is gone, and every later call says so.
    pub fn call(&mut self, op: &str, args: Value, limits: CallLimits) -> CallRecord {
        let id = self.next_id;
        // Written before the arguments move into the record: a PlanetWars turn's view is sent
        // hundreds of times a game, and is not copied.
        let line =
            serde_json::to_vec(&RequestRef { id, op, args: &args }).expect("a request always serialises");
        let record = move |outcome, stdout, cpu, wall| CallRecord {
            op: op.to_string(),
            args,
            outcome,
            stdout,
            cpu,
            wall,
        };
        if let Some(why) = &self.dead {
            return record(CallOutcome::Died(why.clone()), String::new(), Duration::ZERO, Duration::ZERO);
        }
        self.next_id += 1;
        let cpu_before = self.channel.cpu_time();
        let idle_before = self.channel.idle_time();
        let started = Instant::now();
        if let Err(e) = self.channel.send(&line) {
            let how = self.channel.exit_status().unwrap_or_else(|| format!("closed its input ({e})"));
            self.end(how.clone());
            return record(CallOutcome::Died(how), String::new(), Duration::ZERO, started.elapsed());
        }
        let answer = wait_line(self.channel.as_mut(), started, (cpu_before, idle_before), limits);
        let cpu = self.channel.cpu_time().saturating_sub(cpu_before);
        let wall = started.elapsed();
        let line = match answer {
            Ok(line) => line,
            Err(Waited::Eof) => {
                // Give the exit status a moment to be collected.
                std::thread::sleep(Duration::from_millis(20));
                let how = self.channel.exit_status().unwrap_or_else(|| "closed its output".to_string());
                self.end(how.clone());
                return record(CallOutcome::Died(how), String::new(), cpu, wall);
            }
            Err(other) => {
                let why = other.to_string();
                self.end(why.clone());
                let outcome = match other {
                    Waited::TooLong => CallOutcome::Garbled(why),
                    _ => CallOutcome::TimedOut(why),
                };
                return record(outcome, String::new(), cpu, wall);
            }
        };
        let response = match RawResponse::parse(&line) {
            Ok(r) if r.id == Some(id) => r,
            Ok(r) => {
                let why = format!("the bot answered request {:?} when {id} was asked", r.id);
                self.end(why.clone());
                return record(CallOutcome::Garbled(why), String::new(), cpu, wall);
            }
            Err(why) => {
                self.end(why.clone());
                return record(CallOutcome::Garbled(why), String::new(), cpu, wall);
            }
        };
        let mut stdout = response.stdout.unwrap_or_default();
        if stdout.len() > MAX_STDOUT {
            let mut cut = MAX_STDOUT;
            while !stdout.is_char_boundary(cut) {
                cut -= 1;
            }
            stdout.truncate(cut);
        }
        let outcome = match (response.ok, response.error) {
            (_, Some(error)) => CallOutcome::Error(error),
            (Some(value), None) => CallOutcome::Value(value),
            (None, None) => CallOutcome::Value(Value::Null),
        };
        record(outcome, stdout, cpu, wall)
    }

    /// Keeps the host's working folder until the session ends.
    pub fn keep_dir(&mut self, dir: tempfile::TempDir) {
        self.dir = Some(dir);
    }

    /// Whether the host is still there to answer.
    pub fn is_alive(&self) -> bool {
        self.dead.is_none()
    }

    /// The last `n` lines the host wrote to stderr.
    pub fn stderr_tail(&self, n: usize) -> String {
        stderr_tail(&self.channel.stderr(), n)
    }

    /// Ends the host.
    pub fn close(mut self) -> String {
        self.channel.kill();
        stderr_tail(&self.channel.stderr(), 8)
    }

    fn end(&mut self, why: String) {
        self.channel.kill();
        self.dead = Some(why);
    }
}

/// Why no line came.
enum Waited {
    Eof,
    TooLong,
    Cpu(Duration),
    /// Idle time, wall time and CPU time of the call, and its idle limit.
    Idle {
        idle: Duration,
        wall: Duration,
        cpu: Duration,
        limit: Duration,
    },
}

impl std::fmt::Display for Waited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Waited::Eof => write!(f, "ended without answering"),
            Waited::TooLong => {
                write!(f, "wrote a line longer than {} bytes", crate::harness::runner::MAX_LINE)
            }
            Waited::Cpu(limit) => write!(f, "used more than {:.1} s of CPU time", limit.as_secs_f64()),
            Waited::Idle { idle, wall, cpu, limit } => write!(
                f,
                "sat idle (neither computing nor waiting for a processor) for {:.1} s of {:.1} s, having \
                 used {:.1} s of CPU time; its idle limit is {:.1} s",
                idle.as_secs_f64(),
                wall.as_secs_f64(),
                cpu.as_secs_f64(),
                limit.as_secs_f64()
            ),
        }
    }
}

/// Waits for a line, checking every [`POLL`] the CPU time and the idle time used since
/// `started` (when the host had used `(cpu, idle)` of them).
fn wait_line(
    channel: &mut dyn Channel,
    started: Instant,
    (cpu_start, idle_start): (Duration, Duration),
    limits: CallLimits,
) -> Result<Vec<u8>, Waited> {
    loop {
        match channel.recv_line(Instant::now() + POLL) {
            Recv::Line(line) => return Ok(line),
            Recv::Eof => return Err(Waited::Eof),
            Recv::TooLong => return Err(Waited::TooLong),
            Recv::TimedOut => {
                let cpu = channel.cpu_time().saturating_sub(cpu_start);
                if cpu > limits.cpu {
                    return Err(Waited::Cpu(limits.cpu));
                }
                let idle = channel.idle_time().saturating_sub(idle_start);
                if idle >= limits.idle {
                    return Err(Waited::Idle { idle, wall: started.elapsed(), cpu, limit: limits.idle });
                }
            }
        }
    }
}

fn stderr_tail(bytes: &[u8], n: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

fn tail_suffix(tail: &str) -> String {
    if tail.is_empty() { String::new() } else { format!("; its last words:\n{}", escape_controls(tail)) }
}
