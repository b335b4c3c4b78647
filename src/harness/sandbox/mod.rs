//! The sandbox every bot process runs in: a bot is hostile until proven otherwise.
//!
//! Modelled on the judges that run untrusted code (IOI's isolate, nsjail, bubblewrap): an
//! allow-list, not a deny-list. Built from the kernel's own mechanisms, each used where the
//! kernel offers it:
//!
//! - **namespaces** (user, PID, network, mount, IPC, UTS, cgroup): the bot sees only its own
//!   processes, cannot signal arbiter, has no network, and nothing it starts outlives the
//!   case, `setsid` or not (the namespace's init takes everything down with it);
//! - **a new root** ([`root`]): a tmpfs made the root with `pivot_root`, holding read-only
//!   binds of the system folders, the bot's own folder alone and its interpreters'
//!   installations ([`view`]), a `/dev` of harmless devices, a `/proc` of its own, and one
//!   size-limited tmpfs for the case folder and the scratch folders; nothing else exists;
//! - **its own user**: never 0, never the grader's where that can be avoided;
//! - **Landlock**: read only what it may read, write only the case folder, no TCP, no signals
//!   or abstract sockets outside;
//! - **seccomp** ([`seccomp`]): the system calls no bot needs, more of them without
//!   namespaces;
//! - **cgroup** (v2 if delegated, else v1 as root): memory (shared mappings, memfd and tmpfs
//!   pages included) and processes limited for all the run's processes together, a CPU share of
//!   its own, and its CPU time counted; where no cgroup can be made the run's init watches
//!   memory (memfd, socket buffers and System V segments included) and processes itself
//!   ([`watch`]) and kills the run at the limit;
//! - **capabilities** dropped for good and `no_new_privs`, every descriptor but 0-2 closed, an
//!   exact environment, plus the per-process `setrlimit` limits of the unsandboxed runner.
//!
//! [`Mode::Auto`] uses whatever this kernel allows and says what in the report header;
//! [`Mode::Strict`] refuses to run without namespaces, the new root, Landlock, seccomp and a
//! cgroup; [`Mode::Off`] is the bare runner. Runs are started by a zygote ([`zygote`]):
//! arbiter executed once as `arbiter __sandbox zygote`, single-threaded, which clones each
//! run's init into its namespaces, so that the grader, which runs many bots at once on many
//! threads, never forks a process that must then do complex work, and no case pays for
//! starting a program.

mod case_files;
pub(crate) mod cgroup;
mod confine;
mod helper;
pub(crate) mod launch;
mod mounts;
mod namespaces;
pub(crate) mod policy;
mod probe;
mod root;
mod seccomp;
mod sockets;
pub(crate) mod spec;
mod stage;
mod view;
mod watch;
mod zygote;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

pub use policy::{Mode, PassEnv, Policy};
pub use probe::{Summary, probe};
pub use spec::Event;
pub(crate) use spec::Request;
pub use zygote::main as helper_main;

use crate::harness::runner::command::{BotCommand, quote};
use crate::harness::runner::limits::Limits;

/// The first argument that makes arbiter the sandbox helper instead of the command line.
pub const HELPER_ARG: &str = "__sandbox";

/// Numbers the runs, to give concurrent runs different user ids.
static RUNS: AtomicU32 = AtomicU32::new(0);

/// The user id a run's bot gets: never 0, never arbiter's own where that can be avoided, and
/// different for runs at once (so that, even without namespaces, one bot cannot signal
/// another's processes).
fn run_uid() -> u32 {
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    BOT_UID_BASE + (std::process::id().wrapping_mul(7919).wrapping_add(n)) % BOT_UID_COUNT
}

/// The first of the user ids bots run as.
pub const BOT_UID_BASE: u32 = 61000;
/// How many user ids bots run as.
pub const BOT_UID_COUNT: u32 = 1000;

/// Whether runs are expected to get namespaces, as the probe found: 0 not known, 1 yes, 2 no.
pub(super) static NAMESPACES: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Whether runs will get namespaces (their own root): as the probe found, else unless
/// `ARBITER_SANDBOX_NO_NAMESPACES` turns them off.
fn namespaces_expected() -> bool {
    match NAMESPACES.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => std::env::var_os("ARBITER_SANDBOX_NO_NAMESPACES").is_none(),
    }
}

