//! arbiter's Java host classes compiled at build time (build.rs, when the build machine had
//! `javac`), so that a run need not start javac for them. They are used only for exactly the
//! sources they were compiled from, and only on a JVM that runs their class files (Java 11 or
//! later); otherwise the host is compiled at run time as before ([`super::java`]).

use std::path::Path;

/// One game's host, compiled at build time: the sources it came from and its class files, each
/// as (path under the source or class root, contents).
pub struct PrebuiltHost {
    pub sources: &'static [(&'static str, &'static str)],
    pub classes: &'static [(&'static str, &'static [u8])],
}

/// The hosts build.rs compiled (none when the build machine had no `javac`).
pub const PREBUILT: &[PrebuiltHost] = include!(concat!(env!("OUT_DIR"), "/java_host_prebuilt.rs"));

/// The oldest Java major version that runs the class files (build.rs's `--release`).
const RELEASE: u32 = 11;

/// The class files compiled from exactly `sources` (in any order), if build.rs made them.
pub fn matching(sources: &[(&str, &str)]) -> Option<&'static [(&'static str, &'static [u8])]> {
    let mut wanted: Vec<(&str, &str)> = sources.to_vec();
    wanted.sort_unstable();
    PREBUILT
        .iter()
        .find(|host| {
            let mut have: Vec<(&str, &str)> = host.sources.to_vec();
            have.sort_unstable();
            have == wanted
        })
        .map(|host| host.classes)
}

/// Whether the JVM at `java` runs class files for Java [`RELEASE`]: read from the `release`
/// file of its installation (no JVM started); false when that cannot be told, so that arbiter
/// compiles the host with the JDK it has.
pub fn runs_on(java: &Path) -> bool {
    let Ok(real) = std::fs::canonicalize(java) else { return false };
    let Some(home) = real.parent().and_then(Path::parent) else { return false };
    let Ok(text) =
        crate::harness::files::read_capped_text(&home.join("release"), crate::harness::files::GOLDEN)
    else {
        return false;
    };
    java_major(&text).is_some_and(|major| major >= RELEASE)
}

/// The major version in a JDK's `release` file (`JAVA_VERSION="17.0.15"` -> 17,
/// `JAVA_VERSION="1.8.0_402"` -> 8).
fn java_major(release: &str) -> Option<u32> {
    let line = release.lines().find_map(|l| l.strip_prefix("JAVA_VERSION="))?;
    let version = line.trim().trim_matches('"');
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 { parts.next()?.parse().ok() } else { Some(first) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_major_version_is_read_from_a_release_file() {
        assert_eq!(java_major("IMPLEMENTOR=\"Debian\"\nJAVA_VERSION=\"17.0.15\"\n"), Some(17));
        assert_eq!(java_major("JAVA_VERSION=\"1.8.0_402\""), Some(8));
        assert_eq!(java_major("JAVA_VERSION=\"11\""), Some(11));
        assert_eq!(java_major("JAVA_VERSION=\"21-ea\""), Some(21));
        assert_eq!(java_major("OS_NAME=\"Linux\""), None);
    }

    #[test]
    fn only_the_exact_sources_match() {
        let Some(host) = PREBUILT.first() else {
            println!("SKIPPED: this build had no javac, so no host was compiled at build time");
            return;
        };
        let mut sources: Vec<(&str, &str)> = host.sources.iter().rev().copied().collect();
        assert!(matching(&sources).is_some(), "the same sources in another order match");
        sources[0].1 = "class Changed {}";
        assert!(matching(&sources).is_none(), "a changed source does not");
        sources.pop();
        assert!(matching(&sources).is_none());
    }
}
