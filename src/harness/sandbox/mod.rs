//! The sandbox every bot process runs in: a bot is hostile until proven otherwise.
//!
//! Modelled on the judges that run untrusted code (IOI's isolate, nsjail, bubblewrap), built
//! from the kernel's own mechanisms, each used where the kernel offers it:
//!
//! - **namespaces** (user, PID, network, mount, IPC, UTS, cgroup): the bot sees only its own
//!   processes, cannot signal arbiter, has no network, and nothing it starts outlives the
//!   case, `setsid` or not (the namespace's init takes everything down with it);
//! - **mounts**: a private `/proc`; empty `/tmp`, `/var/tmp`, `/dev/shm`, `/run`; the corpus,
//!   golden answers, reports and arbiter itself covered; the case folder a size-limited tmpfs
//!   whose files arbiter copies back only once every process of the run is dead;
//! - **Landlock**: read and execute only the system's folders and the bot's own program
//!   folder, write only the case folder, no TCP, no signals or abstract sockets outside;
//! - **cgroup** (v2 if delegated, else v1 as root): memory (shared mappings and tmpfs pages
//!   included) and processes limited for all the run's processes together; where no cgroup
//!   can be made the helper measures the run's memory and processes itself and kills it at the
//!   limit;
//! - **capabilities** dropped for good and `no_new_privs`, plus the per-process `setrlimit`
//!   limits the unsandboxed runner sets.
//!
//! [`Mode::Auto`] uses whatever this kernel allows and says what in the report header;
//! [`Mode::Strict`] refuses to run without namespaces and Landlock; [`Mode::Off`] is the bare
//! runner. The setup happens in a helper, arbiter re-executed as `arbiter __sandbox`, so that
//! the grader, which runs many bots at once on many threads, never forks a process that must
//! then do complex work.

mod case_files;
mod cgroup;
mod confine;
mod helper;
mod mounts;
mod namespaces;
mod spec;
mod watch;

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) use cgroup::RunCgroup;
pub use helper::main as helper_main;
pub use spec::Event;
pub(crate) use spec::Request;

use super::runner::{BotCommand, Limits};

/// The first argument that makes arbiter the sandbox helper instead of the command line.
pub const HELPER_ARG: &str = "__sandbox";

/// How strongly bots are confined. The command line defaults to `auto`; the library's
/// [`Policy::default`] is `off`, because the sandbox re-executes the running program as its
/// helper, and only the `arbiter` binary is one (a library user sets [`Policy::helper`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// No sandbox: a session of its own, resource limits, the process group killed at the end.
    #[default]
    Off,
    /// The strongest sandbox this kernel allows; the report says what that was.
    Auto,
    /// Refuse to run bots without namespaces and Landlock (ABI 6 or newer).
    Strict,
}

/// What the sandbox needs to know besides the per-process limits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    pub mode: Mode,
    /// Paths no bot may see: the corpus, golden answers, reports. arbiter's own executable is
    /// always added.
    pub hidden: Vec<PathBuf>,
    /// The executable to run as the helper (arbiter itself); `None` means this process's own.
    pub helper: Option<PathBuf>,
}

/// A sandboxed run being started: the command to spawn (the helper), what to tell it, and the
/// cgroup it joins.
pub(crate) struct Launch {
    pub command: Command,
    pub request: Vec<u8>,
    status: Option<OwnedFd>,
    status_writer: Option<OwnedFd>,
    pub cgroup: Option<RunCgroup>,
}

impl Launch {
    /// Prepares a sandboxed run of `bot` with `args` in `case_dir`.
    pub(crate) fn new(
        bot: &BotCommand,
        args: &[OsString],
        case_dir: &Path,
        limits: &Limits,
    ) -> io::Result<Launch> {
        let request = request(bot, args, case_dir, limits, false)?;
        Launch::for_request(request, limits)
    }

