//! The options of every command that runs a bot over cases (`verify`, `grade`): limits, how the
//! files are passed, and the jobs and seed that results must not depend on.

use super::bounds::{self, MAX_JOBS};
use super::limits::LimitArgs;

/// How bots are run over cases.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Pass the same path as input and output (the assignment allows it).
    #[arg(long)]
    pub same_file: bool,

    /// Demand output of exactly 9 lines each ending in `\n`.
    #[arg(long)]
    pub strict: bool,

    /// Bots run at once, 1 to 256 (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = bounds::whole::<usize>(1, MAX_JOBS))]
    pub jobs: Option<usize>,

    /// Seed for the built-in bots' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}
