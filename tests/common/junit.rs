#![allow(dead_code)]
//! Every JUnit file the tests write is checked against the schemas its readers use: the Jenkins
//! schema as JUnit 5 keeps it, the xUnit plugin's, and Ant's as Windy Road published it (all in
//! tests/data/, with their sources in its README).

use std::path::Path;
use std::process::Command;

/// The schemas, by file name under tests/data/.
pub const SCHEMAS: [&str; 3] = ["jenkins-junit.xsd", "junit-10.xsd", "JUnit.xsd"];

/// Whether xmllint can be run.
pub fn have_xmllint() -> bool {
    Command::new("xmllint").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Validates `xml` against every schema with `xmllint --schema`, failing the test with
/// xmllint's complaint and the document; prints `SKIPPED: xmllint not installed` without it.
pub fn assert_valid(xml: &str) {
    if !have_xmllint() {
        println!("SKIPPED: xmllint not installed (apt-get install libxml2-utils); JUnit schemas not checked");
        return;
    }
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), xml).unwrap();
    for schema in SCHEMAS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(schema);
        let out = Command::new("xmllint")
            .arg("--noout")
            .arg("--schema")
            .arg(&path)
            .arg(file.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "not valid against {schema}: {}\n{xml}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// [`assert_valid`] for a file.
pub fn assert_valid_file(path: &Path) {
    let xml = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_valid(&xml);
}
