//! `arbiter bench --suite`: every game's grading path measured in one run, each figure beside
//! its baseline, from the repository's own corpus (`corpus/`) and test submissions
//! (`tests/data/`): run it from the repository's root.
//!
//! - each game's oracle: its corpus's cases made ready (answers read from golden files or
//!   computed), per case; Advance's answers with both engines;
//! - each game with games: built-in bots playing each other, per game (no bot process);
//! - a hosted turn (Java and Python) and a hosted case or game in a fresh state, beside the
//!   bot's own CPU time (`bench --hosted`);
//! - a case through the sandbox, beside the same case with `--sandbox off`;
//! - a class of a few submissions (`grade`), beside the submissions' own CPU time.
//!
//! Measurements that run arbiter again (a class, the sandbox, hosting) do so as a child
//! process: its wall time and its CPU time (every process it waited for: a bot in the sandbox,
//! reaped by the sandbox's own process, is not among them) are what is shown; the bots' own CPU
//! time comes from the reports.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use super::super::input::{EngineChoice, GameChoice};
use crate::harness::corpus::find_cases;
use crate::harness::runner::usage::{CpuTimes, Who};
use crate::harness::verify::prepare_cases;

/// The test submissions the suite hosts: (game, submission, what it is).
const HOSTED: &[(&str, &str, &str)] = &[
    ("planetwars", "tests/data/planetwars/expander", "Java strategy"),
    ("network", "tests/data/network/player", "Java player"),
    ("chess-a1", "tests/data/chess-a1/correct", "Python module"),
];

/// The class the suite grades: chess-a1's test submissions that load.
const CLASS: &[&str] = &[
    "tests/data/chess-a1/correct",
    "tests/data/chess-a1/buggy",
    "tests/data/chess-a1/blocking",
    "tests/data/chess-a1/correct-7030",
];

/// Games whose built-in bots play each other in the suite: (game, bot A, bot B).
const SELF_PLAY: &[(&str, &str, &str)] = &[
    ("planetwars", "builtin:greedy", "builtin:timid"),
    ("pente", "builtin:minimax", "builtin:random-adjacent"),
    ("network", "builtin:alphabeta", "builtin:random"),
];

/// CPU time (user + system) of the children this process has waited for.
fn children_cpu() -> Duration {
    CpuTimes::now(Who::RUSAGE_CHILDREN).unwrap_or_default().total
}

/// Runs arbiter again with `args`; returns its stdout, wall time and CPU time.
fn arbiter(args: &[&str]) -> Result<(String, Duration, Duration), String> {
    // This very build, even if another has been installed at its path since.
    let exe = crate::harness::program::RUNNING;
    let (cpu, started) = (children_cpu(), Instant::now());
    let out = Command::new(exe)
        .args(args)
        .stderr(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run arbiter {}: {e}", args.join(" ")))?;
    let wall = started.elapsed();
    let cpu = children_cpu().saturating_sub(cpu);
    // `grade` and `verify` end with status 1 when a submission fails; their output stands.
    if out.stdout.is_empty() && !out.status.success() {
        return Err(format!("arbiter {} failed ({})", args.join(" "), out.status));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), wall, cpu))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The game's corpus cases made ready, timed: (cases, seconds per case).
fn oracle(game: GameChoice, engine: EngineChoice, corpus: &Path) -> Result<(usize, f64), String> {
    let referee = game.referee(engine, &[]).map_err(|e| e.to_string())?;
    let specs = find_cases(corpus, referee.categories()).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let started = Instant::now();
    let (ready, errors) = prepare_cases(referee.as_ref(), specs, 1);
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let n = ready.len();
    Ok((n, started.elapsed().as_secs_f64() / n.max(1) as f64))
}

