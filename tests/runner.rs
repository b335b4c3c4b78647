//! The bot process runner against small shell-script bots that misbehave in every way we
//! could think of. Timeouts are short so the whole file runs in a few seconds.
#![cfg(unix)]

mod common;

use common::bots::{burner, script};

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use arbiter::harness::runner::{
    AppliedLimits, BotCommand, CommandError, IdleCap, Limits, Outcome, RunReport, TimeLimit, run,
};
use tempfile::TempDir;

/// Limits whose idle cap is the timeout itself, so that sleepers end when it passes.
fn with_timeout(timeout: Duration) -> Limits {
    Limits { timeout, idle_cap: IdleCap { times: 1, plus: Duration::ZERO }, ..Limits::default() }
}

/// Runs the shell script `body` as `bot.sh` (no arguments) in a folder of its own under
/// `limits`: the folder, the report, and the wall time of the run alone.
fn run_script(body: &str, limits: &Limits) -> (TempDir, RunReport, Duration) {
    let dir = TempDir::new().unwrap();
    let bot = script(dir.path(), "bot.sh", body);
    let started = Instant::now();
    let r = run(&bot, &[], dir.path(), limits);
    (dir, r, started.elapsed())
}

fn args(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

/// Whether process `pid` is gone or a zombie (killed, waiting for its new parent to reap it).
fn is_dead(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; kill only checks that the process exists.
    if unsafe { libc::kill(pid, 0) } != 0 {
        return true;
    }
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses and may contain any.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .is_some_and(|state| state == 'Z' || state == 'X'),
        Err(_) => true,
    }
}

/// Waits up to two seconds for `pid` to be dead.
fn dies_soon(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if is_dead(pid) {
            return true;
        }
        thread::sleep(Duration::from_millis(20));
    }
    is_dead(pid)
}

fn read_pid(path: &Path) -> i32 {
    fs::read_to_string(path).expect("the bot wrote its child's pid").trim().parse().expect("a pid")
}

