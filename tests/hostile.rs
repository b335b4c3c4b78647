//! Hostile bots against the sandbox (`--sandbox auto`, the default): one test per attack.
//!
//! Every bot is `examples/hostile_bot` (std and libc only), copied into the test's own folder
//! and run as `hostile_bot ATTACK MARKER ...`. Each `arbiter verify` run is checked for what
//! every attack must leave intact, besides the attack's own assertions:
//!
//! - **time**: arbiter ends within `cases x (stall bound + 1 s) + 2 s`, and each case within
//!   `stall bound + 1 s`, the stall bound being `3 x timeout + 1 s`: a run ends at its CPU
//!   time (the timeout) or its idle time (1 x timeout + 1 s), and more than this on a machine
//!   not loaded by other work is a stall. On a loaded machine both bounds are stretched by the
//!   runnable tasks per processor ([`slowdown`]): wall time is what the machine gave, and a
//!   stall is wall time far past that;
//! - **no survivors**: no process with the test's marker in its arguments is left in the
//!   host's `/proc` 300 ms after arbiter ends (the bot's pids mean nothing outside its PID
//!   namespace, its arguments do);
//! - **no file changed outside the case folder**: the test's folder (corpus, the bot's program
//!   folder, secrets; not the reports arbiter writes) is the same before and after (path, size,
//!   mtime, content hash), and the folder the case folders were made in is empty again;
//! - **valid reports**: stdout is a JSON report with one verdict per case; the Gradescope file
//!   is JSON with one test per case; the JUnit file is well-formed XML with one test case per
//!   case; neither report changes after arbiter ended.
//!
//! Test folders live under `CARGO_TARGET_TMPDIR`, and arbiter gets `TMPDIR` there too, so the
//! case folders are not under `/tmp` (which the sandbox replaces with an empty folder anyway):
//! only Landlock and the mounts keep the bot out. Where the kernel lacks what the sandbox
//! needs, a test prints `SKIPPED: <test>: <why>` and passes.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

#[path = "common/junit.rs"]
mod junit;

use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// What the kernel offers.

/// What this kernel lets the sandbox do, found once.
struct Kernel {
    /// Landlock's ABI version, 0 without Landlock.
    landlock: i64,
    /// Whether a process can make the sandbox's namespaces, or why not.
    namespaces: Result<String, String>,
}

fn kernel() -> &'static Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    KERNEL.get_or_init(|| {
        // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns
        // the ABI version; it reads no memory.
        let landlock =
            unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32) }
                .max(0);
        // In a process of its own: unshare works on the calling process, and this one has threads.
        let namespaces = match Command::new(hostile_bot()).arg("probe-namespaces").output() {
            Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()),
            Ok(out) => Err(String::from_utf8_lossy(&out.stdout).trim().to_string()),
            Err(e) => Err(format!("cannot run the probe: {e}")),
        };
        Kernel { landlock, namespaces }
    })
}

/// Whether `test` can run here: namespaces and Landlock of at least `abi`. Otherwise says so on
/// the test's stderr (written directly, so that it shows even when the test passes).
fn supported(test: &str, abi: i64) -> bool {
    let k = kernel();
    let missing = match &k.namespaces {
        Err(why) => Some(format!("this kernel cannot make the sandbox's namespaces ({why})")),
        Ok(_) if k.landlock < abi => {
            Some(format!("this kernel has Landlock ABI {}, the attack needs {abi}", k.landlock))
        }
        Ok(_) => None,
    };
    match missing {
        Some(why) => {
            let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {why}");
            false
        }
        None => true,
    }
}

/// Something a test wants seen even when it passes (written past the test harness's capture).
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

// ---------------------------------------------------------------------------------------------
// The hostile bot.

/// The built `examples/hostile_bot`. `cargo test` builds examples, `cargo test --test hostile`
/// does not (nor rebuild a stale one), so cargo is asked to build it with the tests' profile
/// first: a no-op when `cargo test` just did.
fn hostile_bot() -> PathBuf {
    static BOT: OnceLock<PathBuf> = OnceLock::new();
    BOT.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile = exe.parent().and_then(Path::parent).unwrap();
        let path = profile.join("examples/hostile_bot");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "--example", "hostile_bot", "--manifest-path"]);
        build.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"));
        build.arg(if profile.file_name().is_some_and(|n| n == "release") {
            "--release"
        } else {
            "--profile=test"
        });
        let built = build.status().is_ok_and(|s| s.success());
        assert!(built || path.exists(), "cannot build examples/hostile_bot");
        path
    })
    .clone()
}

// ---------------------------------------------------------------------------------------------
// A test's folder.

/// One test's folder: `corpus/grade4/white/NN.txt`, `bot/hostile_bot` (its own copy),
/// `reports/`, and `cases/` (arbiter's `TMPDIR`).
struct Lab {
    dir: tempfile::TempDir,
    marker: String,
    cases: usize,
    way: Way,
    /// Variables set for arbiter besides `TMPDIR`.
    env: Vec<(String, String)>,
}

