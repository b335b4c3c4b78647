//! CPU time as the kernel's resource-usage records count it: of this process, of the calling
//! thread or of the reaped children (`getrusage`, through `nix`), or of one child as `wait4`
//! reaps it ([`CpuTimes::of`]).

use std::time::Duration;

pub(crate) use nix::sys::resource::UsageWho as Who;

/// The CPU time one resource-usage record counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CpuTimes {
    /// User + system time.
    pub total: Duration,
    /// The user part alone (what the Unix `time` command reports as `user`, leaving out the
    /// time the kernel spent for the process).
    pub user: Duration,
}

impl CpuTimes {
    /// What `usage` counts.
    pub(crate) fn of(usage: &libc::rusage) -> CpuTimes {
        let user = duration(usage.ru_utime);
        CpuTimes { total: user + duration(usage.ru_stime), user }
    }

    /// What the kernel counts for `who` so far; `None` if it would not say (a kernel without
    /// `RUSAGE_THREAD`, say).
    pub(crate) fn now(who: Who) -> Option<CpuTimes> {
        nix::sys::resource::getrusage(who).ok().map(|usage| CpuTimes::of(usage.as_ref()))
    }
}

/// A `timeval` as a duration; a negative field (which the kernel never writes) as zero.
fn duration(t: libc::timeval) -> Duration {
    Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
        + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_counts_user_and_system_time_and_the_user_part() {
        // SAFETY: an all-zero rusage is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        usage.ru_utime = libc::timeval { tv_sec: 2, tv_usec: 500_000 };
        usage.ru_stime = libc::timeval { tv_sec: 0, tv_usec: 250_000 };
        let t = CpuTimes::of(&usage);
        assert_eq!(t.user, Duration::from_millis(2500));
        assert_eq!(t.total, Duration::from_millis(2750));
    }

    #[test]
    fn this_process_has_used_some_cpu_and_its_user_part_is_within_it() {
        let spin = std::time::Instant::now();
        while spin.elapsed() < Duration::from_millis(20) {
            std::hint::black_box(spin.elapsed());
        }
        let t = CpuTimes::now(Who::RUSAGE_SELF).expect("getrusage(RUSAGE_SELF)");
        assert!(t.total > Duration::ZERO, "{t:?}");
        assert!(t.user <= t.total, "{t:?}");
        assert!(CpuTimes::now(Who::RUSAGE_THREAD).is_some());
    }
}