    fn for_request(mut request: Request, limits: &Limits) -> io::Result<Launch> {
        let cgroup = RunCgroup::create(limits.memory_bytes, limits.max_processes);
        if let Some(cg) = &cgroup {
            request.cgroup_procs = cg.procs_files();
            request.cgroup_memory = cg.limits_memory();
            request.cgroup_pids = cg.limits_processes();
        }
        let (status, status_writer) =
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(io::Error::from)?;
        let helper = match &limits.sandbox.helper {
            Some(path) => path.clone(),
            None => std::env::current_exe()?,
        };
        let mut command = Command::new(helper);
        command.arg(HELPER_ARG).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let request = serde_json::to_vec(&request).map_err(io::Error::other)?;
        Ok(Launch { command, request, status: Some(status), status_writer: Some(status_writer), cgroup })
    }

    /// The raw descriptor the helper must find on [`spec::STATUS_FD`] (-1 once spawned).
    pub(crate) fn status_writer_fd(&self) -> i32 {
        self.status_writer.as_ref().map_or(-1, |fd| fd.as_raw_fd())
    }

    /// Closes this process's copy of the status pipe's writing end once the helper holds it,
    /// so that reading the pipe ends when the helper and its init are gone.
    pub(crate) fn spawned(&mut self) {
        self.status_writer = None;
    }

    /// The reading end of the status pipe, as a file.
    pub(crate) fn take_status(&mut self) -> io::Result<File> {
        self.status.take().map(File::from).ok_or_else(|| io::Error::other("status pipe already taken"))
    }
}

/// Puts the status pipe on descriptor 3 in the helper, between fork and exec. Only `dup2` and
/// `fcntl`: async-signal-safe.
pub(crate) fn install_status_fd(writer: i32) -> io::Result<()> {
    // SAFETY: plain system calls on descriptor numbers.
    unsafe {
        if writer == spec::STATUS_FD {
            if libc::fcntl(writer, libc::F_SETFD, 0) == -1 {
                return Err(io::Error::last_os_error());
            }
        } else if libc::dup2(writer, spec::STATUS_FD) == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The helper's request for running `bot` in `case_dir`.
fn request(
    bot: &BotCommand,
    args: &[OsString],
    case_dir: &Path,
    limits: &Limits,
    probe: bool,
) -> io::Result<Request> {
    let mut hidden: Vec<PathBuf> =
        limits.sandbox.hidden.iter().filter_map(|p| std::path::absolute(p).ok()).collect();
    // arbiter itself answers every case: hidden, unless it is the bot (a built-in bot run
    // through its command line, as `verify --robustness` does).
    let program = Path::new(bot.program()).canonicalize().ok();
    let exes = [std::env::current_exe().ok(), limits.sandbox.helper.clone()];
    for exe in exes.into_iter().flatten() {
        let exe = exe.canonicalize().unwrap_or(exe);
        if program.as_ref() != Some(&exe) {
            hidden.push(exe);
        }
    }
    let hidden = hidden.into_iter().map(|p| p.canonicalize().unwrap_or(p)).collect();
    let case_dir = case_dir.canonicalize()?;
    let mut program_args = bot.args().to_vec();
    program_args.extend(args.iter().cloned());
    Ok(Request {
        program: bot.program().to_os_string(),
        args: program_args,
        case_dir,
        readable: readable(bot),
        hidden,
        memory_bytes: limits.memory_bytes,
        max_processes: limits.max_processes,
        max_file_bytes: limits.max_file_bytes,
        disk_bytes: limits.disk_bytes,
        cgroup_procs: Vec::new(),
        cgroup_memory: false,
        cgroup_pids: false,
        strict: limits.sandbox.mode == Mode::Strict,
        probe,
    })
}

/// The folders a bot must read besides the system's: its program's folder (and the
/// installation it belongs to, for a program in a `bin` or `shims` folder, as language
/// installs in a home folder are laid out), and the folder of every argument that names an
/// existing file (`bot.py`, `Bot.dll`) or the folder an argument names (`-cp build`).
pub(crate) fn readable(bot: &BotCommand) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut add = |path: PathBuf| {
        if !found.contains(&path) {
            found.push(path);
        }
    };
    let program = Path::new(bot.program());
    let resolved = if program.is_absolute() {
        Some(program.to_path_buf())
    } else {
        std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file()))
    };
    for path in resolved.iter().flat_map(|p| [Some(p.clone()), p.canonicalize().ok()]).flatten() {
        if let Some(dir) = path.parent() {
            add(dir.to_path_buf());
            if dir.file_name().is_some_and(|n| n == "bin" || n == "shims")
                && let Some(install) = dir.parent()
                && install.parent().is_some()
            {
                add(install.to_path_buf());
            }
        }
    }
    for arg in bot.args() {
        let path = Path::new(arg);
        if !path.is_absolute() {
            continue;
        }
        for path in [Some(path.to_path_buf()), path.canonicalize().ok()].into_iter().flatten() {
            if path.is_dir() {
                add(path);
            } else if path.exists()
                && let Some(dir) = path.parent()
            {
                add(dir.to_path_buf());
            }
        }
    }
    // The root folder would open everything; a program in `/` is run without its folder.
    found.retain(|p| p.parent().is_some());
    found
}