/// Every row of the suite, as JSON; rows that cannot be measured say why.
pub fn run(hosted_count: usize) -> Json {
    let mut rows = serde_json::Map::new();
    let mut put = |name: String, row: Result<Json, String>| {
        rows.insert(name, row.unwrap_or_else(|why| json!({"error": why})));
    };

    // Oracles.
    for (game, corpus) in [
        (GameChoice::Advance, "corpus"),
        (GameChoice::Pente, "corpus/pente"),
        (GameChoice::Network, "corpus/network"),
        (GameChoice::ChessA1, "corpus/chess-a1"),
    ] {
        let name = format!("{} oracle", game_name(game));
        let measured = oracle(game, EngineChoice::Fast, Path::new(corpus)).and_then(|(n, per)| {
            let mut row = json!({"cases": n, "ms_per_case": per * 1000.0, "corpus": corpus});
            if game == GameChoice::Advance {
                let (_, reference) = oracle(game, EngineChoice::Reference, Path::new(corpus))?;
                row["baseline"] = json!("the reference engine");
                row["baseline_ms_per_case"] = json!(reference * 1000.0);
            }
            Ok(row)
        });
        put(name, measured);
    }

    // Engines playing: built-in bots, no process.
    for (game, a, b) in SELF_PLAY {
        let games = 20usize.to_string();
        let measured = arbiter(&[
            "--game", game, "match", "--games", &games, "--bot", a, "--bot", b, "--json",
        ])
        .map(|(_, wall, cpu)| {
            json!({"games": 20, "wall_ms_per_game": ms(wall) / 20.0, "cpu_ms_per_game": ms(cpu) / 20.0,
                       "bots": format!("{a} vs {b}")})
        });
        put(format!("{game} self-play"), measured);
    }

    // Hosting.
    let count = hosted_count.to_string();
    for (game, submission, what) in HOSTED {
        let corpus = format!("corpus/{game}");
        let measured = arbiter(&[
            "--game",
            game,
            "bench",
            "--min-time",
            "0",
            "--hosted",
            submission,
            "--hosted-count",
            &count,
            "--corpus",
            &corpus,
            "--json",
        ])
        .and_then(|(out, wall, cpu)| {
            let mut row: Json = serde_json::from_str(&out).map_err(|e| format!("bench --hosted: {e}"))?;
            row["what"] = json!(what);
            row["whole_run"] = json!({"wall_s": wall.as_secs_f64(), "cpu_s": cpu.as_secs_f64()});
            Ok(row)
        });
        put(format!("{game} hosted"), measured);
    }

    // A case through the sandbox, beside the same case without it.
    let sandbox = (|| {
        let mut row = json!({"bot": "true (exits at once, writes nothing)", "corpus": "corpus/grade4"});
        for level in ["off", "on"] {
            let mut args = vec!["verify", "corpus/grade4", "--bot", "true", "--jobs", "1", "--json"];
            if level == "off" {
                args.extend(["--sandbox", "off"]);
            }
            let (out, wall, cpu) = arbiter(&args)?;
            let cases = serde_json::from_str::<Json>(&out)
                .ok()
                .and_then(|j| j.get("cases").and_then(Json::as_array).map(Vec::len))
                .unwrap_or(0)
                .max(1);
            let key = if level == "off" { "sandbox_off" } else { "sandbox_on" };
            row[key] = json!({"cases": cases, "wall_ms_per_case": ms(wall) / cases as f64,
                              "cpu_ms_per_case": ms(cpu) / cases as f64});
        }
        Ok::<Json, String>(row)
    })();
    put("sandbox case".to_string(), sandbox);

    // A class of a few submissions.
    let class = (|| {
        let reports =
            tempfile::Builder::new().prefix("arbiter-bench-class-").tempdir().map_err(|e| e.to_string())?;
        let dir = reports.path().to_string_lossy().into_owned();
        let mut args = vec!["--game", "chess-a1", "grade", "--corpus", "corpus/chess-a1", "--reports", &dir];
        args.extend(CLASS);
        let (_, wall, cpu) = arbiter(&args)?;
        let mut bot_ms = 0u64;
        let mut cases = 0usize;
        for submission in CLASS {
            let name = Path::new(submission)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let report =
                std::fs::read_to_string(reports.path().join(&name).join("report.json")).unwrap_or_default();
            if let Some(list) =
                serde_json::from_str::<Json>(&report).ok().and_then(|j| j["cases"].as_array().cloned())
            {
                cases += list.len();
                bot_ms += list.iter().filter_map(|c| c["cpu_ms"].as_u64()).sum::<u64>();
            }
        }
        let n = CLASS.len() as f64;
        Ok::<Json, String>(json!({
            "game": "chess-a1", "submissions": CLASS.len(), "cases": cases,
            "wall_s_per_submission": wall.as_secs_f64() / n, "cpu_s_per_submission": cpu.as_secs_f64() / n,
            "bot_cpu_s_per_submission": bot_ms as f64 / 1000.0 / n,
        }))
    })();
    put("class".to_string(), class);
    Json::Object(rows)
}

