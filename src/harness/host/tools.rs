//! Finding the language tools a hosted submission needs (`java`, `javac`, `python3`), with a
//! message that says how to install what is missing.

use std::path::{Path, PathBuf};

/// The first executable `name` on `PATH`, or in `$JAVA_HOME/bin` for Java's tools.
pub fn find(name: &str) -> Option<PathBuf> {
    let java_home = matches!(name, "java" | "javac")
        .then(|| std::env::var_os("JAVA_HOME"))
        .flatten()
        .map(|home| PathBuf::from(home).join("bin").join(name));
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|d| d.join(name)).collect::<Vec<_>>())
        .unwrap_or_default();
    java_home.into_iter().chain(on_path).find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `find`, or an error naming the tool, what needs it and how to get it.
pub fn require(name: &str, purpose: &str) -> Result<PathBuf, String> {
    find(name).ok_or_else(|| {
        let install = match name {
            "java" | "javac" => {
                "install a JDK (Debian/Ubuntu: `apt-get install -y default-jdk-headless`) or set JAVA_HOME"
            }
            _ => "install Python 3 (Debian/Ubuntu: `apt-get install -y python3`)",
        };
        format!("`{name}` is needed to {purpose}, but it is not on PATH: {install}")
    })
}
