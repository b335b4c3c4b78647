//! The sandbox passes a bot only the environment programs need to start: a token in the
//! grader's environment stays with the grader.

use std::fs;
use std::process::Command;

/// A scratch folder with a corpus of one case: `corpus/grade4/white/01.txt`.
fn one_case() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus/grade4/white");
    fs::create_dir_all(&corpus).unwrap();
    fs::copy("corpus/grade4/white/01.txt", corpus.join("01.txt")).unwrap();
    dir
}

/// The report of `arbiter verify DIR/corpus --json -q ARGS...`, run with `env` added to the
/// environment.
fn verify(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["verify", &dir.join("corpus").display().to_string(), "--json", "-q"])
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_bot_sees_path_but_not_the_graders_secrets() {
    let dir = one_case();
    let bot = dir.path().join("bot/env.sh");
    fs::create_dir_all(bot.parent().unwrap()).unwrap();
    fs::write(&bot, "#!/bin/sh\necho \"path=${PATH:+set} secret=${GRADER_TOKEN:-none}\" >&2\nexit 1\n")
        .unwrap();
    let report =
        verify(dir.path(), &["--bot", &format!("sh {}", bot.display())], &[("GRADER_TOKEN", "s3cret")]);
    let case = &report["cases"][0];
    if report["sandbox"]["mode"] == "auto" && report["sandbox"]["layers"].as_array().unwrap().is_empty() {
        eprintln!("SKIPPED: a_bot_sees_path_but_not_the_graders_secrets: no sandbox layer on this machine");
        return;
    }
    assert_eq!(case["stderr_tail"], "path=set secret=none", "{case}");
}

/// Issue 19: a `run` wrapper that calls `python3`, whichever installation PATH finds first (a
/// pyenv shim, a venv), works in the sandbox: the interpreter's installation is found and
/// readable. The bot prints its interpreter's prefix and exits 1 (so its stderr is kept).
#[test]
fn a_run_wrapper_calling_python3_works_in_the_sandbox() {
    let found = Command::new("sh").args(["-c", "command -v python3"]).output();
    let Some(python) = found
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    else {
        eprintln!("SKIPPED: a_run_wrapper_calling_python3_works_in_the_sandbox: no python3 on PATH");
        return;
    };
    let dir = one_case();
    let sub = dir.path().join("class/alice");
    fs::create_dir_all(&sub).unwrap();
    fs::write(
        sub.join("bot.py"),
        "import sys\nprint('python ok', sys.prefix, file=sys.stderr)\nsys.exit(1)\n",
    )
    .unwrap();
    fs::write(sub.join("run"), "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/bot.py\" \"$@\"\n").unwrap();
    for (path, mode) in [
        (dir.path().to_path_buf(), 0o755),
        (sub.clone(), 0o755),
        (sub.join("run"), 0o755),
        (sub.join("bot.py"), 0o644),
    ] {
        fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
    }
    let report =
        verify(dir.path(), &["--timeout", "10", "--bot", &sub.join("run").display().to_string()], &[]);
    let case = &report["cases"][0];
    assert!(
        case["stderr_tail"].as_str().unwrap_or("").starts_with("python ok"),
        "python3 is {python}: {case}"
    );
}

/// Issue 19: when a bot fails reading a file the sandbox hides, the verdict names the path and
/// the option that would allow it.
#[test]
fn a_hidden_path_in_a_failing_bots_stderr_is_named_with_its_option() {
    let dir = one_case();
    let data = dir.path().join("data");
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join("table.bin"), "x").unwrap();
    let bot = dir.path().join("bot/read.sh");
    fs::create_dir_all(bot.parent().unwrap()).unwrap();
    fs::write(&bot, format!("#!/bin/sh\ncat {} || exit 1\n", data.join("table.bin").display())).unwrap();
    let bot = format!("sh {}", bot.display());
    let report = verify(dir.path(), &["--bot", &bot], &[]);
    if report["sandbox"]["layers"].as_array().unwrap().is_empty() {
        eprintln!(
            "SKIPPED: a_hidden_path_in_a_failing_bots_stderr_is_named_with_its_option: no sandbox here"
        );
        return;
    }
    let case = &report["cases"][0];
    let reason = case["reason"].as_str().unwrap();
    assert!(reason.contains("--allow-read") && reason.contains("table.bin"), "{case}");
    let report = verify(dir.path(), &["--bot", &bot, "--allow-read", &data.display().to_string()], &[]);
    assert!(
        !report["cases"][0]["reason"].as_str().unwrap().contains("--allow-read"),
        "{}",
        report["cases"][0]
    );
}
