//! A hostile bot for `tests/hostile.rs`: one attack on the grader per mode, run as
//!
//! ```text
//! hostile_bot MODE MARKER white|black INPUT OUTPUT
//! ```
//!
//! MARKER is a word unique to one test; every process the bot starts keeps it in its
//! arguments, so the test can look for survivors in the host's `/proc`. What the bot may know
//! about the machine (as if it had guessed) the test writes to `hostile.env` beside the
//! program, `NAME=VALUE` lines: `HOSTILE_SECRETS` and `HOSTILE_TARGETS` (paths, `:`-separated),
//! `HOSTILE_ARBITER`, `HOSTILE_MEM_MB`, `HOSTILE_TCP_PORT`, `HOSTILE_UDP_PORT`,
//! `HOSTILE_UNIX_PATH`, `HOSTILE_ABSTRACT`, `HOSTILE_BOARD` (lines separated by `/`). Each
//! attack ends by printing `RESULT MODE: key=value ...` to stderr, which the grader keeps in
//! the report's `stderr_tail`.
//!
//! `hostile_bot probe-namespaces` is not an attack: it says whether this kernel lets a process
//! make the namespaces the sandbox uses (exit 0), or why not (exit 1).
//!
//! Only std and libc: the tests must not depend on a C compiler or an interpreter.

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The arguments after the mode.
struct Args {
    side: String,
    input: PathBuf,
    output: PathBuf,
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let mode = argv.get(1).map(String::as_str).unwrap_or("");
    if mode == "probe-namespaces" {
        std::process::exit(probe_namespaces());
    }
    if mode == "nondumpable-child" {
        std::process::exit(nondumpable_child(&argv));
    }
    if argv.len() < 6 {
        eprintln!("usage: hostile_bot MODE MARKER white|black INPUT OUTPUT");
        std::process::exit(2);
    }
    let args = Args { side: argv[3].clone(), input: argv[4].clone().into(), output: argv[5].clone().into() };
    let code = match mode {
        "unchanged" => unchanged(&args),
        "exec-arbiter" => exec_arbiter(&args),
        "read-secrets" => read_secrets(),
        "daemon" => daemon(&args, false),
        "daemon-hang" => daemon(&args, true),
        "kill-parent" => kill_parent(&args),
        "lease" => lease(&args, false),
        "lease-hang" => lease(&args, true),
        "shm" => shm(),
        "forks" => forks(),
        "symlink" => symlink(&args),
        "fifo" => fifo(&args),
        "overwrite" => overwrite(&args),
        "metadata" => metadata(),
        "sabotage" => sabotage(&args),
        "escape" => escape(),
        "forkbomb" => forkbomb(),
        "disk" => disk(),
        "network" => network(),
        "peek" => peek(),
        "write-outside" => write_outside(),
        "shadow" => shadow(),
        "fds" => fds(),
        "env" => env(),
        "mountinfo" => mountinfo(),
        "burn" => burn(&args),
        "burner" => burner(),
        "hidden-memory" => hidden_memory(),
        "udp" => udp(),
        "sysv" => sysv(),
        "tmp-flood" => tmp_flood(),
        "deep" => deep(),
        "proc-peek" => proc_peek(&args),
        "nondumpable" => nondumpable(),
        "detached-burn" => detached_burn(&args),
        other => {
            eprintln!("unknown mode {other}");
            2
        }
    };
    std::process::exit(code)
}

/// The value of `name` in `hostile.env` beside this program (`NAME=VALUE` lines), which the
/// test writes: what the bot knows about the machine, in a file of its own program folder
/// rather than the environment, which a sandbox may well clear.
fn setting(name: &str) -> Option<String> {
    static SETTINGS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    let settings = SETTINGS.get_or_init(|| {
        let file = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.join("hostile.env")));
        let text = file.and_then(|f| fs::read_to_string(f).ok()).unwrap_or_default();
        text.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
    });
    settings.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

/// The `:`-separated paths of setting `name`.
fn paths(name: &str) -> Vec<PathBuf> {
    setting(name)
        .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
        .unwrap_or_default()
}

fn number(name: &str, default: u64) -> u64 {
    setting(name).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn ppid() -> i32 {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() }
}

fn pid() -> i32 {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() }
}

fn errno() -> std::io::Error {
    std::io::Error::last_os_error()
}

/// The pids listed in `/proc`.
fn proc_pids() -> Vec<i32> {
    fs::read_dir("/proc")
        .map(|d| d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).collect())
        .unwrap_or_default()
}

fn fork() -> i32 {
    // SAFETY: this program is single-threaded whenever it forks, so the child may do anything.
    unsafe { libc::fork() }
}

fn sleep_ms(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

/// The honest part: copies the input to the output (an "unchanged" verdict).
fn unchanged(args: &Args) -> i32 {
    match fs::copy(&args.input, &args.output) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("cannot copy the input: {e}");
            1
        }
    }
}

/// Makes the namespaces the sandbox makes, as it makes them (user namespace with this
/// process's identity mapped, or as root none), and mounts a `/proc` for the new PID namespace
/// in a child, its init: where that works, the sandbox's namespaces work.
fn probe_namespaces() -> i32 {
    let others = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_NEWCGROUP;
    // SAFETY: geteuid, getegid and unshare with flags only; this process is single-threaded.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    // SAFETY: as above.
    let kind = if unsafe { libc::unshare(libc::CLONE_NEWUSER | others) } == 0 {
        let mapped = fs::write("/proc/self/setgroups", "deny")
            .and_then(|()| fs::write("/proc/self/uid_map", format!("{uid} {uid} 1\n")))
            .and_then(|()| fs::write("/proc/self/gid_map", format!("{gid} {gid} 1\n")));
        if let Err(e) = mapped {
            println!("a user namespace, but no identity in it: {e}");
            return 1;
        }
        "user namespaces"
    } else {
        let user_err = errno();
        // SAFETY: as above. As root the sandbox makes the others without a user namespace.
        if unsafe { libc::unshare(others) } != 0 {
            println!("user namespace: {user_err}; other namespaces: {}", errno());
            return 1;
        }
        "namespaces without a user namespace"
    };
    match fork() {
        -1 => {
            println!("fork in the new PID namespace: {}", errno());
            1
        }
        0 => {
            let private = c"/";
            let proc_ = c"proc";
            let at = c"/proc";
            // SAFETY: mount with NUL-terminated strings, in this child's own mount namespace.
            let failed = unsafe {
                libc::mount(
                    std::ptr::null(),
                    private.as_ptr(),
                    std::ptr::null(),
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ) != 0
                    || libc::mount(
                        proc_.as_ptr(),
                        at.as_ptr(),
                        proc_.as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        std::ptr::null(),
                    ) != 0
            };
            if failed {
                println!("mounts in the new namespaces: {}", errno());
            }
            let _ = std::io::stdout().flush();
            // SAFETY: _exit ends the child without running the parent's exit handlers.
            unsafe { libc::_exit(i32::from(failed)) }
        }
        child => {
            let mut status = 0;
            // SAFETY: waitpid on our own child, with a valid status pointer.
            unsafe { libc::waitpid(child, &mut status, 0) };
            if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
                println!("{kind}");
                0
            } else {
                1
            }
        }
    }
}

