//! `arbiter bench` measures what it says it measures (its numbers are not judged here: speed is
//! reported, never asserted).

mod common;

use serde_json::Value;

#[test]
fn bench_reports_both_engines_on_the_fixed_suite() {
    let corpus = format!("{}/corpus/examples", env!("CARGO_MANIFEST_DIR"));
    let run =
        common::arbiter(&["bench", "--json", "--depth", "2", "--min-time", "0", "--corpus", &corpus], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v: Value = run.json();
    let perft = v["perft"].as_array().unwrap();
    let names: Vec<&str> = perft.iter().map(|p| p["position"].as_str().unwrap()).collect();
    assert_eq!(names, ["initial", "crowded", "sparse", "crowded-tie"]);
    assert_eq!(perft[0]["nodes"], 1849, "perft 2 of the initial position");
    for p in perft {
        assert!(p["fast"]["moves_per_second"].as_f64().unwrap() > 0.0);
        assert!(p["reference"]["moves_per_second"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(v["threads"], 1);
    assert_eq!(v["grade_answers"]["cases"], 4);
    assert!(v["perft_ratio"].as_f64().unwrap() > 0.0);
}

#[test]
fn network_bench_reports_its_hot_paths_and_a_game_without_any_says_so() {
    let run = common::arbiter(&["--game", "network", "bench", "--json", "--min-time", "0"], "");
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v: Value = run.json();
    for key in ["network_checks_per_second", "expect_max_ms", "alphabeta_depth3_opening_ms"] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}: {v}");
    }
    assert_eq!(v["expect_positions"], 24);
    let run = common::arbiter(&["--game", "pente", "bench"], "");
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("pente has no speed measurements of its own"), "{}", run.stderr);
}

#[test]
fn hosted_python_bench_reports_a_case_and_a_call_beside_the_bots_own_time() {
    if !common::have_tools(
        &["python3"],
        "hosted_python_bench_reports_a_case_and_a_call_beside_the_bots_own_time",
    ) {
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let submission = format!("{root}/tests/data/chess-a1/correct");
    let corpus = format!("{root}/corpus/chess-a1");
    let run = common::arbiter(
        &[
            "--game",
            "chess-a1",
            "bench",
            "--json",
            "--min-time",
            "0",
            "--hosted",
            &submission,
            "--hosted-count",
            "4",
            "--corpus",
            &corpus,
        ],
        "",
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let v: Value = run.json();
    assert_eq!(v["hosted_language"], "Python");
    for row in ["hosted_case", "hosted_call"] {
        assert_eq!(v[row]["units"], 4, "{row}: {v}");
        assert_eq!(v[row]["failed"], 0, "{row}: {v}");
        assert!(v[row]["wall_ms"].as_f64().unwrap() > 0.0, "{row}: {v}");
    }
    // Each case runs the module's top level afresh in a child of its own: the bot's time.
    assert!(v["hosted_case"]["bot_cpu_ms"].as_f64().unwrap() > 0.0, "{v}");
}
