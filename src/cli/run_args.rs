//! The options of every command that runs a bot over cases (`verify`, `grade`): limits, how the
//! files are passed, the jobs and seed that results must not depend on, and every option that
//! shapes the results and their reports. Declared once here, so that `grade` can do whatever
//! `verify` does to one bot, for a whole class.

use std::path::PathBuf;

use anyhow::Context;

use super::bounds::{self, MAX_DETAILS, MAX_JOBS};
use super::limits::LimitArgs;
use crate::harness::grade::StopRules;
use crate::harness::runner::Limits;
use crate::harness::verify::VerifyOptions;

/// How bots are run over cases, and what their reports show.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Pass the same path as input and output (the assignment allows it).
    #[arg(long)]
    pub same_file: bool,

    /// Create the output file (empty) before the bot starts, for bots that can only open an
    /// existing file.
    #[arg(long, conflicts_with = "same_file")]
    pub create_output: bool,

    /// Demand output of exactly 9 lines each ending in `\n`.
    #[arg(long)]
    pub strict: bool,

    /// Bots run at once, 1 to 256 (default: the number of cores), counted over every case, game
    /// and submission together. Results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    pub jobs: Option<usize>,

    /// Seed for the built-in bots' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Stop a bot's run once a stage has a case that did not pass: the later stages could not
    /// count, and their cases are reported as not run (the score is the same).
    #[arg(long)]
    pub stop_at_gate: bool,

    /// After N timeouts (each counted only when the case timed out twice), do not run the
    /// bot's remaining cases (reported as not run).
    #[arg(long, value_name = "N", value_parser = bounds::whole::<usize>(1, 1_000_000))]
    pub max_timeouts: Option<usize>,

    /// The marking profile: a JSON file, or the name of one the game ships (`--game NAME
    /// verify --help` lists them). See docs/PROFILES.md.
    #[arg(long, value_name = "FILE|NAME")]
    pub profile: Option<PathBuf>,

    /// Hide the cases of this category (one the game has, or a grade's number) from students: their tests in
    /// results.json get Gradescope's `"visibility": "hidden"` and hold the verdict only (no
    /// board, move, expected answer or reproduce line), as do their JUnit tests. Their score
    /// still counts. Repeatable.
    #[arg(long, value_name = "CATEGORY")]
    pub hidden: Vec<String>,

    /// Failures shown in full in the text report, 0 to 10000 (the rest get a line each).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = bounds::whole::<usize>(0, MAX_DETAILS))]
    pub details: usize,

    /// Check how the bot takes the assignment's bad inputs (wrong first argument, too few
    /// arguments, missing input file, invalid characters, wrong size, no legal move,
    /// unwritable output path) and its `name`. `verify` runs these checks instead of the
    /// corpus; `grade` runs them after each submission's cases and reports them beside its
    /// score, which they do not change.
    #[arg(long)]
    pub robustness: bool,
}

impl RunArgs {
    /// How the cases are run: within `limits` (read from [`LimitArgs`]), `jobs` at once, with
    /// these options.
    pub fn verify_options(&self, limits: Limits, jobs: usize) -> VerifyOptions {
        VerifyOptions {
            limits,
            same_file: self.same_file,
            strict: self.strict,
            seed: self.seed,
            jobs,
            create_output: self.create_output,
        }
    }

    /// When a bot's run stops early (`--stop-at-gate`, `--max-timeouts`).
    pub fn stop_rules(&self) -> StopRules {
        StopRules { stop_at_gate: self.stop_at_gate, max_timeouts: self.max_timeouts }
    }

    /// The categories named by `--hidden`, each a category of the game or an Advance grade
    /// number.
    pub fn hidden_categories(&self, categories: &[&str]) -> anyhow::Result<Vec<String>> {
        self.hidden
            .iter()
            .map(|name| {
                let numbered = format!("grade{name}");
                [name.as_str(), numbered.as_str()]
                    .into_iter()
                    .find(|n| categories.contains(n))
                    .map(str::to_string)
                    .with_context(|| format!("--hidden {name}: the categories are {}", categories.join(", ")))
            })
            .collect()
    }
}

/// Where a marking profile's opponents come from, for the commands that play its games stages
/// (`grade`, `match`).
#[derive(clap::Args, Debug, Default)]
pub struct OpponentArgs {
    /// The folder a marking profile's opponents are taken from: an opponent that is a file or
    /// folder (a strategy's `.jar`, a folder of sources) named in the profile relative to it,
    /// e.g. `--profile csci1933-course --opponents course/strategies` for the course's
    /// `AI1_obf.jar`. Opponents that are not arbiter's are never shipped with it: the grader
    /// points at them.
    #[arg(long, value_name = "DIR")]
    pub opponents: Option<PathBuf>,
}

impl OpponentArgs {
    /// The folder, checked to be one.
    pub fn folder(&self) -> anyhow::Result<Option<&std::path::Path>> {
        match &self.opponents {
            Some(dir) if !dir.is_dir() => anyhow::bail!("--opponents {}: no such folder", dir.display()),
            other => Ok(other.as_deref()),
        }
    }
}

/// The referee a profile's games are played by: `referee` with the profile's own rule options
/// (`"rules": ["engine=course"]`) applied over those of the command line.
pub fn ruled_by(
    referee: Box<dyn crate::harness::referee::Referee>,
    profile: &crate::harness::profile::Profile,
) -> anyhow::Result<Box<dyn crate::harness::referee::Referee>> {
    if profile.rules.is_empty() {
        return Ok(referee);
    }
    referee.with_rules(&profile.rules).map_err(|e| {
        anyhow::anyhow!("the marking profile `{}` plays by {}: {e}", profile.name, profile.rules.join(" "))
    })
}
