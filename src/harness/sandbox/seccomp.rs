//! A seccomp filter for the bot: the system calls no bot needs, refused with `EPERM`.
//!
//! Always: tracing other processes, mounting, making namespaces, the kernel's keyring, BPF,
//! `userfaultfd`, io_uring and `perf_event_open` (rarely needed, often the way into a kernel
//! bug). Without namespaces, where nothing else stands between the bot and the machine, also:
//! every `socket` (only `socketpair` of `AF_UNIX` stays, as runtimes use it to talk to
//! themselves), System V IPC (whose segments would outlive the run), and making itself
//! non-dumpable (`prctl(PR_SET_DUMPABLE)`, which would hide its memory from the helper that
//! counts it); and where the bot
//! runs as the grader's own user (an unprivileged grader without namespaces), changing the
//! mode, owner, times or extended attributes of a file by its path (Landlock does not cover
//! metadata; a bot with a user of its own owns nothing outside its case folder). `clone3` is
//! refused with `ENOSYS` so that the C library falls back to `clone`, whose flags the filter can
//! read.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};

/// The namespace flags `clone` may not be given.
const NEW_NAMESPACES: [u64; 7] = [
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// Builds the two filters (the refusals, and `clone3`'s); `no_namespaces` adds the rules for
/// a bot with no namespaces around it, and `graders_user` those for a bot that runs as the
/// grader's own user (an unprivileged grader's), which owns the grader's files. The kernel
/// runs every installed filter and takes the strictest answer.
fn programs(no_namespaces: bool, graders_user: bool) -> Result<[BpfProgram; 2], String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| format!("{e:?}"))?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let always = [
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_bpf,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_perf_event_open,
        libc::SYS_open_by_handle_at,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
    ];
    for call in always {
        rules.insert(call, Vec::new());
    }
    let flag_rules = NEW_NAMESPACES
        .iter()
        .map(|&flag| {
            let when = SeccompCondition::new(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(flag), flag)
                .map_err(|e| e.to_string())?;
            SeccompRule::new(vec![when]).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    rules.insert(libc::SYS_clone, flag_rules);
    if no_namespaces {
        let mut more = vec![
            libc::SYS_socket,
            libc::SYS_shmget,
            libc::SYS_shmat,
            libc::SYS_shmctl,
            libc::SYS_semget,
            libc::SYS_semop,
            libc::SYS_semctl,
            libc::SYS_semtimedop,
            libc::SYS_msgget,
            libc::SYS_msgsnd,
            libc::SYS_msgrcv,
            libc::SYS_msgctl,
        ];
        if graders_user {
            // By path, where Landlock does not look; by descriptor (`fchmod`, as a file copy
            // does) stays, as Landlock decided already whether the bot may open the file.
            more.extend([
                libc::SYS_fchmodat,
                libc::SYS_fchownat,
                libc::SYS_setxattr,
                libc::SYS_lsetxattr,
                libc::SYS_removexattr,
                libc::SYS_lremovexattr,
            ]);
            #[cfg(target_arch = "x86_64")]
            more.extend([
                libc::SYS_chmod,
                libc::SYS_chown,
                libc::SYS_lchown,
                libc::SYS_utime,
                libc::SYS_utimes,
            ]);
            // fchmodat2 (Linux 6.6), not yet in every libc crate.
            #[cfg(target_arch = "x86_64")]
            more.push(452);
        }
        for call in more {
            rules.insert(call, Vec::new());
        }
        if graders_user {
            // utimensat by path; with a null path (futimens, as `touch` does on the file it
            // opened) it stays.
            let by_path = SeccompCondition::new(1, SeccompCmpArgLen::Qword, SeccompCmpOp::Ne, 0)
                .map_err(|e| e.to_string())?;
            rules.insert(
                libc::SYS_utimensat,
                vec![SeccompRule::new(vec![by_path]).map_err(|e| e.to_string())?],
            );
        }
        // A non-dumpable process hides its memory map and descriptors from a helper that may
        // not trace it (an unprivileged grader's, which counts memory itself where no cgroup
        // does).
        let dumpable =
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, libc::PR_SET_DUMPABLE as u64)
                .map_err(|e| e.to_string())?;
        rules.insert(libc::SYS_prctl, vec![SeccompRule::new(vec![dumpable]).map_err(|e| e.to_string())?]);
        let not_unix =
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, libc::AF_UNIX as u64)
                .map_err(|e| e.to_string())?;
        rules
            .insert(libc::SYS_socketpair, vec![SeccompRule::new(vec![not_unix]).map_err(|e| e.to_string())?]);
    }
    let filter =
        SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(libc::EPERM as u32), arch)
            .map_err(|e| e.to_string())?;
    let refusals: BpfProgram = filter.try_into().map_err(|e: seccompiler::BackendError| e.to_string())?;
    // clone3 passes its flags in memory the filter cannot read: refused as "not implemented",
    // which makes the C library use clone.
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    let clone3: BpfProgram = clone3.try_into().map_err(|e: seccompiler::BackendError| e.to_string())?;
    Ok([refusals, clone3])
}

/// Installs the filters on the calling thread (and what it executes). `no_new_privs` must be
/// set already.
pub(crate) fn apply(no_namespaces: bool, graders_user: bool) -> Result<(), String> {
    for program in programs(no_namespaces, graders_user)? {
        seccompiler::apply_filter(&program).map_err(|e| format!("seccomp: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_filters_compile() {
        for (no_namespaces, graders_user) in [(false, false), (true, false), (true, true)] {
            let [refusals, clone3] = programs(no_namespaces, graders_user).unwrap();
            assert!(refusals.len() > 10 && !clone3.is_empty());
        }
    }
}
