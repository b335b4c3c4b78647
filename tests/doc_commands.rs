//! The commands of README.md and of the guides in docs/ work as written.
//!
//! - README's `sh` blocks are run in order, as a newcomer runs them, in a copy of the
//!   repository's corpus, golden answers, docs and test data, with arbiter on PATH: each exits 0
//!   or 1 (1: a bot that fails its cases, which the recipes show on purpose), never 2 (a usage
//!   error) or a signal, and every `.html` page a comment names exists afterwards. Only the two
//!   `cargo` lines are not run (the install and this suite itself).
//! - Every `arbiter ...` line of the `sh` blocks of docs/**/*.md is parsed by arbiter itself
//!   (`--help` appended, so nothing runs: an unknown subcommand, option, game or option value is
//!   an error; `arbiter bot`, which takes the assignment's command line as it is, is run), and
//!   every repository path it names exists.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The commands of a markdown text's `sh` blocks, a line continued by `\` joined to the next,
/// with the line they start on; blank and comment-only lines left out.
fn sh_commands(markdown: &str) -> Vec<(usize, String)> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (start, mut text) = pending.take().unwrap_or((i + 1, String::new()));
        text.push_str(line.trim());
        if let Some(head) = text.strip_suffix('\\') {
            pending = Some((start, format!("{head} ")));
            continue;
        }
        if !text.is_empty() && !text.starts_with('#') {
            commands.push((start, text));
        }
    }
    commands
}

/// PATH with the arbiter under test first.
fn path_with_arbiter() -> String {
    let arbiter = Path::new(env!("CARGO_BIN_EXE_arbiter"));
    format!("{}:{}", arbiter.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default())
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The `.html` files a command's comment names (`# open out/advance/index.html`).
fn pages_named(command: &str) -> Vec<String> {
    let Some((_, comment)) = command.split_once(" # ") else { return Vec::new() };
    comment
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !(c.is_alphanumeric() || "/._-".contains(c))))
        .filter(|w| w.ends_with(".html"))
        .map(str::to_string)
        .collect()
}

#[test]
fn readme_commands_run_in_order_as_a_newcomer_runs_them() {
    if !common::have_tools(&["python3", "javac", "java"], "readme_commands") {
        return;
    }
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // The bots run as users of their own, which must reach their folders.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    for part in ["corpus", "golden", "docs", "tests/data", "hosts"] {
        copy_tree(&repo().join(part), &dir.path().join(part));
    }
    let mut not_run = Vec::new();
    let commands = sh_commands(&readme);
    assert!(commands.len() >= 20, "README's recipes: {commands:?}");
    for (line, command) in &commands {
        if command.starts_with("cargo ") {
            not_run.push(command.split(" #").next().unwrap().trim().to_string());
            continue;
        }
        let out = Command::new("bash")
            .args(["-c", command])
            .current_dir(dir.path())
            .env("PATH", path_with_arbiter())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            matches!(code, Some(0) | Some(1)),
            "README.md:{line}: `{command}` exited {code:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "README.md:{line}: `{command}` panicked:\n{stderr}");
        if command.starts_with("arbiter verify corpus --bot builtin:grade7") {
            assert_eq!(code, Some(0), "README.md:{line}: the first command passes:\n{stdout}");
            assert!(
                stdout.contains("score 85.00% by profile `course-2023`: every case passed"),
                "README.md:{line}: README quotes its score line:\n{stdout}"
            );
        }
        for page in pages_named(command) {
            assert!(dir.path().join(&page).is_file(), "README.md:{line}: `{command}` left no {page}");
        }
    }
    assert_eq!(
        not_run,
        ["cargo install --locked --path .", "cargo test"],
        "only the cargo lines are not run"
    );
}

/// The repository paths a command names (arguments under corpus/, golden/, tests/data/, docs/).
fn repo_paths(command: &str) -> Vec<&str> {
    command
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .filter(|w| ["corpus/", "golden/", "tests/data/", "docs/"].iter().any(|p| w.starts_with(p)))
        .filter(|w| !w.contains('*') && !w.contains('$'))
        .collect()
}

#[test]
fn every_arbiter_command_of_the_guides_is_accepted_as_written() {
    let mut pages = vec![repo().join("README.md")];
    for entry in walkdir::WalkDir::new(repo().join("docs")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "md") {
            pages.push(entry.into_path());
        }
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for page in &pages {
        let name = page.strip_prefix(repo()).unwrap().display().to_string();
        let text = fs::read_to_string(page).unwrap();
        for (line, command) in sh_commands(&text) {
            // The arbiter part of a line (`echo 9P > out.txt && arbiter ...`).
            let Some(at) = command
                .find("arbiter ")
                .filter(|&at| at == 0 || command[..at].ends_with("&& ") || command[..at].ends_with("| "))
            else {
                continue;
            };
            let call = command[at..].split(" #").next().unwrap();
            let call = call.split(" > ").next().unwrap();
            let call = call.split(" && ").next().unwrap();
            // `bot` takes the assignment's command line as it is (no --help): it is run.
            let check =
                if call.starts_with("arbiter bot ") { call.to_string() } else { format!("{call} --help") };
            let out = Command::new("bash")
                .args(["-c", &check])
                .current_dir(repo())
                .env("PATH", path_with_arbiter())
                .output()
                .unwrap();
            checked += 1;
            if !out.status.success() {
                failures.push(format!(
                    "{name}:{line}: `{call}` is refused: {}",
                    String::from_utf8_lossy(&out.stderr).lines().take(3).collect::<Vec<_>>().join(" / ")
                ));
            }
            for path in repo_paths(call) {
                if !repo().join(path).exists() {
                    failures.push(format!("{name}:{line}: `{call}` names {path}, which does not exist"));
                }
            }
        }
    }
    assert!(checked >= 60, "only {checked} arbiter commands found in README and docs/");
    assert!(failures.is_empty(), "{} of {checked} commands fail:\n{}", failures.len(), failures.join("\n"));
}
