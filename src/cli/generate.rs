//! `arbiter generate`: test positions for one grade, with unique and robust answers.

use std::path::PathBuf;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use super::bounds::{self, MAX_CANDIDATES, MAX_GENERATE_COUNT, MAX_POOL_FACTOR};
use super::input::{EngineChoice, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::Engine;
use crate::advance::generate::{GenerateOptions, generate};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A grade whose criteria the positions meet (4, 5, 6 or 7), in a game graded by numbered
    /// grades. Repeatable (`--grade 5 --grade 6`), or a list (`--grades 5,6`): each grade gets
    /// `--count` cases. Without it, every category is generated.
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7))]
    grade: Vec<u8>,

    /// Grades as a comma-separated list, `5,6`: the same as one `--grade` each.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(4..=7))]
    grades: Vec<u8>,

    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,

    /// How many cases per category, half with white to move and half with black: 1 to 10000.
    #[arg(long, default_value_t = 50, value_parser = bounds::whole::<usize>(1, MAX_GENERATE_COUNT))]
    count: usize,

    /// Seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Write `OUT/CATEGORY/white|black/NN.txt` here: any folder, which `verify` and `golden`
    /// then take as a corpus.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Replace the .txt files already in the grade's folders.
    #[arg(long)]
    force: bool,

    /// Candidates found per case wanted, to choose among for coverage: 1 to 100.
    #[arg(long, default_value_t = 4, value_parser = bounds::whole::<usize>(1, MAX_POOL_FACTOR))]
    pool_factor: usize,

    /// Candidates drawn per side before giving up, 1 to 100000000.
    #[arg(long, default_value_t = 2_000_000, value_parser = bounds::whole::<usize>(1, MAX_CANDIDATES))]
    max_candidates: usize,

    /// Candidates drawn per side, once enough cases are found, in search of answers by rare
    /// piece or move kinds (wall builds, swaps, ...): 0 to 100000000.
    #[arg(long, default_value_t = 200_000, value_parser = bounds::whole::<usize>(0, MAX_CANDIDATES))]
    rare_budget: usize,

    /// Print the cases as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

/// Another game's corpus, from its generator: `--count` cases per category, written as
/// `OUT/<category>/<side>/NAME.txt` (folders emptied first with `--force`).
pub fn run_for_game(args: Args, referee: &dyn crate::harness::referee::Referee) -> CommandResult {
    let game = referee.game();
    let cases = referee
        .cases()
        .and_then(|c| c.generate(args.count, args.seed))
        .ok_or_else(|| anyhow::anyhow!("`generate` has no generator for {game}"))?;
    for category in referee.categories() {
        clear_grade(&args.out.join(category), args.force)?;
    }
    let mut listed = Vec::new();
    for case in &cases {
        let path =
            args.out.join(&case.category).join(case.side.to_string()).join(format!("{}.txt", case.name));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
        }
        std::fs::write(&path, &case.text).with_context(|| format!("cannot write {}", path.display()))?;
        listed.push(
            serde_json::json!({"path": path, "category": case.category, "side": case.side.to_string()}),
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "cases": listed }))?);
    } else if !args.quiet {
        for category in referee.categories() {
            let n = cases.iter().filter(|c| c.category == *category).count();
            println!("{category:>8}: {n} cases");
        }
        println!("{} {game} cases in {}", cases.len(), args.out.display());
    }
    Ok(Outcome::Success)
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    if args.grade.is_empty() && args.grades.is_empty() {
        bail!("give the grades to generate: --grade N (repeatable) or --grades 5,6");
    }
    let mut grades: Vec<u8> = args.grade.iter().chain(&args.grades).copied().collect();
    grades.sort_unstable();
    grades.dedup();
    // Every grade's folders are checked before any search starts: a refusal costs nothing.
    for grade in &grades {
        clear_grade(&args.out.join(format!("grade{grade}")), args.force)?;
    }
    // The search gives no progress of its own, so the bar counts grades and a spinner shows it
    // is alive; the elapsed time tells how long a grade takes.
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new(grades.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:20} {pos}/{len} grades  {msg}  [{elapsed_precise}, ETA {eta}]",
        )
        .expect("a valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let mut listed = Vec::new();
    let mut searches = serde_json::Map::new();
    for &grade in &grades {
        bar.set_message(format!("grade {grade}: searching for {} cases", args.count));
        let (cases, stats) = generate_grade(engine, args, grade)?;
        bar.suspend(|| print_grade(args, &cases, &stats));
        listed.extend(cases);
        searches.insert(format!("grade{grade}"), serde_json::to_value(&stats)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.json {
        // One grade keeps the layout of old: `search` is that grade's statistics.
        let search = if grades.len() == 1 {
            searches.into_iter().next().map(|(_, v)| v).unwrap_or_default()
        } else {
            serde_json::Value::Object(searches)
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({"cases": listed, "search": search}))?
        );
    }
    Ok(Outcome::Success)
}

/// Empties a grade's `white` and `black` folders of cases, or refuses without `force`.
fn clear_grade(grade_dir: &std::path::Path, force: bool) -> anyhow::Result<()> {
    for side in ["white", "black"] {
        let dir = grade_dir.join(side);
        let existing: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                    .collect()
            })
            .unwrap_or_default();
        if !existing.is_empty() && !force {
            bail!("{} already holds {} case(s); use --force to replace them", dir.display(), existing.len());
        }
        for path in existing {
            std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    Ok(())
}

/// Generates and writes one grade's cases; returns them as listed in the JSON output.
fn generate_grade<E: Engine>(
    engine: &E,
    args: &Args,
    grade: u8,
) -> anyhow::Result<(Vec<serde_json::Value>, crate::advance::generate::SearchStats)> {
    let options = GenerateOptions {
        grade,
        count: args.count,
        seed: args.seed,
        pool_factor: args.pool_factor,
        max_candidates: args.max_candidates,
        rare_budget: args.rare_budget,
    };
    let grade_dir = args.out.join(format!("grade{grade}"));
    let (cases, stats) = generate(engine, &options).map_err(anyhow::Error::msg)?;
    let mut listed = Vec::new();
    let mut index = std::collections::HashMap::new();
    for case in &cases {
        let n = index.entry(case.side).or_insert(0);
        *n += 1;
        let path = grade_dir.join(case.side.name()).join(format!("{:02}.txt", n));
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        }
        std::fs::write(&path, case.board.to_text())
            .with_context(|| format!("cannot write {}", path.display()))?;
        listed.push(serde_json::json!({
            "path": path.display().to_string(),
            "grade": grade,
            "side": case.side,
            "answer": case.answer.to_string(),
            "source": case.source.name(),
        }));
    }
    Ok((listed, stats))
}

/// One grade's cases and search statistics, for people (nothing with `--json`).
fn print_grade(args: &Args, listed: &[serde_json::Value], stats: &crate::advance::generate::SearchStats) {
    if args.json {
        return;
    }
    for l in listed {
        println!(
            "{}  {}  answer {}  ({})",
            l["path"].as_str().unwrap_or(""),
            l["side"].as_str().unwrap_or(""),
            l["answer"].as_str().unwrap_or(""),
            l["source"].as_str().unwrap_or("")
        );
    }
    let per_source: Vec<String> = crate::advance::generate::Source::ALL
        .iter()
        .map(|s| {
            format!("{} {}/{}", s.name(), stats.found.get(s).unwrap_or(&0), stats.drawn.get(s).unwrap_or(&0))
        })
        .collect();
    eprintln!(
        "search: found/drawn by source: {} ({} draws gave no well-formed position)",
        per_source.join(", "),
        stats.discarded
    );
}