/// Whether bots get a user of their own (arbiter runs as root), which owns none of the
/// grader's files.
fn bots_have_own_user() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The paths no bot may see, canonical: the policy's, and arbiter itself unless it is the bot;
/// less those holding the bot's own program folder (every submission is hidden from the others
/// in `grade`, its own included).
fn hidden_paths(bot: &BotCommand, limits: &Limits) -> Vec<PathBuf> {
    let mut hidden: Vec<PathBuf> =
        limits.sandbox.hidden.iter().filter_map(|p| std::path::absolute(p).ok()).collect();
    // arbiter itself answers every case: hidden, unless it is the bot (a built-in bot run
    // through its command line, as `verify --robustness` does).
    let program = Path::new(bot.program()).canonicalize().ok();
    hidden.extend(arbiter_files(limits).filter(|exe| program.as_ref() != Some(exe)));
    let own = own_folder(bot);
    hidden
        .into_iter()
        .map(|p| p.canonicalize().unwrap_or(p))
        .filter(|h| !own.as_ref().is_some_and(|own| own.starts_with(h)))
        .collect()
}

/// The canonical folder of the bot's program, when it is named by a path.
fn own_folder(bot: &BotCommand) -> Option<PathBuf> {
    let own =
        Path::new(bot.program()).parent().filter(|_| bot.program().as_encoded_bytes().contains(&b'/'))?;
    Some(own.canonicalize().unwrap_or_else(|_| own.to_path_buf()))
}

