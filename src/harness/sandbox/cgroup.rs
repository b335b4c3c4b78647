//! A control group per bot run, where the kernel lets arbiter make one: memory (shared
//! mappings and tmpfs pages included) and process limits that cover every process of the run
//! together, which `setrlimit` cannot do; a CPU share of its own (each run weighs the same,
//! however many processes it starts, so a burner in one run cannot starve another); and a
//! count of the run's CPU time.
//!
//! Both hierarchies are handled: cgroup v2 where arbiter's own cgroup delegates the `memory`,
//! `pids` (and `cpu`) controllers, and the v1 `memory`, `pids`, `cpu` and `cpuacct`
//! hierarchies where arbiter may create folders in them (as root, usually). Where neither
//! works the helper watches memory and processes itself, and the report says so.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::harness::runner::cpu::{CgroupClock, read_cgroup};
use crate::harness::runner::limits::Limits;

/// Numbers each run's cgroup, so parallel runs get folders of their own.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// The cgroup of one bot run.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    /// The folders made for this run (one for v2; one per controller for v1).
    dirs: Vec<PathBuf>,
    /// The folder whose files report memory events, if memory is limited.
    memory: Option<PathBuf>,
    /// The folder whose files report process-limit events, if processes are limited.
    pids: Option<PathBuf>,
    /// The folder whose `cpu` controller gives the run its own share of the processors.
    cpu: Option<PathBuf>,
    /// The file counting the run's CPU time.
    clock: Option<(PathBuf, CgroupClock)>,
    v2: bool,
    /// The limits it was made with, for reuse by a run with the same.
    made_for: (Option<u64>, Option<u64>),
    /// The counters as the run found them (a cgroup is used again by later runs): the
    /// memory-limit kills and the CPU time.
    oom_base: u64,
    cpu_base: Duration,
}

/// Cgroups of runs that have ended, empty, kept for the next runs: making and removing a
/// cgroup costs more than the rest of a run's setup.
static POOL: std::sync::Mutex<Vec<RunCgroup>> = std::sync::Mutex::new(Vec::new());

/// Where new cgroups can be made.
#[derive(Debug, Clone)]
enum Parent {
    V2(PathBuf),
    V1 { memory: Option<PathBuf>, pids: Option<PathBuf>, cpu: Option<PathBuf>, cpuacct: Option<PathBuf> },
}

impl RunCgroup {
    /// Makes a cgroup for one run with these limits (and a CPU share of its own), or `None`
    /// if the kernel does not let arbiter make one.
    pub(crate) fn create(memory_bytes: Option<u64>, max_processes: Option<u64>) -> Option<RunCgroup> {
        let pooled = {
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            let at = pool.iter().position(|cg| cg.made_for == (memory_bytes, max_processes));
            at.map(|at| pool.swap_remove(at))
        };
        let mut cg = match pooled {
            Some(cg) => cg,
            None => Self::make(memory_bytes, max_processes)?,
        };
        cg.oom_base = cg.oom_kills();
        cg.cpu_base = cg.clock.as_ref().and_then(|(file, kind)| read_cgroup(file, *kind)).unwrap_or_default();
        Some(cg)
    }

