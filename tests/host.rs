//! The host layer: submissions that are Java classes or a Python module, driven by calls over
//! the line protocol (docs/PROTOCOL.md), with per-call CPU limits and state reset between cases.
//! Tests that need `java`, `javac` or `python3` print `SKIPPED: <why>` where they are missing.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use arbiter::harness::host::{
    CallOutcome, HostCall, HostOptions, HostSpec, HostedBot, JavaEntry, JavaSpec, Language, PythonSpec,
};
use arbiter::harness::runner::Limits;
use common::have_tools;
use serde_json::json;

fn data(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/host").join(path).display().to_string()
}

const PYTHON: HostSpec =
    HostSpec { java: None, python: Some(PythonSpec { module: "a1.py", support: &[], python: None }) };

const JAVA: HostSpec = HostSpec {
    java: Some(JavaSpec {
        entry: JavaEntry::Class("demo.Counter"),
        api: &[],
        adapter: &[("arbiter/host/DemoAdapter.java", include_str!("data/host/DemoAdapter.java"))],
        adapter_class: "arbiter.host.DemoAdapter",
        jvm_options: "",
        foreign: &[],
    }),
    python: None,
};

/// Limits as the CLI sets them: the strongest sandbox this machine allows, arbiter's own binary
/// as its helper.
fn limits(cpu_ms: u64) -> Limits {
    let mut limits = Limits { timeout: Duration::from_millis(cpu_ms), ..Limits::default() };
    limits.sandbox.mode = arbiter::harness::sandbox::Mode::Auto;
    limits.sandbox.helper = Some(env!("CARGO_BIN_EXE_arbiter").into());
    limits
}

/// The submission `tests/data/host/<name>` prepared for `spec`, with the default options and
/// `limits(cpu_ms)`.
fn prepare(name: &str, spec: &HostSpec, cpu_ms: u64) -> Result<HostedBot, String> {
    HostedBot::prepare(&data(name), spec, &HostOptions::default(), &limits(cpu_ms))
}

fn call(op: &str, args: serde_json::Value) -> HostCall {
    HostCall::new(op, args)
}

/// The Python host's call of the module's function `name` with `args` (a JSON array).
fn call_function(name: &str, args: serde_json::Value) -> HostCall {
    call("call", json!({ "function": name, "args": args }))
}

#[test]
fn a_python_function_returns_tuples_prints_and_forgets_its_globals_between_cases() {
    if !have_tools(&["python3"], "python functions") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 5000).unwrap();
    assert_eq!(bot.language, Language::Python);
    let script = [call_function("add", json!([1, 2])), call_function("add", json!([3, 4]))];
    for _ in 0..2 {
        let run = bot.run_script(&script, &limits(5000));
        assert_eq!(run.calls.len(), 2, "{run:?}");
        assert_eq!(run.calls[0].value(), Some(&json!({"tuple": [3, [1, 2]]})));
        // `calls` is a module global: a new case starts from a freshly imported module.
        assert_eq!(run.calls[0].stdout, "adding 1 2 call 1\n");
        assert_eq!(run.calls[1].stdout, "adding 3 4 call 2\n");
    }
}

#[test]
fn a_python_exception_comes_back_with_its_type_and_line() {
    if !have_tools(&["python3"], "python exceptions") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 5000).unwrap();
    let run = bot.run_script(&[call_function("boom", json!([]))], &limits(5000));
    let CallOutcome::Error(e) = &run.calls[0].outcome else { panic!("{run:?}") };
    assert_eq!(
        (e.kind.as_str(), e.type_name.as_str(), e.message.as_str()),
        ("exception", "ValueError", "no")
    );
    assert_eq!(e.trace, ["a1.py:15 in boom"]);
}

#[test]
fn main_runs_on_a_script_of_input_lines_with_its_prompts() {
    if !have_tools(&["python3"], "python main") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 5000).unwrap();
    let run = bot.run_script(
        &[call("main", json!({"stdin": "a\nq\n"})), call("main", json!({"stdin": "a\n"}))],
        &limits(5000),
    );
    // `main` runs the module as a program: how it ended, and its exit status.
    assert_eq!(run.calls[0].value(), Some(&json!({"ended": "returned", "exit": 0})));
    assert_eq!(run.calls[0].stdout, "Move: got a\nMove: got q\n");
    assert_eq!(run.calls[1].value().and_then(|v| v.get("ended")), Some(&json!("eof")));
    assert_eq!(run.calls[1].stdout, "Move: got a\nMove: ");
}

