//! Grading a class: many submissions over one corpus, each to its own reports and one gradebook
//! row (see [`super::gradebook`]).
//!
//! - **A submission** is a folder holding an executable `run` file (run as the bot command), or
//!   a bot command. Before any case runs, a submission whose program cannot start (no `run`,
//!   no execute bit, a `#!` interpreter that does not exist) is refused: its row says why, and
//!   its reports list every case as not run, with that reason.
//! - **The ladder** ([`run_ladder`]): cases run stage by stage in the marking profile's order.
//!   With `--stop-at-gate` and a gated profile, once a stage has a case that did not pass, the
//!   later stages are not run (they could not count); a profile that adds its stages has no
//!   gate, and every stage runs. With `--max-timeouts N`, once the bot has timed out N times,
//!   the cases after the Nth timeout are not run. Both decisions follow the run order, never the
//!   order in which cases happened to finish, so results do not depend on the job count.
//! - **Per-submission options** ([`super::submission_options`]): `arbiter.toml` in the folder
//!   and the grader's `--overrides` CSV may set `same-file`, `create-output` and a longer
//!   `timeout` for one submission; they are recorded in `grade.json` and the row's note.
//! - **Reports**: `DIR/<submission>/` gets `report.txt`, `report.json`, Gradescope's
//!   `results.json` and `junit.xml` (all four written while the run goes on and marked
//!   incomplete until it ends), `games.json` when games were played, and last `grade.json`,
//!   the gradebook row with the settings, the submission's options, its shard and how busy the
//!   machine was: a submission with `grade.json` and a complete `report.json`, graded with the
//!   same settings and options, is complete and skipped by a rerun.

mod cases;
mod games;
mod ladder;
mod one;
mod plan;
mod saved;
mod setup;
mod submission;
mod write;

pub use ladder::{StopRules, run_ladder};
pub use one::{Graded, grade};
pub use saved::{JSON_REPORT, ROW_FILE, SavedRow, earlier_grading, saved_rows};
pub use setup::{Games, Setup};
pub use submission::{
    NAME_TIMEOUT, RUN_FILE, Submission, bot_name, open_bot, precheck, safe_name, submission_options,
    submissions,
};