/// Attack 1: run arbiter itself as the bot (`exec /proc/$PPID/exe bot --grade 7 "$@"`), or a
/// copy of it, from every path a bot could find it by.
fn exec_arbiter(args: &Args) -> i32 {
    let mut candidates: Vec<PathBuf> = vec![format!("/proc/{}/exe", ppid()).into(), "/proc/1/exe".into()];
    if let Ok(cmdline) = fs::read(format!("/proc/{}/cmdline", ppid()))
        && let Some(first) = cmdline.split(|&b| b == 0).next()
        && !first.is_empty()
    {
        candidates.push(PathBuf::from(std::ffi::OsStr::from_bytes(first)));
    }
    candidates
        .extend(proc_pids().into_iter().filter(|&p| p != pid()).map(|p| format!("/proc/{p}/exe").into()));
    // Never run another program of the host's with these arguments (its init, as root, should
    // the sandbox be missing): only what is arbiter, or what cannot even be looked at (and so
    // cannot be executed either: both need the same ptrace access).
    candidates.retain(|c| match fs::read_link(c) {
        Ok(target) => target.to_string_lossy().contains("arbiter"),
        Err(_) if c.starts_with("/proc") => true,
        Err(_) => c.to_string_lossy().contains("arbiter"),
    });
    candidates.extend(paths("HOSTILE_ARBITER"));
    candidates.dedup();
    // SAFETY: ignoring SIGXFSZ turns a copy past RLIMIT_FSIZE into an error, not a death.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let mut refused = Vec::new();
    let mut run = |program: &Path| {
        let status = Command::new(program)
            .args(["bot", "--grade", "7", &args.side])
            .arg(&args.input)
            .arg(&args.output)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match status {
            Ok(s) if s.success() && args.output.exists() => true,
            Ok(s) => {
                refused.push(format!("{}: {s}", program.display()));
                false
            }
            Err(e) => {
                refused.push(format!("{}: {e}", program.display()));
                false
            }
        }
    };
    // Directly, then as a copy in the case folder (in case only executing it is blocked).
    for (i, path) in candidates.iter().enumerate() {
        let copy = PathBuf::from(format!("./copy-{i}"));
        let copied = || {
            fs::read(path).ok().filter(|b| b.starts_with(b"\x7fELF")).is_some_and(|bytes| {
                fs::write(&copy, bytes).is_ok()
                    && fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).is_ok()
            })
        };
        let ran = if run(path) {
            Some(path.clone())
        } else if copied() && run(&copy) {
            Some(copy)
        } else {
            None
        };
        if let Some(ran) = ran {
            eprintln!("RESULT exec-arbiter: ran={} tried={}", ran.display(), candidates.len());
            return 0;
        }
    }
    for line in refused.iter().take(4) {
        eprintln!("refused {line}");
    }
    eprintln!("RESULT exec-arbiter: ran=none tried={}", candidates.len());
    3
}

/// Attack 1b: read the corpus, golden answers and any other file the grader's command line,
/// working folder or environment names.
fn read_secrets() -> i32 {
    let own = std::env::current_dir().ok().and_then(|d| d.canonicalize().ok()).unwrap_or_default();
    let exe = std::env::current_exe().ok().and_then(|p| p.canonicalize().ok());
    let mut roots: Vec<PathBuf> = Vec::new();
    let parent = ppid();
    for secret in paths("HOSTILE_SECRETS") {
        roots.push(format!("/proc/1/root{}", secret.display()).into());
        roots.push(format!("/proc/{parent}/root{}", secret.display()).into());
        roots.push(secret);
    }
    let cwd = PathBuf::from(format!("/proc/{parent}/cwd"));
    roots.push(cwd.clone());
    if let Ok(cmdline) = fs::read(format!("/proc/{parent}/cmdline")) {
        for arg in cmdline.split(|&b| b == 0).filter(|a| !a.is_empty()) {
            let arg = Path::new(std::ffi::OsStr::from_bytes(arg));
            roots.push(if arg.is_absolute() { arg.to_path_buf() } else { cwd.join(arg) });
        }
    }
    // Folders the environment names (the grader's home, working folder, checkout).
    const SYSTEM: [&str; 9] = ["/usr", "/bin", "/sbin", "/lib", "/etc", "/proc", "/sys", "/dev", "/opt"];
    for (_, value) in std::env::vars_os() {
        for path in std::env::split_paths(&value) {
            if path.is_absolute() && path != Path::new("/") && !SYSTEM.iter().any(|s| path.starts_with(s)) {
                roots.push(path);
            }
        }
    }
    let mut tried = 0;
    let mut read = Vec::new();
    let mut budget = 400;
    for root in roots {
        walk(&root, 3, &mut budget, &mut |file| {
            let real = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
            // Its own case folder and program are the bot's to read.
            if real.starts_with(&own) || exe.as_ref() == Some(&real) {
                return;
            }
            tried += 1;
            let mut bytes = [0u8; 64];
            let opened = OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(file);
            if opened.and_then(|mut f| f.read(&mut bytes)).is_ok() {
                read.push(file.display().to_string());
            }
        });
    }
    for path in read.iter().take(5) {
        eprintln!("read {path}");
    }
    eprintln!("RESULT read-secrets: read={} tried={tried}", read.len());
    0
}

