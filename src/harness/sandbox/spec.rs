//! What arbiter asks of the sandbox helper, and what the helper answers: the two messages that
//! cross the boundary between the grader and the process that sets the sandbox up.
//!
//! The request goes to the helper as one JSON line on file descriptor 4, whose end (the grader
//! closing its side) is the order to stop the run; the answers come back as JSON lines on file
//! descriptor 3. The bot holds neither: its stdin, stdout and stderr are the helper's own.

use std::ffi::OsString;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The file descriptor on which the helper reports [`Event`]s.
pub(crate) const STATUS_FD: i32 = 3;

/// The file descriptor on which the helper reads its [`Request`], and then waits for the order
/// to stop (the end of the pipe).
pub(crate) const CONTROL_FD: i32 = 4;

/// Everything the helper needs to run one bot confined.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Request {
    /// The program to execute (an absolute path, or a name looked up in `PATH`).
    pub program: OsString,
    /// Its arguments, after the program.
    pub args: Vec<OsString>,
    /// The case folder: the bot's working directory and the only place it may write.
    pub case_dir: PathBuf,
    /// Folders (and files) the bot may read and execute from besides the system's: its own
    /// folder, the installations of the interpreters it runs, `--allow-read`.
    pub readable: Vec<PathBuf>,
    /// Paths hidden from the bot whatever else allows them (corpus, golden answers, reports,
    /// arbiter itself).
    pub hidden: Vec<PathBuf>,
    /// Copies of folders of `readable` that the bot's user could not read: (the original, its
    /// copy). With its own root the bot finds each copy at the original's path; without, its
    /// command names the copy instead.
    #[serde(default)]
    pub staged: Vec<(PathBuf, PathBuf)>,
    /// The bot's whole environment.
    pub env: Vec<(OsString, OsString)>,
    /// The user id the bot runs as (never 0): set with `setuid` when the helper is root, mapped
    /// in the user namespace otherwise.
    pub uid: u32,
    /// Memory for all the bot's processes together, in bytes.
    pub memory_bytes: Option<u64>,
    /// Processes the bot may have at once.
    pub max_processes: Option<u64>,
    /// Open files per process.
    pub open_files: Option<u64>,
    /// Largest file the bot may write, in bytes.
    pub max_file_bytes: Option<u64>,
    /// Bytes the bot may store in its case folder and scratch folders, all files together.
    pub disk_bytes: u64,
    /// The files the run's init (single-threaded) writes "0" into to join its cgroups before
    /// it starts anything, so that the cgroups' limits cover every process of the bot
    /// ([`super::cgroup::RunCgroup::join_files`]).
    pub cgroup_join: Vec<PathBuf>,
    /// The cgroup limits memory, so the helper need not watch it.
    pub cgroup_memory: bool,
    /// The cgroup limits processes, so the helper need not count them.
    pub cgroup_pids: bool,
    /// Make no namespaces (`ARBITER_SANDBOX_NO_NAMESPACES` in the grader's environment): the
    /// fallback of a machine without them, tried on one that has them.
    pub no_namespaces: bool,
    /// Refuse to run unless every layer can be set up.
    pub strict: bool,
    /// Set everything up, report what could be done, and run nothing.
    pub probe: bool,
    /// The processors the bot runs on: its slot's one ([`crate::harness::runner::affinity`]),
    /// or all the grader may use; the zygote's own are kept when empty.
    #[serde(default)]
    pub cpus: Vec<usize>,
    /// Fail the setup on purpose (`ARBITER_SANDBOX_FAIL_SETUPS`, for tests).
    #[serde(default)]
    pub fail_setup: bool,
}

/// What the helper reports, in order, one JSON line each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum Event {
    /// A layer of the sandbox that is in place (sent before the bot starts).
    Layer { name: String, detail: String },
    /// A layer that could not be set up, and why.
    Missing { name: String, why: String },
    /// The sandbox could not be set up (or, in strict mode, not completely): nothing ran.
    SetupFailed { why: String },
    /// Everything is set up: the bot's program is executed next (sent by the bot's process just
    /// before). A session waits for it, so that a setup that failed is tried again before the
    /// bot is spoken to.
    Ready,
    /// The bot's program could not be executed.
    StartFailed { why: String },
    /// The bot exited by itself with this status.
    Exited { code: i32 },
    /// The bot was killed by this signal.
    Signaled { signal: i32 },
    /// The helper killed the bot's processes for going over a limit it watches.
    OverLimit { what: String },
    /// Files in the case folder the helper could not hand back, and why.
    CopyFailed { why: String },
    /// CPU time (user + system) of every process of the run, in microseconds, and the user
    /// part of it (absent from older helpers' reports).
    Usage {
        cpu_us: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user_us: Option<u64>,
    },
    /// The grader asked for the run to end (a time limit): every process was killed.
    Stopped,
}
