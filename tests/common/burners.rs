//! CPU burners, each in a cgroup of its own, as other graders' jobs and containers load a
//! shared machine: the kernel shares the processors between cgroups first, so a bot in a cgroup
//! of its own (the sandbox's) gets its cgroup's share, not a share per process.

use std::fs;
use std::path::PathBuf;
use std::process::{Child, Command};

/// Busy loops in cgroups of their own, killed and removed when the value is dropped.
pub struct Burners {
    children: Vec<Child>,
    dirs: Vec<PathBuf>,
}

impl Burners {
    /// Starts `n` burners, each in a new cgroup (the v1 `cpu` hierarchy, else cgroup v2 with
    /// its `cpu` controller); `None`, having printed `SKIPPED: <test>: why`, where no cgroup can
    /// be made (not root, no cpu controller).
    pub fn start(n: usize, test: &str) -> Option<Burners> {
        let Some(parent) = cpu_parent() else {
            println!("SKIPPED: {test}: no cpu cgroup can be made here (run as root with cgroup v1 or v2)");
            return None;
        };
        let mut burners = Burners { children: Vec::new(), dirs: Vec::new() };
        for i in 0..n {
            let dir = parent.join(format!("arbiter-test-burner-{}-{i}", std::process::id()));
            if fs::create_dir(&dir).is_err() && !dir.is_dir() {
                println!("SKIPPED: {test}: cannot make the cgroup {}", dir.display());
                return None;
            }
            burners.dirs.push(dir.clone());
            let child = Command::new("sh").args(["-c", "while :; do :; done"]).spawn().ok()?;
            let pid = child.id();
            burners.children.push(child);
            if fs::write(dir.join("cgroup.procs"), pid.to_string()).is_err() {
                println!("SKIPPED: {test}: cannot move a burner into {}", dir.display());
                return None;
            }
        }
        Some(burners)
    }

    /// As many burners as give a process in a cgroup of its own about `share` of a processor.
    pub fn for_share(share: f64, test: &str) -> Option<Burners> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as f64;
        let n = (cores / share - 1.0).ceil().max(1.0) as usize;
        Burners::start(n, test)
    }
}

impl Drop for Burners {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        for dir in &self.dirs {
            for _ in 0..100 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// Where a cgroup with the `cpu` controller can be made: the v1 `cpu` hierarchy's root, else
/// a cgroup v2 mount whose root hands the `cpu` controller down (enabled here if it can be).
fn cpu_parent() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mut v2 = None;
    for line in mounts.lines() {
        let Some((left, right)) = line.split_once(" - ") else { continue };
        let mut right = right.split(' ');
        let kind = right.next().unwrap_or_default();
        let options = right.nth(1).unwrap_or_default();
        let point = PathBuf::from(left.split(' ').nth(4).unwrap_or_default());
        if kind == "cgroup" && options.split(',').any(|o| o == "cpu") && writable(&point) {
            return Some(point);
        }
        if kind == "cgroup2" {
            v2 = Some(point);
        }
    }
    let root = v2?;
    let controllers = fs::read_to_string(root.join("cgroup.subtree_control")).unwrap_or_default();
    if !controllers.split_whitespace().any(|c| c == "cpu") {
        fs::write(root.join("cgroup.subtree_control"), "+cpu").ok()?;
    }
    writable(&root).then_some(root)
}

fn writable(dir: &std::path::Path) -> bool {
    let probe = dir.join(format!("arbiter-test-probe-{}", std::process::id()));
    let ok = fs::create_dir(&probe).is_ok();
    let _ = fs::remove_dir(&probe);
    ok
}