/// `path` where it really is: its folder canonical (every link and `..` in it resolved by the
/// kernel), its name kept; itself if its folder cannot be found. A program named
/// `../bot/run` from another folder is then found inside the sandbox, which holds only the
/// folders the bot reads, at their real paths.
fn real_location(path: &Path) -> PathBuf {
    match (path.parent().map(Path::canonicalize), path.file_name()) {
        (Some(Ok(dir)), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// What the run may read, checked: the bot's own folders and `--allow-read` (copies of those
/// its user cannot read), its interpreters' installations (refused where one holds the
/// submission or a folder of the grader's, or where the bot's user cannot reach one).
struct Readable {
    /// Every folder (and file) the bot reads besides the system's, at the paths it has outside.
    paths: Vec<PathBuf>,
    /// Copies made for the bot's user: (the original, its copy).
    staged: Vec<(PathBuf, PathBuf)>,
}

fn readable_for(bot: &BotCommand, limits: &Limits, hidden: &[PathBuf]) -> Result<Readable, String> {
    let view = view::readable(bot)?;
    for (install, by) in &view.installs {
        let refuse = |what: String| {
            Err(format!(
                "the interpreter {} belongs to the installation {}, which {what}: the sandbox would \
                 show it to the bot. Name an interpreter installed elsewhere (its folder above `bin` \
                 holding nothing of the grader's or the submission's)",
                by.display(),
                install.display()
            ))
        };
        if let Some(h) = hidden.iter().find(|h| h.starts_with(install)) {
            return refuse(format!(
                "holds {}, one of the grader's folders (the corpus, golden answers, reports, another \
                 submission or arbiter itself)",
                h.display()
            ));
        }
        if let Some(h) = hidden.iter().find(|h| install.starts_with(h)) {
            return refuse(format!("is inside {}, a folder no bot may see", h.display()));
        }
        if let Some(own) = view.own.iter().find(|o| o.starts_with(install) && *o != install) {
            return refuse(format!("holds the bot's own folder {}", own.display()));
        }
    }
    let mut own = view.own.clone();
    for extra in &limits.sandbox.allow_read {
        let path = extra.canonicalize().unwrap_or_else(|_| extra.clone());
        if !own.contains(&path) && !view.installs.iter().any(|(i, _)| *i == path) {
            own.push(path);
        }
    }
    own.retain(|r| !hidden.iter().any(|h| r.starts_with(h)));
    // The hidden paths inside a folder, which a copy of it leaves out.
    let inside = |folder: &Path| -> Vec<PathBuf> {
        hidden.iter().filter(|h| h.starts_with(folder) && h.as_path() != folder).cloned().collect()
    };
    let mut staged = Vec::new();
    if !namespaces_expected() {
        // Without a root of its own, a folder holding a hidden path is read from a copy without
        // it: Landlock alone could allow only its other entries one by one, and the bot could
        // not list the folder (Python lists each folder it imports from). Where it cannot be
        // copied (too big, or the grader's `$TMPDIR` itself, changed by every case), its other
        // entries are allowed one by one.
        let temp = stage::temp_dir();
        for path in &own {
            let leave_out = inside(path);
            if !leave_out.is_empty()
                && path.is_dir()
                && temp != *path
                && let Ok(copy) = stage::stage_without(path, &leave_out)
            {
                staged.push((path.clone(), copy));
            }
        }
    }
    if bots_have_own_user() {
        // Without its own root the bot must also get through every folder above.
        let ancestors = !namespaces_expected();
        for path in &own {
            if staged.iter().any(|(at, _)| at == path) {
                continue;
            }
            let Some(why) = stage::obstacle(path, ancestors, true) else { continue };
            if !path.is_dir() {
                return Err(unreachable(&why, path, "the file"));
            }
            match stage::stage_without(path, &inside(path)) {
                Ok(copy) => staged.push((path.clone(), copy)),
                // The folder itself can be reached and only something deep inside it cannot (a
                // build tool's lock file of mode 0600 in a large folder, say): bound as it is, the
                // bot reads all but that, which it may never need. Refused only when the folder
                // itself is in the way.
                Err(_) if stage::obstacle(path, ancestors, false).is_none() => {}
                Err(e) => return Err(format!("{}; {e}", unreachable(&why, path, "the folder"))),
            }
        }
        for (install, by) in &view.installs {
            if hidden.iter().any(|h| install.starts_with(h)) {
                continue;
            }
            if let Some(why) = stage::obstacle(install, ancestors, false) {
                let fix = if ancestors {
                    "make every folder on its way searchable by others (`chmod o+x FOLDER`), install \
                     the interpreter outside them (under /usr/local or /opt, say), or run arbiter where \
                     namespaces are available (each bot's own root then holds the installation at its \
                     path, with no folder above it to get through)"
                } else {
                    "make it readable by others (`chmod o+rx FOLDER`), or install the interpreter \
                     elsewhere"
                };
                return Err(format!(
                    "the interpreter {} cannot be run by the bot's user: {why}. As root, the sandbox runs \
                     each bot as a user of its own (uid {BOT_UID_BASE} to {}), which has no claim on \
                     the grader's files: {fix}",
                    by.display(),
                    BOT_UID_BASE + BOT_UID_COUNT - 1
                ));
            }
        }
    }
    let mut paths = own;
    for (install, _) in view.installs {
        if !paths.contains(&install) && !hidden.iter().any(|h| install.starts_with(h)) {
            paths.push(install);
        }
    }
    Ok(Readable { paths, staged })
}

/// Why a bot cannot read the folder or file `path`, and what to do.
fn unreachable(why: &str, path: &Path, what: &str) -> String {
    format!(
        "{why}: as root, the sandbox runs each bot as a user of its own (uid {BOT_UID_BASE} to {}), \
         which cannot read {what} {} (make it readable by others: `chmod -R o+rX {}`)",
        BOT_UID_BASE + BOT_UID_COUNT - 1,
        path.display(),
        runner_quote(path)
    )
}

fn runner_quote(path: &Path) -> String {
    quote(path.as_os_str())
}

/// The helper's request for running `bot` in `case_dir`.
pub(super) fn request(
    bot: &BotCommand,
    args: &[OsString],
    case_dir: &Path,
    limits: &Limits,
    probe: bool,
) -> Result<Request, String> {
    let hidden = hidden_paths(bot, limits);
    let case_dir = case_dir.canonicalize().map_err(|e| format!("cannot find the case folder: {e}"))?;
    let Readable { paths: readable, staged } = readable_for(bot, limits, &hidden)?;
    // Paths in the command at their real places: the bot's root holds the folders it reads at
    // their real paths and nothing above them, so `/grader/cwd/../bot/run` would not be found.
    let real = |word: &OsString| {
        let path = Path::new(word);
        if path.is_absolute() && path.symlink_metadata().is_ok() && !view::is_system(path) {
            real_location(path).into_os_string()
        } else {
            word.clone()
        }
    };
    let program = real(&bot.program().to_os_string());
    let mut program_args: Vec<OsString> = bot.args().iter().map(real).collect();
    program_args.extend(args.iter().cloned());
    Ok(Request {
        program,
        args: program_args,
        case_dir,
        readable,
        hidden,
        staged,
        env: view::environment(&limits.sandbox.env),
        uid: run_uid(),
        memory_bytes: limits.memory_bytes,
        max_processes: limits.max_processes,
        max_file_bytes: limits.max_file_bytes,
        open_files: limits.open_files,
        disk_bytes: limits.disk_bytes,
        cgroup_join: Vec::new(),
        cgroup_memory: false,
        cgroup_pids: false,
        no_namespaces: std::env::var_os("ARBITER_SANDBOX_NO_NAMESPACES").is_some(),
        strict: limits.sandbox.mode == Mode::Strict,
        probe,
        cpus: crate::harness::runner::slots::processors(),
        fail_setup: !probe && injected_failure(),
    })
}

/// Whether this run's setup is to fail on purpose: `ARBITER_SANDBOX_FAIL_SETUPS=N` in the
/// grader's environment fails the first N setups of this process (the probe's aside), as a host
/// file rewritten at the wrong moment would; for testing how grader errors are reported.
fn injected_failure() -> bool {
    static FAILED: AtomicU32 = AtomicU32::new(0);
    let Some(n) = std::env::var("ARBITER_SANDBOX_FAIL_SETUPS").ok().and_then(|v| v.parse::<u32>().ok())
    else {
        return false;
    };
    FAILED.fetch_add(1, Ordering::Relaxed) < n
}

/// Why the sandbox will not run `bot` at all, if it will not: an interpreter whose installation
/// holds the submission or the grader's folders, or one the bot's user cannot reach; a folder
/// it needs that cannot be made readable to it. Checked before any case runs, so that a
/// submission is refused once with the reason rather than failing every case.
pub fn refusal(bot: &BotCommand, limits: &Limits) -> Option<String> {
    if limits.sandbox.mode == Mode::Off {
        return None;
    }
    let hidden = hidden_paths(bot, limits);
    readable_for(bot, limits, &hidden).err()
}

/// arbiter's own program and the sandbox's helper (when another), canonical: hidden from every
/// bot but a built-in one run through its command line.
fn arbiter_files(limits: &Limits) -> impl Iterator<Item = PathBuf> {
    [crate::harness::program::installed_path(), limits.sandbox.helper.clone()]
        .into_iter()
        .flatten()
        .map(|exe| exe.canonicalize().unwrap_or(exe))
}

/// What the sandbox seems to have kept from a bot that failed, from the paths its stderr names
/// next to "Permission denied" or "No such file or directory": each one that exists outside
/// the sandbox but not in the bot's view, with the option that would allow it.
pub(crate) fn denials(bot: &BotCommand, stderr: &[u8], case_dir: &Path, limits: &Limits) -> Vec<String> {
    if limits.sandbox.mode == Mode::Off {
        return Vec::new();
    }
    let mut seen = view::readable(bot).map(|v| v.all()).unwrap_or_default();
    seen.extend(limits.sandbox.allow_read.iter().cloned());
    seen.push(case_dir.to_path_buf());
    let mut hidden = limits.sandbox.hidden.clone();
    hidden.extend(arbiter_files(limits));
    view::denied_paths(&String::from_utf8_lossy(stderr), &seen, &hidden)
        .into_iter()
        .map(|(path, allow)| match allow {
            Some(allow) => format!(
                "the sandbox hides {} (it exists outside the sandbox): --allow-read {} would let bots read it",
                path.display(),
                allow.display()
            ),
            None => format!(
                "the sandbox hides {}: it is the grader's (the corpus, answers, reports or arbiter \
                 itself), which no bot may use",
                path.display()
            ),
        })
        .collect()
}

/// Releases what the sandbox keeps between runs (the cgroups of ended runs). Call once no
/// more bots will run; a later run makes new ones.
pub fn release() {
    cgroup::release_pool();
    stage::release();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_read_naturally() {
        assert_eq!(bytes(4 << 30), "4 GiB");
        assert_eq!(bytes(64 << 20), "64 MiB");
        assert_eq!(bytes(1536), "1 KiB");
        assert_eq!(bytes(12), "12 B");
    }
}