/// Calls `f` on the regular files under `path` (or on `path` itself), at most `depth` folders
/// down and `budget` files in all.
fn walk(path: &Path, depth: u32, budget: &mut u32, f: &mut dyn FnMut(&Path)) {
    if *budget == 0 {
        return;
    }
    // A path that cannot even be looked at is still tried: opening it is the attack.
    let Ok(meta) = fs::metadata(path) else {
        *budget -= 1;
        f(path);
        return;
    };
    if meta.is_file() {
        *budget -= 1;
        f(path);
    } else if meta.is_dir()
        && depth > 0
        && let Ok(entries) = fs::read_dir(path)
    {
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        entries.sort();
        for entry in entries {
            walk(&entry, depth - 1, budget, f);
        }
    }
}

/// Attack 2: a double-forked `setsid` daemon that outlives the bot and rewrites the files in
/// `HOSTILE_TARGETS` (reports, the corpus) for ten seconds.
fn daemon(args: &Args, hang: bool) -> i32 {
    match fork() {
        -1 => eprintln!("fork: {}", errno()),
        0 => {
            // SAFETY: setsid and fork in a single-threaded child.
            unsafe {
                libc::setsid();
                match libc::fork() {
                    0 => daemon_loop(),
                    _ => libc::_exit(0),
                }
            }
        }
        child => {
            // SAFETY: waitpid on our own child, with a valid status pointer.
            unsafe { libc::waitpid(child, &mut 0, 0) };
        }
    }
    eprintln!("RESULT daemon: started");
    unchanged(args);
    if hang {
        sleep_ms(60_000);
    }
    0
}

fn daemon_loop() -> ! {
    // SAFETY: signal with SIG_IGN: the daemon ignores the hangup and terminate signals.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    let targets = paths("HOSTILE_TARGETS");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        for target in &targets {
            if target.is_dir() {
                let _ = fs::write(target.join("planted.txt"), "PWNED by a daemon\n");
            } else {
                let _ = OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(target)
                    .and_then(|mut f| f.write_all(br#"{"score": 100.0, "tests": []}"#));
            }
        }
        sleep_ms(50);
    }
    std::process::exit(0)
}

/// Attack 3: stop and kill the parent, and everything else in sight (`kill -9 -1`).
fn kill_parent(args: &Args) -> i32 {
    let parent = ppid();
    // Only inside a PID namespace: `kill -9 -1` as root anywhere else ends the machine's
    // processes, tests included. A bot in a fresh PID namespace has a small pid.
    let confined = pid() < 100;
    let mut shots: Vec<(String, i32, i32)> = vec![
        (format!("STOP {parent}"), parent, libc::SIGSTOP),
        (format!("KILL {parent}"), parent, libc::SIGKILL),
    ];
    if confined {
        shots.push(("STOP -1".into(), -1, libc::SIGSTOP));
        shots.push(("KILL -1".into(), -1, libc::SIGKILL));
        for p in proc_pids().into_iter().filter(|&p| p != pid()) {
            shots.push((format!("KILL {p}"), p, libc::SIGKILL));
        }
    } else {
        eprintln!("not in a PID namespace (pid {}): no kill -1", pid());
    }
    let mut delivered = Vec::new();
    for (name, target, signal) in &shots {
        // SAFETY: kill has no memory-safety preconditions.
        if unsafe { libc::kill(*target, *signal) } == 0 {
            delivered.push(name.clone());
        }
    }
    eprintln!(
        "RESULT kill-parent: pid={} ppid={parent} confined={confined} shots={} delivered=[{}]",
        pid(),
        shots.len(),
        delivered.join(",")
    );
    // Give a stopped or killed grader time to show it, then answer as if nothing happened.
    sleep_ms(300);
    unchanged(args)
}

/// Attack 4: a daemon holds a write lease on output.txt, so that whoever opens it waits for the
/// kernel's lease-break time (45 s by default).
fn lease(args: &Args, hang: bool) -> i32 {
    if unchanged(args) != 0 {
        return 1;
    }
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        eprintln!("pipe: {}", errno());
        return 1;
    }
    match fork() {
        -1 => eprintln!("fork: {}", errno()),
        0 => {
            // SAFETY: setsid, open, fcntl and write on our own descriptors, in the child.
            unsafe {
                libc::setsid();
                let path = CString::new(args.output.as_os_str().as_bytes()).unwrap();
                let mut fd = libc::open(path.as_ptr(), libc::O_RDWR);
                if fd < 0 {
                    fd = libc::open(path.as_ptr(), libc::O_RDONLY);
                }
                let status: u8 = if libc::fcntl(fd, libc::F_SETLEASE, libc::F_WRLCK) == 0 {
                    0
                } else {
                    errno().raw_os_error().unwrap_or(255) as u8
                };
                libc::write(fds[1], (&status as *const u8).cast(), 1);
                libc::sleep(30);
                libc::_exit(0)
            }
        }
        _ => {
            let mut status = 255u8;
            // SAFETY: read one byte into a valid buffer.
            unsafe { libc::read(fds[0], (&mut status as *mut u8).cast(), 1) };
            if status == 0 {
                eprintln!("RESULT lease: held");
            } else {
                let why = std::io::Error::from_raw_os_error(status.into());
                eprintln!("RESULT lease: failed ({why})");
            }
        }
    }
    if hang {
        sleep_ms(60_000);
    }
    0
}

/// Attack 5a: a shared anonymous mapping (not counted by `RLIMIT_DATA`) of `HOSTILE_MEM_MB`
/// MiB, touched page by page.
fn shm() -> i32 {
    let mb = number("HOSTILE_MEM_MB", 1024);
    let Some(memory) = map(mb << 20, libc::MAP_SHARED) else {
        eprintln!("RESULT shm: mmap failed ({})", errno());
        return 1;
    };
    for i in 0..mb {
        touch(memory, i);
        if i % 16 == 15 {
            eprintln!("touched {} MiB", i + 1);
        }
    }
    eprintln!("RESULT shm: touched all {mb} MiB");
    0
}

fn map(bytes: u64, kind: i32) -> Option<*mut u8> {
    // SAFETY: an anonymous mapping; the result is checked.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            kind | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (p != libc::MAP_FAILED).then_some(p.cast())
}

