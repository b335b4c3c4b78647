//! The options that bound a bot process, shared by every command that runs bots.

use std::time::Duration;

use super::bounds::{self, MAX_CAPTURE_BYTES, MAX_FILE_KB, MAX_MEMORY_MB, MAX_PROCS, MAX_TIMEOUT_SECONDS};
use crate::harness::runner::Limits;

/// Limits on each bot process.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Seconds a bot may take for one move, more than 0 and at most 3600; on expiry its whole
    /// process group is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0,
          value_parser = bounds::seconds(false, MAX_TIMEOUT_SECONDS))]
    pub timeout: f64,

    /// Memory cap per bot process in MiB, at most 65536 (RLIMIT_DATA; 0 = none).
    #[arg(long, value_name = "MIB", default_value_t = 4096,
          value_parser = bounds::whole::<u64>(0, MAX_MEMORY_MB))]
    pub memory_mb: u64,

    /// Cap on processes, at most 32768 (RLIMIT_NPROC, counted over all of the user's processes
    /// and ignored for root; 0 = none).
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
        })
    }
}