#[test]
fn a_call_over_its_cpu_limit_is_killed_and_the_next_case_gets_a_new_host() {
    if !have_tools(&["python3"], "python cpu limit") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 300).unwrap();
    let run = bot
        .run_script(&[call_function("spin", json!([])), call_function("add", json!([1, 1]))], &limits(300));
    assert_eq!(run.calls.len(), 1, "calls after a timeout are not made");
    let CallOutcome::TimedOut(why) = &run.calls[0].outcome else { panic!("{run:?}") };
    assert!(why.contains("CPU"), "{why}");
    assert!(run.calls[0].cpu >= Duration::from_millis(300), "{:?}", run.calls[0].cpu);
    let next = bot.run_script(&[call_function("add", json!([1, 1]))], &limits(300));
    assert_eq!(next.calls[0].value(), Some(&json!({"tuple": [2, [1, 1]]})));
}

#[test]
fn a_call_that_sleeps_is_stopped_by_its_idle_time_and_says_so() {
    if !have_tools(&["python3"], "python sleeper") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 200).unwrap();
    let run = bot.run_script(&[call_function("nap", json!([]))], &limits(200));
    let CallOutcome::TimedOut(why) = &run.calls[0].outcome else { panic!("{run:?}") };
    assert!(why.contains("sat idle") && why.contains("its idle limit is 1.2 s"), "{why}");
}

#[test]
fn a_module_that_does_not_import_is_refused_with_the_reason() {
    if !have_tools(&["python3"], "python syntax error") {
        return;
    }
    let err = prepare("python-broken", &PYTHON, 5000).err().expect("a syntax error is refused");
    assert!(err.contains("cannot be loaded") && err.contains("SyntaxError"), "{err}");
}

#[test]
fn a_program_that_speaks_the_protocol_is_a_bot_too() {
    if !have_tools(&["python3"], "protocol speaker") {
        return;
    }
    let given = format!("python3 {}", data("speaker.py"));
    let bot = HostedBot::prepare(&given, &PYTHON, &HostOptions::default(), &limits(5000)).unwrap();
    assert_eq!(bot.language, Language::Protocol);
    let run = bot.run_script(&[call_function("add", json!([2, 5]))], &limits(5000));
    assert_eq!(run.calls[0].value(), Some(&json!(7)));
}

#[test]
fn java_classes_are_compiled_called_and_reloaded_between_cases() {
    if !have_tools(&["java", "javac"], "java host") {
        return;
    }
    let bot = prepare("java-ok", &JAVA, 5000).unwrap();
    assert_eq!(bot.language, Language::Java);
    let script =
        [call("new", json!({})), call("inc", json!({})), call("inc", json!({})), call("boom", json!({}))];
    for _ in 0..2 {
        let run = bot.run_script(&script, &limits(5000));
        assert_eq!(run.calls[2].value(), Some(&json!(2)), "{run:?}");
        // The static field starts from 0 again: a fresh class loader per case.
        assert_eq!(run.calls[1].stdout, "inc 0\n");
        let CallOutcome::Error(e) = &run.calls[3].outcome else { panic!("{run:?}") };
        assert_eq!(e.type_name, "java.lang.ArithmeticException");
        assert_eq!(e.trace[0], "demo.Counter.boom(Counter.java:15)");
    }
}

#[test]
fn a_java_compile_error_is_refused_with_the_compilers_words() {
    if !have_tools(&["java", "javac"], "java compile error") {
        return;
    }
    let err = prepare("java-broken", &JAVA, 5000).err().expect("a compile error is refused");
    assert!(err.contains("does not compile") && err.contains("cannot find symbol"), "{err}");
    assert!(err.contains("demo/Counter.java:4"), "paths are shown inside the submission: {err}");
}

#[test]
fn a_java_submission_without_the_entry_class_is_refused() {
    if !have_tools(&["java", "javac"], "java entry class") {
        return;
    }
    let err = prepare("python-ok", &JAVA, 5000).err().expect("no sources");
    assert!(err.contains("holds no submission"), "{err}");
}