/// Writes to every page of MiB `i` of `memory`.
fn touch(memory: *mut u8, i: u64) {
    for page in 0..256 {
        // SAFETY: the caller mapped at least i + 1 MiB at `memory`.
        unsafe { memory.add(((i << 20) + (page << 12)) as usize).write_volatile(1) };
    }
}

/// Attack 5b: four processes of `HOSTILE_MEM_MB` MiB each (each under the per-process limit,
/// together over the run's). The parent samples how much the living children hold and prints
/// each new peak.
fn forks() -> i32 {
    const CHILDREN: usize = 4;
    let mb = number("HOSTILE_MEM_MB", 200);
    let Some(shared) = map(4096, libc::MAP_SHARED) else { return 1 };
    // SAFETY: the page is mapped, zeroed, aligned and outlives every use; AtomicU64 has the
    // layout of u64.
    let slots: &[AtomicU64] = unsafe { std::slice::from_raw_parts(shared.cast(), CHILDREN) };
    let mut children = Vec::new();
    for (n, slot) in slots.iter().enumerate() {
        match fork() {
            -1 => eprintln!("fork: {}", errno()),
            0 => {
                let Some(memory) = map(mb << 20, libc::MAP_PRIVATE) else {
                    eprintln!("child {n}: mmap failed ({})", errno());
                    std::process::exit(1)
                };
                for i in 0..mb {
                    touch(memory, i);
                    slot.store(i + 1, Ordering::SeqCst);
                }
                sleep_ms(500);
                std::process::exit(0)
            }
            child => children.push((child, n)),
        }
    }
    // A child killed but not reaped yet has given its memory back already.
    let running = |p: i32| {
        fs::read_to_string(format!("/proc/{p}/stat"))
            .is_ok_and(|s| s.rsplit(')').next().is_some_and(|r| !r.trim_start().starts_with(['Z', 'X'])))
    };
    let (peak, killed, finished) = reap(&children, "peak", |alive| {
        alive.iter().filter(|&&(p, _)| running(p)).map(|&(_, n)| slots[n].load(Ordering::SeqCst)).sum()
    });
    eprintln!("RESULT forks: peak={peak} MiB killed={killed} finished={finished}");
    i32::from(killed > 0)
}

/// Waits for `children` (pid, slot) to end, reaping each as it does; meanwhile samples the MiB
/// the living ones hold (`held`) every millisecond and prints each new peak, 16 MiB apart, as
/// `<word> N MiB`. Returns the peak and how many were killed and how many finished.
fn reap(children: &[(i32, usize)], word: &str, held: impl Fn(&[(i32, usize)]) -> u64) -> (u64, u32, u32) {
    let (mut peak, mut printed, mut killed, mut finished) = (0, 0, 0, 0);
    let mut alive = children.to_vec();
    while !alive.is_empty() {
        let mut status = 0;
        // SAFETY: waitpid with a valid status pointer.
        let done = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if done > 0 {
            alive.retain(|&(p, _)| p != done);
            if libc::WIFSIGNALED(status) {
                killed += 1;
            } else {
                finished += 1;
            }
        }
        peak = peak.max(held(&alive));
        if peak >= printed + 16 {
            printed = peak;
            eprintln!("{word} {peak} MiB");
        }
        if done <= 0 {
            sleep_ms(1);
        }
    }
    (peak, killed, finished)
}

/// Attack 6: output.txt is a link to a secret file outside (`HOSTILE_SECRETS`, the first).
fn symlink(args: &Args) -> i32 {
    let Some(secret) = paths("HOSTILE_SECRETS").into_iter().next() else { return 2 };
    let _ = fs::remove_file(&args.output);
    let linked = std::os::unix::fs::symlink(&secret, &args.output);
    let hard = fs::hard_link(&secret, "hard-link");
    eprintln!("RESULT symlink: symlink={} hardlink={}", linked.is_ok(), hard.is_ok());
    0
}

