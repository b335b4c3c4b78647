//! A hosted bot: a submission that is classes or functions, made ready to run (compiled,
//! its host and support files in place), and sessions with it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};

use super::channel::Channel;
use super::sandboxed::Sandboxed;
use super::session::{CallLimits, CallOutcome, CallRecord, Session};
use super::spec::{HostSpec, JavaEntry, PythonSpec};
use super::{java, python};
use crate::harness::runner::{BotCommand, Limits};

/// CPU time a host may take to start and load the submission (a JVM, Python's imports).
pub const START_CPU: Duration = Duration::from_secs(20);

/// Where a hosted bot comes from, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Language {
    /// Java classes compiled by arbiter.
    Java,
    /// A Python module.
    Python,
    /// A program that speaks the protocol itself.
    Protocol,
}

/// Options for preparing hosted submissions.
#[derive(Clone, Debug, Default)]
pub struct HostOptions {
    /// Files that replace arbiter's own support files (`--support a1_support.py`).
    pub support: Vec<PathBuf>,
}

/// A submission ready to be started as many times as needed.
pub struct HostedBot {
    /// How reports name the bot: what the user gave.
    pub label: String,
    /// What it is.
    pub language: Language,
    command: BotCommand,
    load: Option<Value>,
    /// Compiled classes and host files; removed when the bot is dropped.
    build: Option<tempfile::TempDir>,
    /// Sessions between cases, reset before reuse.
    idle: Mutex<Vec<Session>>,
}

/// One case's calls and how they went.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptRun {
    /// The calls made, in order; the list stops where the bot died or timed out.
    pub calls: Vec<CallRecord>,
    /// Why the host could not even be started, if it could not.
    pub start_error: Option<String>,
    /// The host's last stderr lines.
    pub stderr_tail: String,
}

impl ScriptRun {
    /// CPU time of all calls together.
    pub fn cpu(&self) -> Duration {
        self.calls.iter().map(|c| c.cpu).sum()
    }

    /// Wall time of all calls together.
    pub fn wall(&self) -> Duration {
        self.calls.iter().map(|c| c.wall).sum()
    }
}

/// One call of a case's script.
#[derive(Clone, Debug, PartialEq)]
pub struct HostCall {
    /// The operation.
    pub op: String,
    /// Its arguments.
    pub args: Value,
    /// Its CPU limit, when it is not the run's `--timeout`.
    pub limit: Option<Duration>,
    /// The value a set-up call must return for the case to go on (Network's `forceMove` of a
    /// move of the game: `true`); any other value ends the script there, since the calls after
    /// it would test a state the case did not mean.
    pub must_return: Option<Value>,
}

impl HostCall {
    /// A call with the run's time limit.
    pub fn new(op: &str, args: Value) -> HostCall {
        HostCall { op: op.to_string(), args, limit: None, must_return: None }
    }

    /// The same call, ending the script unless it returns `value`.
    pub fn must_return(self, value: Value) -> HostCall {
        HostCall { must_return: Some(value), ..self }
    }

    /// The same call with its own CPU limit.
    pub fn limited(self, limit: Duration) -> HostCall {
        HostCall { limit: Some(limit), ..self }
    }
}

/// The `load` request for a Python module: its file, and the version whose grammar it must
/// parse under when the course names one.
fn python_load(py: &PythonSpec) -> Value {
    match py.python {
        Some((major, minor)) => json!({"module": py.module, "python": [major, minor]}),
        None => json!({"module": py.module}),
    }
}

impl HostedBot {
    /// Makes `given` ready: a folder of Java sources is compiled (in the sandbox), a Python
    /// module gets arbiter's host beside it, anything else is a program that speaks the
    /// protocol. Then it is started once and loaded, so that a submission that cannot load
    /// is refused before any case, with the reason.
    pub fn prepare(
        given: &str,
        spec: &HostSpec,
        options: &HostOptions,
        limits: &Limits,
    ) -> Result<HostedBot, String> {
        let path = Path::new(given);
        let (language, command, load, build) = if path.is_dir() {
            if let Some(java) = spec.java.as_ref().filter(|_| java::has_sources(path)) {
                let prepared = java::prepare(path, java, limits, None)?;
                (Language::Java, prepared.command, prepared.load, Some(prepared.build))
            } else if let Some(py) = spec.python.as_ref().filter(|py| path.join(py.module).is_file()) {
                let prepared = python::prepare(path, py, options, limits)?;
                (Language::Python, prepared.command, Some(python_load(py)), Some(prepared.build))
            } else {
                return Err(format!("{given} holds no submission: {}", expected_files(spec)));
            }
        } else if let Some(java) = spec
            .java
            .as_ref()
            .filter(|j| matches!(j.entry, JavaEntry::Implements(_)) && path.is_file())
            .filter(|_| path.extension().is_some_and(|x| x == "java"))
        {
            // One class of the submission named by its file: the rest of its source tree is
            // what javac finds from there.
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let prepared = java::prepare(folder, java, limits, Some(path))?;
            (Language::Java, prepared.command, prepared.load, Some(prepared.build))
        } else if let Some(py) =
            spec.python.as_ref().filter(|py| path.file_name().is_some_and(|n| n == py.module))
        {
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let prepared = python::prepare(folder, py, options, limits)?;
            (Language::Python, prepared.command, Some(python_load(py)), Some(prepared.build))
        } else {
            let command = BotCommand::parse(given)
                .map_err(|e| format!("cannot read the bot command `{given}`: {e}"))?;
            crate::harness::bot::check_program(command.program())?;
            (Language::Protocol, command, None, None)
        };
        let bot = HostedBot {
            label: given.to_string(),
            language,
            command,
            load,
            build,
            idle: Mutex::new(Vec::new()),
        };
        let session = bot.start(limits)?;
        bot.park(session);
        Ok(bot)
    }

