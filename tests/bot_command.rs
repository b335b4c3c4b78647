//! `arbiter bot --builtin NAME`: the name is taken with or without the `builtin:` prefix that
//! `--bot` uses and the command's own error message prints.

use std::process::Command;

fn pente_bot_writes_a_move(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let input = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/pente/legal/white/001.txt");
    std::fs::copy(input, dir.path().join("input.txt")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["--game", "pente", "bot", "--builtin", name])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let answer = std::fs::read_to_string(dir.path().join("output.txt")).unwrap();
    assert!(!answer.trim().is_empty(), "{name}: an empty output.txt");
}

#[test]
fn a_builtin_is_named_with_or_without_its_prefix() {
    pente_bot_writes_a_move("random-adjacent");
    pente_bot_writes_a_move("builtin:random-adjacent");
}

#[test]
fn an_unknown_builtin_lists_the_names_it_would_take() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["--game", "pente", "bot", "--builtin", "builtin:nobody"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no built-in bot `nobody`"), "{err}");
    assert!(err.contains("builtin:minimax"), "{err}");
}
