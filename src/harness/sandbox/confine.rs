//! The last steps in the bot's own process before it executes the bot: no capabilities, and a
//! Landlock domain that allows reading what it may read, writing only its case folder (and, in
//! its own root, its scratch folders), no TCP, and no signals or abstract sockets to anything
//! outside the domain.

use std::path::{Path, PathBuf};

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

/// What a bot may read, as Landlock rules.
#[derive(Debug)]
pub(crate) struct Reading {
    /// Folders and files it may read and execute, with everything beneath them.
    pub read: Vec<PathBuf>,
    /// Folders it may only list, with every folder beneath them: their files it reads only
    /// where `read` allows them.
    pub list: Vec<PathBuf>,
}

/// Restricts the calling process (and everything it starts) to reading and executing what
/// `reading` allows, writing `write`, no TCP, and no signals or abstract sockets to anything
/// outside its domain.
pub(crate) fn landlock(reading: &Reading, write: &[PathBuf]) -> Result<Landlocked, String> {
    let abi = ABI_TESTED;
    let read = AccessFs::from_read(abi);
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
        .add_rules(path_beneath_rules(&reading.read, read))
        .map_err(fail)?
        .add_rules(path_beneath_rules(&reading.list, AccessFs::ReadDir))
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

/// Most rules [`without`] may make of one allowed folder without a root of its own, where
/// nothing else keeps the hidden paths from the bot.
pub(crate) const MAX_RULES: usize = 20_000;

/// Rules that let a process read `allowed` but none of `hidden`: an allowed folder holding a
/// hidden path is replaced by its entries, and the entry on the way to the hidden path by its
/// own entries, and so on down to the hidden path, which is left out. Links among the entries
/// are left out too (a rule on a link would allow its target); a link still works where its
/// target is allowed by another rule. Returns the rules, and the folders that were replaced by
/// their entries (a file made in one later is not allowed). Fails where a folder on the way is
/// too big to list in `max_rules` rules.
pub(crate) fn without(
    allowed: &[PathBuf],
    hidden: &[PathBuf],
    max_rules: usize,
) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let mut rules = Vec::new();
    let mut opened = Vec::new();
    let mut pending: Vec<PathBuf> = allowed.to_vec();
    while let Some(path) = pending.pop() {
        if hidden.iter().any(|h| path.starts_with(h)) {
            continue;
        }
        if !hidden.iter().any(|h| h.starts_with(&path)) {
            rules.push(path);
            continue;
        }
        let entries = std::fs::read_dir(&path).map_err(|e| {
            format!("cannot list {} to leave the grader's folders out of it: {e}", path.display())
        })?;
        opened.push(path.clone());
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_symlink()) {
                continue;
            }
            pending.push(entry.path());
            if pending.len() + rules.len() > max_rules {
                return Err(format!(
                    "{} holds a folder of the grader's and too many other files to allow them one by one",
                    path.display()
                ));
            }
        }
    }
    Ok((rules, opened))
}

/// Rules for `/proc` without a PID namespace of its own: the machine-wide files (`/proc/meminfo`,
/// `/proc/cpuinfo`, `/proc/sys`, ...) and the process `pid`'s own folder, but no other
/// process's (their command lines would name the grader's folders).
pub(crate) fn proc_rules(pid: u32) -> Vec<PathBuf> {
    let mut rules = vec![PathBuf::from(format!("/proc/{pid}"))];
    let Ok(entries) = std::fs::read_dir("/proc") else { return rules };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let numeric = name.to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        if !numeric && !entry.file_type().is_ok_and(|t| t.is_symlink()) {
            rules.push(Path::new("/proc").join(name));
        }
    }
    rules
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