/// The host runs in the sandbox like every program bot: a submission cannot read a file beside
/// the grader (a secret outside its own folder), which it can read with `--sandbox off`.
#[test]
fn a_hosted_submission_reads_nothing_outside_its_folder() {
    if !have_tools(&["python3"], "hosted sandbox") {
        return;
    }
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("answers.txt");
    std::fs::write(&secret, "Gi9xh9").unwrap();
    let mut off = limits(5000);
    off.sandbox.mode = arbiter::harness::sandbox::Mode::Off;
    let peek = [call_function("peek", json!([secret.display().to_string()]))];
    let open = HostedBot::prepare(&data("python-ok"), &PYTHON, &HostOptions::default(), &off).unwrap();
    assert_eq!(open.run_script(&peek, &off).calls[0].value(), Some(&json!("Gi9xh9")));

    let boxed = limits(5000);
    let summary = match arbiter::harness::sandbox::probe(&boxed) {
        Ok(summary) => summary,
        Err(why) => {
            eprintln!("SKIPPED: hosted sandbox: no sandbox here ({why})");
            return;
        }
    };
    let bot = HostedBot::prepare(&data("python-ok"), &PYTHON, &HostOptions::default(), &boxed).unwrap();
    let run = bot.run_script(&peek, &boxed);
    assert_eq!(run.calls[0].value(), Some(&json!(null)), "{}: {run:?}", summary.line());
}

// Hostile submissions (issue 30): state, threads and CPU time that must not cross from one case
// to the next or go uncharged.

/// A counter kept in `builtins` and a file written in the working folder: every case starts
/// from a fresh interpreter in an empty folder, so each sees nothing of the one before.
#[test]
fn python_state_in_builtins_or_files_does_not_reach_the_next_case() {
    if !have_tools(&["python3"], "python state between cases") {
        return;
    }
    let bot = prepare("python-hostile", &PYTHON, 5000).unwrap();
    for case in 0..4 {
        let run = bot.run_script(
            &[call_function("count", json!([])), call_function("note", json!([]))],
            &limits(5000),
        );
        assert_eq!(run.calls[0].value(), Some(&json!(1)), "case {case}: {run:?}");
        assert_eq!(run.calls[1].value(), Some(&json!(null)), "case {case}: {run:?}");
    }
}

/// Calls `then` every 100 ms (wall time, enough for a thread to compute in between on any
/// machine) in one game-like session after `first`, until one is refused as
/// [`CallOutcome::Background`]; gives its reason. The session is given back after.
fn caught_between_calls(bot: &HostedBot, first: &[HostCall], then: &HostCall) -> Option<String> {
    let (mut session, _setup) = bot.game_session(&limits(5000)).unwrap();
    let limit = arbiter::harness::host::CallLimits::cpu(Duration::from_secs(5));
    for c in first {
        let record = session.call(&c.op, c.args.clone(), limit);
        assert!(record.value().is_some(), "{record:?}");
    }
    let mut why = None;
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(100));
        let record = session.call(&then.op, then.args.clone(), limit);
        if let CallOutcome::Background(reason) = &record.outcome {
            why = Some(reason.clone());
            break;
        }
    }
    let _ = bot.give_back(session);
    why
}

/// A thread that computes after its call returned is charged and, past a few milliseconds,
/// is a verdict of its own; the next case starts clean.
#[test]
fn a_python_thread_running_between_calls_is_caught() {
    if !have_tools(&["python3"], "python thread between calls") {
        return;
    }
    let bot = prepare("python-hostile", &PYTHON, 5000).unwrap();
    let spin = call_function("spin_after", json!([]));
    let add = call_function("add", json!([1, 2]));
    let why = caught_between_calls(&bot, &[spin], &add).expect("a thread computing between calls is caught");
    assert!(why.contains("while no call was in progress"), "{why}");
    let next = bot.run_script(std::slice::from_ref(&add), &limits(5000));
    assert_eq!(next.calls[0].value(), Some(&json!(3)), "{next:?}");
}