/// Attack 6b: output.txt is a FIFO, which blocks whoever opens it to read.
fn fifo(args: &Args) -> i32 {
    let _ = fs::remove_file(&args.output);
    let path = CString::new(args.output.as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo with a NUL-terminated path.
    let made = unsafe { libc::mkfifo(path.as_ptr(), 0o644) } == 0;
    eprintln!("RESULT fifo: made={made}");
    0
}

/// One way of changing a file.
type Attempt<'a> = Box<dyn Fn() -> std::io::Result<()> + 'a>;

/// Attack 7: change the other bot's program (`HOSTILE_TARGETS`) and our own: write, rename or
/// replace it, or plant a file beside it. (Its mode: `metadata` and `sabotage`.)
fn overwrite(args: &Args) -> i32 {
    let mut targets = paths("HOSTILE_TARGETS");
    if let Ok(own) = std::env::current_exe() {
        targets.push(own);
    }
    let mut changed = Vec::new();
    let mut tried = 0;
    let payload = b"#!/bin/sh\nexit 42\n";
    for target in &targets {
        let dir = target.parent().unwrap_or(Path::new("/"));
        let tmp = dir.join(".replacement");
        let attempts: [(&str, Attempt); 4] = [
            (
                "write",
                Box::new(|| OpenOptions::new().write(true).truncate(true).open(target)?.write_all(payload)),
            ),
            (
                "rename",
                Box::new(|| {
                    fs::write(&tmp, payload)?;
                    fs::rename(&tmp, target)
                }),
            ),
            (
                "replace",
                Box::new(|| {
                    fs::remove_file(target)?;
                    fs::write(target, payload)
                }),
            ),
            ("plant", Box::new(|| fs::write(dir.join("planted"), payload))),
        ];
        for (name, attempt) in attempts {
            tried += 1;
            if attempt().is_ok() {
                changed.push(format!("{name} {}", target.display()));
            }
        }
    }
    for line in changed.iter().take(4) {
        eprintln!("changed: {line}");
    }
    let result = format!("RESULT overwrite: changed={} tried={tried}", changed.len());
    eprintln!("{result}");
    // A match report keeps a forfeited output, not stderr: the result goes there too.
    let _ = fs::write(&args.output, format!("{result}\n"));
    0
}

/// Attack 7b: change what Landlock has no right for: the mode (setuid bit added), times and
/// extended attributes of the files in `HOSTILE_TARGETS`.
fn metadata() -> i32 {
    let targets = paths("HOSTILE_TARGETS");
    let (mut chmod, mut utime, mut xattr) = (0, 0, 0);
    for target in &targets {
        let Ok(c) = CString::new(target.as_os_str().as_bytes()) else { continue };
        let mode = fs::metadata(target).map(|m| m.permissions().mode() & 0o777).unwrap_or(0o644);
        let times = [libc::timespec { tv_sec: 978_307_200, tv_nsec: 0 }; 2];
        // SAFETY: chmod, utimensat and setxattr with a NUL-terminated path, a valid two-entry
        // times array and a value buffer of the length passed.
        unsafe {
            chmod += i32::from(libc::chmod(c.as_ptr(), mode | libc::S_ISUID) == 0);
            utime += i32::from(libc::utimensat(libc::AT_FDCWD, c.as_ptr(), times.as_ptr(), 0) == 0);
            let name = c"user.hostile";
            xattr += i32::from(libc::setxattr(c.as_ptr(), name.as_ptr(), b"x".as_ptr().cast(), 1, 0) == 0);
        }
    }
    eprintln!("RESULT metadata: chmod={chmod} utime={utime} xattr={xattr} tried={}", targets.len());
    0
}

/// Attack 7c: in a match, make the opponent's program (`HOSTILE_TARGETS`) unexecutable, then
/// play the move in `HOSTILE_BOARD`: the opponent cannot start, and forfeits.
fn sabotage(args: &Args) -> i32 {
    let mut done = 0;
    for target in paths("HOSTILE_TARGETS") {
        done += i32::from(fs::set_permissions(&target, fs::Permissions::from_mode(0o000)).is_ok());
    }
    eprintln!("RESULT sabotage: chmod={done}");
    match setting("HOSTILE_BOARD") {
        // Its lines are separated by `/`.
        Some(board) => i32::from(fs::write(&args.output, board.replace('/', "\n") + "\n").is_err()),
        None => 2,
    }
}

/// Attack 8: terminal escape sequences that fake a perfect score in the human report.
fn escape() -> i32 {
    println!("\x1b[2J\x1b[H\x1b[1;32mscore 100% (all cases pass)\x1b[0m");
    eprint!("\x1b[1A\x1b[2K\r\x1b[1;32m  ok  score 100%\x1b[0m\n\x1b]0;all pass\x07");
    let _ = std::io::stdout().flush();
    1
}

/// Extra: a fork bomb. Every process forks for three seconds at most (and at most 2000 forks
/// are tried in all, should the limit fail); the first prints what it managed after one.
fn forkbomb() -> i32 {
    let Some(shared) = map(4096, libc::MAP_SHARED) else { return 1 };
    // SAFETY: as in `forks`.
    let counters: &[AtomicU64] = unsafe { std::slice::from_raw_parts(shared.cast(), 3) };
    let (attempts, forked, refused) = (&counters[0], &counters[1], &counters[2]);
    let start = Instant::now();
    let mut first = true;
    // SAFETY: alarm has no preconditions; its default action ends the process.
    unsafe { libc::alarm(3) };
    loop {
        if first && start.elapsed() > Duration::from_secs(1) {
            eprintln!(
                "RESULT forkbomb: forked={} refused={}",
                forked.load(Ordering::SeqCst),
                refused.load(Ordering::SeqCst)
            );
            return 0;
        }
        if attempts.fetch_add(1, Ordering::SeqCst) >= 2000 {
            sleep_ms(10);
            continue;
        }
        match fork() {
            0 => {
                first = false;
                // SAFETY: as above.
                unsafe { libc::alarm(3) };
            }
            -1 => {
                refused.fetch_add(1, Ordering::SeqCst);
                sleep_ms(2);
            }
            _ => {
                forked.fetch_add(1, Ordering::SeqCst);
            }
        }
    }
}

/// Extra: fill the disk, with one huge file, then with many small ones, then the scratch
/// folders. Reports MiB and files written.
fn disk() -> i32 {
    // SAFETY: ignoring SIGXFSZ turns a write past RLIMIT_FSIZE into an EFBIG error.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let fill = |path: &Path| -> u64 {
        let Ok(mut file) = File::create(path) else { return 0 };
        let chunk = vec![b'x'; 1 << 20];
        let mut written = 0;
        while written < 256 << 20 {
            match file.write(&chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => written += n as u64,
            }
        }
        written >> 20
    };
    let big = fill(Path::new("big"));
    let _ = fs::remove_file("big");
    let mut files = 0;
    while files < 20_000 && fs::write(format!("f{files}"), "x").is_ok() {
        files += 1;
    }
    let tmp = fill(Path::new("/tmp/fill"));
    let shm = fill(Path::new("/dev/shm/fill"));
    eprintln!("RESULT disk: big={big} files={files} tmp={tmp} shm={shm}");
    0
}

/// Extra: reach the network: TCP and UDP to the host's loopback, a TCP server of our own, and
/// the test's UNIX sockets (a path and an abstract name).
fn network() -> i32 {
    use std::net::{SocketAddr, TcpListener, TcpStream, UdpSocket};
    use std::os::unix::net::UnixStream;
    let ok = |b: bool| if b { "open" } else { "denied" };
    let tcp_port = number("HOSTILE_TCP_PORT", 1);
    let udp_port = number("HOSTILE_UDP_PORT", 1);
    let to = |port: u64| SocketAddr::from(([127, 0, 0, 1], port as u16));
    let tcp = TcpStream::connect_timeout(&to(tcp_port), Duration::from_millis(300)).is_ok();
    let bind = TcpListener::bind("127.0.0.1:0").is_ok() || TcpListener::bind("0.0.0.0:0").is_ok();
    let udp = UdpSocket::bind("0.0.0.0:0").and_then(|s| s.send_to(b"hello", to(udp_port))).is_ok();
    let unix = setting("HOSTILE_UNIX_PATH")
        .is_some_and(|p| UnixStream::connect(p).and_then(|mut s| s.write_all(b"hello")).is_ok());
    let abstract_ = setting("HOSTILE_ABSTRACT").is_some_and(|name| {
        use std::os::linux::net::SocketAddrExt;
        std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes())
            .and_then(|addr| UnixStream::connect_addr(&addr))
            .and_then(|mut s| s.write_all(b"hello"))
            .is_ok()
    });
    eprintln!(
        "RESULT network: tcp={} bind={} udp={} unix={} abstract={}",
        ok(tcp),
        ok(bind),
        ok(udp),
        ok(unix),
        ok(abstract_)
    );
    0
}

