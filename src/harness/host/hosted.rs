//! A hosted bot: a submission that is classes or functions, made ready to run (compiled,
//! its host and support files in place), and sessions with it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};

use super::channel::Channel;
use super::options::HostOptions;
use super::sandboxed::Sandboxed;
use super::session::{CallLimits, CallOutcome, CallRecord, Session, UseEnd};
use super::spec::{HostSpec, JavaEntry, PythonSpec};
use super::{java, python};
use crate::harness::runner::{BotCommand, Limits};

/// CPU time a host may take to start (a JVM, Python's interpreter), and to load the
/// submission when it is first checked (`prepare`). Loading it again for a case or game (`load`
/// in a new host, `reset` in one that served another case) counts against that case's own
/// limit, and is charged to it.
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
    /// The call that gave the case its fresh state (`reset`, or `load` in a new host): part of
    /// the case, charged to it and held to its limit. When it failed, no call was made.
    pub setup: Option<CallRecord>,
    /// What was found once the calls were over: CPU time used after the last one (charged to
    /// the case) and code of the submission's that kept running (a verdict).
    pub ended: UseEnd,
}

impl ScriptRun {
    /// CPU time of the case: its setup, all calls, and what ran after the last one.
    pub fn cpu(&self) -> Duration {
        self.setup.iter().chain(&self.calls).map(|c| c.cpu).sum::<Duration>() + self.ended.cpu
    }

    /// Wall time of the setup and all calls together.
    pub fn wall(&self) -> Duration {
        self.setup.iter().chain(&self.calls).map(|c| c.wall).sum()
    }

    /// The setup call, when it did not give the case a fresh state.
    pub fn setup_failure(&self) -> Option<&CallRecord> {
        self.setup.as_ref().filter(|s| s.value().is_none())
    }

    fn failed_to_start(why: String) -> ScriptRun {
        ScriptRun {
            calls: Vec::new(),
            start_error: Some(why),
            stderr_tail: String::new(),
            setup: None,
            ended: UseEnd::default(),
        }
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
    /// The arguments already written as one line of JSON (a PlanetWars view, written straight
    /// from the game's state), sent as they are; `args` is then null.
    pub written: Option<String>,
}

impl HostCall {
    /// A call with the run's time limit.
    pub fn new(op: &str, args: Value) -> HostCall {
        HostCall { op: op.to_string(), args, limit: None, must_return: None, written: None }
    }

    /// A call whose arguments are already JSON text (one line, an object): a game's turn,
    /// sent hundreds of times a game, is not built as a `serde_json::Value` first.
    pub fn written(op: &str, args: String) -> HostCall {
        HostCall { written: Some(args), ..HostCall::new(op, Value::Null) }
    }

