//! What every submission's grading shares with the others': the corpus, the profile, the
//! options, the games stages and where the reports go.

use std::path::PathBuf;

use crate::harness::bot::Bot;
use crate::harness::profile::Profile;
use crate::harness::referee::{Referee, RobustnessBoards};
use crate::harness::submission_options::Overrides;
use crate::harness::verify::{ReadyCase, VerifyOptions};

use super::ladder::StopRules;

/// Everything a submission's grading shares with the others'.
pub struct Setup<'a> {
    pub referee: &'a dyn Referee,
    pub profile: &'a Profile,
    pub cases: &'a [ReadyCase],
    pub options: VerifyOptions,
    pub rules: StopRules,
    /// The final games stage of a gated profile, when asked for (`--games N`).
    pub games: Option<Games>,
    /// The games stages listed among the profile's stages (`profile.game_stages`, in order).
    pub game_stages: Vec<Games>,
    /// The corpus folder, as reports name it.
    pub corpus: String,
    pub sandbox: &'a crate::harness::sandbox::Summary,
    /// The folder of every submission's reports.
    pub reports: PathBuf,
    /// What a grading depends on apart from the bot and its own options, as plain JSON with
    /// no absolute path: a submission graded with other settings is graded again.
    pub settings: serde_json::Value,
    /// Categories whose cases students do not see (`--hidden`).
    pub hidden: Vec<String>,
    /// Failures shown in full in `report.txt`.
    pub details: usize,
    /// The bad-input checks to run after the cases (`--robustness`).
    pub robustness: Option<RobustnessBoards>,
    /// The longest timeout, in seconds, a submission's `arbiter.toml` may ask for.
    pub timeout_cap: f64,
    /// The grader's per-submission options (`--overrides`).
    pub overrides: Overrides,
    /// The share of the class this run grades (`--shard`), as `K/N`.
    pub shard: Option<String>,
    /// Where each submission's web page goes (`--html`), beside the class page.
    pub html: Option<PathBuf>,
    /// Whether to run each submission's calibrate program first (`--calibrate`).
    pub calibrate: bool,
    /// How hosted submissions are prepared: the grader's support files (`--support`).
    pub host: crate::harness::host::HostOptions,
    /// The note every submission's row carries about the grader's support files, if any.
    pub support_note: Option<String>,
}

/// A games stage: `games` games against `opponent`.
pub struct Games {
    pub games: usize,
    pub opponent: Bot,
    /// Games played at once for one submission.
    pub jobs: usize,
    /// Which games the submission plays white.
    pub colours: crate::harness::matches::Colours,
    /// Each side's starting clock, for a game with a clock; `None`: the game's own.
    pub clock: Option<f64>,
    /// Each game's starting clock drawn from this range instead (see `MatchOptions`).
    pub clock_range: Option<[f64; 2]>,
}
