//! scripts/slurm-grade.sh on a one-node Slurm cluster started for the test: a class of three
//! tiny submissions graded as a job array of two shards, then merged by a job that depends on
//! them, gives the gradebook of one `arbiter grade` run on the whole class.
//!
//! Needs root and Slurm from the distribution (`apt-get install slurm-wlm`: slurmctld, slurmd,
//! sbatch, munged); prints SKIPPED otherwise. Its own munged, slurmctld and slurmd run on free
//! ports with their state in a scratch folder, and are stopped when the test ends, passed or not.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{arbiter_ok, have_tools};

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// A one-node cluster; its daemons are stopped when it is dropped.
struct Cluster {
    dir: PathBuf,
    daemons: Vec<Child>,
    munged_pid: Option<i32>,
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd with everything under `dir`; None (with the reason
    /// printed as SKIPPED) when the node does not come up.
    fn start(dir: &Path) -> Option<Cluster> {
        let mut cluster = Cluster { dir: dir.to_path_buf(), daemons: Vec::new(), munged_pid: None };
        fs::create_dir_all(dir).unwrap();
        let key = dir.join("munge.key");
        fs::write(&key, (0..1024).map(|i| (i * 7919 % 251) as u8).collect::<Vec<u8>>()).unwrap();
        fs::set_permissions(&key, fs::Permissions::from_mode(0o400)).unwrap();
        let munged = Command::new("munged")
            .arg("--force")
            .arg(format!("--socket={}", dir.join("munge.sock").display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--pid-file={}", dir.join("munged.pid").display()))
            .arg(format!("--log-file={}", dir.join("munged.log").display()))
            .arg(format!("--seed-file={}", dir.join("munged.seed").display()))
            .status();
        if !matches!(munged, Ok(s) if s.success()) {
            println!("SKIPPED: slurm: munged did not start ({munged:?})");
            return None;
        }
        cluster.munged_pid =
            fs::read_to_string(dir.join("munged.pid")).ok().and_then(|p| p.trim().parse().ok());
        // Slurm knows a node by the short host name.
        let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let host = host.trim().split('.').next().unwrap().to_string();
        let conf = format!(
            "ClusterName=arbitertest\nSlurmctldHost={host}\nSlurmctldPort={}\nSlurmdPort={}\n\
             AuthType=auth/munge\nAuthInfo=socket={d}/munge.sock\nCredType=cred/munge\n\
             SlurmUser=root\nSlurmdUser=root\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n\
             SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
             MpiDefault=none\nReturnToService=2\n\
             NodeName={host} CPUs=2 State=UNKNOWN\nPartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
            free_port(),
            free_port(),
            d = dir.display()
        );
        fs::create_dir_all(dir.join("state")).unwrap();
        fs::create_dir_all(dir.join("spool")).unwrap();
        fs::write(dir.join("slurm.conf"), conf).unwrap();
        for daemon in [&["slurmctld", "-D", "-i"][..], &["slurmd", "-D"]] {
            let child = Command::new(daemon[0])
                .args(&daemon[1..])
                .env("SLURM_CONF", cluster.conf())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(fs::File::create(dir.join(format!("{}.err", daemon[0]))).unwrap())
                .spawn()
                .unwrap();
            cluster.daemons.push(child);
        }
        // The node is up when sinfo says it is idle.
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let out =
                Command::new("sinfo").args(["-h", "-o", "%t"]).env("SLURM_CONF", cluster.conf()).output();
            if matches!(&out, Ok(o) if String::from_utf8_lossy(&o.stdout).trim() == "idle") {
                return Some(cluster);
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        let log = |name: &str| fs::read_to_string(dir.join(name)).unwrap_or_default();
        println!(
            "SKIPPED: slurm: the node did not come up in 60 s\nslurmctld: {}\nslurmd: {}",
            log("slurmctld.err") + &log("slurmctld.log"),
            log("slurmd.err") + &log("slurmd.log")
        );
        None
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for child in &mut self.daemons {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(pid) = self.munged_pid {
            let _ =
                nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGTERM);
        }
    }
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The gradebook's rows sorted by submission, without the wall time.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = reader.headers().unwrap().clone();
    let time = header.iter().position(|h| h == "wall_seconds").expect("a wall_seconds column");
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| {
            r.unwrap().iter().enumerate().filter(|(i, _)| *i != time).map(|(_, c)| c.to_string()).collect()
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_class_graded_as_a_slurm_job_array_then_merged_equals_one_run() {
    if !nix::unistd::geteuid().is_root() {
        println!("SKIPPED: slurm: slurmd needs root");
        return;
    }
    if !have_tools(&["slurmctld", "slurmd", "sbatch", "sinfo", "munged"], "slurm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let Some(cluster) = Cluster::start(&dir.path().join("cluster")) else { return };

    // The corpus: the first white case of grades 4 and 7; three submissions.
    let root = dir.path();
    for grade in [4, 7] {
        let to = root.join(format!("corpus/grade{grade}/white/01.txt"));
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("corpus/grade{grade}/white/01.txt"));
        fs::copy(from, to).unwrap();
    }
    let mut subs = Vec::new();
    for (name, body) in [
        ("correct", format!("exec '{ARBITER}' bot --grade 7 \"$@\"")),
        ("buggy", format!("exec '{ARBITER}' bot --grade 4 \"$@\"")),
        ("crashing", "exit 1".to_string()),
    ] {
        let folder = root.join("class").join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("run"), format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(folder.join("run"), fs::Permissions::from_mode(0o755)).unwrap();
        subs.push(folder.display().to_string());
    }
    let corpus = root.join("corpus").display().to_string();
    // --sandbox off: the bots run arbiter itself, which the sandbox forbids (tests/hostile.rs).
    let grade_args = ["--corpus", &corpus, "--sandbox", "off", "--timeout", "5", "--jobs", "1"];

    let reports = root.join("slurm-out");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-grade.sh");
    let out = Command::new(&script)
        .args(["--shards", "2", "--wait", "--arbiter", ARBITER, "--reports"])
        .arg(&reports)
        .arg("--")
        .args(grade_args)
        .args(&subs)
        .env("SLURM_CONF", cluster.conf())
        .output()
        .unwrap();
    let logs: String = fs::read_dir(reports.join("slurm-logs"))
        .map(|d| {
            d.map(|e| {
                let p = e.unwrap().path();
                format!("{}:\n{}\n", p.display(), fs::read_to_string(&p).unwrap_or_default())
            })
            .collect()
        })
        .unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{}\n{logs}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("(array 1-2), merge: job"), "{said}");
    // Each task graded its shard into the shared reports folder.
    for k in 1..=2 {
        assert!(reports.join(format!("gradebook-{k}-of-2.csv")).is_file(), "shard {k} missing\n{logs}");
    }

    // The same class in one run, here.
    let whole = root.join("whole");
    let mut args = vec!["grade", "--reports", whole.to_str().unwrap()];
    args.extend(grade_args);
    args.extend(subs.iter().map(String::as_str));
    arbiter_ok(&args, "");
    let merged = rows(&reports.join("gradebook.csv"));
    assert_eq!(merged.len(), 3, "{merged:?}");
    assert_eq!(merged, rows(&whole.join("gradebook.csv")));
    drop(cluster);
}
