//! The range of every numeric option, and the parsers that hold options to them.
//!
//! An out-of-range value is a usage error: clap reports it with the option, the value and the
//! range, and exits with status 2, before any work starts. Without these bounds a typo could
//! panic (`--timeout 1e20` overflows a `Duration`), start a hundred thousand threads, keep
//! gigabytes of bot output, or run for days.

/// Longest time a bot may be given for one move, in seconds (an hour).
pub const MAX_TIMEOUT_SECONDS: f64 = 3600.0;
/// Most cases, games or positions run at once.
pub const MAX_JOBS: u64 = 256;
/// Largest memory cap per bot process, in MiB (64 GiB); 0 means no cap.
pub const MAX_MEMORY_MB: u64 = 64 * 1024;
/// Largest cap on processes (RLIMIT_NPROC); 0 means no cap.
pub const MAX_PROCS: u64 = 32_768;
/// Largest cap on the size of a file a bot writes, in KiB (1 GiB); 0 means no cap.
pub const MAX_FILE_KB: u64 = 1024 * 1024;
/// Largest `--max-disk-mb`: the case folder is a tmpfs, so this is memory.
pub const MAX_DISK_MB: u64 = 1024;
/// Most bytes kept of each of a bot's stdout and stderr (16 MiB).
pub const MAX_CAPTURE_BYTES: u64 = 16 << 20;
/// Most failures of `verify` shown in full.
pub const MAX_DETAILS: u64 = 10_000;
/// Most games in one `match` (each may run 200 bot processes).
pub const MAX_GAMES: u64 = 10_000;
/// Most random positions for `fuzz` (each is kept in memory, and run through the bot).
pub const MAX_FUZZ_CASES: u64 = 100_000;
/// Most bot runs `fuzz` spends shrinking one kind of failure.
pub const MAX_SHRINK_RUNS: u64 = 10_000;
/// Deepest `perft`: each ply multiplies the time by about 25. Depth 6 takes seconds with the fast
/// engine and minutes with the reference one; depth 7 would take hours with the reference.
pub const MAX_PERFT_DEPTH: u64 = 6;
/// Deepest `bench` perft: the reference engine runs it too, several times over.
pub const MAX_BENCH_DEPTH: u64 = 5;
/// Longest `bench --min-time`, in seconds.
pub const MAX_BENCH_SECONDS: f64 = 600.0;
/// Most cases `generate` makes for one grade.
pub const MAX_GENERATE_COUNT: u64 = 10_000;
/// Largest `generate --pool-factor` (candidates kept per case wanted).
pub const MAX_POOL_FACTOR: u64 = 100;
/// Largest `generate` search budgets, in candidates drawn per side.
pub const MAX_CANDIDATES: u64 = 100_000_000;

/// A clap parser for a whole number from `min` to `max`. The message names the range whatever
/// went wrong, so `--jobs 0`, `--jobs 100000` and `--jobs many` all say what is allowed.
pub fn whole<T: TryFrom<u64>>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("expected a whole number from {min} to {max}"))
    }
}

/// A clap parser for a number of seconds: greater than 0 (or at least 0 with `zero_allowed`)
/// and at most `max`. NaN and infinities are refused like any other value out of range.
pub fn seconds(
    zero_allowed: bool,
    max: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let low = if zero_allowed { "at least 0" } else { "greater than 0" };
        text.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s <= max && (*s > 0.0 || (zero_allowed && *s == 0.0)))
            .ok_or_else(|| format!("expected a number of seconds {low} and at most {max}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_outside_the_range_are_refused_with_the_range() {
        let jobs = whole::<usize>(1, MAX_JOBS);
        assert_eq!(jobs("4"), Ok(4));
        assert_eq!(jobs("256"), Ok(256));
        for bad in ["0", "257", "100000", "-1", "1.5", "", "99999999999999999999999"] {
            assert_eq!(jobs(bad), Err("expected a whole number from 1 to 256".to_string()), "{bad}");
        }
        // A value that fits u64 but not the field's type is refused too.
        assert!(whole::<u8>(0, 1000)("300").is_err());
    }

    #[test]
    fn seconds_must_be_finite_and_in_range() {
        let timeout = seconds(false, MAX_TIMEOUT_SECONDS);
        assert_eq!(timeout("0.5"), Ok(0.5));
        assert_eq!(timeout("3600"), Ok(3600.0));
        for bad in ["0", "-1", "1e20", "3600.001", "nan", "inf", "-inf", "ten"] {
            assert_eq!(
                timeout(bad),
                Err("expected a number of seconds greater than 0 and at most 3600".to_string()),
                "{bad}"
            );
        }
        let min_time = seconds(true, MAX_BENCH_SECONDS);
        assert_eq!(min_time("0"), Ok(0.0));
        assert!(min_time("-0.1").is_err());
    }
}
