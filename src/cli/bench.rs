//! `arbiter bench`: how fast each engine is, measured side by side in one run.
//!
//! Perft throughput (moves counted per second, single-threaded, the last ply counted in bulk
//! where the engine can) on a fixed suite: the initial position and three middle-game positions
//! (crowded, sparse, and a crowded one where every move ties at grade 6). Then the time to
//! compute every grade's answer, grade 7 included, for every case of a corpus with each engine.
//! `--hosted` measures hosting a submission; `--suite` every game's grading path ([`suite`]).

mod suite;

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

    /// For a game whose bots are hosted: a submission (a folder of Java sources, a Python
    /// module) whose hosting is measured: a turn in one session (a game with games) and a
    /// case or game in a fresh state each time, beside its own CPU time.
    #[arg(long, value_name = "SUBMISSION")]
    hosted: Option<PathBuf>,

    /// Measure every game's grading path, each figure beside its baseline: each game's oracle,
    /// built-in bots playing, a hosted turn and case (Java and Python), a case through the
    /// sandbox and without it, a class of a few submissions. Uses the repository's `corpus/`
    /// and `tests/data/`: run it from the repository's root. Takes a few minutes.
    #[arg(long, conflicts_with = "hosted")]
    suite: bool,

    /// How many turns, and how many cases or games, `--hosted` measures (1 to 100000).
    #[arg(long, default_value_t = 200, value_parser = bounds::whole::<usize>(1, 100_000))]
    hosted_count: usize,
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

/// The `--hosted` rows: a hosted turn (a game with games), and a hosted game or case in a fresh
/// state each time, per unit in milliseconds (see [`crate::harness::host::bench`]).
fn hosted_rows(
    referee: &dyn crate::harness::referee::Referee,
    path: &std::path::Path,
    count: usize,
    corpus: &std::path::Path,
) -> Result<Json, String> {
    use crate::harness::bot::Bot;
    use crate::harness::host::{HostOptions, bench};
    let limits = crate::harness::runner::Limits::default();
    let given = path.to_string_lossy();
    let bot = match Bot::open(&given, referee, &limits, &HostOptions::default())? {
        Bot::Hosted(hosted) => hosted,
        _ => return Err(format!("{given} is not a hosted submission of {}", referee.game())),
    };
    let mut rows = serde_json::Map::new();
    if let Some(games) = referee.games() {
        let game = games.new_game(None)?;
        let start = game.host_start(game.to_move());
        let turn = bench::turns(&bot, &start, &game.host_turn(), count, &limits)?;
        rows.insert("hosted_turn".to_string(), turn.to_json());
        let script: Vec<_> = start.into_iter().chain([game.host_turn()]).collect();
        rows.insert("hosted_game_start".to_string(), bench::cases(&bot, &[script], count, &limits).to_json());
    } else {
        let specs =
            find_cases(corpus, referee.categories()).map_err(|e| format!("{}: {e}", corpus.display()))?;
        let (ready, errors) = crate::harness::verify::prepare_cases(referee, specs, 1);
        if let Some(e) = errors.first() {
            return Err(e.clone());
        }
        let scripts: Vec<_> = ready.iter().filter_map(|c| c.prepared.script()).collect();
        if scripts.is_empty() {
            return Err(format!("{} holds no case of calls for a hosted bot", corpus.display()));
        }
        rows.insert("hosted_case".to_string(), bench::cases(&bot, &scripts, count, &limits).to_json());
        // The longest script's last call again and again in one session: a hosted call, as a
        // turn is for a game with games.
        if let Some((last, start)) = scripts.iter().max_by_key(|s| s.len()).and_then(|s| s.split_last())
            && let Ok(call) = bench::turns(&bot, start, last, count, &limits)
        {
            rows.insert("hosted_call".to_string(), call.to_json());
        }
    }
    rows.insert("hosted_submission".to_string(), json!(given));
    rows.insert("hosted_language".to_string(), json!(format!("{:?}", bot.language)));
    Ok(Json::Object(rows))
}

/// `bench --suite`: every game's grading path.
fn run_suite(args: &Args) -> CommandResult {
    let rows = suite::run(args.hosted_count);
    let out = json!({"machine": machine(), "load": load(), "suite": rows});
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let m = &out["machine"];
        println!(
            "machine: {} ({} cores), load {}\n",
            m["cpu"].as_str().unwrap_or(""),
            m["cores"],
            out["load"].as_str().unwrap_or("?")
        );
        suite::print(&rows);
    }
    Ok(Outcome::Success)
}

/// The load averages as the system gives them (`/proc/loadavg`'s first three numbers).
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_string())
}

/// `bench` for a game other than Advance: the game's own measurements.
pub fn run_for_game(args: Args, referee: &dyn crate::harness::referee::Referee) -> CommandResult {
    if args.suite {
        return run_suite(&args);
    }
    let own = referee.benchmark(Duration::from_secs_f64(args.min_time));
    let hosted = match &args.hosted {
        Some(path) => {
            Some(hosted_rows(referee, path, args.hosted_count, &args.corpus).map_err(anyhow::Error::msg)?)
        }
        None => None,
    };
    let numbers = match (own, hosted) {
        (None, None) => anyhow::bail!(
            "{} has no speed measurements of its own (give --hosted SUBMISSION to measure hosting)",
            referee.game()
        ),
        (Some(own), None) => own,
        (own, Some(hosted)) => {
            let mut all = own.and_then(|o| o.as_object().cloned()).unwrap_or_default();
            all.extend(hosted.as_object().cloned().unwrap_or_default());
            Json::Object(all)
        }
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&numbers)?);
    } else if let Some(map) = numbers.as_object() {
        for (name, value) in map {
            if let Some(row) = value.as_object().filter(|r| r.contains_key("beyond_bot_ms")) {
                let ms = |k: &str| row.get(k).and_then(Json::as_f64).unwrap_or(0.0);
                println!(
                    "{name:<32} {:>6} x: wall {:.3} ms, bot CPU {:.3} ms, beyond the bot {:.3} ms, arbiter CPU {:.3} ms{}",
                    row.get("units").and_then(Json::as_u64).unwrap_or(0),
                    ms("wall_ms"),
                    ms("bot_cpu_ms"),
                    ms("beyond_bot_ms"),
                    ms("arbiter_cpu_ms"),
                    match row.get("failed").and_then(Json::as_u64) {
                        Some(0) | None => String::new(),
                        Some(n) => format!(" ({n} failed)"),
                    }
                );
                continue;
            }
            match value.as_f64() {
                Some(x) => println!("{name:<32} {x:>14.3}"),
                None => println!("{name:<32} {value:>14}"),
            }
        }
    }
    Ok(super::Outcome::Success)
}

pub fn run(args: Args) -> CommandResult {
    if args.suite {
        return run_suite(&args);
    }
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
