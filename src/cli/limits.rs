//! The options that bound a bot process, shared by every command that runs bots.

use std::path::PathBuf;
use std::time::Duration;

use super::bounds::{
    self, MAX_CAPTURE_BYTES, MAX_DISK_MB, MAX_FILE_KB, MAX_MEMORY_MB, MAX_PROCS, MAX_TIMEOUT_SECONDS,
};
use crate::harness::runner::Limits;
use crate::harness::sandbox::{self, Mode, PassEnv, Policy, Summary};

/// Limits on each bot process. Serialised as given into `grade.json`'s settings, so that a
/// grading with other limits is not taken for this one.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct LimitArgs {
    /// CPU seconds (user + system, all its processes together) a bot may use for one move,
    /// more than 0 and at most 3600. A bot that sits idle (none of its processes running or
    /// waiting for a processor) for this + 1 s is stopped too: a sleeper cannot stall the
    /// grader, and a bot slowed by a busy machine is judged by its CPU time alone.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0,
          value_parser = bounds::seconds(false, MAX_TIMEOUT_SECONDS))]
    pub timeout: f64,

    /// Memory cap per bot process in MiB, at most 65536 (RLIMIT_DATA; 0 = none).
    #[arg(long, value_name = "MIB", default_value_t = 4096,
          value_parser = bounds::whole::<u64>(0, MAX_MEMORY_MB))]
    pub memory_mb: u64,

    /// Cap on processes, at most 32768 (for all the bot's processes together where a cgroup can
    /// be made, else RLIMIT_NPROC, counted over the bot's user; 0 = none).
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = bounds::whole::<u64>(0, MAX_PROCS))]
    pub max_procs: u64,

    /// Cap on the size of any file a bot writes, in KiB, at most 1048576 (RLIMIT_FSIZE; 0 = none).
    #[arg(long, value_name = "KIB", default_value_t = 1024,
          value_parser = bounds::whole::<u64>(0, MAX_FILE_KB))]
    pub max_file_kb: u64,

    /// Bytes of each of stdout and stderr kept (the start and the end), 1 to 16777216 (16 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024,
          value_parser = bounds::whole::<usize>(1, MAX_CAPTURE_BYTES))]
    pub capture_bytes: usize,

    /// Space a bot may fill in its case folder, all files together, in MiB, 1 to 1024 (sandbox
    /// only: the folder is a tmpfs of this size).
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = bounds::whole::<u64>(1, MAX_DISK_MB))]
    pub max_disk_mb: u64,

    /// How bots are confined: `auto` uses the strongest sandbox this kernel allows (and the
    /// report says what it was), `strict` refuses to run bots without namespaces and
    /// Landlock, `off` runs them with per-process limits only. See docs/SANDBOX.md.
    #[arg(long, value_enum, default_value_t = Mode::Auto, value_name = "LEVEL")]
    pub sandbox: Mode,

    /// Let bots also read DIR (a folder or a file), read-only; repeat for more. For what the
    /// sandbox does not find by itself: a data file, an interpreter it cannot trace.
    #[arg(long = "allow-read", value_name = "DIR")]
    pub allow_read: Vec<PathBuf>,

    /// Pass the variable NAME to bots (arbiter's own value), or set it to VALUE; repeat for
    /// more. Bots get only PATH, HOME, the locale, TZ, TERM and runtime variables otherwise.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    pub env: Vec<PassEnv>,
}

impl LimitArgs {
    /// The runner's limits. The parsers already hold each option to its range; this checks
    /// again for values set in code, so that no caller can reach a panic in `Duration`.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        let check = |name: &str, ok: bool, value: String, range: &str| {
            if ok {
                Ok(())
            } else {
                Err(anyhow::anyhow!("--{name} {value} is out of range: expected {range}"))
            }
        };
        let timeout = self.timeout;
        check(
            "timeout",
            timeout.is_finite() && timeout > 0.0 && timeout <= MAX_TIMEOUT_SECONDS,
            timeout.to_string(),
            "a number of seconds greater than 0 and at most 3600",
        )?;
        check("memory-mb", self.memory_mb <= MAX_MEMORY_MB, self.memory_mb.to_string(), "0 to 65536")?;
        check("max-procs", self.max_procs <= MAX_PROCS, self.max_procs.to_string(), "0 to 32768")?;
        check("max-file-kb", self.max_file_kb <= MAX_FILE_KB, self.max_file_kb.to_string(), "0 to 1048576")?;
        check(
            "max-disk-mb",
            (1..=MAX_DISK_MB).contains(&self.max_disk_mb),
            self.max_disk_mb.to_string(),
            "1 to 1024",
        )?;
        check(
            "capture-bytes",
            (1..=MAX_CAPTURE_BYTES).contains(&(self.capture_bytes as u64)),
            self.capture_bytes.to_string(),
            "1 to 16777216",
        )?;
        let nonzero = |v: u64, scale: u64| (v > 0).then(|| v.saturating_mul(scale));
        Ok(Limits {
            timeout: Duration::from_secs_f64(timeout),
            memory_bytes: nonzero(self.memory_mb, 1 << 20),
            max_processes: nonzero(self.max_procs, 1),
            max_file_bytes: nonzero(self.max_file_kb, 1 << 10),
            capture_bytes: self.capture_bytes,
            disk_bytes: self.max_disk_mb << 20,
            sandbox: Policy {
                mode: self.sandbox,
                hidden: Vec::new(),
                helper: None,
                allow_read: self
                    .allow_read
                    .iter()
                    .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
                    .collect(),
                env: self.env.clone(),
            },
            ..Limits::default()
        })
    }

    /// The runner's limits with the sandbox ready: `hidden` are paths no bot may see (the
    /// corpus, golden answers, reports). The sandbox is set up once without a bot to find out
    /// what this machine allows; in strict mode anything missing is an error.
    pub fn sandboxed(&self, hidden: Vec<PathBuf>) -> anyhow::Result<(Limits, Summary)> {
        let mut limits = self.limits()?;
        limits.sandbox.hidden = hidden;
        let summary = sandbox::probe(&limits).map_err(anyhow::Error::msg)?;
        // Strict needs every layer that keeps bots apart from the grader and from each other.
        let essential = ["namespaces", "root", "landlock", "proc", "cgroup", "seccomp"];
        if limits.sandbox.mode == Mode::Strict
            && summary.missing.iter().any(|(n, _)| essential.contains(&n.as_str()))
        {
            anyhow::bail!("--sandbox strict cannot be met here: {}", summary.line());
        }
        Ok((limits, summary))
    }
}

/// The folders holding the cases' golden and course answers, which no bot may see: the same
/// for `verify` and `grade`.
pub fn answer_folders(specs: &[crate::harness::referee::CaseSpec]) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = Vec::new();
    let answers = specs.iter().flat_map(|s| [s.golden.as_ref(), s.answer.as_ref()]).flatten();
    for file in answers {
        let dir = std::path::absolute(file).ok().and_then(|f| f.parent().map(PathBuf::from));
        if let Some(dir) = dir
            && !folders.contains(&dir)
        {
            folders.push(dir);
        }
    }
    folders
}
