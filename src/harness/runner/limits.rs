//! Resource limits for a bot run, and the resource limits (`setrlimit`) that enforce them.

use std::io;
use std::time::Duration;

use crate::harness::sandbox::policy::Policy;

/// What a bot may use during one run.
///
/// Time is CPU time: `timeout` counts the user and system time of every process of the run
/// together, measured while it runs, so that a bot gets the same verdict on an idle machine
/// and on a busy one. A bot that sleeps, or waits for something that never comes, uses no CPU;
/// it is stopped by its idle time instead ([`Limits::idle_limit`]): the time none of its tasks
/// was running or waiting for a processor ([`super::idle`]), which a busy machine does not
/// lengthen.
///
/// The `Option` limits are enforced with `setrlimit` in the bot's process before it starts,
/// with the soft and hard limits both set so that the bot cannot raise them again. Children
/// the bot starts inherit them. `None` leaves the limit as arbiter itself has it. A limit the
/// system does not allow to be set (because arbiter's own hard limit is lower, say) is skipped
/// without error; [`AppliedLimits`] in the run's report tells which were set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system) all the run's processes may use together before the run is
    /// killed. Default 10 s.
    pub timeout: Duration,
    /// How long the run may sit idle (no task running or waiting for a processor), as a
    /// multiple of `timeout` plus a fixed grace: a sleeper cannot stall the grader. Default
    /// 1 x timeout + 1 s.
    pub idle_cap: IdleCap,
    /// Memory the bot may allocate, enforced as `RLIMIT_DATA` (heap and private writable
    /// mappings, per process). Default 4 GiB.
    ///
    /// This is deliberately not `RLIMIT_AS`: the JVM and .NET reserve huge ranges of virtual
    /// address space that they never touch, and fail to start under an address-space limit.
    pub memory_bytes: Option<u64>,
    /// Number of processes, enforced as `RLIMIT_NPROC`. Default 512.
    ///
    /// The kernel counts all processes of the user arbiter runs as, not only the bot's, so
    /// this must leave room for everything else that user runs. The kernel ignores it for
    /// root, so arbiter does not set it when running as root.
    pub max_processes: Option<u64>,
    /// Open files per process, enforced as `RLIMIT_NOFILE`: besides bounding descriptors, it
    /// bounds the memory a process can hold in socket buffers, which no memory limit counts.
    /// Default 1024.
    pub open_files: Option<u64>,
    /// Size of any file the bot writes, enforced as `RLIMIT_FSIZE`: a write past it fails with
    /// `EFBIG` and the bot gets `SIGXFSZ`. Default 1 MiB.
    pub max_file_bytes: Option<u64>,
    /// How much of each of stdout and stderr is kept; the rest is read and thrown away so that
    /// the bot never blocks on a full pipe. Default 64 KiB.
    pub capture_bytes: usize,
    /// Bytes a sandboxed bot may store in its case folder, all files together. Default 16 MiB.
    pub disk_bytes: u64,
    /// How the bot is confined. Default: the strongest sandbox the kernel allows.
    pub sandbox: Policy,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            idle_cap: IdleCap::default(),
            memory_bytes: Some(4 << 30),
            max_processes: Some(512),
            open_files: Some(1024),
            max_file_bytes: Some(1 << 20),
            capture_bytes: 64 << 10,
            disk_bytes: 16 << 20,
            sandbox: Policy::default(),
        }
    }
}

impl Limits {
    /// The idle time after which a run is killed whatever CPU it used:
    /// `idle_cap.times` x `timeout` + `idle_cap.plus`.
    pub fn idle_limit(&self) -> Duration {
        self.idle_cap.of(self.timeout)
    }
}

/// The idle-time cap of a run, relative to its CPU-time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleCap {
    /// The multiple of the CPU-time limit.
    pub times: u32,
    /// Added to the multiple: time to read an interpreter and its libraries from a disk,
    /// whatever the limit.
    pub plus: Duration,
}

impl Default for IdleCap {
    fn default() -> Self {
        IdleCap { times: 1, plus: Duration::from_secs(1) }
    }
}

impl IdleCap {
    /// The cap for a CPU-time limit of `cpu`.
    pub fn of(&self, cpu: Duration) -> Duration {
        cpu.saturating_mul(self.times).saturating_add(self.plus)
    }

    /// A cap of exactly `idle`, whatever the CPU limit.
    pub fn fixed(idle: Duration) -> IdleCap {
        IdleCap { times: 0, plus: idle }
    }

    /// The cap for a CPU limit of `cpu` as a formula, "1 x its 10 s CPU limit + 1 s"; `None`
    /// for a fixed cap.
    pub fn formula(&self, cpu: Duration) -> Option<String> {
        let cpu = super::format_duration(cpu);
        match (self.times, self.plus.is_zero()) {
            (0, _) => None,
            (n, true) => Some(format!("{n} x its {cpu} CPU limit")),
            (n, false) => Some(format!("{n} x its {cpu} CPU limit + {}", super::format_duration(self.plus))),
        }
    }
}