/// What a case's process writes to file descriptor 1 or any descriptor it holds never reaches
/// arbiter as an answer, and the host's memory is closed to it.
#[test]
fn a_python_case_cannot_forge_answers_or_reach_the_hosts_memory() {
    if !have_tools(&["python3"], "python forged answers") {
        return;
    }
    let bot = prepare("python-hostile", &PYTHON, 5000).unwrap();
    let run = bot.run_script(
        &[
            call_function("forge", json!([])),
            call_function("add", json!([1, 2])),
            call_function("parent_memory", json!([])),
        ],
        &limits(5000),
    );
    assert!(run.calls.iter().all(|c| c.value() != Some(&json!("forged"))), "{run:?}");
    // Writing its own reply pipe out of turn breaks its own case, and no other.
    let next = bot.run_script(&[call_function("parent_memory", json!([]))], &limits(5000));
    assert_eq!(next.calls[0].value(), Some(&json!("refused")), "{next:?}");
}

/// A module that burns 1.5 s of CPU time at import: each case loads it afresh, within the case's
/// limit and charged to the case (it was free and held to 20 s before).
#[test]
fn loading_the_module_counts_against_the_case() {
    if !have_tools(&["python3"], "python import cost") {
        return;
    }
    let bot = prepare("python-slow-import", &PYTHON, 5000).unwrap();
    let add = [call_function("add", json!([1, 2]))];
    let run = bot.run_script(&add, &limits(500));
    let setup = run.setup_failure().unwrap_or_else(|| panic!("{run:?}"));
    assert!(matches!(setup.outcome, CallOutcome::TimedOut(_)), "{setup:?}");
    assert!(run.calls.is_empty());
    assert!(run.cpu() >= Duration::from_millis(500), "{:?}", run.cpu());
    let run = bot.run_script(&add, &limits(5000));
    assert_eq!(run.calls[0].value(), Some(&json!(3)), "{run:?}");
    assert!(run.cpu() >= Duration::from_millis(1400), "the import is charged: {:?}", run.cpu());
}

const JAVA_HOSTILE: &str = "java-hostile";

fn run(method: &str) -> HostCall {
    call("run", json!({ "method": method }))
}

/// A system property, the default locale, a file: each case finds them as the first one did.
#[test]
fn java_settings_and_files_do_not_reach_the_next_case() {
    if !have_tools(&["java", "javac"], "java state between cases") {
        return;
    }
    let bot = prepare(JAVA_HOSTILE, &JAVA, 5000).unwrap();
    let script = [call("new", json!({})), run("prop"), run("locale"), run("file")];
    let first = bot.run_script(&script, &limits(5000));
    assert_eq!(first.calls[1].value(), Some(&json!(null)), "{first:?}");
    assert_eq!(first.calls[3].value(), Some(&json!(null)), "{first:?}");
    for case in 0..3 {
        let again = bot.run_script(&script, &limits(5000));
        assert_eq!(again.calls[1].value(), Some(&json!(null)), "case {case}: {again:?}");
        assert_eq!(again.calls[2].value(), first.calls[2].value(), "case {case}: {again:?}");
        assert_eq!(again.calls[3].value(), Some(&json!(null)), "case {case}: {again:?}");
    }
}

/// A thread left waiting is not met by the next case (its JVM is not used again); a thread
/// left computing is a verdict; work done by a thread the call waits for is charged.
#[test]
fn java_threads_are_charged_and_do_not_outlive_their_case() {
    if !have_tools(&["java", "javac"], "java threads") {
        return;
    }
    let bot = prepare(JAVA_HOSTILE, &JAVA, 5000).unwrap();
    let left = bot.run_script(&[call("new", json!({})), run("idle")], &limits(5000));
    assert_eq!(left.calls[1].value(), Some(&json!(1)), "{left:?}");
    assert!(left.ended.left.iter().any(|l| l.contains("hostile-idle")), "{:?}", left.ended);
    let next = bot.run_script(&[call("new", json!({})), run("threads")], &limits(5000));
    assert_eq!(next.calls[1].value(), Some(&json!(0)), "{next:?}");

    let worker = bot.run_script(&[call("new", json!({})), run("worker")], &limits(5000));
    assert!(worker.calls[1].value().is_some(), "{worker:?}");
    assert!(worker.calls[1].cpu >= Duration::from_millis(380), "{:?}", worker.calls[1].cpu);

    let why = caught_between_calls(&bot, &[call("new", json!({})), run("spin")], &call("inc", json!({})))
        .expect("a thread computing between calls is caught");
    assert!(why.contains("while no call was in progress"), "{why}");
    let next = bot.run_script(&[call("new", json!({})), run("threads")], &limits(5000));
    assert_eq!(next.calls[1].value(), Some(&json!(0)), "{next:?}");
}

