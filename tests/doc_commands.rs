//! The commands of README.md and of the guides in docs/ work as written.
//!
//! - README's `sh` blocks are run in order, as a newcomer runs them, in a copy of the
//!   repository's corpus, golden answers, docs and test data, with arbiter on PATH: each exits 0
//!   or 1 (1: a bot that fails its cases, which the recipes show on purpose), never 2 (a usage
//!   error) or a signal, and every `.html` page a comment names exists afterwards. Only the two
//!   `cargo` lines are not run (the install and this suite itself). Recipes that share no folder
//!   run at the same time; a block that uses a folder an earlier one made runs after it.
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

/// The commands of each of a markdown text's `sh` blocks, a line continued by `\` joined to the
/// next, with the line they start on; blank and comment-only lines left out.
fn sh_blocks(markdown: &str) -> Vec<Vec<(usize, String)>> {
    let mut blocks = Vec::new();
    let mut block: Option<Vec<(usize, String)>> = None;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            match block.take() {
                Some(done) => blocks.push(done),
                None if trimmed == "```sh" => block = Some(Vec::new()),
                None => {}
            }
            continue;
        }
        let Some(commands) = block.as_mut() else { continue };
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
    blocks
}

/// The commands of a markdown text's `sh` blocks, in order.
fn sh_commands(markdown: &str) -> Vec<(usize, String)> {
    sh_blocks(markdown).into_iter().flatten().collect()
}

/// The first path component of each word of `command`, quotes and a trailing `/` taken off.
fn heads(command: &str) -> impl Iterator<Item = &str> {
    command.split_whitespace().map(|w| w.trim_matches(|c| c == '"' || c == '\'').split('/').next().unwrap())
}

/// The folders a block makes in the working folder: where its `mkdir` and `cp` commands put
/// things (the last word of each, `mybot` of `cp -r docs/... mybot`).
fn made(block: &[(usize, String)]) -> Vec<&str> {
    block
        .iter()
        .flat_map(|(_, command)| command.split(" # ").next().unwrap().split("&&"))
        .map(str::trim)
        .filter(|part| part.starts_with("mkdir ") || part.starts_with("cp "))
        .filter_map(|part| heads(part).last())
        .collect()
}

/// README's blocks grouped into chains that share no folder: a block that uses a folder an
/// earlier block made (the grader's `cp -r mybot class/ann`) runs after it, in the same chain;
/// the others are independent recipes. Each chain's commands are in README's order.
fn chains(blocks: &[Vec<(usize, String)>]) -> Vec<Vec<(usize, String)>> {
    let mut chain_of: Vec<usize> = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        let used: Vec<usize> = (0..b)
            .filter(|&a| {
                let earlier = made(&blocks[a]);
                block.iter().any(|(_, command)| heads(command).any(|h| earlier.contains(&h)))
            })
            .map(|a| chain_of[a])
            .collect();
        let chain = used.iter().copied().min().unwrap_or(b);
        // A block that joins two chains joins them for good.
        for c in chain_of.iter_mut() {
            if used.contains(c) {
                *c = chain;
            }
        }
        chain_of.push(chain);
    }
    let mut chains: Vec<Vec<(usize, String)>> = Vec::new();
    let mut ids: Vec<usize> = Vec::new();
    for (block, &id) in blocks.iter().zip(&chain_of) {
        match ids.iter().position(|&i| i == id) {
            Some(at) => chains[at].extend(block.iter().cloned()),
            None => {
                ids.push(id);
                chains.push(block.clone());
            }
        }
    }
    chains
}

