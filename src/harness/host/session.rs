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

/// CPU time the bot may use while no call is in progress, over one case or game, before that
/// is a verdict of its own: a thread or process of the submission kept running after its call
/// returned. It covers the host's own few microseconds between calls (writing the answer,
/// reading the next request) with room to spare; whatever is used is charged to the next
/// call all the same.
pub const IDLE_CPU_ALLOWED: Duration = Duration::from_millis(50);

/// CPU time a host may take to answer `end`.
const END_CPU: Duration = Duration::from_secs(5);

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
    /// Before the call was made, the submission's code had run while no call was in progress
    /// for more than [`IDLE_CPU_ALLOWED`]: a thread or a process it left running. Says how
    /// much; the host was killed.
    Background(String),
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
            CallOutcome::Background(what) => Some(format!("{what} (seen before {})", self.op)),
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
    /// The bot's CPU time when the last answer came: everything after it is charged to the
    /// next call.
    charged_to: Duration,
    /// CPU time used while no call was in progress since [`Session::begin_use`].
    idle: Duration,
    /// Whether that idle time beyond [`IDLE_CPU_ALLOWED`] is a verdict (arbiter's own hosts,
    /// whose runtime between calls is known to be idle), or only charged (any other program).
    judge_idle: bool,
    /// Whether the host knows the `end` operation (its hello says so).
    knows_end: bool,
    /// CPU time of the run's other processes when the use began, where the clock does not
    /// count them (see [`Channel::other_processes`]).
    others_at_begin: Option<Duration>,
    /// The CPU time the host said its last answered call took (`cpu_ns`), if it says.
    host_cpu: Option<Duration>,
    /// How much the host had written to stderr when the use began: a case's report shows
    /// only what came after, never what an earlier case on the same host left.
    stderr_mark: u64,
    /// The processor the host runs on, if it was started or moved there by a thread pinned to
    /// its slot's processor (see [`crate::harness::runner::affinity`]).
    pub(crate) processor: Option<usize>,
}