/// A thread still computing when a case's last call has returned is a verdict of its own (the
/// case's `ended.fault`), in the Python host and in the Java host; the next case is clean.
#[test]
fn a_thread_still_computing_after_the_last_call_is_a_fault() {
    if have_tools(&["python3"], "python thread after the last call") {
        let bot = prepare("python-hostile", &PYTHON, 5000).unwrap();
        let run = bot.run_script(&[call_function("spin_after", json!([]))], &limits(5000));
        assert_eq!(run.calls[0].value(), Some(&json!(1)), "{run:?}");
        let fault = run.ended.fault.clone().unwrap_or_else(|| panic!("{run:?}"));
        assert!(
            fault.contains("still running") || fault.contains("while no call was in progress"),
            "{fault}"
        );
        let next = bot.run_script(&[call_function("add", json!([1, 2]))], &limits(5000));
        assert_eq!((next.calls[0].value(), next.ended.fault.as_ref()), (Some(&json!(3)), None), "{next:?}");
    }
    if have_tools(&["java", "javac"], "java thread after the last call") {
        let bot = prepare(JAVA_HOSTILE, &JAVA, 5000).unwrap();
        let spun = bot.run_script(&[call("new", json!({})), run("spin")], &limits(5000));
        let fault = spun.ended.fault.clone().unwrap_or_else(|| panic!("{spun:?}"));
        assert!(fault.contains("hostile-spin") || fault.contains("while no call was in progress"), "{fault}");
        let next = bot.run_script(&[call("new", json!({})), run("threads")], &limits(5000));
        assert_eq!(next.calls[1].value(), Some(&json!(0)), "{next:?}");
    }
}

#[test]
fn a_case_on_a_reused_python_host_shows_only_its_own_stderr() {
    if !have_tools(&["python3"], "python stderr per case") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 5000).unwrap();
    let first = bot.run_script(&[call_function("warn", json!(["case one"]))], &limits(5000));
    assert_eq!(first.stderr_tail, "case one", "{first:?}");
    // The next cases run on the host the first one left (reset, not restarted): a report
    // shows what its own case wrote, never an earlier case's words.
    let second = bot.run_script(&[call_function("warn", json!(["case two"]))], &limits(5000));
    assert_eq!(second.stderr_tail, "case two", "{second:?}");
    let quiet = bot.run_script(&[call_function("add", json!([1, 2]))], &limits(5000));
    assert_eq!(quiet.stderr_tail, "", "{quiet:?}");
}

/// A game's session runs on the processor of the slot of the thread that plays it: a host that
/// was started elsewhere (here by `prepare`, outside any slot) is moved there, so that each turn
/// hands over on one processor (`runner::affinity`).
#[test]
fn a_game_session_runs_on_its_slots_processor() {
    if !have_tools(&["python3"], "a game session's processor") {
        return;
    }
    let bot = prepare("python-ok", &PYTHON, 5000).unwrap();
    std::thread::spawn(move || {
        let _slot = arbiter::harness::runner::slots::take();
        let Some(cpu) = arbiter::harness::runner::slots::processor() else {
            println!("SKIPPED: fewer than two processors here, so no slot is pinned");
            return;
        };
        let (mut session, setup) = bot.game_session(&limits(5000)).unwrap();
        assert!(setup.is_none_or(|s| s.failure().is_none()));
        let limit = arbiter::harness::host::CallLimits::cpu(Duration::from_secs(5));
        let record = session.call("call", json!({ "function": "processors", "args": [] }), limit);
        assert_eq!(record.value(), Some(&json!([cpu])), "{record:?}");
        let _ = bot.give_back(session);
    })
    .join()
    .unwrap();
}
