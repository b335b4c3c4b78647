//! arbiter's own `player.Player` and `player.Move` (hosts/java/network/player/) compile with a
//! student's `MachinePlayer` unchanged, and `Move.toString` prints what arbiter reads.

use std::path::Path;
use std::process::Command;

use arbiter::games::network::{Move, Square};

/// Whether `tool -version` runs.
fn have(tool: &str) -> bool {
    Command::new(tool).arg("-version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn the_api_compiles_with_a_trivial_machine_player_and_prints_moves_as_arbiter_reads_them() {
    if !have("javac") || !have("java") {
        println!(
            "SKIPPED: javac and java are needed (install a JDK, e.g. apt-get install default-jdk-headless)"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let sources = [
        root.join("hosts/java/network/player/Player.java"),
        root.join("hosts/java/network/player/Move.java"),
        root.join("tests/data/network/player/MachinePlayer.java"),
    ];
    let compiled = Command::new("javac")
        .arg("-Xlint:all")
        .arg("-Werror")
        .arg("-d")
        .arg(out.path())
        .args(&sources)
        .output()
        .unwrap();
    assert!(compiled.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&compiled.stderr));
    let run = Command::new("java").arg("-cp").arg(out.path()).arg("player.MachinePlayer").output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let expected = [
        Move::Add { to: sq("34") },
        // new Move(3, 4, 5, 6): x1 y1 is the new square, x2 y2 the old one.
        Move::Step { to: sq("34"), from: sq("56") },
        Move::Quit,
    ];
    for (line, mv) in lines.iter().zip(expected) {
        assert_eq!(*line, mv.course_string());
        assert_eq!(arbiter::games::network::text::move_from_text(line).unwrap(), mv);
    }
    assert_eq!(lines.get(3), Some(&"trivial 3"));
}
