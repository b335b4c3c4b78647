//! Namespaces for one bot run: its own user, PID, network, mount, IPC, UTS and cgroup
//! namespaces, which the run's init is cloned into by the zygote.
//!
//! The PID namespace is what makes "nothing survives the case" hold: the run's first process
//! is the namespace's init, and when it exits the kernel kills everything else in it, whatever
//! sessions or process groups they made. Bots also cannot see, and so cannot signal, any
//! process outside. The network namespace has no interface but a loopback that is down.

use std::fs;

use nix::sched::CloneFlags;
use nix::unistd::geteuid;

/// Which namespaces the helper is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entered {
    /// User namespace and all the others.
    All,
    /// All but a user namespace: arbiter runs as root.
    WithoutUser,
}

/// Every namespace but the user one.
fn others() -> CloneFlags {
    CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS
        | CloneFlags::CLONE_NEWCGROUP
}

/// The namespaces a run's init is cloned into, and what that will amount to; or why none.
///
/// As root, every namespace but a user one: the bot is then given `bot_uid` with `setuid`, a
/// user of its own that owns none of the grader's files (a user namespace would gain nothing,
/// and root's mapping would make the bot the owner of root's files). Otherwise a user
/// namespace too, in which the init becomes `bot_uid` ([`map_user`]; mapped to arbiter's own
/// user outside, the only one an unprivileged process may map), keeping every capability
/// inside until it executes the bot.
///
/// `none` (set by `ARBITER_SANDBOX_NO_NAMESPACES` in arbiter's environment) asks for none, to
/// try the fallback a machine without namespaces gets (a container, say) on one that has them.
pub(crate) fn plan(none: bool) -> Result<(CloneFlags, Entered), String> {
    if none {
        return Err("turned off by ARBITER_SANDBOX_NO_NAMESPACES".to_string());
    }
    if geteuid().is_root() {
        Ok((others(), Entered::WithoutUser))
    } else {
        Ok((CloneFlags::CLONE_NEWUSER | others(), Entered::All))
    }
}

/// In a new user namespace: makes the calling process `bot_uid` inside, `uid` and `gid` being
/// its user and group outside.
pub(crate) fn map_user(bot_uid: u32, uid: u32, gid: u32) -> Result<(), String> {
    // `setgroups` is denied so that the bot cannot drop a group to escape a group-based
    // denial.
    fs::write("/proc/self/setgroups", "deny").map_err(|e| format!("setgroups: {e}"))?;
    fs::write("/proc/self/uid_map", format!("{bot_uid} {uid} 1\n")).map_err(|e| format!("uid_map: {e}"))?;
    fs::write("/proc/self/gid_map", format!("{bot_uid} {gid} 1\n")).map_err(|e| format!("gid_map: {e}"))?;
    Ok(())
}