impl Lab {
    fn new(cases: usize) -> Lab {
        let dir =
            tempfile::Builder::new().prefix("hostile-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let marker = format!("MARKER-{}", dir.path().file_name().unwrap().to_string_lossy());
        let lab = Lab { dir, marker, cases, way: Way::Namespaces, env: Vec::new() };
        let white = lab.path("corpus/grade4/white");
        fs::create_dir_all(&white).unwrap();
        for n in 1..=cases {
            let name = format!("{n:02}.txt");
            fs::copy(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/grade4/white").join(&name),
                white.join(name),
            )
            .unwrap();
        }
        for sub in ["bot", "reports", "cases"] {
            fs::create_dir_all(lab.path(sub)).unwrap();
        }
        lab.install(&lab.path("bot/hostile_bot"));
        lab
    }

    /// A lab for running arbiter `way`: every folder open to others (the bot's own user, or an
    /// unprivileged arbiter, must get through it), the reports and case folders writable.
    fn in_way(cases: usize, way: Way) -> Lab {
        let mut lab = Lab::new(cases);
        lab.way = way;
        lab.open_up();
        lab
    }

    /// Makes every folder of the lab readable and searchable by others, and the folders
    /// arbiter writes writable by anyone.
    fn open_up(&self) {
        for entry in walkdir::WalkDir::new(self.root()).into_iter().filter_map(Result::ok) {
            let mode = fs::metadata(entry.path()).unwrap().permissions().mode();
            let open = if entry.file_type().is_dir() { mode | 0o755 } else { mode | 0o444 };
            fs::set_permissions(entry.path(), fs::Permissions::from_mode(open)).unwrap();
        }
        for sub in ["reports", "cases"] {
            fs::set_permissions(self.path(sub), fs::Permissions::from_mode(0o1777)).unwrap();
        }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Copies the hostile bot to `to` (a bot's program folder must be its own, and arbiter's
    /// build folder is no place for one).
    fn install(&self, to: &Path) {
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(hostile_bot(), to).unwrap();
        fs::set_permissions(to, fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Tells the bots in `bot/` what they "know" about the machine: a `NAME=VALUE` line in
    /// `bot/hostile.env` (not the environment, which the sandbox may clear). Call before
    /// taking a snapshot.
    fn set(&self, name: &str, value: &str) {
        let file = self.path("bot/hostile.env");
        let text = fs::read_to_string(&file).unwrap_or_default();
        let mut lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(&format!("{name}="))).collect();
        let line = format!("{name}={value}");
        lines.push(&line);
        fs::write(&file, lines.join("\n") + "\n").unwrap();
    }

    /// [`Lab::set`] for a list of paths.
    fn set_paths(&self, name: &str, paths: &[PathBuf]) {
        self.set(name, std::env::join_paths(paths).unwrap().to_str().unwrap());
    }

    /// The bot command for `attack`, with this test's marker.
    fn command(&self, attack: &str) -> String {
        format!("{} {attack} {}", self.path("bot/hostile_bot").display(), self.marker)
    }

    /// Asserts that `attack` works with `--sandbox off`: the count `key` on its result line is
    /// above 0, which shows that what the sandbox stops is a real attack.
    #[track_caller]
    fn assert_works_without_sandbox(&self, attack: &str, key: &str) {
        let off = self.verify(&self.command(attack), 2.0, &["--sandbox", "off"]);
        assert!(
            number(&result_line(case(&off, 0)), key) > 0,
            "without the sandbox the attack must work: {off}"
        );
    }

    fn corpus(&self) -> String {
        self.path("corpus").display().to_string()
    }

    /// Runs `arbiter verify` on the corpus with `bot`, `--json`, Gradescope and JUnit reports,
    /// and `extra` arguments. Checks everything every attack must leave intact (see the file's
    /// doc) and returns the JSON report.
    fn verify(&self, bot: &str, timeout: f64, extra: &[&str]) -> Value {
        let (mut args, gradescope, junit) = self.verify_args(bot);
        args.extend(["--timeout", &timeout.to_string()].iter().chain(extra).map(OsString::from));
        let before = self.snapshot();
        let run = self.arbiter(&args, self.bound(timeout, self.cases));
        let reports = [fs::read(&gradescope).unwrap_or_default(), fs::read(&junit).unwrap_or_default()];

        assert!(run.status == 0 || run.status == 1, "status {}: {}", run.status, run.stderr);
        let report: Value = serde_json::from_slice(&run.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", String::from_utf8_lossy(&run.stdout)));
        let cases = report["cases"].as_array().expect("a cases array");
        assert_eq!(cases.len(), self.cases, "one verdict per case: {report}");
        for case in cases {
            let verdict = case["verdict"].as_str().expect("a verdict");
            assert!(VERDICTS.contains(&verdict), "unknown verdict {verdict}");
            let elapsed = case["elapsed_ms"].as_f64().unwrap();
            let limit = (stall_bound(timeout) * 1000.0 + 1000.0) * slowdown();
            assert!(elapsed <= limit, "a case took {elapsed} ms, more than {limit} ms: {case}");
        }
        assert!(report["score"].is_number());
        self.check_reports(&reports[0], &reports[1], self.cases);
        self.after(&before);
        let now = [fs::read(&gradescope).unwrap_or_default(), fs::read(&junit).unwrap_or_default()];
        assert!(now == reports, "a report changed after arbiter ended");
        report
    }

    /// The words of `verify` of `bot` on the lab's corpus with the JSON report on stdout and
    /// Gradescope's and JUnit's in `reports/`: the words, and the paths of those two reports.
    fn verify_args(&self, bot: &str) -> (Vec<OsString>, PathBuf, PathBuf) {
        let (gradescope, junit) = (self.path("reports/results.json"), self.path("reports/junit.xml"));
        let mut args: Vec<OsString> =
            ["verify", &self.corpus(), "--bot", bot, "--json", "-q"].map(OsString::from).to_vec();
        args.extend([
            "--gradescope".into(),
            gradescope.clone().into(),
            "--junit".into(),
            junit.clone().into(),
        ]);
        (args, gradescope, junit)
    }

    /// The longest a run of `cases` cases may take: a case that times out is run twice, and
    /// each case's sandbox is set up and torn down (seconds each on a loaded 2-core machine).
    /// What this catches is a stall: a bot holding arbiter far past every cap.
    fn bound(&self, timeout: f64, cases: usize) -> Duration {
        Duration::from_secs_f64(cases as f64 * (2.0 * (stall_bound(timeout) + 1.0) + 3.0) + 10.0)
    }

    /// Runs arbiter in the test's folder with `TMPDIR` in `cases/`; fails if it takes longer
    /// than `bound` (killing it after `bound` + 10 s, should it hang).
    fn arbiter(&self, args: &[OsString], bound: Duration) -> Run {
        self.arbiter_in(self.root(), args, bound)
    }

    /// [`Lab::arbiter`], started in the folder `cwd`.
    fn arbiter_in(&self, cwd: &Path, args: &[OsString], bound: Duration) -> Run {
        let start = Instant::now();
        let mut child = self
            .way
            .command()
            .args(args)
            .current_dir(cwd)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("TMPDIR", self.path("cases"))
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter runs");
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > bound.mul_f64(slowdown()) + Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("arbiter hung: killed after {:?}", start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let wall = start.elapsed();
        let bound = bound.mul_f64(slowdown());
        let run = Run {
            status: status.code().unwrap_or(-1),
            stdout: stdout.join().unwrap(),
            stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
        };
        assert!(wall <= bound, "arbiter took {wall:?}, more than {bound:?}: {}", run.stderr);
        run
    }

    /// What must hold once arbiter has ended: no survivors, nothing outside the case folders
    /// changed, no case folder left.
    fn after(&self, before: &Snapshot) {
        assert_no_survivors(&self.marker);
        let after = self.snapshot();
        assert_eq!(changes(before, &after), Vec::<String>::new(), "files changed outside the case folder");
        let left: Vec<_> = fs::read_dir(self.path("cases")).unwrap().filter_map(Result::ok).collect();
        assert!(left.is_empty(), "left in the case folders' folder: {left:?}");
    }

    /// The Gradescope and JUnit reports are well-formed, with one test per case.
    fn check_reports(&self, gradescope: &[u8], junit: &[u8], cases: usize) {
        let g: Value = serde_json::from_slice(gradescope).unwrap_or_else(|e| {
            panic!("Gradescope report is not JSON ({e}): {}", String::from_utf8_lossy(gradescope))
        });
        assert!(g["score"].is_number(), "{g}");
        // One test per case, besides any test carrying what the profile's stage arithmetic adds
        // (stages with no case here): those have no path.
        let case_tests =
            g["tests"].as_array().map(|t| t.iter().filter(|t| t["extra_data"]["path"].is_string()).count());
        assert_eq!(case_tests, Some(cases), "{g}");
        let xml = std::str::from_utf8(junit).expect("JUnit report is UTF-8");
        let testcases =
            check_xml(xml).unwrap_or_else(|e| panic!("JUnit report is not well-formed: {e}\n{xml}"));
        assert_eq!(testcases, cases, "{xml}");
        junit::assert_valid(xml);
    }

    /// Everything in the test's folder but the reports and the case folders.
    fn snapshot(&self) -> Snapshot {
        snapshot(self.root(), &[self.path("reports"), self.path("cases")])
    }
}

/// The longest a run whose CPU-time limit is `timeout` seconds should take in wall time on a
/// machine not loaded by other work (3 x + 1 s); its limits are its CPU time and its idle time.
fn stall_bound(timeout: f64) -> f64 {
    3.0 * timeout + 1.0
}

/// How much slower than an idle machine wall time runs now: the machine's runnable tasks per
/// processor over the last minute, at least 1. A wall-time bound that catches a stall on an
/// idle machine must not fail an honest run on a machine that other work keeps busy.
fn slowdown() -> f64 {
    let load = fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().and_then(|w| w.parse::<f64>().ok()))
        .unwrap_or(0.0);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    (load / cpus).max(1.0)
}

/// What running arbiter produced.
struct Run {
    status: i32,
    stdout: Vec<u8>,
    stderr: String,
}

const VERDICTS: [&str; 8] =
    ["pass", "wrong-move", "illegal-move", "malformed-output", "unchanged", "no-output", "crash", "timeout"];

fn case(report: &Value, i: usize) -> &Value {
    &report["cases"][i]
}

/// The case's `RESULT ATTACK: ...` line from the bot's stderr.
fn result_line(case: &Value) -> String {
    let tail = case["stderr_tail"].as_str().unwrap_or("");
    tail.lines()
        .find(|l| l.starts_with("RESULT "))
        .unwrap_or_else(|| panic!("the bot printed no RESULT line: {case}"))
        .to_string()
}

/// The value of `key=` in a RESULT line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start =
        line.find(&format!(" {key}=")).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len() + 2;
    line[start..].split(' ').next().unwrap()
}

fn number(line: &str, key: &str) -> u64 {
    field(line, key).parse().unwrap_or_else(|_| panic!("{key} is not a number in {line}"))
}

// ---------------------------------------------------------------------------------------------
// Files and processes.

/// Path -> kind, size, mtime, mode and content hash (or link target).
type Snapshot = BTreeMap<PathBuf, String>;

fn snapshot(root: &Path, skip: &[PathBuf]) -> Snapshot {
    let mut found = Snapshot::new();
    let walker =
        walkdir::WalkDir::new(root).into_iter().filter_entry(|e| !skip.iter().any(|s| e.path() == s));
    for entry in walker.filter_map(Result::ok) {
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        let what = if meta.file_type().is_symlink() {
            format!("link to {:?}", fs::read_link(entry.path()).ok())
        } else if meta.is_file() {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            fs::read(entry.path()).unwrap_or_default().hash(&mut h);
            format!(
                "file {} bytes {:o} mtime {}.{} hash {:x}",
                meta.len(),
                meta.mode(),
                meta.mtime(),
                meta.mtime_nsec(),
                h.finish()
            )
        } else {
            format!("{:?} {:o} mtime {}.{}", meta.file_type(), meta.mode(), meta.mtime(), meta.mtime_nsec())
        };
        found.insert(entry.path().to_path_buf(), what);
    }
    found
}

fn changes(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, was) in before {
        match after.get(path) {
            None => out.push(format!("removed {}", path.display())),
            Some(now) if now != was => out.push(format!("changed {}: {was} -> {now}", path.display())),
            Some(_) => {}
        }
    }
    for path in after.keys().filter(|p| !before.contains_key(*p)) {
        out.push(format!("added {}", path.display()));
    }
    out
}

/// The host's processes with `marker` among their arguments: "pid: cmdline".
fn survivors(marker: &str) -> Vec<(i32, String)> {
    let own = std::process::id() as i32;
    let Ok(dir) = fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != own)
        .filter_map(|pid| {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let args: Vec<String> =
                cmdline.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
            args.iter().any(|a| a == marker).then(|| (pid, args.join(" ")))
        })
        .collect()
}

/// Fails if a process with `marker` is still alive 300 ms from now (killing it first, so that
/// a failing test leaves nothing behind).
fn assert_no_survivors(marker: &str) {
    let deadline = Instant::now() + Duration::from_millis(300);
    loop {
        let found = survivors(marker);
        if found.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            for (pid, _) in &found {
                // SAFETY: kill has no memory-safety preconditions; these are this test's bots.
                unsafe { libc::kill(*pid, libc::SIGKILL) };
            }
            panic!("bot processes survived the run: {found:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Checks that `xml` is a well-formed XML document (declaration, balanced tags, quoted
/// attributes, known entities, no characters XML 1.0 forbids); returns its `testcase` count.
fn check_xml(xml: &str) -> Result<usize, String> {
    if !xml.starts_with("<?xml") {
        return Err("no XML declaration".into());
    }
    if let Some(c) = xml.chars().find(|&c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r')) {
        return Err(format!("character U+{:04X} is not allowed in XML", c as u32));
    }
    let entities = |text: &str| -> Result<(), String> {
        for (at, _) in text.match_indices('&') {
            let rest = &text[at + 1..];
            let end = rest.find(';').ok_or_else(|| format!("bare & in {text:?}"))?;
            let name = &rest[..end];
            let numeric = name.strip_prefix("#x").map_or_else(
                || {
                    name.strip_prefix('#')
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                },
                |n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_hexdigit()),
            );
            if !numeric && !["amp", "lt", "gt", "quot", "apos"].contains(&name) {
                return Err(format!("unknown entity &{name};"));
            }
        }
        Ok(())
    };
    let mut stack: Vec<&str> = Vec::new();
    let (mut roots, mut testcases) = (0, 0);
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root element: {text:?}"));
        }
        entities(text)?;
        rest = &rest[open..];
        if let Some(body) = rest.strip_prefix("<?") {
            let end = body.find("?>").ok_or("unterminated <?")?;
            rest = &body[end + 2..];
            continue;
        }
        if let Some(body) = rest.strip_prefix("<!--") {
            let end = body.find("-->").ok_or("unterminated comment")?;
            rest = &body[end + 3..];
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or_else(|| format!("</{name}> closes nothing"))?;
            if open != name.trim() {
                return Err(format!("<{open}> closed by </{name}>"));
            }
            continue;
        }
        let (tag, closed) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = &tag[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || "_-.:".contains(c)) {
            return Err(format!("bad element name {name:?}"));
        }
        let mut attrs = tag[name_end..].trim();
        while !attrs.is_empty() {
            let eq = attrs.find('=').ok_or_else(|| format!("attribute without a value in <{tag}>"))?;
            let value = attrs[eq + 1..].trim_start();
            let quote =
                value.chars().next().filter(|q| *q == '"' || *q == '\'').ok_or("unquoted attribute")?;
            let close = value[1..].find(quote).ok_or("unterminated attribute")?;
            let inside = &value[1..1 + close];
            if inside.contains('<') {
                return Err(format!("< in an attribute of <{name}>"));
            }
            entities(inside)?;
            attrs = value[close + 2..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        if name == "testcase" {
            testcases += 1;
        }
        if !closed {
            stack.push(name);
        }
    }
    if !rest.trim().is_empty() || !stack.is_empty() || roots != 1 {
        return Err(format!("unbalanced: open {stack:?}, {roots} root element(s), trailing {rest:?}"));
    }
    Ok(testcases)
}

#[test]
fn the_xml_checker_knows_well_formed_from_broken() {
    let good = "<?xml version=\"1.0\"?>\n<a x=\"1 &amp; 2\"><testcase n='x'/><b>t &lt; u</b></a>\n";
    assert_eq!(check_xml(good), Ok(1));
    for bad in [
        "<a></a>",
        "<?xml?><a><b></a></b>",
        "<?xml?><a>&nope;</a>",
        "<?xml?><a x=1/>",
        "<?xml?><a>\u{1b}[1m</a>",
        "<?xml?><a/><b/>",
        "<?xml?><a>",
    ] {
        assert!(check_xml(bad).is_err(), "{bad:?} passed");
    }
}

// ---------------------------------------------------------------------------------------------
// The attacks.

/// Attack 1: the bot runs arbiter itself as its bot (`exec /proc/$PPID/exe bot --grade 7
/// "$@"`), from `/proc/$PPID/exe`, `/proc/1/exe`, every `/proc/*/exe`, the program named in
/// `/proc/$PPID/cmdline`, and arbiter's real path, directly or as a copy in its case folder.
/// Must hold: none of them runs (the case is a crash, not a pass). Without the sandbox the
/// same bot passes, which shows the attack is real.
#[test]
fn running_arbiter_itself_as_the_bot_fails() {
    if !supported("running_arbiter_itself_as_the_bot_fails", 1) {
        return;
    }
    let lab = Lab::new(1);
    lab.set("HOSTILE_ARBITER", env!("CARGO_BIN_EXE_arbiter"));
    let r = lab.verify(&lab.command("exec-arbiter"), 2.0, &[]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "crash", "{c}");
    assert_eq!(field(&result_line(c), "ran"), "none", "{c}");

    let off = lab.verify(&lab.command("exec-arbiter"), 2.0, &["--sandbox", "off"]);
    assert_eq!(case(&off, 0)["verdict"], "pass", "without the sandbox the attack must work: {off}");
}

/// A golden answer for case `01` in the test's `golden/`, beside its `corpus/`.
fn golden_beside(lab: &Lab) -> PathBuf {
    let golden = lab.path("golden/grade4/white/01.json");
    fs::create_dir_all(golden.parent().unwrap()).unwrap();
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/grade4/white/01.json"), &golden).unwrap();
    golden
}

/// Attack 1b: the bot reads the corpus and golden answers through the paths it can find: the
/// grader's `/proc/$PPID/cmdline` and `cwd`, `/proc/1/root`, folders named in its
/// environment, and the real paths (given to it, as if guessed). Must hold: it reads nothing
/// but its own case folder and program. Without the sandbox it reads them.
#[test]
fn the_corpus_and_golden_answers_cannot_be_read() {
    if !supported("the_corpus_and_golden_answers_cannot_be_read", 1) {
        return;
    }
    let lab = Lab::new(1);
    let secrets = [lab.path("corpus/grade4/white/01.txt"), golden_beside(&lab), lab.path("golden")];
    lab.set_paths("HOSTILE_SECRETS", &secrets);
    let r = lab.verify(&lab.command("read-secrets"), 2.0, &[]);
    let line = result_line(case(&r, 0));
    assert_eq!(number(&line, "read"), 0, "{}", case(&r, 0));
    assert!(number(&line, "tried") >= secrets.len() as u64, "{line}");

    lab.assert_works_without_sandbox("read-secrets", "read");
}

/// Attack 1c: the usual layouts, `arbiter verify --bot ./mybot` (or `--bot bin/mybot`) in the
/// course folder: the bot's program folder (or, for a program in a `bin` folder, the
/// installation it belongs to) is also the folder holding `corpus/` and `golden/`. Those
/// folders are readable, so the corpus and golden answers in them must be covered.
/// Must hold: the bot reads nothing but its own program and case folder.
#[test]
fn golden_answers_beside_the_bot_cannot_be_read() {
    if !supported("golden_answers_beside_the_bot_cannot_be_read", 1) {
        return;
    }
    let lab = Lab::new(1);
    lab.set_paths("HOSTILE_SECRETS", &[lab.path("corpus/grade4/white/01.txt"), golden_beside(&lab)]);
    for program in ["mybot", "bin/mybot"] {
        let at = lab.path(program);
        lab.install(&at);
        fs::copy(lab.path("bot/hostile.env"), at.with_file_name("hostile.env")).unwrap();
        let r = lab.verify(&format!("./{program} read-secrets {}", lab.marker), 2.0, &[]);
        assert_eq!(number(&result_line(case(&r, 0)), "read"), 0, "{program}: {}", case(&r, 0));
    }
}

/// Attack 2: a `setsid` double-forked daemon ignoring SIGHUP and SIGTERM rewrites the
/// Gradescope and JUnit reports and writes into the corpus every 50 ms for ten seconds, while
/// the bot itself exits at once (first run) or hangs until the timeout (second run); two
/// cases at once. Must hold: no process of the bot survives the case; corpus and reports
/// unchanged after arbiter ends (checked by `Lab::verify`).
#[test]
fn a_daemon_does_not_outlive_the_case() {
    if !supported("a_daemon_does_not_outlive_the_case", 1) {
        return;
    }
    let lab = Lab::new(2);
    lab.set_paths(
        "HOSTILE_TARGETS",
        &[
            lab.path("reports/results.json"),
            lab.path("reports/junit.xml"),
            lab.path("reports"),
            lab.path("corpus/grade4/white/01.txt"),
            lab.path("corpus/grade4/white"),
            lab.root().to_path_buf(),
        ],
    );
    let r = lab.verify(&lab.command("daemon"), 2.0, &["--jobs", "2"]);
    for i in 0..2 {
        assert_eq!(case(&r, i)["verdict"], "unchanged", "{}", case(&r, i));
        assert_eq!(result_line(case(&r, i)), "RESULT daemon: started");
    }
    let r = lab.verify(&lab.command("daemon-hang"), 1.0, &["--jobs", "2"]);
    for i in 0..2 {
        assert_eq!(case(&r, i)["verdict"], "timeout", "{}", case(&r, i));
    }
}

/// Attack 3: `kill -STOP $PPID`, `kill -9 $PPID`, `kill -STOP -1`, `kill -9 -1` and `kill -9`
/// of every pid in sight, from two bots running at once; then each answers (its input,
/// unchanged). Must hold: arbiter finishes normally within the time bound with a report, and
/// both bots ran to the end undisturbed (verdict "unchanged", not a timeout or a crash).
#[test]
fn killing_and_stopping_the_grader_changes_nothing() {
    if !supported("killing_and_stopping_the_grader_changes_nothing", 1) {
        return;
    }
    let lab = Lab::new(2);
    let r = lab.verify(&lab.command("kill-parent"), 2.0, &["--jobs", "2"]);
    for i in 0..2 {
        let c = case(&r, i);
        assert_eq!(c["verdict"], "unchanged", "{c}");
        assert_eq!(field(&result_line(c), "confined"), "true", "the bot is not in a PID namespace: {c}");
    }
}

/// Attack 4: a daemon holds a write lease (`F_SETLEASE`, `F_WRLCK`) on output.txt, so opening
/// it would wait for the kernel's lease-break time (45 s); the bot exits at once (first run)
/// or hangs (second run). Must hold: each case ends within timeout + 1 s; the board is still
/// judged in the first run.
#[test]
fn a_lease_on_the_output_does_not_stall_the_grader() {
    if !supported("a_lease_on_the_output_does_not_stall_the_grader", 1) {
        return;
    }
    let lab = Lab::new(1);
    let r = lab.verify(&lab.command("lease"), 2.0, &[]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "unchanged", "{c}");
    let line = result_line(c);
    if line != "RESULT lease: held" {
        note(&format!("NOTE: a_lease_on_the_output_does_not_stall_the_grader: no lease taken here ({line})"));
    }
    let r = lab.verify(&lab.command("lease-hang"), 1.0, &[]);
    assert_eq!(case(&r, 0)["verdict"], "timeout", "{}", case(&r, 0));
}

/// The largest `N` of the `WORD N MiB` lines in the case's stderr tail (the bot's progress).
fn peak_mib(case: &Value, word: &str) -> u64 {
    case["stderr_tail"]
        .as_str()
        .unwrap_or("")
        .lines()
        .filter_map(|l| l.strip_prefix(word)?.trim().strip_suffix(" MiB")?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// Runs the attack `name`, which takes `mib` MiB (`HOSTILE_MEM_MB`), on one case under
/// `--memory-mb 256`: the case, which must have been stopped for memory (a crash whose process
/// says so), and the most its `WORD N MiB` progress lines say it held.
fn stopped_for_memory(name: &str, mib: &str, word: &str) -> (Value, u64) {
    let lab = Lab::new(1);
    lab.set("HOSTILE_MEM_MB", mib);
    let r = lab.verify(&lab.command(name), 3.0, &["--memory-mb", "256"]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "crash", "{c}");
    assert!(c["process"].as_str().unwrap().contains("memory"), "{c}");
    (c.clone(), peak_mib(c, word))
}

/// Attack 5a: a `MAP_SHARED` anonymous mapping (not counted by `RLIMIT_DATA`) of 1 GiB,
/// touched page by page, under `--memory-mb 256` (the issue's 7.8 GiB under 4 GiB, scaled).
/// Must hold: the bot is stopped (a crash, killed for memory), within the time bound, having
/// touched no more than the cap and a little (its last progress line; the allowance is for
/// a limit enforced by polling where no cgroup can be made).
#[test]
fn a_shared_mapping_is_held_to_the_memory_limit() {
    if !supported("a_shared_mapping_is_held_to_the_memory_limit", 1) {
        return;
    }
    let (c, peak) = stopped_for_memory("shm", "1024", "touched");
    note(&format!("  shared mapping: touched {peak} MiB under a 256 MiB cap"));
    assert!(peak <= 256 + 128, "touched {peak} MiB under a 256 MiB cap: {c}");
}

/// Attack 5b: four processes of 200 MiB each (each under the per-process 256 MiB, together
/// 800 MiB) under `--memory-mb 256` (the issue's 4 x 2.5 GiB under 4 GiB, scaled). The parent
/// samples what its living children hold. Must hold: the run is stopped for memory (children
/// killed; the verdict a crash saying memory), within the time bound, and the sampled peak
/// stays near the cap (the sample counts a child being killed until it is gone, so it runs
/// some 10-40 MiB over the cap even where a cgroup holds the run to it exactly).
#[test]
fn forked_processes_share_one_memory_limit() {
    if !supported("forked_processes_share_one_memory_limit", 1) {
        return;
    }
    let (c, peak) = stopped_for_memory("forks", "200", "peak");
    note(&format!("  four forks: sampled peak {peak} MiB under a 256 MiB cap"));
    assert!(peak <= 256 + 128, "the children held {peak} MiB together under a 256 MiB cap: {c}");
}

/// Attack 6: output.txt is a symbolic link to a secret file outside (whose first character,
/// `Q`, a parse error would quote), and a hard link is tried too. Must hold: the verdict says
/// symbolic link, and neither the secret nor its first character reaches any report (JSON,
/// Gradescope, JUnit, the human one).
#[test]
fn an_output_linked_to_a_secret_does_not_leak_it() {
    let lab = Lab::new(1);
    let secret = lab.path("secret.txt");
    let token = format!("secret-{}", lab.marker);
    fs::write(&secret, format!("Q{token}\n")).unwrap();
    lab.set_paths("HOSTILE_SECRETS", &[secret]);
    let r = lab.verify(&lab.command("symlink"), 2.0, &[]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "no-output", "{c}");
    assert!(c["reason"].as_str().unwrap().contains("symbolic link"), "{c}");
    let args = ["verify", &lab.corpus(), "--bot", &lab.command("symlink"), "-q", "--timeout", "2"];
    let human = lab.arbiter(&args.map(OsString::from), lab.bound(2.0, 1));
    let reports = [
        r.to_string(),
        fs::read_to_string(lab.path("reports/results.json")).unwrap(),
        fs::read_to_string(lab.path("reports/junit.xml")).unwrap(),
        String::from_utf8_lossy(&human.stdout).into_owned(),
        human.stderr,
    ];
    for text in reports {
        assert!(!text.contains(&token) && !text.contains("found `Q`"), "the secret leaked: {text}");
    }
}

/// Attack 6b: output.txt is a FIFO, which would block a reader forever. Must hold: the verdict
/// says it is not a regular file, within the time bound.
#[test]
fn an_output_fifo_does_not_block_the_grader() {
    let lab = Lab::new(1);
    let r = lab.verify(&lab.command("fifo"), 2.0, &[]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "no-output", "{c}");
    assert!(c["reason"].as_str().unwrap().contains("not a regular file"), "{c}");
}

/// Plays a one-game match, A (`bot/hostile_bot ATTACK`) against `b` (`hostile_bot
/// unchanged`), with the checks of [`Lab::verify`] but the reports; returns the game.
fn one_game(lab: &Lab, attack: &str, b: &Path) -> Value {
    let b_command = format!("{} unchanged {}", b.display(), lab.marker);
    let args = ["match", "--bot", &lab.command(attack), "--bot", &b_command, "--games", "1", "--json", "-q"];
    let args: Vec<OsString> = args.iter().chain(&["--timeout", "2"]).map(OsString::from).collect();
    let before = lab.snapshot();
    // Two moves at most: A's, then B's.
    let run = lab.arbiter(&args, lab.bound(2.0, 2));
    assert_eq!(run.status, 0, "{}", run.stderr);
    let m: Value = serde_json::from_slice(&run.stdout).expect("a JSON match report");
    let game = m["games"][0].clone();
    // Undo a changed mode before the checks fail, so that the folder can be removed.
    let mode = fs::metadata(b).unwrap().permissions().mode() & 0o7777;
    fs::set_permissions(b, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(mode, 0o755, "A changed B's mode to {mode:o}; the game: {game}");
    lab.after(&before);
    game
}

/// Attack 7: in `arbiter match`, bot A overwrites and replaces (rename, unlink) bot B's
/// program and its own, and plants files beside them; B in a folder of its own, then B in
/// A's own program folder. Must hold: both programs and their folders unchanged after the
/// match, within the time bound, no survivors.
#[test]
fn a_bot_cannot_change_its_opponent_in_a_match() {
    if !supported("a_bot_cannot_change_its_opponent_in_a_match", 1) {
        return;
    }
    let lab = Lab::new(1);
    let apart = lab.path("opponent/hostile_bot");
    let beside = lab.path("bot/opponent");
    lab.install(&apart);
    lab.install(&beside);
    for b in [&apart, &beside] {
        lab.set_paths("HOSTILE_TARGETS", std::slice::from_ref(b));
        let game = one_game(&lab, "overwrite", b);
        assert_eq!(game["result"], "black", "A forfeits its first move: {game}");
        let said = game["forfeit_output"].as_str().unwrap_or("");
        assert!(said.starts_with("RESULT overwrite: changed=0 "), "A changed something: {said}");
    }
}

/// The board after white's first listed move in the initial position, rows separated by `/`.
fn a_first_move() -> String {
    let start =
        "mjdsgscjm\nbzzzzzzzb\n.........\n.........\n.........\n.........\n.........\nBZZZZZZZB\nMJCSGSDJM\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["moves", "--side", "white", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(start.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let moves: Value = serde_json::from_slice(&out.stdout).unwrap();
    moves["moves"][0]["board"].as_str().unwrap().trim_end().replace('\n', "/")
}

/// Attack 7b: in `arbiter match`, bot A makes bot B's program unexecutable (`chmod 000`: no
/// Landlock right covers a file's mode) and then plays a legal move; B cannot start and
/// forfeits. Must hold: B's program unchanged (mode included), the game not lost by B's
/// failing to start.
#[test]
fn a_bot_cannot_sabotage_its_opponent_in_a_match() {
    if !supported("a_bot_cannot_sabotage_its_opponent_in_a_match", 1) {
        return;
    }
    let lab = Lab::new(1);
    let b = lab.path("opponent/hostile_bot");
    lab.install(&b);
    lab.set_paths("HOSTILE_TARGETS", std::slice::from_ref(&b));
    lab.set("HOSTILE_BOARD", &a_first_move());
    let game = one_game(&lab, "sabotage", &b);
    assert!(!game["detail"].as_str().unwrap_or("").contains("could not start"), "{game}");
}

/// Attack 7c: the bot changes what no Landlock right covers on files outside its case folder:
/// the mode (adding the setuid bit, which on a root-owned file would make it run as root for
/// anyone), the times, and extended attributes, of corpus and secret files. Must hold: none
/// of them changes.
#[test]
fn a_bot_cannot_change_file_metadata_outside() {
    if !supported("a_bot_cannot_change_file_metadata_outside", 1) {
        return;
    }
    let lab = Lab::new(1);
    let secret = lab.path("secret.txt");
    fs::write(&secret, "secret\n").unwrap();
    let targets = [lab.path("corpus/grade4/white/01.txt"), secret, lab.path("corpus")];
    lab.set_paths("HOSTILE_TARGETS", &targets);
    let before = lab.snapshot();
    let args = ["verify", &lab.corpus(), "--bot", &lab.command("metadata"), "--json", "-q", "--timeout", "2"];
    let run = lab.arbiter(&args.map(OsString::from), lab.bound(2.0, 1));
    let r: Value = serde_json::from_slice(&run.stdout).unwrap();
    let line = result_line(case(&r, 0));
    let changed = changes(&before, &lab.snapshot());
    for path in &targets {
        let _ =
            fs::set_permissions(path, fs::Permissions::from_mode(if path.is_dir() { 0o755 } else { 0o644 }));
    }
    assert_eq!((number(&line, "chmod"), number(&line, "utime"), number(&line, "xattr")), (0, 0, 0), "{line}");
    assert_eq!(changed, Vec::<String>::new());
}

/// Attack 8: the bot's stderr (and stdout) carry terminal escape sequences that clear the
/// screen, move the cursor, set the window title and fake a "score 100%" line in the human
/// report. Must hold: no raw ESC (0x1b) byte reaches arbiter's stdout.
#[test]
fn escape_sequences_from_a_bot_do_not_reach_the_terminal() {
    let lab = Lab::new(1);
    let args = ["verify", &lab.corpus(), "--bot", &lab.command("escape"), "-q", "--timeout", "2"];
    let run = lab.arbiter(&args.map(OsString::from), lab.bound(2.0, 1));
    assert_eq!(run.status, 1, "{}", run.stderr);
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.contains("score 100%"), "the bot's stderr is shown: {text}");
    assert!(!run.stdout.contains(&0x1b), "a raw ESC reached stdout: {text:?}");
}

/// Extra: a fork bomb (every process forks as fast as it can) under `--max-procs 32`. Must
/// hold: the bomb is bounded (forks refused, or the run killed for processes), the case ends
/// within the time bound, and no process survives.
#[test]
fn a_fork_bomb_is_bounded_and_ends_in_time() {
    if !supported("a_fork_bomb_is_bounded_and_ends_in_time", 1) {
        return;
    }
    let lab = Lab::new(1);
    let r = lab.verify(&lab.command("forkbomb"), 2.0, &["--max-procs", "32"]);
    let c = case(&r, 0);
    if c["verdict"] == "crash" {
        assert!(c["process"].as_str().unwrap().contains("processes"), "{c}");
    } else {
        assert_eq!(c["verdict"], "no-output", "{c}");
        let line = result_line(c);
        assert!(number(&line, "forked") <= 32, "{line}");
        assert!(number(&line, "refused") > 0, "no fork was refused: {line}");
    }
}

/// Extra: the bot fills its disk: one huge file, then thousands of small ones, then `/tmp` and
/// `/dev/shm`, under `--max-disk-mb 4` (and no per-file limit). Must hold: it stores no more
/// than the limit in the case folder and a few MiB in each scratch folder, nothing outside
/// the case folder changes, and the case ends in time.
#[test]
fn filling_the_disk_stops_at_the_limit() {
    if !supported("filling_the_disk_stops_at_the_limit", 1) {
        return;
    }
    let lab = Lab::new(1);
    let r = lab.verify(&lab.command("disk"), 3.0, &["--max-disk-mb", "4", "--max-file-kb", "0"]);
    let c = case(&r, 0);
    assert_eq!(c["verdict"], "no-output", "{c}");
    let line = result_line(c);
    assert!((1..=4).contains(&number(&line, "big")), "{line}");
    assert!(number(&line, "files") <= 4096, "{line}");
    assert!(number(&line, "tmp") <= 4 && number(&line, "shm") <= 4, "{line}");
}

/// Extra: the bot connects over TCP to a server on the host's loopback, binds a TCP server of
/// its own, sends UDP to the host, and connects to an abstract UNIX socket of the test's. Must
/// hold: every attempt fails and the test's servers receive nothing.
#[test]
fn the_network_is_out_of_reach() {
    if !supported("the_network_is_out_of_reach", 4) {
        return;
    }
    use std::os::linux::net::SocketAddrExt;
    let lab = Lab::new(1);
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let abstract_name = format!("hostile-{}", lab.marker);
    let unix = std::os::unix::net::UnixListener::bind_addr(
        &std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap(),
    )
    .unwrap();
    for listener in [tcp.set_nonblocking(true), udp.set_nonblocking(true), unix.set_nonblocking(true)] {
        listener.unwrap();
    }
    lab.set("HOSTILE_TCP_PORT", &tcp.local_addr().unwrap().port().to_string());
    lab.set("HOSTILE_UDP_PORT", &udp.local_addr().unwrap().port().to_string());
    lab.set("HOSTILE_ABSTRACT", &abstract_name);
    let r = lab.verify(&lab.command("network"), 3.0, &[]);
    let line = result_line(case(&r, 0));
    for key in ["tcp", "bind", "udp", "abstract"] {
        assert_eq!(field(&line, key), "denied", "{key}: {line}");
    }
    assert!(tcp.accept().is_err(), "the bot reached the TCP server");
    assert!(udp.recv_from(&mut [0; 16]).is_err(), "the bot reached the UDP socket");
    assert!(unix.accept().is_err(), "the bot reached the abstract UNIX socket");
}

/// Extra: the bot connects to a UNIX socket by path: a server of the test's, in the test's
/// folder (as a database's or a desktop's socket would be). Must hold: it cannot connect.
#[test]
fn unix_sockets_outside_are_out_of_reach() {
    if !supported("unix_sockets_outside_are_out_of_reach", 1) {
        return;
    }
    let lab = Lab::new(1);
    let path = lab.path("reports/server.sock");
    let server = std::os::unix::net::UnixListener::bind(&path).unwrap();
    server.set_nonblocking(true).unwrap();
    lab.set("HOSTILE_UNIX_PATH", &path.display().to_string());
    let r = lab.verify(&lab.command("network"), 3.0, &[]);
    let line = result_line(case(&r, 0));
    assert_eq!(field(&line, "unix"), "denied", "{line}");
    assert!(server.accept().is_err(), "the bot reached the UNIX socket");
}

/// Extra: two cases run at once; each bot looks for the other's case folder (in `/tmp`,
/// `/var/tmp`, the host's `/tmp` through `/proc/1/root`, and beside its own, where they really
/// are), reads what it finds, and plants a file beside its own folder. Must hold: it finds
/// no other case folder, reads nothing, plants nothing.
#[test]
fn a_bot_cannot_see_other_cases() {
    if !supported("a_bot_cannot_see_other_cases", 1) {
        return;
    }
    let lab = Lab::new(2);
    let r = lab.verify(&lab.command("peek"), 2.0, &["--jobs", "2"]);
    for i in 0..2 {
        let line = result_line(case(&r, i));
        assert_eq!((number(&line, "others"), number(&line, "read")), (0, 0), "{line}");
        assert_eq!(field(&line, "planted"), "false", "{line}");
    }
}

/// Extra: the bot writes outside its case folder: into its own program folder and program,
/// the corpus (a folder and a file), the test's folder, the case folder's parent, home, and
/// `/tmp`, `/var/tmp`, `/dev/shm`. Must hold: nothing outside is written (the program folder
/// is read-only), and what went to the scratch folders never reaches the host's.
#[test]
fn a_bot_cannot_write_outside_its_case_folder() {
    if !supported("a_bot_cannot_write_outside_its_case_folder", 1) {
        return;
    }
    let lab = Lab::new(1);
    lab.set_paths(
        "HOSTILE_TARGETS",
        &[lab.path("corpus/grade4/white"), lab.path("corpus/grade4/white/01.txt"), lab.root().to_path_buf()],
    );
    let r = lab.verify(&lab.command("write-outside"), 2.0, &[]);
    let line = result_line(case(&r, 0));
    assert_eq!(number(&line, "outside"), 0, "{}", case(&r, 0));
    for dir in ["/tmp", "/var/tmp", "/dev/shm"] {
        let path = Path::new(dir).join(format!("evil-{}", lab.marker));
        let leaked = path.exists();
        let _ = fs::remove_file(&path);
        assert!(!leaked, "{} reached the host", path.display());
    }
}

// ---------------------------------------------------------------------------------------------
// The attacks of issue 20, in every way arbiter can be run here.

/// How arbiter is run: as root or as an unprivileged user, with namespaces or without
/// (`ARBITER_SANDBOX_NO_NAMESPACES=1`, the Gradescope/Docker case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Namespaces,
    NoNamespaces,
    Unprivileged,
    UnprivilegedNoNamespaces,
}

/// The unprivileged user arbiter is run as.
const NOBODY: u32 = 65534;

impl Way {
    fn unprivileged(self) -> bool {
        matches!(self, Way::Unprivileged | Way::UnprivilegedNoNamespaces)
    }

    fn namespaces(self) -> bool {
        matches!(self, Way::Namespaces | Way::Unprivileged)
    }

    /// The command that runs arbiter this way (arguments to follow).
    fn command(self) -> Command {
        let mut command = if self.unprivileged() {
            let mut c = Command::new("setpriv");
            c.args([format!("--reuid={NOBODY}"), format!("--regid={NOBODY}"), "--clear-groups".into()]);
            c.arg(unprivileged_arbiter());
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
        };
        if !self.namespaces() {
            command.env("ARBITER_SANDBOX_NO_NAMESPACES", "1");
        }
        command
    }
}

/// A copy of arbiter an unprivileged user can run (the build folder may not be open to it).
fn unprivileged_arbiter() -> PathBuf {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("unprivileged");
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let copy = dir.join(format!("arbiter-{}", std::process::id()));
        fs::copy(env!("CARGO_BIN_EXE_arbiter"), &copy).unwrap();
        fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
        copy
    })
    .clone()
}

/// The ways this machine allows, each said to be skipped (and why) otherwise.
fn ways(test: &str) -> Vec<Way> {
    static WAYS: OnceLock<(Vec<Way>, Vec<String>)> = OnceLock::new();
    let (found, skipped) = WAYS.get_or_init(find_ways);
    for why in skipped {
        note(&format!("SKIPPED: {test} {why}"));
    }
    found.clone()
}

/// The ways this machine allows, and why the others are not.
fn find_ways() -> (Vec<Way>, Vec<String>) {
    let mut skipped = Vec::new();
    let test = "";
    let mut found = Vec::new();
    match &kernel().namespaces {
        Ok(_) => found.push(Way::Namespaces),
        Err(why) => skipped.push(format!("{test}with namespaces: {why}")),
    }
    found.push(Way::NoNamespaces);
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok_and(|o| o.status.success());
    if !root || !setpriv {
        skipped.push(format!("{test}as an unprivileged user: the tests do not run as root with setpriv"));
        return (found, skipped);
    }
    let probe = Command::new("setpriv")
        .args([format!("--reuid={NOBODY}"), format!("--regid={NOBODY}"), "--clear-groups".into()])
        .arg(unprivileged_bot())
        .arg("probe-namespaces")
        .output();
    match probe {
        Ok(out) if out.status.success() => found.push(Way::Unprivileged),
        Ok(out) => skipped.push(format!(
            "{test}as an unprivileged user with namespaces: {}",
            String::from_utf8_lossy(&out.stdout).trim()
        )),
        Err(e) => skipped.push(format!("{test}as an unprivileged user with namespaces: {e}")),
    }
    found.push(Way::UnprivilegedNoNamespaces);
    (found, skipped)
}

/// A copy of the hostile bot an unprivileged user can run, for probing.
fn unprivileged_bot() -> PathBuf {
    let copy = unprivileged_arbiter().with_file_name(format!("hostile_bot-{}", std::process::id()));
    if !copy.exists() {
        fs::copy(hostile_bot(), &copy).unwrap();
        fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    }
    copy
}

/// Issue 20, attack 1: an answer server on a path-named UNIX socket, started by the test
/// outside the sandbox (in the test's folder and in the host's `/var/tmp`). Must hold: the bot
/// cannot connect, in every way.
#[test]
fn an_answer_server_on_a_unix_socket_is_out_of_reach() {
    for way in ways("an_answer_server_on_a_unix_socket_is_out_of_reach") {
        let lab = Lab::in_way(1, way);
        let places =
            [lab.path("server.sock"), PathBuf::from(format!("/var/tmp/answers-{}.sock", lab.marker))];
        for path in places {
            let server = std::os::unix::net::UnixListener::bind(&path).unwrap();
            server.set_nonblocking(true).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
            lab.set("HOSTILE_UNIX_PATH", &path.display().to_string());
            let r = lab.verify(&lab.command("network"), 2.0, &[]);
            let line = result_line(case(&r, 0));
            let reached = server.accept().is_ok();
            let _ = fs::remove_file(&path);
            assert_eq!(field(&line, "unix"), "denied", "{way:?} {}: {line}", path.display());
            assert!(!reached, "{way:?}: the bot reached the answer server at {}", path.display());
        }
    }
}

/// Issue 20, attack 2: golden answers in a folder of their own (as a course keeps them under
/// `/opt`), graded with `grade`, which hides only the corpus and the reports. Must hold: the
/// bot reads none of them.
#[test]
fn golden_answers_kept_elsewhere_cannot_be_read_in_grade() {
    for way in ways("golden_answers_kept_elsewhere_cannot_be_read_in_grade") {
        let lab = Lab::in_way(1, way);
        let golden = lab.path("opt/course/golden/grade4/white/01.json");
        fs::create_dir_all(golden.parent().unwrap()).unwrap();
        fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/grade4/white/01.json"), &golden).unwrap();
        lab.open_up();
        lab.set_paths("HOSTILE_SECRETS", &[golden.clone(), lab.path("opt")]);
        let sub = lab.path("class/alice");
        lab.install(&sub.join("hostile_bot"));
        fs::copy(lab.path("bot/hostile.env"), sub.join("hostile.env")).unwrap();
        fs::write(
            sub.join("run"),
            format!("#!/bin/sh\nexec \"$(dirname \"$0\")/hostile_bot\" read-secrets {} \"$@\"\n", lab.marker),
        )
        .unwrap();
        lab.open_up();
        fs::set_permissions(sub.join("run"), fs::Permissions::from_mode(0o755)).unwrap();
        let report = lab.grade(&["class/alice"], 2.0, &[]);
        let line = result_line(&report["alice"]["cases"][0]);
        assert_eq!(number(&line, "read"), 0, "{way:?}: {line}");
    }
}

impl Lab {
    /// Runs `arbiter grade` on the lab's corpus with the given submission folders (relative),
    /// checks what every attack must leave intact, and returns each submission's report.json
    /// by name.
    fn grade(&self, submissions: &[&str], timeout: f64, extra: &[&str]) -> serde_json::Map<String, Value> {
        self.grade_run(submissions, timeout, extra).0
    }

    /// [`Lab::grade`], and what arbiter printed.
    fn grade_run(
        &self,
        submissions: &[&str],
        timeout: f64,
        extra: &[&str],
    ) -> (serde_json::Map<String, Value>, Run) {
        let timeout_arg = timeout.to_string();
        let mut args: Vec<OsString> = vec!["grade".into()];
        args.extend(submissions.iter().map(|s| OsString::from(self.path(s))));
        for a in ["--corpus", &self.corpus(), "--reports", &self.path("reports").display().to_string(), "-q"]
        {
            args.push(a.into());
        }
        args.extend(["--timeout".into(), timeout_arg.into()]);
        args.extend(extra.iter().map(OsString::from));
        let before = self.snapshot();
        let run = self.arbiter(&args, self.bound(timeout, self.cases * submissions.len()));
        assert_eq!(run.status, 0, "{:?}: {}", self.way, run.stderr);
        self.after(&before);
        let mut found = serde_json::Map::new();
        for s in submissions {
            let name = Path::new(s).file_name().unwrap().to_string_lossy().into_owned();
            let text = fs::read(self.path("reports").join(&name).join("report.json"))
                .unwrap_or_else(|e| panic!("{:?}: no report for {name}: {e}; {}", self.way, run.stderr));
            found.insert(name, serde_json::from_slice(&text).unwrap());
        }
        (found, run)
    }

    /// A submission folder `class/NAME` whose `run` runs the hostile bot's `attack`.
    fn submission(&self, name: &str, attack: &str) -> String {
        let folder = format!("class/{name}");
        let sub = self.path(&folder);
        self.install(&sub.join("hostile_bot"));
        if let Ok(env) = fs::read(self.path("bot/hostile.env")) {
            fs::write(sub.join("hostile.env"), env).unwrap();
        }
        let run =
            format!("#!/bin/sh\nexec \"$(dirname \"$0\")/hostile_bot\" {attack} {} \"$@\"\n", self.marker);
        fs::write(sub.join("run"), run).unwrap();
        fs::set_permissions(sub.join("run"), fs::Permissions::from_mode(0o755)).unwrap();
        self.open_up();
        folder
    }
}

/// Issue 20, attack 3: in one `grade` run, a submission folder named `bin` reads its
/// classmate's files, and a submission whose `run` is a link to a classmate's is refused.
/// Must hold: `bin` reads nothing of alice's; `eve` does not run, with a message saying why.
#[test]
fn classmates_cannot_read_each_other_in_grade() {
    for way in ways("classmates_cannot_read_each_other_in_grade") {
        let lab = Lab::in_way(1, way);
        let alice = lab.submission("alice", "unchanged");
        lab.set_paths("HOSTILE_SECRETS", &[lab.path("class/alice/run"), lab.path("class/alice")]);
        let bin = lab.submission("bin", "read-secrets");
        fs::create_dir_all(lab.path("class/eve")).unwrap();
        std::os::unix::fs::symlink(lab.path("class/alice/run"), lab.path("class/eve/run")).unwrap();
        lab.open_up();
        let report = lab.grade(&[&alice, &bin, "class/eve"], 2.0, &["--jobs", "2"]);
        let line = result_line(&report["bin"]["cases"][0]);
        assert_eq!(
            number(&line, "read"),
            0,
            "{way:?}: bin read its classmates: {}",
            report["bin"]["cases"][0]
        );
        let eve = report["eve"].to_string();
        assert!(eve.contains("symbolic link") && eve.contains("outside its own folder"), "{way:?}: {eve}");
    }
}

/// Issue 20, attack 4: in one `grade` run with two jobs, a submission that spins eight
/// processes in sessions of their own beside one that burns 0.6 s of CPU per case under a
/// 1.5 s limit. Must hold: the timed one passes every case (its time is its own CPU time; the
/// burner has its own share of the processors where a cgroup can be made).
#[test]
fn a_cpu_burner_does_not_time_out_its_classmate() {
    for way in ways("a_cpu_burner_does_not_time_out_its_classmate") {
        let lab = Lab::in_way(2, way);
        lab.set("HOSTILE_BURN_MS", "600");
        let timed = lab.submission("timed", "burn");
        let burner = lab.submission("burner", "burner");
        let report = lab.grade(&[&burner, &timed], 1.5, &["--jobs", "2"]);
        for case in report["timed"]["cases"].as_array().unwrap() {
            assert_eq!(case["verdict"], "unchanged", "{way:?}: {case}");
        }
        for case in report["burner"]["cases"].as_array().unwrap() {
            assert_eq!(case["verdict"], "timeout", "{way:?}: {case}");
            assert!(case["cpu_ms"].is_number(), "{way:?}: a timeout has its CPU time: {case}");
        }
    }
}

/// Issue 20, attack 5: 1.5 GiB held in a memfd (written, not mapped) and in socket buffers
/// nobody reads, under `--memory-mb 256`. Must hold: the run is stopped for memory, having
/// held no more than the cap and a margin (the watchdog samples; a cgroup counts the memfd at
/// once; socket buffers are bounded by the open-file limit).
#[test]
fn memory_hidden_in_memfd_and_sockets_is_counted() {
    for way in ways("memory_hidden_in_memfd_and_sockets_is_counted") {
        let lab = Lab::in_way(1, way);
        lab.set("HOSTILE_MEM_MB", "1536");
        let r = lab.verify(&lab.command("hidden-memory"), 3.0, &["--memory-mb", "256", "--max-file-kb", "0"]);
        let c = case(&r, 0);
        let peak = peak_mib(c, "held");
        note(&format!("  {way:?}: hidden memory: held {peak} MiB under a 256 MiB cap"));
        assert!(peak <= 256 + 160, "{way:?}: held {peak} MiB under a 256 MiB cap: {c}");
    }
}

/// Issue 20, attack 6: descriptors the grader holds, inherited. Must hold: the bot has none
/// but 0-2, in every way.
#[test]
fn no_descriptor_but_0_to_2_reaches_the_bot() {
    for way in ways("no_descriptor_but_0_to_2_reaches_the_bot") {
        let lab = Lab::in_way(1, way);
        let r = lab.verify(&lab.command("fds"), 2.0, &[]);
        let line = result_line(case(&r, 0));
        assert_eq!((number(&line, "open"), number(&line, "written")), (0, 0), "{way:?}: {line}");
    }
}

/// Issue 20, attack 7: reading `/etc/shadow` (and other root-only files) with arbiter run as
/// root. Must hold: the bot is never uid 0 and reads none of them.
#[test]
fn the_bot_is_never_root_and_reads_no_password_hashes() {
    for way in ways("the_bot_is_never_root_and_reads_no_password_hashes") {
        let lab = Lab::in_way(1, way);
        let r = lab.verify(&lab.command("shadow"), 2.0, &[]);
        let c = case(&r, 0);
        let line = result_line(c);
        assert_ne!(number(&line, "uid"), 0, "{way:?}: {line}");
        assert_eq!(number(&line, "read"), 0, "{way:?}: {c}");
    }
}

/// Issue 20, attack 8: variables that share a prefix with a runtime's (`NODE_AUTH_TOKEN`,
/// `PYTHON_KEYRING_PASSWORD`) in the grader's environment. Must hold: only allow-listed names
/// reach the bot, and `--env` adds exactly the names it is given.
#[test]
fn the_environment_is_an_exact_allow_list() {
    for way in ways("the_environment_is_an_exact_allow_list") {
        let lab = Lab::in_way(1, way);
        let mut args: Vec<OsString> =
            ["verify", &lab.corpus(), "--bot", &lab.command("env"), "--json", "-q", "--env", "GIVEN=1"]
                .map(OsString::from)
                .to_vec();
        args.extend(["--timeout".into(), "2".into()]);
        let mut command = lab.way.command();
        command.args(&args).current_dir(lab.root()).env("TMPDIR", lab.path("cases"));
        for secret in ["NODE_AUTH_TOKEN", "PYTHON_KEYRING_PASSWORD", "DOTNET_API_KEY", "PYENV_GITHUB_TOKEN"] {
            command.env(secret, "s3cret");
        }
        let out = command.output().unwrap();
        let r: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{way:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let line = result_line(case(&r, 0));
        let names: Vec<&str> = field(&line, "names").split(',').collect();
        for secret in ["NODE_AUTH_TOKEN", "PYTHON_KEYRING_PASSWORD", "DOTNET_API_KEY", "PYENV_GITHUB_TOKEN"] {
            assert!(!names.contains(&secret), "{way:?}: {secret} reached the bot: {line}");
        }
        assert!(names.contains(&"GIVEN") && names.contains(&"PATH"), "{way:?}: {line}");
    }
}

/// Issue 20, attack 9: `/proc/self/mountinfo` names the corpus, golden answers and reports.
/// Must hold: with namespaces, no line names the test's folder; without, the host's table names
/// none of them either (they are not mount points).
#[test]
fn mountinfo_names_nothing_of_the_graders() {
    for way in ways("mountinfo_names_nothing_of_the_graders") {
        let lab = Lab::in_way(1, way);
        lab.set("HOSTILE_ROOT", &lab.root().display().to_string());
        let r = lab.verify(&lab.command("mountinfo"), 2.0, &[]);
        let line = result_line(case(&r, 0));
        // The bot's own program folder is bound at its own path (so its `#!` lines work): one
        // line may name it, none anything else.
        assert!(number(&line, "mentions") <= 2, "{way:?}: {line}");
        let corpus = lab.path("corpus").display().to_string();
        assert!(!case(&r, 0).to_string().contains(&format!("{corpus} ")), "{way:?}");
    }
}

/// Issue 20, attack 10: what worked without namespaces: datagrams out (IPv4, IPv6, a name
/// server), System V segments left behind, a gigabyte and 20,000 files in `/tmp`, a tree 62,750
/// folders deep in the case folder. Must hold, in every way: nothing is sent, no segment
/// survives the run, the host's `/tmp` gets nothing and the case stays within its disk limit,
/// and arbiter finishes normally with the deep tree removed.
#[test]
fn the_no_namespace_attacks_fail_in_every_way() {
    for way in ways("the_no_namespace_attacks_fail_in_every_way") {
        let lab = Lab::in_way(1, way);
        let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_nonblocking(true).unwrap();
        lab.set("HOSTILE_UDP_PORT", &udp.local_addr().unwrap().port().to_string());
        let r = lab.verify(&lab.command("udp"), 2.0, &[]);
        let line = result_line(case(&r, 0));
        assert_eq!(
            (field(&line, "v4"), field(&line, "v6"), field(&line, "dns")),
            ("denied", "denied", "denied"),
            "{way:?}: {line}"
        );
        assert!(udp.recv_from(&mut [0; 16]).is_err(), "{way:?}: a datagram got out");

        let segments = || fs::read_to_string("/proc/sysvipc/shm").map_or(0, |t| t.lines().count());
        let before = segments();
        let r = lab.verify(&lab.command("sysv"), 2.0, &[]);
        assert_eq!(segments(), before, "{way:?}: a System V segment outlived the run: {}", case(&r, 0));

        let r = lab.verify(&lab.command("tmp-flood"), 3.0, &["--max-disk-mb", "16", "--max-file-kb", "0"]);
        let c = case(&r, 0);
        let leaked: Vec<_> = fs::read_dir("/tmp")
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(&lab.marker))
            .map(|e| e.path())
            .collect();
        for path in &leaked {
            let _ = fs::remove_file(path);
        }
        assert!(leaked.is_empty(), "{way:?}: {} files reached the host's /tmp", leaked.len());
        if c["verdict"] == "crash" {
            // Without a tmpfs, the sandbox counts the case folder and kills the run at the limit.
            assert!(c["process"].as_str().unwrap().contains("in its case folder"), "{way:?}: {c}");
        } else {
            // Two rounds (/tmp, then TMPDIR, which may be /tmp again), each within the limits.
            let line = result_line(c);
            assert!(number(&line, "mib") <= 2 * 17 && number(&line, "files") <= 2 * 4200, "{way:?}: {line}");
        }

        let r = lab.verify(&lab.command("deep"), 5.0, &["--max-disk-mb", "1024"]);
        let c = case(&r, 0);
        assert!(["no-output", "crash"].contains(&c["verdict"].as_str().unwrap()), "{way:?}: {c}");
    }
}

/// Issue 20, attack 10 (and 2 again, in every way): a daemon left running after a timeout.
/// Must hold: nothing survives the case (checked by `Lab::verify`), the verdict a timeout with
/// its CPU time.
#[test]
fn a_daemon_does_not_outlive_a_timeout_in_any_way() {
    for way in ways("a_daemon_does_not_outlive_a_timeout_in_any_way") {
        let lab = Lab::in_way(1, way);
        let r = lab.verify(&lab.command("daemon-hang"), 0.5, &[]);
        let c = case(&r, 0);
        assert_eq!(c["verdict"], "timeout", "{way:?}: {c}");
        assert!(c["cpu_ms"].is_number(), "{way:?}: {c}");
    }
}

/// Issue 20, attack 10: in one `grade` run, a submission makes its classmate's `run` and the
/// reports folder unusable (`chmod 000`, times, extended attributes). Must hold: nothing
/// changes, the classmate is graded, and `grade` ends normally.
#[test]
fn chmod_on_classmates_and_reports_fails_in_every_way() {
    for way in ways("chmod_on_classmates_and_reports_fails_in_every_way") {
        let lab = Lab::in_way(1, way);
        let alice = lab.submission("alice", "unchanged");
        lab.set_paths(
            "HOSTILE_TARGETS",
            &[lab.path("class/alice/run"), lab.path("class/alice"), lab.path("reports")],
        );
        let mallory = lab.submission("mallory", "metadata");
        let reports_mode = fs::metadata(lab.path("reports")).unwrap().permissions().mode();
        let report = lab.grade(&[&mallory, &alice], 2.0, &["--jobs", "2"]);
        let line = result_line(&report["mallory"]["cases"][0]);
        assert_eq!((number(&line, "chmod"), number(&line, "xattr")), (0, 0), "{way:?}: {line}");
        assert_eq!(fs::metadata(lab.path("reports")).unwrap().permissions().mode(), reports_mode, "{way:?}");
        assert_eq!(report["alice"]["cases"][0]["verdict"], "unchanged", "{way:?}: {}", report["alice"]);
    }
}

/// Interactive runs in every way: a shell loop that answers each line, kept alive between
/// requests, with its CPU time readable throughout and every process gone at the end.
#[test]
fn an_interactive_bot_runs_in_every_way() {
    for way in ways("an_interactive_bot_runs_in_every_way") {
        // In-process runs need the zygote's user and environment to be this process's: the
        // unprivileged ways are run through the command line only.
        if way.unprivileged() || !way.namespaces() {
            continue;
        }
        let lab = Lab::in_way(1, way);
        let script = lab.path("bot/echo.sh");
        fs::write(&script, format!("#!/bin/sh\n# {}\nwhile read l; do echo \"ok $l\"; done\n", lab.marker))
            .unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        let command =
            arbiter::harness::runner::BotCommand::parse_in(&script.display().to_string(), lab.root())
                .unwrap();
        let mut limits = arbiter::harness::runner::Limits::default();
        limits.sandbox.mode = arbiter::harness::sandbox::Mode::Auto;
        limits.sandbox.helper = Some(PathBuf::from(env!("CARGO_BIN_EXE_arbiter")));
        let case_dir = tempfile::tempdir_in(lab.path("cases")).unwrap();
        let mut session =
            arbiter::harness::runner::Interactive::spawn(&command, &[], case_dir.path(), &limits).unwrap();
        for n in 0..20 {
            session.send(format!("{n}\n").as_bytes()).unwrap();
            let got = session.recv_line(Instant::now() + Duration::from_secs(5));
            assert_eq!(got, arbiter::harness::runner::Recv::Line(format!("ok {n}").into_bytes()), "{way:?}");
        }
        let _ = session.cpu_time();
        let report = session.finish();
        assert!(report.cpu_time.is_some(), "{way:?}");
        assert!(!report.events.is_empty(), "{way:?}: the sandbox reported nothing");
    }
}

// ---------------------------------------------------------------------------------------------
// Issues 30 and 31: what a submission names is resolved for real, an honest bot never fails
// because of the sandbox, and a grader's failure is never the bot's.

/// The `--sandbox` modes to try `way` in: `auto` always, `strict` where it can be met (as root
/// with namespaces: an unprivileged grader here gets no cgroup), said to be skipped otherwise.
fn modes(test: &str, way: Way) -> Vec<&'static str> {
    if way == Way::Namespaces {
        vec!["auto", "strict"]
    } else {
        note(&format!(
            "SKIPPED: {test} {way:?} --sandbox strict: it cannot be met this way (no namespaces or no cgroup)"
        ));
        vec!["auto"]
    }
}

/// Writes an executable shell script.
fn script(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Issue 30, item 2: a submission's `run` calls `python3`, a link to `d/../../../bin/python3`
/// with `d` itself a link three folders deep inside the submission. Read as text, the path is
/// the course folder's `bin/python3`, whose installation (the course folder, with its corpus and
/// golden answers) the old sandbox bound for the bot; for real it is the submission's own
/// `bin/python3`, which reads the golden answers if it can. A classmate's `run` names the course
/// folder's `bin/python3` outright. Must hold, in `grade`, in every way and mode: alice's
/// interpreter runs (an honest answer) and reads no golden answer; bob is refused before any
/// case with the reason.
#[test]
fn an_interpreter_named_through_links_reaches_no_golden_answer() {
    let test = "an_interpreter_named_through_links_reaches_no_golden_answer";
    for way in ways(test) {
        for mode in modes(test, way) {
            let lab = Lab::in_way(1, way);
            let golden = golden_beside(&lab);
            let reader = format!(
                "#!/bin/sh\nif head -c 1 {} >/dev/null 2>&1; then r=1; else r=0; fi\n\
                 echo \"RESULT chain: read=$r\" >&2\ncp \"$2\" \"$3\"\n",
                golden.display()
            );
            let alice = lab.path("class/alice");
            script(&alice.join("bin/python3"), &reader);
            script(&lab.path("bin/python3"), &reader);
            fs::create_dir_all(alice.join("x/y/z")).unwrap();
            std::os::unix::fs::symlink("x/y/z", alice.join("d")).unwrap();
            std::os::unix::fs::symlink("d/../../../bin/python3", alice.join("python3")).unwrap();
            script(
                &alice.join("run"),
                &format!("#!/bin/sh\nexec {} \"$@\"\n", alice.join("python3").display()),
            );
            let bob = lab.path("class/bob");
            script(
                &bob.join("run"),
                &format!("#!/bin/sh\nexec {} \"$@\"\n", lab.path("bin/python3").display()),
            );
            lab.open_up();
            let report = lab.grade(&["class/alice", "class/bob"], 2.0, &["--sandbox", mode]);
            let c = &report["alice"]["cases"][0];
            assert_eq!(number(&result_line(c), "read"), 0, "{way:?} {mode}: {c}");
            assert_eq!(c["verdict"], "unchanged", "{way:?} {mode}: the student's own interpreter runs: {c}");
            let refused = report["bob"]["refused"].as_str().unwrap_or_default();
            assert!(refused.contains("belongs to the installation"), "{way:?} {mode}: {}", report["bob"]);
        }
    }
}

/// Issue 30, item 2 (Landlock alone): `verify --bot ./mybot` in the course folder, whose own
/// folder holds the corpus and the golden answers. Without namespaces nothing can cover them:
/// the rule for the folder is narrowed to its other entries. Must hold, in every way: the bot
/// reads neither.
#[test]
fn a_bot_folder_holding_the_answers_shows_none_of_them_in_any_way() {
    let test = "a_bot_folder_holding_the_answers_shows_none_of_them_in_any_way";
    for way in ways(test) {
        for mode in modes(test, way) {
            let lab = Lab::in_way(1, way);
            let secrets = [lab.path("corpus/grade4/white/01.txt"), golden_beside(&lab)];
            lab.set_paths("HOSTILE_SECRETS", &secrets);
            lab.install(&lab.path("mybot"));
            fs::copy(lab.path("bot/hostile.env"), lab.path("hostile.env")).unwrap();
            lab.open_up();
            let r = lab.verify(&format!("./mybot read-secrets {}", lab.marker), 2.0, &["--sandbox", mode]);
            let line = result_line(case(&r, 0));
            assert_eq!(number(&line, "read"), 0, "{way:?} {mode}: {}", case(&r, 0));
            assert!(number(&line, "tried") >= 2, "{way:?} {mode}: {line}");
        }
    }
}

/// Issue 30, item 7: four processes of 384 MiB each under `--memory-mb 512`, two made
/// non-dumpable with `prctl`, two by executing an execute-only copy of the bot, so that a helper
/// without the right to trace them cannot read their memory maps. Must hold, in every way: the
/// run is stopped for memory, having held no more than the cap and a margin.
#[test]
fn memory_of_non_dumpable_processes_is_counted() {
    for way in ways("memory_of_non_dumpable_processes_is_counted") {
        let lab = Lab::in_way(1, way);
        lab.set("HOSTILE_MEM_MB", "384");
        let r = lab.verify(&lab.command("nondumpable"), 5.0, &["--memory-mb", "512", "--max-file-kb", "0"]);
        let c = case(&r, 0);
        let peak = peak_mib(c, "held");
        note(&format!("  {way:?}: non-dumpable memory: held {peak} MiB under a 512 MiB cap"));
        assert_eq!(c["verdict"], "crash", "{way:?}: {c}");
        assert!(c["process"].as_str().unwrap_or("").contains("memory"), "{way:?}: {c}");
        // The helper's watch looks every 10 ms, when the machine lets it: its margin grows with
        // the load, up to well below the 1536 MiB held were any process not counted.
        let margin = (160.0 * slowdown().min(4.0)) as u64;
        assert!(peak <= 512 + margin, "{way:?}: held {peak} MiB under a 512 MiB cap (+{margin}): {c}");
    }
}

/// Issue 30, item 7: without a PID namespace of its own, the bot reads every process's command
/// line in `/proc` (the grader's names its corpus and reports). Must hold, in every way and
/// mode: no other process's command line naming the test's folder is read, and the bot still
/// reads its own `/proc/self`. With `--sandbox off` (as root) it reads them, which shows the
/// attack is real.
#[test]
fn other_processes_are_out_of_sight_in_every_way() {
    let test = "other_processes_are_out_of_sight_in_every_way";
    for way in ways(test) {
        for mode in modes(test, way) {
            let lab = Lab::in_way(1, way);
            lab.set("HOSTILE_ROOT", &lab.root().display().to_string());
            let r = lab.verify(&lab.command("proc-peek"), 2.0, &["--sandbox", mode]);
            let line = result_line(case(&r, 0));
            assert_eq!(number(&line, "leaks"), 0, "{way:?} {mode}: {line}");
            assert_eq!(field(&line, "own"), "true", "{way:?} {mode}: {line}");
        }
        if way == Way::NoNamespaces {
            let lab = Lab::in_way(1, way);
            lab.set("HOSTILE_ROOT", &lab.root().display().to_string());
            lab.assert_works_without_sandbox("proc-peek", "leaks");
        }
    }
}

/// Issue 31: with `--sandbox off`, a child that leaves the bot's session (setsid, a double fork)
/// and burns CPU while the bot answers and exits. Must hold where a cgroup can be made (as root):
/// the child's CPU time is charged to the case and it does not outlive it (`Lab::verify` checks
/// for survivors); where none can be (unprivileged), the report's header says detached processes
/// are not tracked.
#[test]
fn a_detached_process_is_charged_and_killed_without_the_sandbox() {
    for way in ways("a_detached_process_is_charged_and_killed_without_the_sandbox") {
        let lab = Lab::in_way(1, way);
        if way.unprivileged() {
            let r = lab.verify(&lab.command("unchanged"), 2.0, &["--sandbox", "off"]);
            let missing = r["sandbox"]["missing"].to_string();
            let tracked = r["sandbox"]["layers"].to_string().contains("still charged and killed");
            assert!(tracked || missing.contains("neither charged nor killed"), "{way:?}: {}", r["sandbox"]);
            continue;
        }
        let r = lab.verify(&lab.command("detached-burn"), 5.0, &["--sandbox", "off"]);
        let c = case(&r, 0);
        assert_eq!(c["verdict"], "unchanged", "{way:?}: {c}");
        assert!(
            r["sandbox"]["layers"].to_string().contains("still charged and killed"),
            "{way:?}: {}",
            r["sandbox"]
        );
        assert!(
            c["cpu_ms"].as_u64().unwrap_or(0) >= 50,
            "{way:?}: the detached child's CPU is the case's: {c}"
        );
    }
}

/// Issue 31: as root, a bot in a folder only root may read (`mktemp -d`, mode 0700) with a
/// data file of mode 0600: the bot's own user cannot read them, so the sandbox gives it a copy.
/// Must hold, in every way as root and every mode: the bot runs and reads its file (an honest
/// answer), and the copy is gone when arbiter ends (`Lab::verify` checks that arbiter's
/// temporary folder is empty).
#[test]
fn a_bot_in_a_closed_folder_runs_as_root() {
    let test = "a_bot_in_a_closed_folder_runs_as_root";
    for way in ways(test) {
        if way.unprivileged() {
            note(&format!(
                "SKIPPED: {test} {way:?}: an unprivileged grader's bots run as the grader (or mapped to it), \
                 so what the grader can read they can"
            ));
            continue;
        }
        for mode in modes(test, way) {
            let lab = Lab::in_way(1, way);
            let closed = lab.path("closed/bot");
            script(
                &closed.join("run"),
                "#!/bin/sh\nread x < \"$(dirname \"$0\")/data.txt\"\necho \"RESULT closed: data=$x\" >&2\n\
                 cp \"$2\" \"$3\"\n",
            );
            fs::write(closed.join("data.txt"), "42\n").unwrap();
            for (path, mode) in
                [(closed.join("data.txt"), 0o600), (closed.join("run"), 0o700), (closed.clone(), 0o700)]
            {
                fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
            }
            let r = lab.verify(&closed.join("run").display().to_string(), 2.0, &["--sandbox", mode]);
            let c = case(&r, 0);
            assert_eq!(c["verdict"], "unchanged", "{way:?} {mode}: {c}");
            assert_eq!(field(&result_line(c), "data"), "42", "{way:?} {mode}: {c}");
        }
    }
}

/// Issue 31: `verify ../corpus --bot ../sub/run` from another folder, the bot's path relative
/// and through `..`. Must hold, in every way and mode (and off): the bot runs.
#[test]
fn a_relative_bot_path_works_from_another_folder() {
    let test = "a_relative_bot_path_works_from_another_folder";
    for way in ways(test) {
        let mut all = modes(test, way);
        all.push("off");
        for mode in all {
            let lab = Lab::in_way(1, way);
            script(&lab.path("sub/run"), "#!/bin/sh\ncp \"$2\" \"$3\"\n");
            fs::create_dir_all(lab.path("work")).unwrap();
            lab.open_up();
            let args: Vec<OsString> =
                ["verify", "../corpus", "--bot", "../sub/run", "--json", "-q", "--sandbox", mode]
                    .map(OsString::from)
                    .to_vec();
            let run = lab.arbiter_in(&lab.path("work"), &args, lab.bound(2.0, 1));
            let r: Value = serde_json::from_slice(&run.stdout)
                .unwrap_or_else(|e| panic!("{way:?} {mode}: {e}: {}", run.stderr));
            assert_eq!(case(&r, 0)["verdict"], "unchanged", "{way:?} {mode}: {}", case(&r, 0));
        }
    }
}

/// Issue 31: a sandbox that cannot be set up (here on purpose, `ARBITER_SANDBOX_FAIL_SETUPS`,
/// as a host `/etc/passwd` rewritten at that moment once did) ran nothing of the bot. Must hold,
/// in every way: a single failure is tried again and the case judged as usual; failures that
/// persist make every case a grader error, counted apart in every report (JSON, JUnit,
/// Gradescope, the gradebook) and never a crash.
#[test]
fn a_sandbox_that_cannot_be_set_up_is_the_graders_error() {
    for way in ways("a_sandbox_that_cannot_be_set_up_is_the_graders_error") {
        let mut lab = Lab::in_way(2, way);
        lab.env = vec![("ARBITER_SANDBOX_FAIL_SETUPS".into(), "1".into())];
        let r = lab.verify(&lab.command("unchanged"), 2.0, &[]);
        for i in 0..2 {
            assert_eq!(case(&r, i)["verdict"], "unchanged", "{way:?}: tried again: {}", case(&r, i));
        }

        lab.env = vec![("ARBITER_SANDBOX_FAIL_SETUPS".into(), "1000".into())];
        let (args, gradescope, junit) = lab.verify_args(&lab.command("unchanged"));
        let run = lab.arbiter(&args, lab.bound(2.0, 2));
        let r: Value =
            serde_json::from_slice(&run.stdout).unwrap_or_else(|e| panic!("{way:?}: {e}: {}", run.stderr));
        assert_eq!(r["grader_errors"], 2, "{way:?}: {r}");
        for i in 0..2 {
            let c = case(&r, i);
            assert_eq!(c["verdict"], "grader-error", "{way:?}: {c}");
            assert!(c["reason"].as_str().unwrap().contains("not the bot"), "{way:?}: {c}");
        }
        let xml = fs::read_to_string(&junit).unwrap();
        assert_eq!(xml.matches("<error type=\"grader-error\"").count(), 2, "{way:?}: {xml}");
        assert!(!xml.contains("type=\"crash\""), "{way:?}: {xml}");
        junit::assert_valid(&xml);
        let g: Value = serde_json::from_slice(&fs::read(&gradescope).unwrap()).unwrap();
        assert!(g["output"].as_str().unwrap().contains("GRADER ERROR: 2 case(s)"), "{way:?}: {g}");

        let sub = lab.submission("alice", "unchanged");
        let report = lab.grade(&[&sub], 2.0, &[]);
        assert_eq!(report["alice"]["grader_errors"], 2, "{way:?}: {}", report["alice"]);
        let book = fs::read_to_string(lab.path("reports/gradebook.csv")).unwrap();
        let mut lines = book.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!((at("grader_errors"), at("not_run"), at("cases_run")), ("2", "0", "0"), "{way:?}: {book}");
    }
}

/// Issue 30, item 8: chess-a1 (a Python module run by arbiter's Python host) as root, with the
/// grader's `python3` wherever `PATH` finds it (on the machine this was written on, a pyenv
/// under `/root`, mode 0700). Must hold: with namespaces every case passes; without, every case
/// passes, or (the bot's user unable to reach the interpreter) the submission is refused before
/// any case with the folder in the way, its mode and the fix, never "ended without answering".
#[test]
fn chess_a1_with_the_graders_own_python_runs_or_says_why() {
    let test = "chess_a1_with_the_graders_own_python_runs_or_says_why";
    let python = Command::new("sh").args(["-c", "command -v python3"]).output();
    if !python.is_ok_and(|o| o.status.success()) {
        note(&format!("SKIPPED: {test}: no python3 on PATH"));
        return;
    }
    for way in ways(test) {
        if way.unprivileged() {
            note(&format!(
                "SKIPPED: {test} {way:?}: the issue is a root grader's; an unprivileged one runs bots as itself"
            ));
            continue;
        }
        let lab = Lab::in_way(1, way);
        let r = chess_a1_verify(&lab, way);
        let verdicts: Vec<&str> =
            r["cases"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap()).collect();
        match r["refused"].as_str() {
            Some(why) if !way.namespaces() => {
                note(&format!("  {way:?}: refused: {why}"));
                assert!(why.contains("by others") && why.contains("chmod"), "{way:?}: {why}");
                assert!(!why.contains("ended without answering"), "{way:?}: {why}");
            }
            _ => assert_eq!(verdicts, ["pass", "pass"], "{way:?}: {r}"),
        }
    }
}

/// Runs `verify` on two chess-a1 cases (arbiter's Python host) with a correct module, as
/// `--json`; the parsed report.
fn chess_a1_verify(lab: &Lab, way: Way) -> Value {
    let corpus = lab.path("chess/main/white");
    fs::create_dir_all(&corpus).unwrap();
    for n in ["001", "002"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("corpus/chess-a1/main/white/{n}.txt"));
        fs::copy(from, corpus.join(format!("{n}.txt"))).unwrap();
    }
    let module = lab.path("sub/a1.py");
    fs::create_dir_all(module.parent().unwrap()).unwrap();
    fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess-a1/correct/a1.py"), &module)
        .unwrap();
    lab.open_up();
    let args: Vec<OsString> = ["--game", "chess-a1", "verify", &lab.path("chess").display().to_string()]
        .into_iter()
        .chain(["--bot", &module.display().to_string(), "--json", "-q", "--timeout", "5"])
        .map(OsString::from)
        .collect();
    let run = lab.arbiter(&args, lab.bound(5.0, 2));
    serde_json::from_slice(&run.stdout).unwrap_or_else(|e| panic!("{way:?}: {e}: {}", run.stderr))
}

/// Issue 31: a session with a hosted bot (chess-a1's Python host) whose sandbox cannot be set
/// up (on purpose, `ARBITER_SANDBOX_FAIL_SETUPS`). Must hold, in every way where python3 can
/// be run by the bot: one failure is tried again and every case passes; failures that persist
/// are said to be the grader's, never "ended without answering".
#[test]
fn a_hosted_session_whose_sandbox_cannot_be_set_up_is_tried_again() {
    let test = "a_hosted_session_whose_sandbox_cannot_be_set_up_is_tried_again";
    if !have_tools(&["python3"], test) {
        return;
    }
    for way in ways(test) {
        let mut lab = Lab::in_way(1, way);
        lab.env = vec![("ARBITER_SANDBOX_FAIL_SETUPS".into(), "1".into())];
        let r = chess_a1_verify(&lab, way);
        if let Some(why) = r["refused"].as_str() {
            note(&format!("SKIPPED: {test} {way:?}: the bot's user cannot run python3 here: {why}"));
            continue;
        }
        let verdicts: Vec<&str> =
            r["cases"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap()).collect();
        assert_eq!(verdicts, ["pass", "pass"], "{way:?}: tried again: {r}");

        let mut lab = Lab::in_way(1, way);
        lab.env = vec![("ARBITER_SANDBOX_FAIL_SETUPS".into(), "1000".into())];
        let r = chess_a1_verify(&lab, way);
        let text = r.to_string();
        assert!(text.contains("the grader failed, not the bot"), "{way:?}: {r}");
        assert!(!text.contains("ended without answering"), "{way:?}: {r}");
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 30: the files a submission brings (docs/SUBMISSION_FILES.md), in every mode.

/// The modes for the attacks on a submission's files: every way of [`ways`] with the default
/// sandbox, `--sandbox strict` where this machine allows it, and `--sandbox off` (arbiter's own
/// reading of a submission's files must not depend on the sandbox).
fn file_modes(test: &str) -> Vec<(Way, Vec<&'static str>)> {
    let mut modes = Vec::new();
    for way in ways(test) {
        modes.push((way, Vec::new()));
        if way == Way::Namespaces {
            let mut limits = arbiter::harness::runner::Limits::default();
            limits.sandbox.mode = arbiter::harness::sandbox::Mode::Strict;
            limits.sandbox.helper = Some(PathBuf::from(env!("CARGO_BIN_EXE_arbiter")));
            match arbiter::harness::sandbox::probe(&limits) {
                Ok(_) => modes.push((way, vec!["--sandbox", "strict"])),
                Err(why) => note(&format!("SKIPPED: {test} with --sandbox strict: {why}")),
            }
        }
    }
    modes.push((Way::Namespaces, vec!["--sandbox", "off"]));
    modes
}

/// Whether `tools` are installed (else says the test is skipped).
fn have_tools(tools: &[&str], test: &str) -> bool {
    match tools.iter().find(|t| arbiter::harness::host::tools::find(t).is_none()) {
        Some(missing) => {
            note(&format!("SKIPPED: {test}: `{missing}` is not installed"));
            false
        }
        None => true,
    }
}

/// Writes `text` to `path` as a file only the grader may read: mode 0600, owned by the user
/// arbiter runs as in `way` (the sandbox runs bots as another, or keeps them out by Landlock
/// or its own root). Call after the lab's last `open_up`.
fn grader_only(path: &Path, text: &str, way: Way) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o600)).unwrap();
    if way.unprivileged() {
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

impl Lab {
    /// Replaces the lab's corpus with `cases` (paths under the repository's `corpus/GAME/`) and
    /// their golden answers.
    fn game_corpus(&self, game: &str, cases: &[&str]) {
        fs::remove_dir_all(self.path("corpus")).unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for case in cases {
            for (kind, ending) in [("corpus", "txt"), ("golden", "json")] {
                let to = self.path(&format!("{kind}/{case}.{ending}"));
                fs::create_dir_all(to.parent().unwrap()).unwrap();
                fs::copy(repo.join(format!("{kind}/{game}/{case}.{ending}")), &to).unwrap();
            }
        }
    }

    /// Every file under `reports/` (but those under `reports/<allowed>/`) that holds `secret`,
    /// and whether arbiter's own output does.
    fn leaks(&self, run: &Run, secret: &str, allowed: Option<&str>) -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(self.path("reports"))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .filter(|e| !allowed.is_some_and(|a| e.path().starts_with(self.path("reports").join(a))))
            .filter(|e| String::from_utf8_lossy(&fs::read(e.path()).unwrap_or_default()).contains(secret))
            .map(|e| e.path().display().to_string())
            .collect();
        if String::from_utf8_lossy(&run.stdout).contains(secret) || run.stderr.contains(secret) {
            found.push("arbiter's output".to_string());
        }
        found
    }
}

/// A chess-a1 module that prints every other `.py` file beside it (but the support module) on
/// its first line: a copy made through a link would show in its report's first difference.
const PEEK_A1: &str = r#"import os
HERE = os.path.dirname(os.path.abspath(__file__))

def main():
    seen = []
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".py") and name not in ("a1.py", "a1_support.py"):
            try:
                with open(os.path.join(HERE, name), errors="replace") as f:
                    seen.append(name + " " + f.read(300))
            except Exception as e:
                seen.append(name + " " + type(e).__name__)
    print(" | ".join(seen).replace("\n", " "))

if __name__ == "__main__":
    main()
"#;

/// Issue 30, attack 1: chess-a1 submissions whose module reads what links beside it name:
/// `g_1.py` to answers in the golden folder beside the corpus (readable, in a folder the
/// sandbox hides), `g_2.py` to a file only the grader may read, `a1.py` itself a link to a classmate's, `big.py` a link to a 1 GiB file;
/// and one bringing a 17 MiB `huge.py` of its own. Must hold, in every mode: each is refused
/// before any case, naming the link and its target (or the file and its size); no answer,
/// secret or classmate's code is in any report or output; the classmate, whose folder holds a
/// link to a sibling, passes (the host works in this mode).
///
/// arbiter gets the system's `python3` (`PATH=/usr/local/bin:/usr/bin:/bin`): one installed
/// under root's home (pyenv) cannot be run by the sandbox's own user without namespaces, which
/// is another attack's test.
#[test]
fn links_in_a_python_submission_are_never_followed_out_of_it() {
    const TEST: &str = "links_in_a_python_submission_are_never_followed_out_of_it";
    let path = "/usr/local/bin:/usr/bin:/bin";
    if !std::env::split_paths(path).any(|d| d.join("python3").exists()) {
        note(&format!("SKIPPED: {TEST}: no python3 in {path}"));
        return;
    }
    let outside = tempfile::Builder::new().prefix("big-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let big = outside.path().join("big.bin");
    fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
    for (way, extra) in file_modes(TEST) {
        let mut lab = Lab::in_way(1, way);
        lab.env.push(("PATH".into(), path.into()));
        lab.game_corpus("chess-a1", &["main/white/001"]);
        let (answers, secret, classmate) = (
            format!("GOLDEN-{}", lab.marker),
            format!("GRADER-{}", lab.marker),
            format!("CLASSMATE-{}", lab.marker),
        );
        let correct = fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess-a1/correct/a1.py"),
        )
        .unwrap();
        let sub = |name: &str| {
            let dir = lab.path(&format!("class/{name}"));
            fs::create_dir_all(&dir).unwrap();
            dir
        };
        fs::write(sub("alice").join("a1.py"), format!("{correct}\n# {classmate}\n")).unwrap();
        std::os::unix::fs::symlink("a1.py", sub("alice").join("same.py")).unwrap();
        let links: [(&str, &str, PathBuf); 4] = [
            ("golden", "g_1.py", PathBuf::from("../../golden/answers.json")),
            ("grader", "g_2.py", lab.path("secret/only-the-grader.txt")),
            ("copycat", "a1.py", PathBuf::from("../alice/a1.py")),
            ("biglink", "big.py", big.clone()),
        ];
        for (name, link, target) in &links {
            if *link != "a1.py" {
                fs::write(sub(name).join("a1.py"), PEEK_A1).unwrap();
            }
            std::os::unix::fs::symlink(target, sub(name).join(link)).unwrap();
        }
        fs::write(sub("huge").join("a1.py"), PEEK_A1).unwrap();
        fs::File::create(sub("huge").join("huge.py")).unwrap().set_len(17 << 20).unwrap();
        // Golden answers are readable files (the sandbox hides their folder from bots); the
        // secret is the grader's alone. Both made before the lab is opened up (which follows
        // links), the secret made the grader's own after.
        fs::write(lab.path("golden/answers.json"), format!("{{\"answer\": \"{answers}\"}}\n")).unwrap();
        let secret_path = lab.path("secret/only-the-grader.txt");
        grader_only(&secret_path, &format!("{secret}\n"), way);
        lab.open_up();
        grader_only(&secret_path, &format!("{secret}\n"), way);
        let names =
            ["class/alice", "class/golden", "class/grader", "class/copycat", "class/biglink", "class/huge"];
        let mut args = vec!["--game", "chess-a1", "--jobs", "2"];
        args.extend(&extra);
        let (report, run) = lab.grade_run(&names, 5.0, &args);
        let mode = format!("{way:?} {extra:?}");
        // What matters most first: nothing of the answers, the secret or the classmate's code.
        for token in [&answers, &secret] {
            assert_eq!(lab.leaks(&run, token, None), Vec::<String>::new(), "{mode}: {token} leaked");
        }
        assert_eq!(
            lab.leaks(&run, &classmate, Some("alice")),
            Vec::<String>::new(),
            "{mode}: alice's code leaked"
        );
        assert_eq!(report["alice"]["cases"][0]["verdict"], "pass", "{mode}: {}", report["alice"]);
        for (name, link, _) in &links {
            let text = report[*name].to_string();
            assert!(
                text.contains(&format!("{link} is a symbolic link to "))
                    && text.contains(", outside its own folder"),
                "{mode}: {name} is not refused for its link: {text}"
            );
            assert_eq!(report[*name]["cases"][0]["verdict"], "not-run", "{mode}: {text}");
        }
        let huge = report["huge"].to_string();
        assert!(
            huge.contains(
                "huge.py is 17825792 bytes, more than the 16777216 allowed for one file of a submission"
            ),
            "{mode}: {huge}"
        );
    }
}

/// Issue 30, attack 3: `grade --calibrate` on Pente submissions whose calibrate program leaves
/// `calibration.txt` as a link to a file only the grader may read, or as a FIFO, and whose bot
/// prints the file it is given. Must hold, in every mode: the file is refused by what it is,
/// the bot plays without it, no report folder gets a copy, the secret is in no report or
/// output, the run does not stall; a calibrate program that leaves a plain file gets it to its
/// bot and into its report folder.
#[test]
fn a_calibration_file_is_read_only_as_itself() {
    const TEST: &str = "a_calibration_file_is_read_only_as_itself";
    for (way, extra) in file_modes(TEST) {
        let lab = Lab::in_way(1, way);
        lab.game_corpus("pente", &["win/white/001"]);
        let secret = format!("CALIBRATION-SECRET-{}", lab.marker);
        let secret_path = lab.path("secret/calibration-secret.txt");
        let run = "#!/bin/sh\ncat calibration.txt >&2\ncat calibration.txt > output.txt\n";
        let calibrates = [
            ("linked", format!("ln -s {} calibration.txt", secret_path.display())),
            ("fifo", "mkfifo calibration.txt".to_string()),
            ("plain", "echo plain-calibration > calibration.txt".to_string()),
        ];
        for (name, calibrate) in &calibrates {
            let dir = lab.path(&format!("class/{name}"));
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join("calibrate"), format!("#!/bin/sh\n# {}\n{calibrate}\n", lab.marker)).unwrap();
            fs::write(dir.join("run"), run).unwrap();
        }
        lab.open_up();
        for (name, _) in &calibrates {
            for file in ["calibrate", "run"] {
                fs::set_permissions(
                    lab.path(&format!("class/{name}/{file}")),
                    fs::Permissions::from_mode(0o755),
                )
                .unwrap();
            }
        }
        grader_only(&secret_path, &format!("{secret}\n"), way);
        let mut args = vec!["--game", "pente", "--calibrate"];
        args.extend(&extra);
        let (report, out) = lab.grade_run(&["class/linked", "class/fifo", "class/plain"], 2.0, &args);
        let mode = format!("{way:?} {extra:?}");
        let note = |name: &str| fs::read_to_string(lab.path(&format!("reports/{name}/grade.json"))).unwrap();
        assert!(note("linked").contains("calibration.txt is a symbolic link"), "{mode}: {}", note("linked"));
        assert!(
            note("fifo").contains("calibration.txt is a FIFO, not a regular file"),
            "{mode}: {}",
            note("fifo")
        );
        for name in ["linked", "fifo"] {
            assert!(!lab.path(&format!("reports/{name}/calibration.txt")).exists(), "{mode}: {name}");
            assert!(
                report[name]["cases"][0]["stderr_tail"].as_str().unwrap().contains("No such file"),
                "{mode}: {name}'s bot was given a calibration file: {}",
                report[name]
            );
        }
        assert_eq!(
            fs::read_to_string(lab.path("reports/plain/calibration.txt")).unwrap(),
            "plain-calibration\n",
            "{mode}"
        );
        assert!(
            report["plain"]["cases"][0]["stderr_tail"].as_str().unwrap().contains("plain-calibration"),
            "{mode}"
        );
        assert_eq!(lab.leaks(&out, &secret, None), Vec::<String>::new(), "{mode}: the secret leaked");
    }
}