fn game_name(game: GameChoice) -> &'static str {
    match game {
        GameChoice::Advance => "advance",
        GameChoice::Pente => "pente",
        GameChoice::Network => "network",
        GameChoice::ChessA1 => "chess-a1",
        GameChoice::Planetwars => "planetwars",
    }
}

/// The suite's rows as lines of text.
pub fn print(rows: &Json) {
    let Some(map) = rows.as_object() else { return };
    for (name, row) in map {
        let f = |k: &str| row.get(k).and_then(Json::as_f64).unwrap_or(0.0);
        let line = if let Some(e) = row.get("error").and_then(Json::as_str) {
            format!("not measured: {e}")
        } else if row.get("ms_per_case").is_some() {
            let base = row
                .get("baseline_ms_per_case")
                .and_then(Json::as_f64)
                .map(|b| format!("; {} {b:.3} ms", row["baseline"].as_str().unwrap_or("baseline")))
                .unwrap_or_default();
            format!("{} cases: {:.3} ms a case{base}", row["cases"], f("ms_per_case"))
        } else if row.get("wall_ms_per_game").is_some() {
            format!(
                "{}, {} games: {:.1} ms a game (CPU {:.1} ms)",
                row["bots"].as_str().unwrap_or(""),
                row["games"],
                f("wall_ms_per_game"),
                f("cpu_ms_per_game")
            )
        } else if let Some(on) = row.get("sandbox_on") {
            let off = &row["sandbox_off"];
            let g = |r: &Json, k: &str| r.get(k).and_then(Json::as_f64).unwrap_or(0.0);
            format!(
                "{} cases: {:.2} ms a case in the sandbox (CPU {:.2} ms); {:.2} ms with --sandbox off (CPU {:.2} ms)",
                on["cases"],
                g(on, "wall_ms_per_case"),
                g(on, "cpu_ms_per_case"),
                g(off, "wall_ms_per_case"),
                g(off, "cpu_ms_per_case")
            )
        } else if row.get("submissions").is_some() {
            format!(
                "{} submissions of {}, {} cases: {:.2} s a submission (CPU of the processes waited for {:.2} s), the bots' own CPU {:.2} s",
                row["submissions"],
                row["game"].as_str().unwrap_or(""),
                row["cases"],
                f("wall_s_per_submission"),
                f("cpu_s_per_submission"),
                f("bot_cpu_s_per_submission")
            )
        } else {
            let mut parts = Vec::new();
            for (key, value) in row.as_object().into_iter().flatten() {
                if let Some(r) = value.as_object().filter(|r| r.contains_key("beyond_bot_ms")) {
                    let g = |k: &str| r.get(k).and_then(Json::as_f64).unwrap_or(0.0);
                    parts.push(format!(
                        "{key}: {:.3} ms (bot CPU {:.3} ms, arbiter CPU {:.3} ms)",
                        g("wall_ms"),
                        g("bot_cpu_ms"),
                        g("arbiter_cpu_ms")
                    ));
                }
            }
            format!("{} {}", row["what"].as_str().unwrap_or(""), parts.join("; "))
        };
        println!("{name:<22} {line}");
    }
}
