//! PlanetWars through the `arbiter` binary, as the hosted-strategy tests play it: the test
//! strategies of `tests/data/planetwars/` and `match --json`.

use std::path::PathBuf;

use serde_json::Value;

use super::arbiter;

/// The path of `tests/data/planetwars/<name>`.
pub fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/planetwars").join(name).display().to_string()
}

/// `arbiter --game planetwars [--rule RULE]... match --json -q ARGS...`: the report (null when
/// it is not JSON), and everything said, with the exit status, for failure messages.
pub fn play(rules: &[&str], args: &[&str]) -> (Value, String) {
    let mut all = vec!["--game", "planetwars"];
    for rule in rules {
        all.extend(["--rule", rule]);
    }
    all.extend(["match", "--json", "-q"]);
    all.extend(args);
    let run = arbiter(&all, "");
    (
        serde_json::from_str(&run.stdout).unwrap_or(Value::Null),
        format!("status {}: {}{}", run.status, run.stdout, run.stderr),
    )
}
