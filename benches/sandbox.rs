//! What the sandbox costs per case: four trivial submissions (a `run` that copies its input)
//! graded over the 200 cases of `corpus/grade4` to `grade7` with `--jobs 2`, with
//! `--sandbox off` and `--sandbox auto`, best of three each. Prints wall time per case for both
//! and their difference.
//!
//! `cargo bench --bench sandbox`. A number, not a test: it depends on the machine and on what
//! else runs on it.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

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
    let mut per_case = Vec::new();
    for mode in ["off", "auto"] {
        let mut best = f64::MAX;
        for round in 0..3 {
            let reports = dir.path().join(format!("reports-{mode}-{round}"));
            let start = Instant::now();
            let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .arg("grade")
                .args(&submissions)
                .args(["--corpus".as_ref(), corpus.as_os_str(), "--reports".as_ref(), reports.as_os_str()])
                .args(["-q", "--jobs", "2", "--sandbox", mode])
                .status()
                .expect("arbiter runs");
            assert!(status.success(), "arbiter grade failed");
            best = best.min(start.elapsed().as_secs_f64());
        }
        let ms = best / runs * 1000.0;
        println!("sandbox {mode:4}: {best:.2} s for {runs} runs, {ms:.2} ms per case (wall, best of 3)");
        per_case.push(ms);
    }
    println!("the sandbox costs {:.2} ms of wall time per case", per_case[1] - per_case[0]);
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