fn report(outcome: Outcome, stderr: &str) -> RunReport {
    RunReport {
        outcome,
        stdout: Vec::new(),
        stderr: stderr.as_bytes().to_vec(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: Duration::ZERO,
        timeout: Duration::from_secs(10),
        idle_cap: IdleCap::default(),
        idle: None,
        time_limit: None,
        limits_applied: AppliedLimits::default(),
        events: Vec::new(),
        cpu_time: None,
        user_time: None,
        denials: Vec::new(),
    }
}

#[test]
fn normal_exit_captures_stdout_and_stderr() {
    let dir = TempDir::new().unwrap();
    let bot = script(dir.path(), "bot.sh", "echo \"moved $1 $2\"\necho warning >&2\n");
    let r = run(&bot, &args(&["white", "in.txt"]), dir.path(), &Limits::default());
    assert_eq!(r.outcome, Outcome::Exited(0));
    assert!(r.succeeded());
    assert_eq!(r.stdout, b"moved white in.txt\n");
    assert_eq!(r.stderr, b"warning\n");
    assert!(!r.stdout_truncated && !r.stderr_truncated);
    assert_eq!(r.describe(), "exited with status 0");
    assert!(r.elapsed < Duration::from_secs(2).mul_f64(common::slowdown()), "{:?}", r.elapsed);
}

#[test]
fn nonzero_exit_status_is_reported() {
    let (_dir, r, _) = run_script("echo oops >&2\nexit 3\n", &Limits::default());
    assert_eq!(r.outcome, Outcome::Exited(3));
    assert!(!r.succeeded());
    assert_eq!(r.describe(), "exited with status 3");
    assert_eq!(r.stderr_tail(5), "oops");
}

#[test]
fn death_by_signal_is_reported_with_its_name() {
    let (_dir, r, _) = run_script("kill -SEGV $$\n", &Limits::default());
    assert_eq!(r.outcome, Outcome::Signaled(libc::SIGSEGV, "SIGSEGV"));
    assert_eq!(r.describe(), format!("killed by signal {} (SIGSEGV)", libc::SIGSEGV));
}

#[test]
fn sleeping_bot_times_out_and_its_children_die() {
    let (dir, r, wall) =
        run_script("sleep 1000 &\necho $! > child.pid\nwait\n", &with_timeout(Duration::from_millis(300)));
    assert_eq!(r.outcome, Outcome::TimedOut);
    assert_eq!(r.time_limit, Some(TimeLimit::Idle));
    assert!(r.describe().starts_with("timed out: idle (neither running nor waiting"), "{}", r.describe());
    assert!(r.cpu_time.is_some(), "a timeout still says how much CPU time it used");
    assert!(r.elapsed >= Duration::from_millis(300), "{:?}", r.elapsed);
    assert!(wall < Duration::from_secs(2).mul_f64(common::slowdown()), "run took {wall:?}");
    assert!(dies_soon(read_pid(&dir.path().join("child.pid"))));
}

#[test]
fn grandchild_holding_stdout_does_not_keep_the_run_alive() {
    // The background sleep inherits stdout, so the pipe stays open after the bot exits. A long
    // timeout, so that returning promptly is not the timeout's doing.
    let (dir, r, wall) = run_script(
        "sleep 1000 &\necho $! > child.pid\necho done\nexit 0\n",
        &with_timeout(Duration::from_secs(10)),
    );
    assert_eq!(r.outcome, Outcome::Exited(0));
    assert_eq!(r.stdout, b"done\n");
    assert!(wall < Duration::from_secs(2).mul_f64(common::slowdown()), "run took {wall:?}");
    let pid = read_pid(&dir.path().join("child.pid"));
    assert!(dies_soon(pid), "grandchild {pid} survived the run");
}

#[test]
fn process_escaping_the_group_does_not_hang_the_run_and_is_killed_with_it() {
    // `setsid` moves the sleep out of the bot's process group, out of reach of the group
    // kill, still holding stdout open. The pid file is written from inside the new session,
    // so once it exists the escape has happened.
    let (dir, r, wall) = run_script(
        "setsid sh -c 'echo $$ > escaped.pid; exec sleep 1000' &\n\
         while [ ! -s escaped.pid ]; do sleep 0.01; done\n\
         echo done\n",
        &with_timeout(Duration::from_secs(10)),
    );
    let pid = read_pid(&dir.path().join("escaped.pid"));
    let escaped = !is_dead(pid);
    // SAFETY: plain kill of the process this test's bot started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    assert_eq!(r.outcome, Outcome::Exited(0));
    assert_eq!(r.stdout, b"done\n");
    // Where arbiter can make the run a cgroup of its own (root here), the process that left the
    // group is found in it and killed with the run; elsewhere it outlives it, and the run still
    // ends (the header says detached processes are not tracked).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        assert!(!escaped, "the escaped process outlived the run although the run had a cgroup");
    }
    assert!(wall < Duration::from_secs(3).mul_f64(common::slowdown()), "run took {wall:?}");
}

#[test]
fn output_flood_is_cut_at_the_cap_and_the_run_still_ends() {
    let limits = Limits { capture_bytes: 1000, ..with_timeout(Duration::from_millis(300)) };
    let (_dir, r, wall) = run_script("yes err >&2 &\nexec yes\n", &limits);
    assert_eq!(r.outcome, Outcome::TimedOut);
    // 500 bytes of head, a line saying how much was left out, 500 bytes of tail.
    let marker = |data: &[u8]| {
        let text = String::from_utf8_lossy(data);
        let start = text.find("\n[... ").expect("an omission marker");
        let end = text[start..].find(" bytes omitted ...]\n").expect("the marker's end") + start;
        (start, text[start + 7..end].parse::<u64>().expect("a byte count"), end + 20)
    };
    let (head, omitted, tail_start) = marker(&r.stdout);
    assert_eq!(head, 500);
    assert!(omitted > 0);
    assert_eq!(r.stdout.len() - tail_start, 500);
    assert!(r.stdout_truncated);
    assert!(r.stdout.starts_with(b"y\ny\n"));
    assert!(r.stdout.ends_with(b"y\n") || r.stdout.ends_with(b"y"));
    let (head, _, tail_start) = marker(&r.stderr);
    assert_eq!((head, r.stderr.len() - tail_start), (500, 500));
    assert!(r.stderr_truncated);
    assert!(r.stderr.starts_with(b"err\nerr\n"));
    assert!(wall < Duration::from_secs(3).mul_f64(common::slowdown()), "run took {wall:?}");
}

#[test]
fn writing_past_the_file_size_limit_fails() {
    let limits = Limits { max_file_bytes: Some(64 << 10), ..Limits::default() };
    let (dir, r, _) = run_script("exec head -c 1000000 /dev/zero > big.bin\n", &limits);
    assert_eq!(r.limits_applied.max_file_bytes, Some(64 << 10));
    assert_eq!(r.outcome, Outcome::Signaled(libc::SIGXFSZ, "SIGXFSZ"));
    let written = fs::metadata(dir.path().join("big.bin")).unwrap().len();
    assert_eq!(written, 64 << 10);
}

