//! Compiles arbiter's Java host classes at build time, when the build machine has `javac`, so
//! that a run does not start javac for them (about 2 s of CPU per process): for each game under
//! `hosts/java/` (every folder but `common` and `build`), the generic host, the build step and
//! the game's adapter and API, with `--release 11` (the oldest JDK the hosts support). The
//! class files are embedded in the binary beside the sources they came from; at run time they
//! are used only when a game's sources are exactly those and the JVM is 11 or later, and
//! arbiter compiles the host itself otherwise (src/harness/host/prebuilt.rs). Without `javac`
//! here, or if it fails, nothing is embedded and every run compiles the host as before.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The oldest Java the hosts are written for.
const RELEASE: &str = "11";

fn main() {
    println!("cargo:rerun-if-changed=hosts/java");
    println!("cargo:rerun-if-env-changed=JAVAC");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let hosts = root.join("hosts/java");
    let mut table = String::from("&[\n");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&hosts)
        .map(|dir| dir.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    games.retain(|p| !p.ends_with("common") && !p.ends_with("build"));
    games.sort();
    for game in games {
        let name = game.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let roots = [hosts.join("common"), hosts.join("build"), game.clone()];
        let sources: Vec<(String, PathBuf)> = roots.iter().flat_map(|r| java_files(r)).collect();
        let classes = out.join("java-host").join(&name);
        match compile(&sources, &classes) {
            Ok(()) => {
                table.push_str("    PrebuiltHost {\n        sources: &[\n");
                for (relative, file) in &sources {
                    writeln!(
                        table,
                        "            ({relative:?}, include_str!({:?})),",
                        file.display().to_string()
                    )
                    .unwrap();
                }
                table.push_str("        ],\n        classes: &[\n");
                for file in class_files(&classes) {
                    let relative =
                        file.strip_prefix(&classes).unwrap_or(&file).to_string_lossy().replace('\\', "/");
                    writeln!(
                        table,
                        "            ({relative:?}, include_bytes!({:?})),",
                        file.display().to_string()
                    )
                    .unwrap();
                }
                table.push_str("        ],\n    },\n");
            }
            Err(why) => println!(
                "cargo:warning=arbiter's Java host for {name} is not compiled at build time ({why}); \
                 each run compiles it with the javac it finds"
            ),
        }
    }
    table.push(']');
    std::fs::write(out.join("java_host_prebuilt.rs"), table).expect("OUT_DIR is writable");
}

/// `(path under its source root, file)` of every `.java` under `root`, sorted.
fn java_files(root: &Path) -> Vec<(String, PathBuf)> {
    files_ending(root, "java")
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            (relative, path)
        })
        .collect()
}

/// Every `.class` under `folder`, sorted.
fn class_files(folder: &Path) -> Vec<PathBuf> {
    files_ending(folder, "class")
}

/// Every file under `root` whose name ends in `.extension`, sorted.
fn files_ending(root: &Path, extension: &str) -> Vec<PathBuf> {
    // Links followed, as the hand-written walk did.
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == extension))
        .map(walkdir::DirEntry::into_path)
        .collect();
    found.sort();
    found
}

/// javac on `sources` into a fresh `classes` folder.
fn compile(sources: &[(String, PathBuf)], classes: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(classes);
    std::fs::create_dir_all(classes).map_err(|e| format!("cannot make {}: {e}", classes.display()))?;
    let javac = std::env::var_os("JAVAC").unwrap_or_else(|| "javac".into());
    let output = Command::new(&javac)
        .args(["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "--release", RELEASE])
        .args(["-encoding", "UTF-8", "-nowarn", "-implicit:none", "-d"])
        .arg(classes)
        .args(sources.iter().map(|(_, f)| f))
        .output()
        .map_err(|e| format!("no javac: {e}"))?;
    if !output.status.success() {
        let words = String::from_utf8_lossy(&output.stderr);
        return Err(format!("javac failed: {}", words.lines().next().unwrap_or("")));
    }
    Ok(())
}