/// A byte count as a person would write it: "64 MiB", "512 KiB", "100 B".
pub fn bytes(n: u64) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} B")
    }
}

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
            Mode::Off => return "sandbox off: bots run with per-process limits only".to_string(),
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
        return Ok(Summary { mode, layers: Vec::new(), missing: Vec::new() });
    }
    let dir = tempfile::Builder::new()
        .prefix("arbiter-probe-")
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let probe_bot = BotCommand::parse_in("true", dir.path()).map_err(|e| e.to_string())?;
    let request = request(&probe_bot, &[], dir.path(), limits, true).map_err(|e| e.to_string())?;
    let mut launch = Launch::for_request(request, limits).map_err(|e| e.to_string())?;
    let report = super::runner::supervise_launch(&mut launch, dir.path(), limits);
    let mut summary = Summary { mode, layers: Vec::new(), missing: Vec::new() };
    if let Some(cg) = &launch.cgroup {
        let mut what = Vec::new();
        if cg.limits_memory() {
            what.push(format!("memory {}", bytes(limits.memory_bytes.unwrap_or(0))));
        }
        if cg.limits_processes() {
            what.push(format!("{} processes", limits.max_processes.unwrap_or(0)));
        }
        summary
            .layers
            .push((cg.kind().to_string(), format!("{} for all processes together", what.join(", "))));
    } else if limits.memory_bytes.is_some() || limits.max_processes.is_some() {
        summary.missing.push((
            "cgroup".to_string(),
            "none can be made here: memory and processes are measured by the sandbox every 10 ms instead"
                .to_string(),
        ));
    }
    for event in &report.events {
        match event {
            Event::Layer { name, detail } => summary.layers.push((name.clone(), detail.clone())),
            Event::Missing { name, why } => summary.missing.push((name.clone(), why.clone())),
            Event::SetupFailed { why } => return Err(format!("the sandbox cannot be set up: {why}")),
            _ => {}
        }
    }
    if let Some(cg) = launch.cgroup.take() {
        cg.remove();
    }
    if !report.succeeded() && report.events.is_empty() {
        return Err(format!("the sandbox helper {}", report.describe()));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_in_a_bin_folder_brings_its_installation() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("lang/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("run"), "").unwrap();
        let script = dir.path().join("bots/mine.py");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "").unwrap();
        let command = BotCommand::parse_in("lang/bin/run bots/mine.py --fast", dir.path()).unwrap();
        let found = readable(&command);
        let root = dir.path().canonicalize().unwrap();
        assert!(found.contains(&root.join("lang/bin")), "{found:?}");
        assert!(found.contains(&root.join("lang")), "{found:?}");
        assert!(found.contains(&root.join("bots")), "{found:?}");
        assert!(!found.iter().any(|p| p == &root), "{found:?}");
    }

    #[test]
    fn byte_counts_read_naturally() {
        assert_eq!(bytes(4 << 30), "4 GiB");
        assert_eq!(bytes(64 << 20), "64 MiB");
        assert_eq!(bytes(1536), "1 KiB");
        assert_eq!(bytes(12), "12 B");
    }
}