#[test]
fn limits_are_set_in_the_bot_process() {
    let limits = Limits { memory_bytes: Some(256 << 20), max_file_bytes: Some(1 << 20), ..Limits::default() };
    // dash reports data in KiB, file size in 512-byte blocks.
    let (_dir, r, _) = run_script("ulimit -d; ulimit -f; ulimit -c\n", &limits);
    assert_eq!(r.outcome, Outcome::Exited(0));
    assert_eq!(String::from_utf8_lossy(&r.stdout), "262144\n2048\n0\n");
    assert_eq!(r.limits_applied.memory_bytes, Some(256 << 20));
    assert_eq!(r.limits_applied.max_file_bytes, Some(1 << 20));
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let expected_nproc = if root { None } else { Some(512) };
    assert_eq!(r.limits_applied.max_processes, expected_nproc);
}

#[test]
fn stdin_is_empty() {
    let (_dir, r, _) = run_script("cat\necho end\n", &with_timeout(Duration::from_secs(5)));
    assert_eq!(r.outcome, Outcome::Exited(0));
    assert_eq!(r.stdout, b"end\n");
}

#[test]
fn missing_program_is_a_failed_start() {
    let dir = TempDir::new().unwrap();
    let bot = BotCommand::parse_in("./no-such-bot --fast", dir.path()).unwrap();
    let r = run(&bot, &args(&["white"]), dir.path(), &Limits::default());
    assert_eq!(r.outcome, Outcome::FailedToStart("No such file or directory".to_owned()));
    assert_eq!(r.describe(), "could not start: No such file or directory");

    let bot = BotCommand::parse_in("arbiter-test-no-such-program", dir.path()).unwrap();
    let r = run(&bot, &[], dir.path(), &Limits::default());
    assert!(matches!(r.outcome, Outcome::FailedToStart(_)), "{r:?}");
}

#[test]
fn program_without_execute_permission_is_a_failed_start() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("bot"), "#!/bin/sh\n").unwrap();
    let bot = BotCommand::parse_in("./bot", dir.path()).unwrap();
    let r = run(&bot, &[], dir.path(), &Limits::default());
    // Root may read anything, but even root cannot execute a file with no execute bit.
    assert_eq!(r.outcome, Outcome::FailedToStart("Permission denied".to_owned()));
}

#[test]
fn missing_working_directory_is_a_failed_start() {
    let dir = TempDir::new().unwrap();
    let bot = BotCommand::parse_in("/bin/sh -c true", dir.path()).unwrap();
    let gone = dir.path().join("gone");
    let r = run(&bot, &[], &gone, &Limits::default());
    let expected = format!("working directory {}: No such file or directory", gone.display());
    assert_eq!(r.outcome, Outcome::FailedToStart(expected));
}