#[test]
fn readme_blocks_form_chains_that_keep_what_a_recipe_needs() {
    let readme = "```sh\ncp -r x mybot\narbiter verify corpus --bot mybot/run\n```\n\
                  ```sh\nmkdir -p mypente && cp y mypente/\n```\n\
                  ```sh\nmkdir -p class && cp -r mybot class/ann\n```\n";
    let blocks = sh_blocks(readme);
    assert_eq!(blocks.len(), 3);
    assert_eq!(made(&blocks[0]), ["mybot"]);
    assert_eq!(made(&blocks[1]), ["mypente", "mypente"]);
    let chains = chains(&blocks);
    let lines: Vec<Vec<usize>> = chains.iter().map(|c| c.iter().map(|(l, _)| *l).collect()).collect();
    assert_eq!(lines, [vec![2, 3, 9], vec![6]], "the class copies mybot, so it runs after it");
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
    let blocks = sh_blocks(&readme);
    let commands: Vec<(usize, String)> = blocks.iter().flatten().cloned().collect();
    assert!(commands.len() >= 20, "README's recipes: {commands:?}");
    let not_run: Vec<String> = commands
        .iter()
        .filter(|(_, command)| command.starts_with("cargo "))
        .map(|(_, command)| command.split(" #").next().unwrap().trim().to_string())
        .collect();
    assert_eq!(
        not_run,
        ["cargo install --locked --path .", "cargo test"],
        "only the cargo lines are not run"
    );
    // The chains share no folder, so they run at the same time, each in order: where processors
    // are free the test takes about its longest chain rather than the sum of them.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let running: Vec<_> =
            chains(&blocks).into_iter().map(|chain| scope.spawn(|| run_chain(dir.path(), chain))).collect();
        running.into_iter().filter_map(|chain| chain.join().unwrap().err()).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs a chain of README's commands in order in `dir` (the `cargo` lines left out); the first
/// that fails a check ends the chain, since the rest build on it.
fn run_chain(dir: &Path, chain: Vec<(usize, String)>) -> Result<(), String> {
    for (line, command) in chain.iter().filter(|(_, command)| !command.starts_with("cargo ")) {
        let out = Command::new("bash")
            .args(["-c", command])
            .current_dir(dir)
            .env("PATH", path_with_arbiter())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        if !matches!(code, Some(0) | Some(1)) {
            return Err(format!(
                "README.md:{line}: `{command}` exited {code:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
            ));
        }
        if stderr.contains("panicked") {
            return Err(format!("README.md:{line}: `{command}` panicked:\n{stderr}"));
        }
        if command.starts_with("arbiter verify corpus --bot builtin:grade7") {
            if code != Some(0) {
                return Err(format!("README.md:{line}: the first command passes:\n{stdout}"));
            }
            if !stdout.contains("score 85.00% by profile `course-2023`: every case passed") {
                return Err(format!("README.md:{line}: README quotes its score line:\n{stdout}"));
            }
        }
        for page in pages_named(command) {
            if !dir.join(&page).is_file() {
                return Err(format!("README.md:{line}: `{command}` left no {page}"));
            }
        }
    }
    Ok(())
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
    use rayon::prelude::*;
    let mut pages = vec![repo().join("README.md")];
    for entry in walkdir::WalkDir::new(repo().join("docs")) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "md") {
            pages.push(entry.into_path());
        }
    }
    // Every page's arbiter calls, as `page:line` and the call.
    let mut calls: Vec<(String, String)> = Vec::new();
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
            calls.push((format!("{name}:{line}"), call.to_string()));
        }
    }
    let checked = calls.len();
    // Each check is a process of its own that reads the repository only: they run side by side.
    let failures: Vec<String> = calls
        .par_iter()
        .flat_map_iter(|(at, call)| {
            // `bot` takes the assignment's command line as it is (no --help): it is run.
            let check =
                if call.starts_with("arbiter bot ") { call.to_string() } else { format!("{call} --help") };
            let out = Command::new("bash")
                .args(["-c", &check])
                .current_dir(repo())
                .env("PATH", path_with_arbiter())
                .output()
                .unwrap();
            let mut failures = Vec::new();
            if !out.status.success() {
                failures.push(format!(
                    "{at}: `{call}` is refused: {}",
                    String::from_utf8_lossy(&out.stderr).lines().take(3).collect::<Vec<_>>().join(" / ")
                ));
            }
            for path in repo_paths(call) {
                if !repo().join(path).exists() {
                    failures.push(format!("{at}: `{call}` names {path}, which does not exist"));
                }
            }
            failures
        })
        .collect();
    assert!(checked >= 60, "only {checked} arbiter commands found in README and docs/");
    assert!(failures.is_empty(), "{} of {checked} commands fail:\n{}", failures.len(), failures.join("\n"));
}