/// A Network player that uses a class `Leak` (or `Helper`) of its own package.
fn player_using(class: &str) -> String {
    format!(
        "package player;\n\npublic class MachinePlayer extends Player {{\n  private {class} used;\n  \
         public MachinePlayer(int color) {{ this(color, 1); }}\n  \
         public MachinePlayer(int color, int depth) {{ myName = \"naive\"; }}\n  \
         public Move chooseMove() {{ return new Move(1, 1); }}\n  \
         public boolean opponentMove(Move m) {{ return true; }}\n  \
         public boolean forceMove(Move m) {{ return true; }}\n}}\n"
    )
}

/// Issue 30, attack 4: a Network submission whose `player/Leak.java`, used by its
/// `MachinePlayer`, is a link to a file only the grader may read (its first line a secret that
/// a compile error would quote), and one whose `player` folder is a link to a folder of such
/// files. Must hold, in every mode: the first is refused naming the link, the second holds no
/// submission (a linked folder is not entered); the secret is in no report or output; a classmate
/// whose `player/Helper.java` is a link to a file inside its own folder compiles (javac in the
/// sandbox) and plays.
#[test]
fn linked_java_sources_are_never_compiled_or_quoted() {
    const TEST: &str = "linked_java_sources_are_never_compiled_or_quoted";
    if !have_tools(&["java", "javac"], TEST) {
        return;
    }
    for (way, extra) in file_modes(TEST) {
        let lab = Lab::in_way(1, way);
        lab.game_corpus("network", &["accept/white/001"]);
        let secret = format!("JAVA-SECRET-{}", lab.marker);
        let honest = lab.path("class/honest/player");
        fs::create_dir_all(&honest).unwrap();
        fs::write(honest.join("MachinePlayer.java"), player_using("Helper")).unwrap();
        fs::write(lab.path("class/honest/Helper.java"), "package player;\nclass Helper {}\n").unwrap();
        std::os::unix::fs::symlink("../Helper.java", honest.join("Helper.java")).unwrap();
        let leak = lab.path("class/leak/player");
        fs::create_dir_all(&leak).unwrap();
        fs::write(leak.join("MachinePlayer.java"), player_using("Leak")).unwrap();
        std::os::unix::fs::symlink(lab.path("secret/Leak.java"), leak.join("Leak.java")).unwrap();
        fs::create_dir_all(lab.path("class/folder")).unwrap();
        std::os::unix::fs::symlink(lab.path("secret"), lab.path("class/folder/player")).unwrap();
        let secrets = || {
            grader_only(
                &lab.path("secret/Leak.java"),
                &format!("{secret} the first line\nclass Leak {{}}\n"),
                way,
            );
            grader_only(&lab.path("secret/MachinePlayer.java"), &format!("{secret}\n"), way);
        };
        // Made before the lab is opened up (which follows links), made the grader's own after.
        secrets();
        lab.open_up();
        secrets();
        fs::set_permissions(lab.path("secret"), fs::Permissions::from_mode(0o700)).unwrap();
        if way.unprivileged() {
            std::os::unix::fs::chown(lab.path("secret"), Some(NOBODY), Some(NOBODY)).unwrap();
        }
        let mut args = vec!["--game", "network"];
        args.extend(&extra);
        let (report, run) = lab.grade_run(&["class/honest", "class/leak", "class/folder"], 2.0, &args);
        let mode = format!("{way:?} {extra:?}");
        assert_eq!(lab.leaks(&run, &secret, None), Vec::<String>::new(), "{mode}: the secret leaked");
        assert_eq!(report["honest"]["cases"][0]["verdict"], "pass", "{mode}: {}", report["honest"]);
        let leaked = report["leak"].to_string();
        assert!(
            leaked.contains("player/Leak.java is a symbolic link to ")
                && leaked.contains(", outside its own folder"),
            "{mode}: {leaked}"
        );
        let folder = report["folder"].to_string();
        assert!(folder.contains("holds no submission"), "{mode}: {folder}");
    }
}

