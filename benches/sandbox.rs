//! What the sandbox costs per case: four trivial submissions (a `run` that copies its input)
//! graded over the 200 cases of `corpus/grade4` to `grade7` with `--jobs 2`, with
//! `--sandbox off` and `--sandbox auto`, the two modes taking turns, best of five each. Prints,
//! per case, the wall time of both and their difference, and where a cgroup v1 `cpuacct`
//! hierarchy can be written (as root), the CPU time of every process of the grade (arbiter,
//! its sandbox, the bots) for both: on a busy machine the CPU time is the steadier figure.
//!
//! `cargo bench --bench sandbox`. A number, not a test: it depends on the machine and on what
//! else runs on it (the load is printed beside it).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How many times each mode grades the class; the best is kept.
const ROUNDS: usize = 5;

fn main() {
    let dir = tempfile::Builder::new().prefix("sandbox-bench-").tempdir().expect("a temporary folder");
    let corpus = dir.path().join("corpus");
    for grade in ["grade4", "grade5", "grade6", "grade7"] {
        copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(grade), &corpus.join(grade));
    }
    let cases = walkdir::WalkDir::new(&corpus)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .count();
    let mut submissions = Vec::new();
    for name in ["a", "b", "c", "d"] {
        let folder = dir.path().join("class").join(name);
        std::fs::create_dir_all(&folder).expect("a class folder");
        let run = folder.join("run");
        std::fs::write(&run, "#!/bin/sh\ncat \"$2\" > \"$3\"\n").expect("a run file");
        std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        submissions.push(folder);
    }
    let runs = (cases * submissions.len()) as f64;
    let modes = ["off", "auto"];
    let mut wall = [f64::MAX; 2];
    let mut cpu: [Option<f64>; 2] = [None; 2];
    println!("load before: {}", load());
    for round in 0..ROUNDS {
        for (m, mode) in modes.iter().enumerate() {
            let reports = dir.path().join(format!("reports-{mode}-{round}"));
            let meter = CpuMeter::new();
            let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
            command
                .arg("grade")
                .args(&submissions)
                .args(["--corpus".as_ref(), corpus.as_os_str(), "--reports".as_ref(), reports.as_os_str()])
                .args(["-q", "--jobs", "2", "--sandbox", mode]);
            if let Some(meter) = &meter {
                let tasks = meter.tasks_file();
                // SAFETY: between fork and exec the closure only opens, writes and closes a
                // file whose name was made beforehand.
                unsafe {
                    command.pre_exec(move || {
                        let fd = libc::open(tasks.as_ptr(), libc::O_WRONLY);
                        if fd >= 0 {
                            libc::write(fd, b"0".as_ptr().cast(), 1);
                            libc::close(fd);
                        }
                        Ok(())
                    });
                }
            }
            let start = Instant::now();
            let status = command.status().expect("arbiter runs");
            let seconds = start.elapsed().as_secs_f64();
            assert!(status.success(), "arbiter grade failed");
            wall[m] = wall[m].min(seconds);
            if let Some(used) = meter.and_then(CpuMeter::finish) {
                cpu[m] = Some(cpu[m].map_or(used, |best: f64| best.min(used)));
            }
        }
    }
    for (m, mode) in modes.iter().enumerate() {
        let cpu =
            cpu[m].map(|s| format!(", {:.2} ms of CPU per case", s / runs * 1000.0)).unwrap_or_default();
        println!(
            "sandbox {mode:4}: {:.2} s for {runs} runs, {:.2} ms of wall time per case{cpu} (best of {ROUNDS})",
            wall[m],
            wall[m] / runs * 1000.0
        );
    }
    println!("the sandbox costs {:.2} ms of wall time per case", (wall[1] - wall[0]) / runs * 1000.0);
    if let (Some(off), Some(auto)) = (cpu[0], cpu[1]) {
        println!("the sandbox costs {:.2} ms of CPU time per case", (auto - off) / runs * 1000.0);
    } else {
        println!("CPU time not measured: no cgroup v1 cpuacct hierarchy can be written here");
    }
    println!("load after: {}", load());
}

/// The machine's load averages, as `/proc/loadavg` has them.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// A cgroup v1 `cpuacct` group of its own that counts the CPU time of every process of one
/// grade, the sandbox's zygote and the runs' cgroups (made under it) included.
struct CpuMeter {
    dir: PathBuf,
}

impl CpuMeter {
    fn new() -> Option<CpuMeter> {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let base = ["/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpu,cpuacct"]
            .into_iter()
            .map(PathBuf::from)
            .find(|b| b.join("cpuacct.usage").exists())?;
        let dir = base.join(format!("sandbox-bench-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        Some(CpuMeter { dir })
    }

    fn tasks_file(&self) -> std::ffi::CString {
        std::ffi::CString::new(self.dir.join("tasks").into_os_string().into_encoded_bytes()).expect("a path")
    }

    /// The CPU time counted, in seconds, once every process of the grade has ended (the
    /// zygote ends a moment after arbiter); the group is removed.
    fn finish(self) -> Option<f64> {
        for _ in 0..500 {
            let empty = walkdir::WalkDir::new(&self.dir)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_name() == "cgroup.procs")
                .all(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.trim().is_empty()));
            if empty {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let used =
            std::fs::read_to_string(self.dir.join("cpuacct.usage")).ok()?.trim().parse::<u64>().ok()?;
        // Run cgroups arbiter left under it (it removes its own at its end) first, then it.
        let mut dirs: Vec<PathBuf> = walkdir::WalkDir::new(&self.dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_dir())
            .map(|e| e.into_path())
            .collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for d in dirs {
            let _ = std::fs::remove_dir(d);
        }
        Some(used as f64 / 1e9)
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().filter_map(Result::ok) {
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("a folder");
        } else {
            std::fs::copy(entry.path(), &target).expect("a file");
        }
    }
}