    /// Makes a new cgroup.
    fn make(memory_bytes: Option<u64>, max_processes: Option<u64>) -> Option<RunCgroup> {
        let name = format!("arbiter-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        match parent()? {
            Parent::V2(base) => {
                let dir = base.join(&name);
                fs::create_dir(&dir).ok()?;
                let mut cg = RunCgroup {
                    dirs: vec![dir.clone()],
                    memory: None,
                    pids: None,
                    cpu: None,
                    clock: Some((dir.join("cpu.stat"), CgroupClock::V2)),
                    v2: true,
                    made_for: (memory_bytes, max_processes),
                    oom_base: 0,
                    cpu_base: Duration::ZERO,
                };
                if let Some(bytes) = memory_bytes
                    && write(&dir, "memory.max", &bytes.to_string())
                {
                    // Swap would let a bot hold more than the limit; not every kernel has it.
                    write(&dir, "memory.swap.max", "0");
                    cg.memory = Some(dir.clone());
                }
                if let Some(n) = max_processes
                    && write(&dir, "pids.max", &n.to_string())
                {
                    cg.pids = Some(dir.clone());
                }
                if dir.join("cpu.weight").exists() {
                    cg.cpu = Some(dir.clone());
                }
                Some(cg)
            }
            Parent::V1 { memory, pids, cpu, cpuacct } => {
                let mut cg = RunCgroup {
                    dirs: Vec::new(),
                    memory: None,
                    pids: None,
                    cpu: None,
                    clock: None,
                    v2: false,
                    made_for: (memory_bytes, max_processes),
                    oom_base: 0,
                    cpu_base: Duration::ZERO,
                };
                let mut make = |base: &Path| {
                    let dir = base.join(&name);
                    if cg.dirs.contains(&dir) {
                        return Some(dir);
                    }
                    fs::create_dir(&dir).ok()?;
                    cg.dirs.push(dir.clone());
                    Some(dir)
                };
                let memory_dir = memory.as_deref().zip(memory_bytes).and_then(|(base, _)| make(base));
                let pids_dir = pids.as_deref().zip(max_processes).and_then(|(base, _)| make(base));
                let cpu_dir = cpu.as_deref().and_then(&mut make);
                let cpuacct_dir = cpuacct.as_deref().and_then(&mut make);
                if let (Some(dir), Some(bytes)) = (memory_dir, memory_bytes)
                    && write(&dir, "memory.limit_in_bytes", &bytes.to_string())
                {
                    write(&dir, "memory.memsw.limit_in_bytes", &bytes.to_string());
                    cg.memory = Some(dir);
                }
                if let (Some(dir), Some(n)) = (pids_dir, max_processes)
                    && write(&dir, "pids.max", &n.to_string())
                {
                    cg.pids = Some(dir);
                }
                cg.cpu = cpu_dir;
                cg.clock = cpuacct_dir.map(|d| (d.join("cpuacct.usage"), CgroupClock::V1));
                if cg.useful() {
                    Some(cg)
                } else {
                    cg.remove();
                    None
                }
            }
        }
    }

    /// Where the run's CPU time is counted.
    /// and what it counted before this run.
    pub(crate) fn cpu_clock(&self) -> Option<(PathBuf, CgroupClock, Duration)> {
        self.clock.clone().map(|(file, kind)| (file, kind, self.cpu_base))
    }

    /// What the cgroup does, for the report header.
    pub(crate) fn describe(&self, limits: &Limits) -> String {
        let mut what = Vec::new();
        if self.limits_memory() {
            what.push(format!("memory {}", super::bytes(limits.memory_bytes.unwrap_or(0))));
        }
        if self.limits_processes() {
            what.push(format!("{} processes", limits.max_processes.unwrap_or(0)));
        }
        let mut line = if what.is_empty() {
            String::new()
        } else {
            format!("{} for all processes together", what.join(", "))
        };
        if self.cpu.is_some() {
            if !line.is_empty() {
                line.push_str("; ");
            }
            line.push_str("a CPU share of its own");
        }
        line
    }

    fn useful(&self) -> bool {
        self.memory.is_some() || self.pids.is_some() || self.cpu.is_some()
    }

    /// Whether memory is limited for the run as a whole.
    pub(crate) fn limits_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Whether processes are limited for the run as a whole.
    pub(crate) fn limits_processes(&self) -> bool {
        self.pids.is_some()
    }

