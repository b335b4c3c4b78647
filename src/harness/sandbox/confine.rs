//! The last steps in the bot's own process before it executes the bot: no capabilities, and a
//! Landlock domain that allows reading what it may read, writing only its case folder (and, in
//! its own root, its scratch folders), no TCP, and no signals or abstract sockets to anything
//! outside the domain.

use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, path_beneath_rules,
};

/// The Landlock ABI whose rules were written and tested here; newer kernels get the same
/// rules, older ones as much of them as they support.
const ABI_TESTED: ABI = ABI::V7;

/// Devices a program may open for reading and writing.
const DEVICES: [&str; 6] = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"];

/// How far Landlock could go on this kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Landlocked {
    /// Every rule is enforced.
    Fully(i32),
    /// Only the rules this kernel knows are enforced.
    Partly(i32),
    /// The kernel has no Landlock (or it is disabled).
    No,
}

/// The kernel's Landlock ABI version, 0 when there is none.
pub(crate) fn kernel_abi() -> i32 {
    // SAFETY: landlock_create_ruleset with a null attribute, size 0 and the VERSION flag only
    // returns the ABI version; it touches no memory.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, /* VERSION */
        )
    };
    i32::try_from(version).unwrap_or(0).max(0)
}

/// Restricts the calling process (and everything it starts) to reading and executing `read`,
/// writing `write`, no TCP, and no signals or abstract sockets to anything outside its domain.
pub(crate) fn landlock(read: &[PathBuf], write: &[PathBuf]) -> Result<Landlocked, String> {
    let abi = ABI_TESTED;
    let reading = AccessFs::from_read(abi);
    let all = AccessFs::from_all(abi);
    let fail = |e: landlock::RulesetError| format!("landlock: {e}");
    let status = landlock::Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(fail)?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .map_err(fail)?
        .scope(Scope::from_all(abi))
        .map_err(fail)?
        .create()
        .map_err(fail)?
        .add_rules(path_beneath_rules(read, reading))
        .map_err(fail)?
        .add_rules(path_beneath_rules(DEVICES, AccessFs::ReadFile | AccessFs::WriteFile))
        .map_err(fail)?
        .add_rules(path_beneath_rules(write, all))
        .map_err(fail)?
        .restrict_self()
        .map_err(fail)?;
    let version = kernel_abi();
    Ok(match status.ruleset {
        RulesetStatus::FullyEnforced => Landlocked::Fully(version),
        RulesetStatus::PartiallyEnforced => Landlocked::Partly(version),
        RulesetStatus::NotEnforced => Landlocked::No,
    })
}

/// Gives up every capability for good, so that the bot (root inside its user namespace, or
/// root outright where there is none) gains none when it executes its program: no mounts, no
/// ptrace of outsiders, no raising its limits. Errors are ignored where there was nothing to
/// give up (an unprivileged process has no capabilities to drop).
pub(crate) fn drop_capabilities() {
    // SECBIT_NOROOT and SECBIT_NO_SETUID_FIXUP, with their locks and KEEP_CAPS_LOCKED: uid 0
    // no longer brings capabilities on exec.
    const SECUREBITS: libc::c_ulong = 0x01 | 0x02 | 0x04 | 0x08 | 0x20;
    // SAFETY: prctl and capset with plain integer arguments and a valid header and data array.
    unsafe {
        libc::prctl(libc::PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0);
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        #[repr(C)]
        struct Header {
            version: u32,
            pid: i32,
        }
        #[repr(C)]
        struct Data {
            effective: u32,
            permitted: u32,
            inheritable: u32,
        }
        let header = Header { version: 0x2008_0522, pid: 0 };
        let data = [
            Data { effective: 0, permitted: 0, inheritable: 0 },
            Data { effective: 0, permitted: 0, inheritable: 0 },
        ];
        libc::syscall(libc::SYS_capset, &header, data.as_ptr());
    }
}
