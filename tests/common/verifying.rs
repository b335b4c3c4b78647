//! `verify` through the `arbiter` binary, as the hosted-bot tests run it: a corpus of a few
//! bundled cases, the JSON report, and each case's verdict.

use std::path::Path;

use serde_json::Value;

use super::arbiter;

/// A corpus of a few cases copied from the bundled `corpus/<bundled>`: `DIR/corpus/<case>.txt`.
pub fn small_corpus(bundled: &str, cases: &[&str]) -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(bundled);
    let dir = tempfile::tempdir().unwrap();
    for case in cases {
        let to = dir.path().join("corpus").join(format!("{case}.txt"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from.join(format!("{case}.txt")), &to).unwrap();
    }
    dir
}

/// The report of `arbiter --game GAME verify CORPUS --bot BOT --json OPTIONS...`; panics showing
/// what was said when it is not JSON.
pub fn verify_json(game: &str, corpus: &str, bot: &str, options: &[&str]) -> Value {
    let mut args = vec!["--game", game, "verify", corpus, "--bot", bot, "--json"];
    args.extend_from_slice(options);
    arbiter(&args, "").json()
}

/// Each case of a verify report as (name, verdict, reason).
pub fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let field = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (field("name"), field("verdict"), field("reason"))
        })
        .collect()
}