/// What [`Session::end_use`] found once a case or game was over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UseEnd {
    /// CPU time used after the last call, charged to the case.
    pub cpu: Duration,
    /// Why the case or game is the submission's fault even though its calls returned: code
    /// of its kept running while no call was in progress.
    pub fault: Option<String>,
    /// What the submission left behind (threads still alive, settings it changed): the host
    /// cannot be given to another case, and a fresh one is started instead.
    pub left: Vec<String>,
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
        let knows_end =
            hello.features.as_ref().and_then(Value::as_array).is_some_and(|f| f.iter().any(|x| x == "end"));
        let charged_to = channel.cpu_time();
        Ok(Session {
            channel,
            next_id: 1,
            host: hello.host.unwrap_or_default(),
            dead: None,
            dir: None,
            charged_to,
            idle: Duration::ZERO,
            judge_idle: false,
            knows_end,
            others_at_begin: None,
            host_cpu: None,
            stderr_mark: 0,
            processor: crate::harness::runner::slots::pinned(),
        })
    }

    /// Counts the host's threads as they are now as its runtime's own (a JVM's compilers and
    /// collector), so that their CPU time is not charged (see [`Channel::mark_runtime`]).
    pub fn mark_runtime(&mut self) {
        self.channel.mark_runtime();
        self.charged_to = self.channel.cpu_time();
    }

    /// Makes CPU time used while no call is in progress a verdict (see [`IDLE_CPU_ALLOWED`]).
    pub fn judge_idle(&mut self) {
        self.judge_idle = true;
    }

    /// A case or game begins: idle time is counted from zero (what the host used while it
    /// waited between uses is still charged to the first call).
    pub fn begin_use(&mut self) {
        self.idle = Duration::ZERO;
        self.others_at_begin = self.channel.other_processes();
        self.stderr_mark = self.channel.stderr_written();
    }

    /// A case or game is over: asks the host (if it knows `end`) to drop the submission's
    /// state and say what it left behind, looks for threads the submission started that are
    /// still there, and charges what was used after the last call.
    pub fn end_use(&mut self) -> UseEnd {
        let mut end = UseEnd::default();
        if self.dead.is_some() {
            return end;
        }
        if self.knows_end {
            let record = self.call("end", serde_json::json!({}), CallLimits::cpu(END_CPU));
            end.cpu = record.cpu;
            match &record.outcome {
                CallOutcome::Value(value) => {
                    let left = value.get("left").and_then(Value::as_array).cloned().unwrap_or_default();
                    end.left.extend(
                        left.iter().map(|l| l.as_str().map_or_else(|| l.to_string(), str::to_string)),
                    );
                    // A thread of the submission's still computing once its calls are over is a
                    // verdict of its own (one that waits, a pool's idle worker, is not). The host
                    // can only hide one by lying: the CPU time it then uses is charged all the
                    // same, and past IDLE_CPU_ALLOWED judged.
                    let running: Vec<String> = value
                        .get("running")
                        .and_then(Value::as_array)
                        .map(|r| {
                            r.iter()
                                .map(|t| t.as_str().map_or_else(|| t.to_string(), str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    if self.judge_idle && !running.is_empty() {
                        end.fault = Some(format!(
                            "the submission's code was still running when its calls were over (thread {})",
                            running.join(", ")
                        ));
                    }
                }
                CallOutcome::Background(why) => end.fault = Some(why.clone()),
                CallOutcome::Error(_) => end.left.push("the host could not end the case".to_string()),
                _ => {}
            }
        } else {
            let now = self.channel.cpu_time();
            end.cpu = now.saturating_sub(self.charged_to);
            self.charged_to = now;
            self.idle += end.cpu;
            if self.judge_idle && self.idle > IDLE_CPU_ALLOWED {
                end.fault = Some(self.idle_words());
            }
        }
        if self.dead.is_none() {
            end.left
                .extend(self.channel.new_threads().into_iter().map(|t| format!("thread {t} is still alive")));
            if let (Some(before), Some(now)) = (self.others_at_begin, self.channel.other_processes()) {
                let used = now.saturating_sub(before);
                end.cpu += used;
                if self.judge_idle && used > IDLE_CPU_ALLOWED {
                    end.fault.get_or_insert_with(|| {
                        format!(
                            "processes the submission started used {:.0} ms of CPU time (a Java bot is its JVM's threads)",
                            used.as_secs_f64() * 1000.0
                        )
                    });
                }
            }
        }
        end
    }

    fn idle_words(&self) -> String {
        format!(
            "the submission's code ran while no call was in progress (a thread or process it left running): \
             {:.0} ms of CPU time between calls, more than the {} ms allowed",
            self.idle.as_secs_f64() * 1000.0,
            IDLE_CPU_ALLOWED.as_millis()
        )
    }

    /// Sends one request and waits for its response within `limits`. After a timeout, a
    /// death or a garbled answer the host is gone, and every later call says so.
    pub fn call(&mut self, op: &str, args: Value, limits: CallLimits) -> CallRecord {
        let line = serde_json::to_vec(&RequestRef { id: self.next_id, op, args: &args })
            .expect("a request always serialises");
        self.call_line(op, args, line, limits)
    }

    /// As [`Session::call`], the arguments being JSON text already (one line, an object),
    /// sent as they are: a PlanetWars turn's view, written straight from the game's state.
    /// The record's `args` is null.
    pub fn call_written(&mut self, op: &str, args: &str, limits: CallLimits) -> CallRecord {
        let mut line = Vec::with_capacity(args.len() + op.len() + 40);
        line.extend_from_slice(b"{\"id\":");
        line.extend_from_slice(self.next_id.to_string().as_bytes());
        line.extend_from_slice(b",\"op\":");
        serde_json::to_writer(&mut line, op).expect("a string always serialises");
        line.extend_from_slice(b",\"args\":");
        line.extend_from_slice(args.as_bytes());
        line.push(b'}');
        self.call_line(op, Value::Null, line, limits)
    }

    fn call_line(&mut self, op: &str, args: Value, line: Vec<u8>, limits: CallLimits) -> CallRecord {
        let id = self.next_id;
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
        // What the bot used since the last answer is charged to this call, and counts against
        // its limit: a thread that computes between calls buys nothing.
        let gap = self.channel.cpu_time().saturating_sub(self.charged_to);
        self.idle += gap;
        if self.judge_idle && self.idle > IDLE_CPU_ALLOWED {
            let why = self.idle_words();
            self.end(why.clone());
            return record(CallOutcome::Background(why), String::new(), gap, Duration::ZERO);
        }
        let cpu_before = self.charged_to;
        let idle_before = self.channel.idle_time();
        let started = Instant::now();
        if let Err(e) = self.channel.send(&line) {
            let how = self.channel.exit_status().unwrap_or_else(|| format!("closed its input ({e})"));
            self.end(how.clone());
            return record(CallOutcome::Died(how), String::new(), gap, started.elapsed());
        }
        let answer = wait_line(self.channel.as_mut(), started, (cpu_before, idle_before), limits);
        let cpu_after = self.channel.cpu_time();
        let cpu = cpu_after.saturating_sub(cpu_before);
        self.charged_to = cpu_after.max(self.charged_to);
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
        self.host_cpu = response.cpu_ns.map(Duration::from_nanos);
        let mut stdout = response.stdout.unwrap_or_default();
        if stdout.len() > MAX_STDOUT {
            let mut cut = MAX_STDOUT;
            while !stdout.is_char_boundary(cut) {
                cut -= 1;
            }
            stdout.truncate(cut);
        }
        let outcome = match (response.ok, response.error) {
            // arbiter's Python host runs each case in a process of its own, which it watches
            // from outside: a case process that ended or wrote out of turn is said so.
            (_, Some(error)) if error.kind == "died" => CallOutcome::Died(error.message),
            (_, Some(error)) if error.kind == "garbled" => CallOutcome::Garbled(error.message),
            (_, Some(error)) => CallOutcome::Error(error),
            (Some(value), None) => CallOutcome::Value(value),
            (None, None) => CallOutcome::Value(Value::Null),
        };
        record(outcome, stdout, cpu, wall)
    }

    /// The CPU time the host itself measured for the last call it answered (`cpu_ns`: the Java
    /// host reads its calling thread's CPU time), for reports; `None` when it does not say. A
    /// host could say anything here, so nothing is charged or limited by it.
    pub fn host_cpu(&self) -> Option<Duration> {
        self.host_cpu
    }

    /// Moves the host onto processor `cpu` (a pinned thread took it over), if it can.
    pub(crate) fn move_to(&mut self, cpu: usize) {
        if self.channel.move_to(cpu) {
            self.processor = Some(cpu);
        }
    }

    /// Keeps the host's working folder until the session ends.
    pub fn keep_dir(&mut self, dir: tempfile::TempDir) {
        self.dir = Some(dir);
    }

    /// Whether the host is still there to answer.
    pub fn is_alive(&self) -> bool {
        self.dead.is_none()
    }

    /// The last `n` lines the host wrote to stderr since the use began.
    pub fn stderr_tail(&self, n: usize) -> String {
        stderr_tail(&self.channel.stderr_since(self.stderr_mark), n)
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
