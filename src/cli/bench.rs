//! `arbiter bench`: how fast each engine is, measured side by side in one run.
//!
//! Perft throughput (moves counted per second, single-threaded, the last ply counted in bulk
//! where the engine can) on a fixed suite: the initial position and three middle-game positions
//! (crowded, sparse, and a crowded one where every move ties at grade 6). Then the time to
//! compute every grade's answer, grade 7 included, for every case of a corpus with each engine.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::{Value as Json, json};

use super::bounds::{self, MAX_BENCH_DEPTH, MAX_BENCH_SECONDS};
use super::{CommandResult, Outcome};
use crate::advance::bench_positions::bench_positions;
use crate::advance::grades::grade_report;
use crate::advance::{Board, Engine, Fast, Reference, Strictness};
use crate::harness::corpus::find_cases;
use crate::harness::files;
use crate::side::Side;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Perft depth for both engines, 1 to 5.
    #[arg(long, default_value_t = 4, value_parser = bounds::whole::<u32>(1, MAX_BENCH_DEPTH))]
    depth: u32,

    /// Keep repeating each measurement until this many seconds have passed (0 to 600).
    #[arg(long, default_value_t = 1.0, value_parser = bounds::seconds(true, MAX_BENCH_SECONDS))]
    min_time: f64,

    /// The corpus whose cases are timed for the grade-7 answer.
    #[arg(long, value_name = "CORPUS", default_value = "corpus")]
    corpus: PathBuf,

    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs perft until `min_time` has passed; returns (nodes per run, seconds per run).
fn time_perft<E: Engine>(
    engine: &E,
    board: &Board,
    side: Side,
    depth: u32,
    min_time: Duration,
) -> (u64, f64) {
    let pos = engine.load(board, side);
    let start = Instant::now();
    let mut runs = 0u32;
    let mut nodes = 0;
    while runs == 0 || start.elapsed() < min_time {
        nodes = engine.perft(&pos, depth);
        runs += 1;
    }
    (nodes, start.elapsed().as_secs_f64() / f64::from(runs))
}

/// Seconds to compute every grade report of `cases`, averaged over runs lasting `min_time`.
fn time_grades<E: Engine>(engine: &E, cases: &[(Board, Side)], min_time: Duration) -> f64 {
    let start = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || start.elapsed() < min_time {
        for (board, side) in cases {
            std::hint::black_box(grade_report(engine, &engine.load(board, *side)));
        }
        runs += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(runs)
}

/// The processor's name and the number of cores, as far as the system says.
fn machine() -> Json {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    json!({"cpu": cpu, "cores": cores, "os": std::env::consts::OS, "arch": std::env::consts::ARCH})
}

/// `bench` for a game other than Advance: the game's own measurements.
pub fn run_for_game(args: Args, referee: &dyn crate::harness::referee::Referee) -> CommandResult {
    let Some(numbers) = referee.benchmark(Duration::from_secs_f64(args.min_time)) else {
        anyhow::bail!("{} has no speed measurements of its own", referee.game());
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&numbers)?);
    } else if let Some(map) = numbers.as_object() {
        for (name, value) in map {
            match value.as_f64() {
                Some(x) => println!("{name:<32} {x:>14.3}"),
                None => println!("{name:<32} {value:>14}"),
            }
        }
    }
    Ok(super::Outcome::Success)
}

pub fn run(args: Args) -> CommandResult {
    let min_time = Duration::from_secs_f64(args.min_time);
    let mut rows = Vec::new();
    let (mut fast_total, mut ref_total) = ((0u64, 0.0f64), (0u64, 0.0f64));
    for (name, board, side) in bench_positions() {
        let (nodes, fast_s) = time_perft(&Fast, &board, side, args.depth, min_time);
        let (ref_nodes, ref_s) = time_perft(&Reference, &board, side, args.depth, min_time);
        anyhow::ensure!(
            nodes == ref_nodes,
            "the engines disagree on perft {} of {name}: {nodes} vs {ref_nodes}",
            args.depth
        );
        fast_total = (fast_total.0 + nodes, fast_total.1 + fast_s);
        ref_total = (ref_total.0 + nodes, ref_total.1 + ref_s);
        rows.push(json!({
            "position": name, "depth": args.depth, "nodes": nodes,
            "fast": {"seconds": fast_s, "moves_per_second": nodes as f64 / fast_s},
            "reference": {"seconds": ref_s, "moves_per_second": nodes as f64 / ref_s},
            "ratio": ref_s / fast_s,
        }));
    }
    let fast_rate = fast_total.0 as f64 / fast_total.1;
    let ref_rate = ref_total.0 as f64 / ref_total.1;

    let specs = find_cases(&args.corpus, crate::advance::referee::CATEGORIES)
        .with_context(|| format!("cannot read the corpus {}", args.corpus.display()))?;
    let mut cases = Vec::new();
    for spec in &specs {
        let bytes = files::read_capped(&spec.path, files::BOARD)?;
        cases.push((Board::parse(&bytes, &spec.path.display().to_string(), Strictness::Lenient)?, spec.side));
    }
    let grades_fast = time_grades(&Fast, &cases, min_time);
    let grades_ref = time_grades(&Reference, &cases, min_time);

    let out = json!({
        "machine": machine(),
        "threads": 1,
        "perft": rows,
        "fast_moves_per_second": fast_rate,
        "reference_moves_per_second": ref_rate,
        "perft_ratio": fast_rate / ref_rate,
        "grade_answers": {"corpus": args.corpus.display().to_string(), "cases": cases.len(),
                          "fast_seconds": grades_fast, "reference_seconds": grades_ref, "ratio": grades_ref / grades_fast},
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(Outcome::Success);
    }
    let m = &out["machine"];
    println!(
        "machine: {} ({} cores, {} {}); every measurement single-threaded\n",
        m["cpu"].as_str().unwrap_or(""),
        m["cores"],
        m["os"].as_str().unwrap_or(""),
        m["arch"].as_str().unwrap_or("")
    );
    println!(
        "{:<12} {:>5} {:>12} {:>16} {:>16} {:>8}",
        "perft", "depth", "nodes", "fast moves/s", "reference", "ratio"
    );
    for r in &rows {
        let rate = |engine: &str| r[engine]["moves_per_second"].as_f64().unwrap_or(0.0) / 1e6;
        println!(
            "{:<12} {:>5} {:>12} {:>14.1} M {:>14.2} M {:>7.1}x",
            r["position"].as_str().unwrap_or(""),
            args.depth,
            r["nodes"].as_u64().unwrap_or(0),
            rate("fast"),
            rate("reference"),
            r["ratio"].as_f64().unwrap_or(0.0)
        );
    }
    println!(
        "{:<12} {:>5} {:>12} {:>14.1} M {:>14.2} M {:>7.1}x",
        "all",
        args.depth,
        fast_total.0,
        fast_rate / 1e6,
        ref_rate / 1e6,
        fast_rate / ref_rate
    );
    println!(
        "\nevery grade's answer (grade 7 included) for the {} cases of {}: fast {:.3} s, reference {:.3} s ({:.1}x)",
        cases.len(),
        args.corpus.display(),
        grades_fast,
        grades_ref,
        grades_ref / grades_fast
    );
    Ok(Outcome::Success)
}