    /// Which hierarchy this is, for the report: "cgroup v2" or "cgroup v1".
    pub(crate) fn kind(&self) -> &'static str {
        if self.v2 { "cgroup v2" } else { "cgroup v1" }
    }

    /// The file listing the id of every thread in the cgroup (`cgroup.threads` in v2, `tasks`
    /// in v1), for the runner's measure of idle time.
    pub(crate) fn threads_file(&self) -> Option<PathBuf> {
        let dir = self.dirs.first()?;
        Some(dir.join(if self.v2 { "cgroup.threads" } else { "tasks" }))
    }

    /// The files a single-threaded process writes "0" into to join the cgroup itself.
    ///
    /// Under v1 that is `tasks`, not `cgroup.procs`: the kernel moves a whole thread group
    /// only under a global lock whose every first taking waits for an RCU grace period (11 ms
    /// a join on this project's machine, once per run), while the calling thread alone, which
    /// is the whole of a process just forked, moves without it (0.1 ms). v2 has no such file
    /// outside threaded cgroups, so it joins by `cgroup.procs`.
    pub(crate) fn join_files(&self) -> Vec<PathBuf> {
        let file = if self.v2 { "cgroup.procs" } else { "tasks" };
        self.dirs.iter().map(|d| d.join(file)).collect()
    }

    /// Whether the kernel killed a process of the run for going over the memory limit.
    pub(crate) fn out_of_memory(&self) -> bool {
        self.oom_kills() > self.oom_base
    }

    /// The kernel's count of kills for going over the memory limit in this cgroup.
    fn oom_kills(&self) -> u64 {
        let Some(dir) = &self.memory else { return 0 };
        let file = if self.v2 { "memory.events" } else { "memory.oom_control" };
        counter(&dir.join(file), "oom_kill")
    }

    /// Kills whatever is left in the cgroup and keeps it, empty, for the next run.
    pub(crate) fn remove(self) {
        self.kill();
        if self.is_empty() {
            POOL.lock().unwrap_or_else(|e| e.into_inner()).push(self);
        } else {
            self.delete();
        }
    }

    /// Kills every process in the cgroup.
    fn kill(&self) {
        for dir in &self.dirs {
            self.kill_in(dir);
        }
    }

    /// Kills every process in `dir`, one of its folders: by `cgroup.kill` where the
    /// hierarchy has it (v2), else one by one.
    fn kill_in(&self, dir: &Path) {
        if self.v2 {
            write(dir, "cgroup.kill", "1");
        } else {
            kill_members(dir);
        }
    }

    /// Whether no process is left in it.
    fn is_empty(&self) -> bool {
        self.dirs
            .iter()
            .all(|d| fs::read_to_string(d.join("cgroup.procs")).is_ok_and(|t| t.trim().is_empty()))
    }

    /// Removes its folders. The processes are dead by now in all but odd cases (a process
    /// stuck in the kernel), so this rarely waits.
    fn delete(&self) {
        for dir in &self.dirs {
            self.kill_in(dir);
            // rmdir fails while exiting processes are still counted; they go within moments.
            for _ in 0..200 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Removes the cgroups kept for later runs: call when no more bots will run.
pub(crate) fn release_pool() {
    let pool = std::mem::take(&mut *POOL.lock().unwrap_or_else(|e| e.into_inner()));
    for cg in pool {
        cg.kill();
        cg.delete();
    }
}

/// Kills every process in the v1 cgroup `dir`, over and over until none is left (one may fork
/// while the others die).
fn kill_members(dir: &Path) {
    for _ in 0..100 {
        let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) else { return };
        let pids: Vec<i32> =
            text.split_whitespace().filter_map(|p| p.parse().ok()).filter(|&p| p > 0).collect();
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            // SAFETY: kill with a positive pid has no memory-safety preconditions; these are
            // the run's processes.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Writes `value` to the cgroup file `dir/name`; whether it worked.
fn write(dir: &Path, name: &str, value: &str) -> bool {
    fs::write(dir.join(name), value).is_ok()
}

/// The number after `key` in a flat-keyed cgroup file such as `memory.events`.
fn counter(path: &Path, key: &str) -> u64 {
    let Ok(text) = fs::read_to_string(path) else { return 0 };
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0)
}

/// Where this process may make cgroups, worked out once.
fn parent() -> Option<Parent> {
    static PARENT: std::sync::OnceLock<Option<Parent>> = std::sync::OnceLock::new();
    PARENT.get_or_init(find_parent).clone()
}

fn find_parent() -> Option<Parent> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let membership = fs::read_to_string("/proc/self/cgroup").ok()?;
    if let Some(dir) = v2_parent(&mounts, &membership) {
        remove_stale(&dir);
        return Some(Parent::V2(dir));
    }
    let found = |controller: &str| v1_dir(&mounts, &membership, controller).filter(|d| writable(d));
    let (memory, pids, cpu, cpuacct) = (found("memory"), found("pids"), found("cpu"), found("cpuacct"));
    memory.iter().chain(&pids).chain(&cpu).chain(&cpuacct).for_each(|d| remove_stale(d));
    (memory.is_some() || pids.is_some() || cpu.is_some()).then_some(Parent::V1 { memory, pids, cpu, cpuacct })
}

/// Removes the empty run cgroups an arbiter that is no longer running left behind (one that was
/// interrupted, or killed, before it could clean up).
fn remove_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) =
            name.to_str().and_then(|n| n.strip_prefix("arbiter-")?.split('-').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            // Fails, harmlessly, if processes are still in it.
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// Whether arbiter can make a folder in `dir` (tried, then undone).
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!("arbiter-probe-{}", std::process::id()));
    let ok = fs::create_dir(&probe).is_ok();
    let _ = fs::remove_dir(&probe);
    ok
}