/// Extra: look into the other cases' folders beside ours (all running at once), and plant a
/// file among them.
fn peek() -> i32 {
    let _ = fs::write("mine.txt", format!("case of pid {}", pid()));
    // Let the other case start.
    sleep_ms(400);
    let own = std::env::current_dir().unwrap_or_default();
    let mut places: Vec<PathBuf> = vec!["/tmp".into(), "/var/tmp".into(), "/proc/1/root/tmp".into()];
    if let Some(parent) = own.parent() {
        places.push(parent.to_path_buf());
    }
    let mut listed = 0;
    let mut others = 0;
    let mut read = 0;
    for place in &places {
        let Ok(entries) = fs::read_dir(place) else { continue };
        listed += 1;
        for entry in entries.flatten() {
            let path = entry.path();
            if path == own || !entry.file_name().to_string_lossy().starts_with("arbiter-case-") {
                continue;
            }
            others += 1;
            read += ["input.txt", "output.txt", "mine.txt"]
                .iter()
                .filter(|f| fs::read(path.join(f)).is_ok())
                .count();
        }
    }
    let planted = own.parent().is_some_and(|p| fs::write(p.join("planted.txt"), "x").is_ok());
    eprintln!("RESULT peek: listed={listed} others={others} read={read} planted={planted}");
    0
}

/// Extra: write outside the case folder: into our own program folder and file, the folders
/// and files in `HOSTILE_TARGETS`, home, the case folder's parent, and the scratch folders
/// (which only the sandbox sees).
fn write_outside() -> i32 {
    let marker = std::env::args().nth(2).unwrap_or_default();
    let name = format!("evil-{marker}");
    let mut outside: Vec<PathBuf> = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        outside.push(exe.parent().unwrap_or(Path::new("/")).join(&name));
        outside.push(exe);
    }
    for target in paths("HOSTILE_TARGETS") {
        outside.push(if target.is_dir() { target.join(&name) } else { target });
    }
    if let Some(home) = std::env::var_os("HOME") {
        outside.push(Path::new(&home).join(&name));
    }
    if let Some(parent) = std::env::current_dir().ok().and_then(|d| Some(d.parent()?.to_path_buf())) {
        outside.push(parent.join(&name));
    }
    outside.push(format!("/proc/1/cwd/../{name}").into());
    let scratch: Vec<PathBuf> =
        ["/tmp", "/var/tmp", "/dev/shm"].iter().map(|d| Path::new(d).join(&name)).collect();
    let write = |path: &Path| {
        OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .and_then(|mut f| f.write_all(b"PWNED\n"))
            .is_ok()
    };
    let wrote: Vec<&PathBuf> = outside.iter().filter(|p| write(p)).collect();
    let in_scratch = scratch.iter().filter(|p| write(p)).count();
    for path in wrote.iter().take(4) {
        eprintln!("wrote {}", path.display());
    }
    eprintln!("RESULT write-outside: outside={} tried={} scratch={in_scratch}", wrote.len(), outside.len());
    0
}

/// Issue 20, attack 7: read the machine's password hashes (as root, uid 0 owned them).
fn shadow() -> i32 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let mut read = Vec::new();
    for path in ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.bash_history"] {
        if let Ok(text) = fs::read_to_string(path) {
            eprintln!("{path}: {}", text.lines().next().unwrap_or(""));
            read.push(path);
        }
    }
    eprintln!("RESULT shadow: uid={uid} read={}", read.len());
    0
}

/// Issue 20, attack 6: every descriptor beyond 0-2 it was given, and a write into each.
fn fds() -> i32 {
    let open: Vec<i32> = (3..1024)
        // SAFETY: fcntl F_GETFD on a number only asks whether it is open.
        .filter(|&fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1)
        .collect();
    let written = open
        .iter()
        // SAFETY: write of a valid buffer to a descriptor number.
        .filter(|&&fd| unsafe { libc::write(fd, b"pwned\n".as_ptr().cast(), 6) } > 0)
        .count();
    eprintln!("RESULT fds: open={} written={written}", open.len());
    0
}

/// Issue 20, attack 8: the names of the variables it was given.
fn env() -> i32 {
    let names: Vec<String> = std::env::vars_os().map(|(n, _)| n.to_string_lossy().into_owned()).collect();
    eprintln!("RESULT env: names={}", names.join(","));
    0
}

/// Issue 20, attack 9: the grader's paths in /proc/self/mountinfo (HOSTILE_ROOT is the test's
/// folder).
fn mountinfo() -> i32 {
    let text = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let root = setting("HOSTILE_ROOT").unwrap_or_else(|| "/nonexistent".into());
    let mentions = text.lines().filter(|l| l.contains(&root)).count();
    eprintln!("RESULT mountinfo: lines={} mentions={mentions}", text.lines().count());
    0
}