    /// The command that starts the host (or the protocol-speaking program).
    pub fn command(&self) -> &BotCommand {
        &self.command
    }

    /// What the host reads besides what its command names: the folder arbiter prepared the
    /// submission in (compiled classes, the host's own files, support modules).
    fn readable(&self) -> Vec<PathBuf> {
        self.build.iter().filter_map(|b| b.path().canonicalize().ok()).collect()
    }

    /// Starts a session: the host process, its hello, and the submission loaded.
    pub fn start(&self, limits: &Limits) -> Result<Session, String> {
        let dir = tempfile::Builder::new()
            .prefix("arbiter-host-")
            .tempdir()
            .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
        let channel: Box<dyn Channel> = Box::new(
            Sandboxed::spawn(&self.command, &[], dir.path(), limits, &self.readable())
                .map_err(|e| format!("the bot could not start: {e}"))?,
        );
        let mut session = Session::start(channel, CallLimits::cpu(START_CPU))?;
        session.keep_dir(dir);
        if let Some(load) = &self.load {
            let record = session.call("load", load.clone(), CallLimits::cpu(START_CPU));
            if let Some(why) = record.failure() {
                let detail = match &record.outcome {
                    CallOutcome::Error(e) if !e.trace.is_empty() => {
                        format!("\n  at {}", e.trace.join("\n  at "))
                    }
                    _ => String::new(),
                };
                let tail = session.close();
                let tail = if tail.is_empty() { String::new() } else { format!("\n{tail}") };
                return Err(format!("the submission cannot be loaded: {why}{detail}{tail}"));
            }
        }
        Ok(session)
    }

    /// Runs one case's calls in a fresh state: a parked session after `reset`, or a new one.
    pub fn run_script(&self, calls: &[HostCall], limits: &Limits) -> ScriptRun {
        let mut session = match self.take_reset(limits) {
            Ok(s) => s,
            Err(why) => {
                return ScriptRun { calls: Vec::new(), start_error: Some(why), stderr_tail: String::new() };
            }
        };
        let mut done = Vec::with_capacity(calls.len());
        for call in calls {
            let limit = CallLimits::cpu(call.limit.unwrap_or(limits.timeout));
            let record = session.call(&call.op, call.args.clone(), limit);
            let stop = matches!(
                record.outcome,
                CallOutcome::TimedOut(_) | CallOutcome::Died(_) | CallOutcome::Garbled(_)
            ) || call.must_return.as_ref().is_some_and(|want| record.value() != Some(want));
            done.push(record);
            if stop {
                break;
            }
        }
        let stderr_tail = session.stderr_tail(8);
        if session.is_alive() {
            self.park(session);
        }
        ScriptRun { calls: done, start_error: None, stderr_tail }
    }

    /// A session for one game, in a fresh state; give it back with [`HostedBot::give_back`].
    pub fn game_session(&self, limits: &Limits) -> Result<Session, String> {
        self.take_reset(limits)
    }

    /// Keeps a session that is still alive for the next case or game.
    pub fn give_back(&self, session: Session) {
        if session.is_alive() {
            self.park(session);
        }
    }

    /// A session in a fresh state: a parked one that accepted `reset`, else a new one.
    fn take_reset(&self, limits: &Limits) -> Result<Session, String> {
        let parked = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(mut session) = parked {
            let record = session.call("reset", json!({}), CallLimits::cpu(START_CPU));
            if record.value().is_some() {
                return Ok(session);
            }
            session.close();
        }
        self.start(limits)
    }

    fn park(&self, session: Session) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(session);
    }
}

/// What a submission folder must hold, in words.
fn expected_files(spec: &HostSpec) -> String {
    let mut wanted = Vec::new();
    if let Some(java) = &spec.java {
        wanted.push(match java.entry {
            JavaEntry::Class(class) => format!("Java sources with {class}"),
            JavaEntry::Implements(interface) => format!("Java sources with a class implementing {interface}"),
        });
    }
    if let Some(py) = &spec.python {
        wanted.push(format!("the module {}", py.module));
    }
    format!("expected {}", wanted.join(" or "))
}