/// The v2 cgroup under which run cgroups go, if arbiter's own cgroup hands the memory and pids
/// controllers down (or can be made to: possible only while it has no processes of its own).
fn v2_parent(mounts: &str, membership: &str) -> Option<PathBuf> {
    let (mount_root, mount_point) = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        (right.split(' ').next()? == "cgroup2").then_some(())?;
        let fields: Vec<&str> = left.split(' ').collect();
        Some((fields.get(3)?.to_string(), PathBuf::from(fields.get(4)?)))
    })?;
    let own = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = join_cgroup(&mount_point, &mount_root, own)?;
    let controllers = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    if !(has("memory") && has("pids")) {
        // Enabling controllers for children only works in a cgroup without processes of its
        // own; where it fails there is nothing more to try without moving arbiter itself.
        fs::write(dir.join("cgroup.subtree_control"), "+memory +pids").ok()?;
    }
    if !has("cpu") {
        // A share of the processors per run, where the cpu controller is delegated too.
        let _ = fs::write(dir.join("cgroup.subtree_control"), "+cpu");
    }
    writable(&dir).then_some(dir)
}

/// The folder of this process's cgroup in the v1 hierarchy of `controller`.
fn v1_dir(mounts: &str, membership: &str, controller: &str) -> Option<PathBuf> {
    let (mount_root, mount_point) = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut right = right.split(' ');
        (right.next()? == "cgroup").then_some(())?;
        let options = right.nth(1)?;
        options.split(',').any(|o| o == controller).then_some(())?;
        let fields: Vec<&str> = left.split(' ').collect();
        Some((fields.get(3)?.to_string(), PathBuf::from(fields.get(4)?)))
    })?;
    let own = membership.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let _id = parts.next()?;
        let controllers = parts.next()?;
        let path = parts.next()?;
        controllers.split(',').any(|c| c == controller).then_some(path)
    })?;
    join_cgroup(&mount_point, &mount_root, own)
}

/// The folder of cgroup `own` in a hierarchy whose `root` is mounted at `mount_point`.
fn join_cgroup(mount_point: &Path, root: &str, own: &str) -> Option<PathBuf> {
    let relative = own.strip_prefix(root).unwrap_or(own).trim_start_matches('/');
    let dir = mount_point.join(relative);
    dir.is_dir().then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("memory.events");
        fs::write(&path, "low 0\nhigh 0\nmax 12\noom 1\noom_kill 3\n").unwrap();
        assert_eq!(counter(&path, "oom_kill"), 3);
        assert_eq!(counter(&path, "max"), 12);
        assert_eq!(counter(&path, "absent"), 0);
    }

    #[test]
    fn v1_membership_is_found_under_its_mount() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("memory/box/7")).unwrap();
        let mounts =
            format!("30 25 0:26 / {}/memory rw,nosuid - cgroup cgroup rw,memory\n", dir.path().display());
        let membership = "5:pids:/x\n4:memory:/box/7\n0::/\n";
        assert_eq!(v1_dir(&mounts, membership, "memory"), Some(dir.path().join("memory/box/7")));
        assert_eq!(v1_dir(&mounts, membership, "pids"), None);
    }
}