/// This process's own CPU time, in ms.
fn own_cpu_ms() -> u64 {
    // SAFETY: getrusage writes only to the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Issue 20, attack 4 (the victim): burns HOSTILE_BURN_MS of CPU time, then answers (its input,
/// unchanged).
fn burn(args: &Args) -> i32 {
    let target = number("HOSTILE_BURN_MS", 500);
    let mut x = 1u64;
    while own_cpu_ms() < target {
        for i in 0..100_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
    }
    std::hint::black_box(x);
    eprintln!("RESULT burn: ms={}", own_cpu_ms());
    unchanged(args)
}

/// Issue 20, attack 4 (the burner): eight processes in sessions of their own spinning forever.
fn burner() -> i32 {
    for _ in 0..8 {
        if fork() == 0 {
            // SAFETY: setsid with no arguments.
            unsafe { libc::setsid() };
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        }
    }
    let mut x = 0u64;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}

/// Issue 20, attack 5: memory no mapping shows: a memfd written (not mapped) to HOSTILE_MEM_MB,
/// then bytes queued in socket pairs nobody reads. Prints `held N MiB` as it goes.
fn hidden_memory() -> i32 {
    let target = number("HOSTILE_MEM_MB", 1536) << 20;
    let name = CString::new("hidden").unwrap_or_default();
    // SAFETY: memfd_create with a NUL-terminated name.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), 0) };
    let mut held: u64 = 0;
    let chunk = vec![7u8; 8 << 20];
    if fd >= 0 {
        while held < target / 2 {
            // SAFETY: write from a valid buffer.
            let n = unsafe { libc::write(fd, chunk.as_ptr().cast(), chunk.len()) };
            if n <= 0 {
                break;
            }
            held += n as u64;
            eprintln!("held {} MiB", held >> 20);
        }
    }
    let mut pairs = 0;
    let mut last = held >> 20;
    while held < target {
        let mut sv = [0; 2];
        // SAFETY: socketpair writes two descriptors.
        if unsafe { libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, sv.as_mut_ptr()) } != 0 {
            break;
        }
        pairs += 1;
        // SAFETY: fcntl and write on the descriptors just made.
        unsafe {
            libc::fcntl(sv[0], libc::F_SETFL, libc::O_NONBLOCK);
            let size: libc::c_int = 4 << 20;
            libc::setsockopt(sv[0], libc::SOL_SOCKET, libc::SO_SNDBUF, (&raw const size).cast(), 4);
            loop {
                let n = libc::write(sv[0], chunk.as_ptr().cast(), 64 << 10);
                if n <= 0 {
                    break;
                }
                held += n as u64;
            }
        }
        if held >> 20 >= last + 16 {
            last = held >> 20;
            eprintln!("held {last} MiB");
        }
    }
    eprintln!("held {} MiB", held >> 20);
    eprintln!("RESULT hidden-memory: held={} pairs={pairs}", held >> 20);
    sleep_ms(2000);
    0
}

/// Issue 20, attack 10: datagrams out, over IPv4, IPv6 and to a name server.
fn udp() -> i32 {
    use std::net::{SocketAddr, UdpSocket};
    let port = number("HOSTILE_UDP_PORT", 1) as u16;
    let send =
        |bind: &str, to: SocketAddr| UdpSocket::bind(bind).and_then(|s| s.send_to(b"board", to)).is_ok();
    let ok = |b: bool| if b { "sent" } else { "denied" };
    let v4 = send("0.0.0.0:0", SocketAddr::from(([127, 0, 0, 1], port)));
    let v6 = send("[::]:0", SocketAddr::from(([0, 0, 0, 0, 0, 0, 0, 1], port)));
    let dns = send("0.0.0.0:0", SocketAddr::from(([127, 0, 0, 53], 53)));
    eprintln!("RESULT udp: v4={} v6={} dns={}", ok(v4), ok(v6), ok(dns));
    0
}

/// Issue 20, attack 10: System V shared memory left behind (64 MiB, touched, never removed).
fn sysv() -> i32 {
    // SAFETY: shmget/shmat with integer arguments; the mapping is written within its size.
    let made = unsafe {
        let id = libc::shmget(libc::IPC_PRIVATE, 64 << 20, libc::IPC_CREAT | 0o600);
        if id < 0 {
            false
        } else {
            let at = libc::shmat(id, std::ptr::null(), 0);
            if at as isize != -1 {
                std::ptr::write_bytes(at.cast::<u8>(), 1, 64 << 20);
            }
            true
        }
    };
    eprintln!("RESULT sysv: shm={}", if made { "made" } else { "denied" });
    0
}

/// Issue 20, attack 10: a gigabyte and 20,000 files written to /tmp (and TMPDIR).
fn tmp_flood() -> i32 {
    let marker = std::env::args().nth(2).unwrap_or_default();
    let chunk = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    let mut files = 0u64;
    for dir in ["/tmp".to_string(), std::env::var("TMPDIR").unwrap_or_default()] {
        if dir.is_empty() {
            continue;
        }
        let big = Path::new(&dir).join(format!("flood-{marker}"));
        if let Ok(mut f) = File::create(&big) {
            for _ in 0..1024 {
                if f.write_all(&chunk).is_err() {
                    break;
                }
                bytes += 1 << 20;
            }
        }
        for i in 0..20_000 {
            if File::create(Path::new(&dir).join(format!("f{i}-{marker}"))).is_err() {
                break;
            }
            files += 1;
        }
    }
    eprintln!("RESULT tmp-flood: mib={} files={files}", bytes >> 20);
    0
}

/// Issue 20, attack 10: a folder tree 62,750 deep in the case folder (made relative to each
/// folder, so no path is ever long).
fn deep() -> i32 {
    let name = CString::new("d").unwrap_or_default();
    let mut fd = libc::AT_FDCWD;
    let mut depth = 0;
    for _ in 0..62_750 {
        // SAFETY: mkdirat/openat/close with valid descriptors and a NUL-terminated name.
        unsafe {
            if libc::mkdirat(fd, name.as_ptr(), 0o755) != 0 {
                break;
            }
            let next = libc::openat(fd, name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY);
            if fd != libc::AT_FDCWD {
                libc::close(fd);
            }
            if next < 0 {
                break;
            }
            fd = next;
        }
        depth += 1;
    }
    eprintln!("RESULT deep: depth={depth}");
    0
}

/// Issue 30, item 7: without a PID namespace, the other processes' command lines in `/proc`
/// (the grader's, naming its corpus, reports and other gradings' folders). Counts the processes
/// listed, and the command lines of processes other than its own that name `HOSTILE_ROOT` (the
/// test's folder); checks it can still read its own entries.
fn proc_peek(args: &Args) -> i32 {
    let root = setting("HOSTILE_ROOT").unwrap_or_default();
    let me = pid();
    let pids = proc_pids();
    let mut leaks = 0;
    let mut read = 0;
    for p in pids.iter().copied().filter(|&p| p != me) {
        let Ok(line) = fs::read(format!("/proc/{p}/cmdline")) else { continue };
        read += 1;
        if !root.is_empty() && String::from_utf8_lossy(&line).contains(&root) {
            leaks += 1;
        }
    }
    let parent = fs::read(format!("/proc/{}/cmdline", ppid())).is_ok() && ppid() > 1;
    let own = fs::read_to_string("/proc/self/status").is_ok();
    eprintln!("RESULT proc-peek: listed={} read={read} leaks={leaks} parent={parent} own={own}", pids.len());
    unchanged(args)
}