    /// Makes the call in `session` within `limits`.
    pub fn send(self, session: &mut Session, limits: CallLimits) -> CallRecord {
        match self.written {
            Some(args) => session.call_written(&self.op, &args, limits),
            None => session.call(&self.op, self.args, limits),
        }
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
    /// Makes `given` ready: a folder of Java sources is compiled (in the sandbox), a `.jar` is
    /// hosted as it is (`FILE.jar#CLASS` names its class), a Python module gets arbiter's host
    /// beside it, anything else is a program that speaks the protocol. Then it is started once and loaded, so that a submission that cannot load
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
                let chosen = options.class.as_deref().map(java::Chosen::Class);
                let prepared = java::prepare(path, java, limits, chosen)?;
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
            let prepared = java::prepare(folder, java, limits, Some(java::Chosen::File(path)))?;
            (Language::Java, prepared.command, prepared.load, Some(prepared.build))
        } else if let Some((java, jar, class)) =
            spec.java.as_ref().filter(|j| matches!(j.entry, JavaEntry::Implements(_))).and_then(|java| {
                // A compiled strategy: `AI1_obf.jar`, or `AI1_obf.jar#pkg.Class` to name its class.
                let (file, class) = match given.rsplit_once('#') {
                    Some((file, class)) if file.ends_with(".jar") => (file, Some(class)),
                    _ => (given, None),
                };
                (file.ends_with(".jar") && Path::new(file).is_file()).then(|| (java, Path::new(file), class))
            })
        {
            let class = class.or(options.class.as_deref());
            let prepared = java::prepare_jar(jar, class, java, limits)?;
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
        let mut session = bot.start(limits)?;
        if let Some(record) = bot.load(&mut session, START_CPU)
            && let Some(why) = record.failure()
        {
            let detail = match &record.outcome {
                CallOutcome::Error(e) if !e.trace.is_empty() => format!("\n  at {}", e.trace.join("\n  at ")),
                _ => String::new(),
            };
            let tail = session.close();
            let tail = if tail.is_empty() { String::new() } else { format!("\n{tail}") };
            return Err(format!("the submission cannot be loaded: {why}{detail}{tail}"));
        }
        let _ = bot.give_back(session);
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

    /// Starts a session: the host process and its hello. The host's start is arbiter's, not
    /// the submission's: nothing of the submission has loaded yet.
    pub fn start(&self, limits: &Limits) -> Result<Session, String> {
        let dir = tempfile::Builder::new()
            .prefix("arbiter-host-")
            .tempdir()
            .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
        let channel: Box<dyn Channel> = Box::new(
            Sandboxed::spawn(&self.command, &[], dir.path(), limits, &self.readable()).map_err(|e| {
                // A sandbox that could not be set up, tried again and again, is the grader's
                // failure: said so, never "the bot could not start".
                if crate::harness::runner::grader_failed(&e) {
                    format!("{e}; grade this submission again")
                } else {
                    format!("the bot could not start: {e}")
                }
            })?,
        );
        let mut session = Session::start(channel, CallLimits::cpu(START_CPU))?;
        session.keep_dir(dir);
        if self.language == Language::Java {
            // The JVM's threads as they are before any class of the submission loads: its
            // compilers and collector are not the student's.
            session.mark_runtime();
        }
        if self.language != Language::Protocol {
            session.judge_idle();
        }
        Ok(session)
    }

    /// Loads the submission in a new session (`load`, when the game names what to load), within
    /// `limit`.
    fn load(&self, session: &mut Session, limit: Duration) -> Option<CallRecord> {
        let load = self.load.as_ref()?;
        Some(session.call("load", load.clone(), CallLimits::cpu(limit)))
    }

    /// Runs one case's calls in a fresh state: a parked session after `reset`, or a new one.
    pub fn run_script(&self, calls: &[HostCall], limits: &Limits) -> ScriptRun {
        let (mut session, setup) = match self.take_reset(limits) {
            Ok(taken) => taken,
            Err(why) => return ScriptRun::failed_to_start(why),
        };
        let mut done = Vec::with_capacity(calls.len());
        let set_up = setup.as_ref().is_none_or(|s| s.value().is_some());
        for call in calls.iter().take_while(|_| set_up) {
            let limit = CallLimits::cpu(call.limit.unwrap_or(limits.timeout));
            let record = call.clone().send(&mut session, limit);
            let stop = matches!(
                record.outcome,
                CallOutcome::TimedOut(_)
                    | CallOutcome::Died(_)
                    | CallOutcome::Garbled(_)
                    | CallOutcome::Background(_)
            ) || call.must_return.as_ref().is_some_and(|want| record.value() != Some(want));
            done.push(record);
            if stop {
                break;
            }
        }
        let stderr_tail = session.stderr_tail(8);
        let ended = self.finish(session);
        ScriptRun { calls: done, start_error: None, stderr_tail, setup, ended }
    }

    /// A session for one game, in a fresh state; give it back with [`HostedBot::give_back`].
    /// The call that made it fresh (`reset` or `load`) comes with it: the game charges its CPU
    /// time, and a game whose bot could not be set up in time is lost.
    ///
    /// The calling thread moves onto its slot's processor first, and a host it starts runs
    /// there too: a game hands over between the two thousands of times, and on one processor
    /// each hand-over is a local wake-up (see `runner::affinity`). A case's few calls do not
    /// pin: there the JVM's compiler threads, free to use a spare processor, matter more.
    pub fn game_session(&self, limits: &Limits) -> Result<(Session, Option<CallRecord>), String> {
        crate::harness::runner::slots::pin();
        self.take_reset(limits)
    }

    /// Ends a session's case or game (see [`Session::end_use`]) and keeps it for the next one
    /// when it is still alive and the submission left nothing behind. Returns why the game is
    /// the submission's fault even though its calls returned (its code kept running between
    /// calls), if it is.
    pub fn give_back(&self, session: Session) -> Option<String> {
        self.finish(session).fault
    }

    fn finish(&self, mut session: Session) -> UseEnd {
        if !session.is_alive() {
            return UseEnd::default();
        }
        let end = session.end_use();
        if session.is_alive() && end.left.is_empty() && end.fault.is_none() {
            self.park(session);
        } else {
            // Threads still alive, settings changed: no later case may meet them. A fresh
            // host serves the next one.
            session.close();
        }
        end
    }

    /// A session in a fresh state: a parked one after `reset`, else a new one after `load`,
    /// with that call (held to the case's limit, `limits.timeout`). Err when no host starts.
    fn take_reset(&self, limits: &Limits) -> Result<(Session, Option<CallRecord>), String> {
        let here = crate::harness::runner::slots::pinned();
        let mut parked = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            // The last parked host that runs where this thread does; for a game's thread,
            // pinned, else one that runs anywhere (it served cases, or the first load), moved
            // here: a host elsewhere would make every turn wake another processor.
            let at = match idle.iter().rposition(|s| s.processor == here) {
                Some(at) => Some(at),
                None if here.is_some() => idle.iter().rposition(|s| s.processor.is_none()),
                None => idle.len().checked_sub(1),
            };
            at.map(|at| idle.remove(at))
        };
        if let (Some(cpu), Some(session)) = (here, parked.as_mut())
            && session.processor != here
        {
            session.move_to(cpu);
        }
        let limit = CallLimits::cpu(limits.timeout);
        if let Some(mut session) = parked {
            session.begin_use();
            let record = session.call("reset", json!({}), limit);
            match &record.outcome {
                // A module whose import raises is the case's failure; any other host runs none
                // of the submission's code in `reset` (a Java host makes a class loader), and
                // one that refuses it (a program that does not know `reset`) is replaced.
                CallOutcome::Error(_) if self.language != Language::Python => {
                    session.close();
                }
                // A `reset` that timed out, ended the host or imported the module is the case's.
                _ => return Ok((session, Some(record))),
            }
        }
        let mut session = self.start(limits)?;
        session.begin_use();
        let record = self.load(&mut session, limits.timeout);
        Ok((session, record))
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