/// arbiter's program replaced while it runs, as an upgrade or a rebuild does (the old file
/// removed, a new one written at its path): every later case still starts, in the sandbox and
/// from the build that is running, and the new file at arbiter's path is hidden from the bot as
/// the old one was. Before, every case after the swap was a grader error (the kernel names the
/// running program `PATH (deleted)`, which can neither be started nor hidden).
#[test]
fn a_replaced_arbiter_goes_on_and_its_new_file_stays_hidden() {
    const TEST: &str = "a_replaced_arbiter_goes_on_and_its_new_file_stays_hidden";
    if !supported(TEST, 1) {
        return;
    }
    let dir = tempfile::Builder::new().prefix("replaced-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    // arbiter inside the bot's own folder: readable to the bot but for the hiding.
    let folder = dir.path().join("bot");
    let installed = folder.join("arbiter");
    fs::create_dir_all(&folder).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_arbiter"), &installed).unwrap();
    let bot = folder.join("bot.sh");
    // Leaves the board unchanged, with arbiter's first bytes after it if it can read them.
    fs::write(
        &bot,
        format!(
            "#!/bin/sh\nsleep 0.3\ncp \"$2\" \"$3\"\nhead -c 4 '{}' >> \"$3\" 2>/dev/null\nexit 0\n",
            installed.display()
        ),
    )
    .unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/examples");
    let child = Command::new(&installed)
        .args(["verify", &corpus.display().to_string(), "--bot", &format!("sh {}", bot.display())])
        .args(["--jobs", "1", "--json"])
        .env("TMPDIR", &tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Swapped once arbiter runs from the file, before its first case has ended.
    let exe = PathBuf::from(format!("/proc/{}/exe", child.id()));
    let deadline = Instant::now() + Duration::from_secs(5);
    while fs::read_link(&exe).ok().as_deref() != Some(installed.as_path()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    fs::remove_file(&installed).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_arbiter"), &installed).unwrap();
    let out = child.wait_with_output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let verdicts: Vec<&str> =
        report["cases"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["unchanged"; 4], "{}", report["cases"]);
}

/// arbiter's file replaced (an upgrade) while a bot runs, arbiter lying in a folder the bot may
/// read: the bot must not read the new file, in every way arbiter can be run here. With its own
/// root the replacement takes away the empty file mounted over arbiter's path.
#[test]
fn arbiter_replaced_while_a_bot_runs_stays_hidden_from_that_bot() {
    const TEST: &str = "arbiter_replaced_while_a_bot_runs_stays_hidden_from_that_bot";
    if !supported(TEST, 1) {
        return;
    }
    for way in ways(TEST) {
        let dir =
            tempfile::Builder::new().prefix("swapped-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        // arbiter inside the bot's own folder, as in a folder of the system's the bot may read.
        let folder = dir.path().join("bot");
        let installed = folder.join("arbiter");
        fs::create_dir_all(&folder).unwrap();
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
        fs::copy(env!("CARGO_BIN_EXE_arbiter"), &installed).unwrap();
        // Waits (5 s at most) until arbiter's path holds a file with bytes (not the empty one
        // mounted over it in a root of its own) other than the one installed, that is until the
        // file has been replaced while it runs; says so on stderr; then leaves the board
        // unchanged, with arbiter's first bytes after it if it can read them.
        // Named after the test's folder, to be told in `/proc` from the scripts of other tests
        // (the bot may run from a copy of its folder, at another path).
        let name = format!("{}.sh", dir.path().file_name().unwrap().to_string_lossy());
        let bot = folder.join(&name);
        fs::write(
            &bot,
            format!(
                "#!/bin/sh\ncp \"$2\" \"$3\"\ni=0\nwhile [ $i -lt 100 ]; do\n  \
                 if [ -s '{path}' ] && [ \"$(stat -c %i '{path}')\" != \"$INSTALLED\" ]; then\n    \
                 echo 'the new file is there' >&2\n    head -c 4 '{path}' >> \"$3\" 2>/dev/null\n    exit 0\n  fi\n  \
                 sleep 0.05\n  i=$((i+1))\ndone\nexit 0\n",
                path = installed.display()
            ),
        )
        .unwrap();
        let corpus = dir.path().join("corpus/grade4/white");
        fs::create_dir_all(&corpus).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/examples/grade4/white/worked-example.txt");
        fs::copy(example, corpus.join("worked-example.txt")).unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir_all(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o777)).unwrap();
        let mut command = if way.unprivileged() {
            let mut c = Command::new("setpriv");
            c.args([format!("--reuid={NOBODY}"), format!("--regid={NOBODY}"), "--clear-groups".into()]);
            c.arg(&installed);
            c
        } else {
            Command::new(&installed)
        };
        if !way.namespaces() {
            command.env("ARBITER_SANDBOX_NO_NAMESPACES", "1");
        }
        let inode = fs::metadata(&installed).unwrap().ino();
        let child = command
            .args(["verify", &dir.path().join("corpus").display().to_string()])
            .args(["--bot", &format!("sh {}", bot.display()), "--jobs", "1", "--json"])
            .args(["--env", &format!("INSTALLED={inode}")])
            .env("TMPDIR", &tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Swapped once the bot runs.
        let deadline = Instant::now() + Duration::from_secs(20);
        let bot_runs = || {
            fs::read_dir("/proc").unwrap().flatten().any(|e| {
                fs::read(e.path().join("cmdline")).is_ok_and(|c| {
                    let c = String::from_utf8_lossy(&c);
                    c.contains(&name) && !c.contains("verify")
                })
            })
        };
        while !bot_runs() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        fs::remove_file(&installed).unwrap();
        fs::copy(env!("CARGO_BIN_EXE_arbiter"), &installed).unwrap();
        let out = child.wait_with_output().unwrap();
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{way:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let case = &report["cases"][0];
        assert!(case["stderr_tail"].as_str().unwrap().contains("the new file is there"), "{way:?}: {case}");
        assert_eq!(case["verdict"], "unchanged", "{way:?}: {case}");
    }
}

/// A course folder that holds both the bot (a Python program with a module of its own) and the
/// corpus, closed to others (mode 0700, as `mktemp -d` makes it): the bot must read no case
/// file through its own folder, and must still import its module, in every way arbiter can be
/// run here. Without namespaces the bot reads its folder from a copy made without the corpus
/// (before, as root, the copy held the corpus; and where no copy was made, an open folder, the
/// folder could not be listed, so Python found no module in it).
#[test]
fn a_closed_course_folder_shows_its_corpus_to_no_bot_and_its_modules_to_the_bot() {
    const TEST: &str = "a_closed_course_folder_shows_its_corpus_to_no_bot_and_its_modules_to_the_bot";
    let python = Path::new("/usr/bin/python3");
    if !python.exists() {
        note(&format!("SKIPPED: {TEST}: no /usr/bin/python3 (a bot's own user could reach no other)"));
        return;
    }
    for way in ways(TEST) {
        let dir = tempfile::Builder::new().prefix("course-").tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let course = dir.path().join("course");
        let white = course.join("corpus/grade4/white");
        fs::create_dir_all(&white).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/examples/grade4/white/worked-example.txt");
        fs::copy(example, white.join("worked-example.txt")).unwrap();
        fs::write(course.join("helper.py"), "def copy(a, b):\n    open(b, 'w').write(open(a).read())\n")
            .unwrap();
        fs::write(
            course.join("bot.py"),
            "import os, sys\nimport helper\nsys.stderr.write('imported\\n')\nhelper.copy(sys.argv[2], sys.argv[3])\n\
             case = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus/grade4/white/worked-example.txt')\n\
             try:\n    open(case).read()\n    sys.stderr.write('READ the corpus\\n')\nexcept OSError as e:\n    \
             sys.stderr.write('not read: %s\\n' % e)\n",
        )
        .unwrap();
        for entry in walkdir::WalkDir::new(&course).into_iter().filter_map(Result::ok) {
            let mode = if entry.file_type().is_dir() { 0o755 } else { 0o644 };
            fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode)).unwrap();
            if way.unprivileged() {
                std::os::unix::fs::lchown(entry.path(), Some(NOBODY), Some(NOBODY)).unwrap();
            }
        }
        fs::set_permissions(&course, fs::Permissions::from_mode(0o700)).unwrap();
        let tmp = dir.path().join("tmp");
        fs::create_dir_all(&tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o1777)).unwrap();
        let out = way
            .command()
            .args(["verify", &course.join("corpus").display().to_string(), "--json", "--jobs", "1"])
            .args(["--bot", &format!("{} {}", python.display(), course.join("bot.py").display())])
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{way:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let case = &report["cases"][0];
        let stderr = case["stderr_tail"].as_str().unwrap_or("");
        assert!(!stderr.contains("READ"), "{way:?}: the bot read the corpus: {case}");
        assert!(stderr.contains("imported"), "{way:?}: the bot could not import its module: {case}");
        assert_eq!(case["verdict"], "unchanged", "{way:?}: {case}");
    }
}