/// Issue 30, item 7: memory the sandbox's helper cannot see, as an unprivileged grader's
/// helper cannot read a non-dumpable process's memory map: four children each hold
/// `HOSTILE_MEM_MB` (384) MiB, two having made themselves non-dumpable with `prctl`, two by
/// executing an execute-only copy of this program. Reports the peak all held together, and how
/// many became non-dumpable.
fn nondumpable() -> i32 {
    const CHILDREN: usize = 4;
    let mb = number("HOSTILE_MEM_MB", 384);
    // A shared page the children report through, a memfd so that it survives an exec.
    let name = CString::new("slots").unwrap_or_default();
    // SAFETY: memfd_create with a NUL-terminated name; ftruncate and mmap on it, checked.
    let (fd, shared) = unsafe {
        let fd = libc::memfd_create(name.as_ptr(), 0);
        if fd < 0 || libc::ftruncate(fd, 4096) != 0 {
            eprintln!("memfd: {}", errno());
            return 1;
        }
        let p = libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        );
        if p == libc::MAP_FAILED {
            return 1;
        }
        (fd, p)
    };
    // SAFETY: the page is mapped, zeroed, aligned and outlives every use.
    let slots: &[AtomicU64] = unsafe { std::slice::from_raw_parts(shared.cast(), 2 * CHILDREN) };
    // The execute-only copy: made with mode 0100, so that its owner may run but not read it.
    let copy = std::env::current_dir().unwrap_or_default().join("xonly");
    let made = std::env::current_exe()
        .and_then(fs::read)
        .and_then(|bytes| {
            let mut f = OpenOptions::new().write(true).create_new(true).mode(0o100).open(&copy)?;
            f.write_all(&bytes)
        })
        .is_ok();
    let mut children = Vec::new();
    for n in 0..CHILDREN {
        match fork() {
            -1 => eprintln!("fork: {}", errno()),
            0 => {
                if n % 2 == 1 && made {
                    let exe = CString::new(copy.as_os_str().as_bytes()).unwrap_or_default();
                    // The marker stays in its arguments, for the test's count of survivors.
                    let marker = std::env::args().nth(2).unwrap_or_default();
                    let words = [
                        "hostile_bot",
                        "nondumpable-child",
                        &marker,
                        &n.to_string(),
                        &mb.to_string(),
                        &fd.to_string(),
                    ];
                    let words: Vec<CString> =
                        words.iter().map(|w| CString::new(*w).unwrap_or_default()).collect();
                    let mut argv: Vec<*const libc::c_char> = words.iter().map(|w| w.as_ptr()).collect();
                    argv.push(std::ptr::null());
                    // SAFETY: execv with a NUL-terminated path and argument list.
                    unsafe { libc::execv(exe.as_ptr(), argv.as_ptr()) };
                    eprintln!("exec: {}", errno());
                }
                // SAFETY: prctl with integer arguments.
                unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
                hog(slots, n, mb)
            }
            child => children.push((child, n)),
        }
    }
    let (peak, killed, finished) =
        reap(&children, "held", |alive| alive.iter().map(|&(_, n)| slots[n].load(Ordering::SeqCst)).sum());
    let hidden: u64 = (0..CHILDREN).map(|n| slots[CHILDREN + n].load(Ordering::SeqCst)).sum();
    eprintln!("RESULT nondumpable: peak={peak} MiB hidden={hidden} killed={killed} finished={finished}");
    i32::from(killed > 0)
}

/// A child of [`nondumpable`] started from the execute-only copy:
/// `hostile_bot nondumpable-child MARKER N MB FD`.
fn nondumpable_child(argv: &[String]) -> i32 {
    let arg = |i: usize| argv.get(i).and_then(|a| a.parse::<u64>().ok()).unwrap_or(0);
    let (n, mb, fd) = (arg(3) as usize, arg(4), arg(5) as i32);
    // SAFETY: mmap of the inherited memfd, checked.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), 4096, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0)
    };
    if p == libc::MAP_FAILED {
        return 1;
    }
    // SAFETY: as in `nondumpable`.
    let slots: &[AtomicU64] = unsafe { std::slice::from_raw_parts(p.cast(), 8) };
    hog(slots, n, mb)
}

/// Holds `mb` MiB, touching one MiB at a time and saying so in `slots[n]` (and in `slots[4 + n]`
/// whether this process is non-dumpable); then waits three seconds.
fn hog(slots: &[AtomicU64], n: usize, mb: u64) -> ! {
    // SAFETY: prctl with integer arguments.
    let dumpable = unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) };
    slots[4 + n].store(u64::from(dumpable == 0), Ordering::SeqCst);
    let Some(memory) = map(mb << 20, libc::MAP_PRIVATE) else {
        eprintln!("child {n}: mmap failed ({})", errno());
        std::process::exit(1)
    };
    for i in 0..mb {
        touch(memory, i);
        slots[n].store(i + 1, Ordering::SeqCst);
    }
    sleep_ms(3000);
    std::process::exit(0)
}

/// Issue 31: with the sandbox off, a child that leaves the bot's session (setsid, a double
/// fork) and burns CPU for up to three seconds, while the bot answers after 0.8 s and exits.
fn detached_burn(args: &Args) -> i32 {
    match fork() {
        -1 => eprintln!("fork: {}", errno()),
        0 => {
            // SAFETY: setsid and fork in a single-threaded child.
            unsafe {
                libc::setsid();
                if libc::fork() != 0 {
                    libc::_exit(0);
                }
            }
            let start = Instant::now();
            let mut x = 1u64;
            while start.elapsed() < Duration::from_secs(3) {
                for i in 0..100_000u64 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
                }
            }
            std::hint::black_box(x);
            std::process::exit(0)
        }
        child => {
            // SAFETY: waitpid on our own child, with a valid status pointer.
            unsafe { libc::waitpid(child, &mut 0, 0) };
        }
    }
    sleep_ms(800);
    eprintln!("RESULT detached-burn: started");
    unchanged(args)
}