/// The `setrlimit` limits that were set on a bot's process; `None` where a limit was not
/// asked for or could not be set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AppliedLimits {
    /// `RLIMIT_DATA`, in bytes.
    pub memory_bytes: Option<u64>,
    /// `RLIMIT_NPROC`.
    pub max_processes: Option<u64>,
    /// `RLIMIT_FSIZE`, in bytes.
    pub max_file_bytes: Option<u64>,
    /// `RLIMIT_NOFILE`.
    pub open_files: Option<u64>,
}

/// A resource that arbiter limits. An enum rather than the raw constant because the type of
/// `RLIMIT_*` differs between C libraries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resource {
    Data,
    Nproc,
    Fsize,
    Nofile,
    Core,
}

/// The limits to set in the child, worked out in the parent so that the child, between `fork`
/// and `exec`, only has to make `setrlimit` calls (no allocation, no locks).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RlimitPlan {
    entries: [Option<(Resource, u64)>; 5],
    applied: AppliedLimits,
}

impl RlimitPlan {
    /// Decides which of `limits` can be set, given this process's own hard limits.
    pub(crate) fn new(limits: &Limits) -> RlimitPlan {
        let privileged = is_root();
        let mut applied = AppliedLimits::default();
        let mut entries = [None; 5];
        let mut add = |resource: Resource, value: Option<u64>| -> Option<u64> {
            let value = value?;
            if !settable(resource, value, privileged) {
                return None;
            }
            if let Some(slot) = entries.iter_mut().find(|e| e.is_none()) {
                *slot = Some((resource, value));
            }
            Some(value)
        };
        applied.memory_bytes = add(Resource::Data, limits.memory_bytes);
        applied.max_processes = if privileged {
            // The kernel does not enforce RLIMIT_NPROC for root; reporting it as applied
            // would be a lie.
            None
        } else {
            add(Resource::Nproc, limits.max_processes)
        };
        applied.max_file_bytes = add(Resource::Fsize, limits.max_file_bytes);
        applied.open_files = add(Resource::Nofile, limits.open_files);
        // Crashing bots are the normal case here: don't let each one write a core dump into
        // its directory. Not reported: it is housekeeping, not a limit on the bot.
        add(Resource::Core, Some(0));
        RlimitPlan { entries, applied }
    }

    /// What [`RlimitPlan::apply`] sets.
    pub(crate) fn applied(&self) -> AppliedLimits {
        self.applied
    }

    /// Sets the planned limits on the calling process. Meant for the child between `fork` and
    /// `exec`: it only calls `setrlimit`, which is a plain system call. Failures are ignored,
    /// as the plan only holds limits that are allowed.
    pub(crate) fn apply(&self) {
        for (resource, value) in self.entries.iter().flatten() {
            set(*resource, *value);
        }
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Whether `value` can be set as both soft and hard limit of `resource`: lowering the hard
/// limit is always allowed, raising it only with privilege.
fn settable(resource: Resource, value: u64, privileged: bool) -> bool {
    match get(resource) {
        Ok(hard) => {
            privileged
                || hard == libc::RLIM_INFINITY
                || libc::rlim_t::try_from(value).is_ok_and(|value| value <= hard)
        }
        Err(_) => false,
    }
}

/// The hard limit of `resource` for this process.
fn get(resource: Resource) -> io::Result<libc::rlim_t> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `limit` is a valid, writable rlimit for the duration of the call.
    let rc = unsafe {
        match resource {
            Resource::Data => libc::getrlimit(libc::RLIMIT_DATA, &mut limit),
            Resource::Nproc => libc::getrlimit(libc::RLIMIT_NPROC, &mut limit),
            Resource::Fsize => libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit),
            Resource::Nofile => libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit),
            Resource::Core => libc::getrlimit(libc::RLIMIT_CORE, &mut limit),
        }
    };
    if rc == 0 { Ok(limit.rlim_max) } else { Err(io::Error::last_os_error()) }
}

/// Sets both soft and hard limit of `resource` to `value`, ignoring failure (see
/// [`RlimitPlan::apply`]). Async-signal-safe: no allocation, no locks.
fn set(resource: Resource, value: u64) {
    // Values beyond rlim_t (only possible where it is 32 bits) mean "no limit".
    let value = libc::rlim_t::try_from(value).unwrap_or(libc::RLIM_INFINITY);
    let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
    // SAFETY: `limit` is a valid rlimit for the duration of the call; setrlimit only reads it.
    unsafe {
        match resource {
            Resource::Data => libc::setrlimit(libc::RLIMIT_DATA, &limit),
            Resource::Nproc => libc::setrlimit(libc::RLIMIT_NPROC, &limit),
            Resource::Fsize => libc::setrlimit(libc::RLIMIT_FSIZE, &limit),
            Resource::Nofile => libc::setrlimit(libc::RLIMIT_NOFILE, &limit),
            Resource::Core => libc::setrlimit(libc::RLIMIT_CORE, &limit),
        };
    }
}