#[test]
fn relative_paths_resolve_against_the_invoking_directory() {
    let home = TempDir::new().unwrap();
    let base = home.path();
    fs::write(base.join("bot.sh"), "pwd\necho \"$1\"\n").unwrap();
    fs::create_dir(base.join("data")).unwrap();
    std::os::unix::fs::symlink("/bin/sh", base.join("mysh")).unwrap();

    let bot = BotCommand::parse_in("./mysh bot.sh data/ --fast missing.txt ''", base).unwrap();
    assert_eq!(bot.original(), "./mysh bot.sh data/ --fast missing.txt ''");
    assert_eq!(bot.to_string(), bot.original());
    assert_eq!(bot.program(), base.join("mysh").as_os_str());
    let expected: Vec<OsString> = vec![
        base.join("bot.sh").into(),
        base.join("data").into(),
        "--fast".into(),
        "missing.txt".into(),
        "".into(),
    ];
    assert_eq!(bot.args(), expected.as_slice());

    let bare = BotCommand::parse_in("sh bot.sh", base).unwrap();
    assert_eq!(bare.program(), "sh");

    // The bot runs elsewhere and still finds its script and data.
    let elsewhere = TempDir::new().unwrap();
    let r = run(&bot, &[], elsewhere.path(), &Limits::default());
    assert_eq!(r.outcome, Outcome::Exited(0), "{}", r.describe());
    let here = fs::canonicalize(elsewhere.path()).unwrap();
    let out = String::from_utf8_lossy(&r.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(fs::canonicalize(lines[0]).unwrap(), here);
    assert_eq!(Path::new(lines[1]), base.join("data"));
}

#[test]
fn bad_commands_are_errors() {
    let dir = TempDir::new().unwrap();
    assert!(matches!(BotCommand::parse_in("", dir.path()), Err(CommandError::Empty)));
    assert!(matches!(BotCommand::parse_in("   ", dir.path()), Err(CommandError::Empty)));
    assert!(matches!(BotCommand::parse_in("''", dir.path()), Err(CommandError::Empty)));
    assert!(matches!(
        BotCommand::parse_in("python3 'bot.py", dir.path()),
        Err(CommandError::BadQuoting { .. })
    ));
}

#[test]
fn reproduce_line_quotes_every_word() {
    let home = TempDir::new().unwrap();
    let base: PathBuf = home.path().to_owned();
    fs::write(base.join("my bot.py"), "").unwrap();
    let bot = BotCommand::parse_in("python3 'my bot.py' --fast", &base).unwrap();
    let line = bot.reproduce(&args(&["white", "in file.txt", "it's"]), Path::new("/tmp/run dir"));
    let script = base.join("my bot.py");
    let expected = format!(
        "cd '/tmp/run dir' && python3 '{}' --fast white 'in file.txt' 'it'\\''s' </dev/null",
        script.display()
    );
    assert_eq!(line, expected);
    // And a shell splits it back into the same words.
    let words = shell_words::split(&line).unwrap();
    let script = script.to_string_lossy().into_owned();
    let expected_words = [
        "cd",
        "/tmp/run dir",
        "&&",
        "python3",
        script.as_str(),
        "--fast",
        "white",
        "in file.txt",
        "it's",
        "</dev/null",
    ];
    assert_eq!(words, expected_words);
}

#[test]
fn stderr_tail_keeps_the_last_lines() {
    let r = report(Outcome::Exited(1), "one\ntwo\nthree\nfour\n");
    assert_eq!(r.stderr_tail(2), "three\nfour");
    assert_eq!(r.stderr_tail(10), "one\ntwo\nthree\nfour");
    assert_eq!(r.stderr_tail(0), "");
    let r = report(Outcome::Exited(1), "no newline at end");
    assert_eq!(r.stderr_tail(1), "no newline at end");
    assert_eq!(report(Outcome::Exited(1), "").stderr_tail(3), "");
}

#[test]
fn descriptions_read_as_sentences() {
    let mut r = report(Outcome::TimedOut, "");
    r.time_limit = Some(TimeLimit::Cpu);
    r.cpu_time = Some(Duration::from_millis(10_240));
    assert_eq!(r.describe(), "timed out: used 10.2 s of CPU time, its limit 10 s");
    r.time_limit = Some(TimeLimit::Idle);
    r.timeout = Duration::from_millis(1500);
    r.elapsed = Duration::from_secs(6);
    r.idle = Some(Duration::from_millis(2510));
    r.cpu_time = Some(Duration::from_millis(200));
    assert_eq!(
        r.describe(),
        "timed out: idle (neither running nor waiting for a processor) for 2.5 s of 6.0 s of wall time, \
         having used 0.2 s of CPU time; its idle limit is 2.5 s (1 x its 1.5 s CPU limit + 1 s)"
    );
    assert_eq!(report(Outcome::Signaled(9, "SIGKILL"), "").describe(), "killed by signal 9 (SIGKILL)");
}

/// Loads every processor with busy loops for as long as the value lives.
struct Load(Vec<std::process::Child>);

impl Load {
    fn start() -> Load {
        let n = thread::available_parallelism().map_or(2, |n| n.get()) * 2;
        Load(
            (0..n)
                .map(|_| {
                    std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_time_limit_is_cpu_time_whatever_the_load() {
    let dir = TempDir::new().unwrap();
    // 0.4 s of CPU against a 1.5 s limit passes; 2 s against the same limit is a timeout
    // (by CPU, not by idle time), on an idle and on a loaded machine.
    let limits = Limits { timeout: Duration::from_millis(1500), ..Limits::default() };
    for loaded in [false, true] {
        let _load = loaded.then(Load::start);
        let r = run(&burner(dir.path(), 400), &[], dir.path(), &limits);
        assert_eq!(r.outcome, Outcome::Exited(0), "loaded {loaded}: {}", r.describe());
        assert!(r.cpu_time.unwrap() >= Duration::from_millis(300), "{:?}", r.cpu_time);
        let r = run(&burner(dir.path(), 2000), &[], dir.path(), &limits);
        assert_eq!(r.outcome, Outcome::TimedOut, "loaded {loaded}: {}", r.describe());
        assert_eq!(r.time_limit, Some(TimeLimit::Cpu), "loaded {loaded}: {}", r.describe());
        assert!(r.cpu_time.unwrap() >= Duration::from_millis(1500), "{:?}", r.cpu_time);
    }
}

#[test]
fn an_interactive_bot_answers_line_by_line_and_floods_are_cut() {
    use arbiter::harness::runner::{Interactive, Recv};
    let dir = TempDir::new().unwrap();
    let bot = script(
        dir.path(),
        "echo.sh",
        "while read line; do\n  [ \"$line\" = flood ] && { head -c 3000000 /dev/zero | tr '\\0' x; echo; continue; }\n  echo \"got $line\"\ndone\n",
    );
    let mut session = Interactive::spawn(&bot, &[], dir.path(), &Limits::default()).unwrap();
    for word in ["a", "b"] {
        session.send(format!("{word}\n").as_bytes()).unwrap();
        let got = session.recv_line(Instant::now() + Duration::from_secs(5));
        assert_eq!(got, Recv::Line(format!("got {word}").into_bytes()));
    }
    session.send(b"flood\n").unwrap();
    match session.recv_line(Instant::now() + Duration::from_secs(5)) {
        Recv::Line(line) => assert_eq!(line.len(), arbiter::harness::runner::MAX_LINE),
        other => panic!("{other:?}"),
    }
    assert!(session.line_was_cut());
    session.send(b"c\n").unwrap();
    assert_eq!(session.recv_line(Instant::now() + Duration::from_secs(5)), Recv::Line(b"got c".to_vec()));
    assert_eq!(session.recv_line(Instant::now() + Duration::from_millis(200)), Recv::TimedOut);
    let cpu = session.cpu_time();
    let report = session.finish();
    assert!(report.cpu_time.is_some());
    assert!(report.cpu_time.unwrap() >= cpu.saturating_sub(Duration::from_millis(50)));
}

/// A bot started by a thread pinned to its slot's processor runs there alone, with the sandbox
/// and without: the two hand over on one processor. Two slots held at once, two processors.
/// Before the thread is pinned, its bots may run on every processor.
#[test]
fn a_bot_runs_on_its_slots_processor_once_pinned() {
    use arbiter::harness::runner::slots;
    use arbiter::harness::sandbox::Mode;
    use std::sync::Barrier;
    let allowed_by = |mode: Mode| {
        let mut limits = with_timeout(Duration::from_secs(10));
        limits.sandbox.mode = mode;
        limits.sandbox.helper = Some(env!("CARGO_BIN_EXE_arbiter").into());
        let (_dir, r, _) = run_script("grep Cpus_allowed_list /proc/self/status\n", &limits);
        assert_eq!(r.outcome, Outcome::Exited(0), "{mode:?}: {r:?}");
        String::from_utf8_lossy(&r.stdout).into_owned()
    };
    let both_held = Barrier::new(2);
    let cpus: Vec<Option<usize>> = thread::scope(|scope| {
        let one = || {
            // Threads of their own: the test harness's threads are shared with other tests.
            let everywhere = fs::read_to_string("/proc/thread-self/status").unwrap();
            let everywhere =
                everywhere.lines().find(|l| l.starts_with("Cpus_allowed_list")).unwrap().to_string();
            let _slot = slots::take();
            both_held.wait();
            for mode in [Mode::Off, Mode::Auto] {
                assert_eq!(allowed_by(mode), format!("{everywhere}\n"), "{mode:?}, not pinned");
            }
            let cpu = slots::processor()?;
            slots::pin();
            for mode in [Mode::Off, Mode::Auto] {
                assert_eq!(allowed_by(mode), format!("Cpus_allowed_list:\t{cpu}\n"), "{mode:?}, pinned");
            }
            Some(cpu)
        };
        let (a, b) = (scope.spawn(one), scope.spawn(one));
        vec![a.join().unwrap(), b.join().unwrap()]
    });
    if cpus.contains(&None) {
        println!("SKIPPED: fewer than two processors here, so no slot is pinned");
        return;
    }
    assert_ne!(cpus[0], cpus[1], "two slots held at once share a processor");
}
