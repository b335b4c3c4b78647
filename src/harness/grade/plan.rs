//! What is decided about one submission before any of its cases runs: its options, its bot
//! (opened, and calibrated when asked), why it is refused if it is, the cases it will run, what
//! its reports say about the run and where they go, and the notes its row opens with.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::harness::bot::Bot;
use crate::harness::files::write_atomic;
use crate::harness::machine::Snapshot;
use crate::harness::report::RunInfo;
use crate::harness::report::files::ReportFiles;
use crate::harness::report::paths::RelativePaths;
use crate::harness::runner::{self, BotCommand};
use crate::harness::submission_options::SubmissionOptions;
use crate::harness::verify::{ReadyCase, VerifyOptions};

use super::saved::JSON_REPORT;
use super::setup::Setup;
use super::submission::{Submission, apply, open_bot};

/// One submission's grading, planned.
pub(super) struct Plan<'a> {
    /// The submission's report folder.
    pub(super) folder: PathBuf,
    /// Its own options as recorded in `grade.json` (unreadable ones as a note).
    pub(super) recorded: SubmissionOptions,
    /// The grader's options with the submission's laid over them.
    pub(super) options: VerifyOptions,
    pub(super) bot: Bot,
    /// Why the submission is refused before any case runs, if it is.
    pub(super) refusal: Option<String>,
    /// How the calibration went, when there was one.
    pub(super) calibration_note: Option<String>,
    /// The cases to run, in order (none for a profile of games alone).
    pub(super) cases: Vec<&'a ReadyCase>,
    pub(super) info: RunInfo<'a>,
    pub(super) files: ReportFiles,
    /// The row's first notes: refusal, calibration, support files, options.
    pub(super) notes: Vec<String>,
}

/// The submission's own options as `grade.json` records them. Options that cannot be read are
/// recorded as such, so that fixing the file (even to no option at all) makes the submission
/// count as changed and graded again.
pub(super) fn recorded_options(own: &Result<SubmissionOptions, String>) -> SubmissionOptions {
    own.clone().unwrap_or_else(|why| SubmissionOptions {
        notes: vec![format!("unreadable: {why}")],
        ..SubmissionOptions::default()
    })
}

impl<'a> Plan<'a> {
    /// Opens (and calibrates) `submission`'s bot and plans its grading into `folder`; `own` is
    /// its options as read, `recorded` as [`recorded_options`] gives them.
    pub(super) fn open(
        submission: &Submission,
        setup: &Setup<'a>,
        folder: PathBuf,
        own: &Result<SubmissionOptions, String>,
        recorded: SubmissionOptions,
    ) -> Result<Self, String> {
        let start = Instant::now();
        let machine = Snapshot::take();
        let options = apply(&setup.options, &recorded);
        // The class the submission (or the grader) names, for a game whose submissions name theirs.
        let host = crate::harness::host::HostOptions {
            class: recorded.class.as_ref().map(|c| c.value.clone()),
            ..setup.host.clone()
        };
        // Compiling and loading a hosted submission runs it: one of the `--jobs` bots.
        let slot = runner::slots::take();
        let (mut bot, refusal) = open_bot(submission, setup.referee, &options.limits, &host)?;
        drop(slot);
        let refusal = refusal.or_else(|| own.as_ref().err().cloned());
        // The submission's calibrate program, once, before anything of its bot runs.
        let mut calibration_note = None;
        if setup.calibrate
            && refusal.is_none()
            && let (Some(calibration), Some(own_folder)) = (setup.referee.calibration(), &submission.folder)
        {
            calibration_note =
                Some(calibrate_submission(&mut bot, own_folder, &folder, &calibration, &options.limits));
        }
        // A profile of games alone runs no case.
        let cases: Vec<&ReadyCase> =
            if setup.profile.has_case_stages() { setup.cases.iter().collect() } else { Vec::new() };
        // Paths in the reports are relative to the submission (a student reads them), the
        // corpus's relative to the corpus, and arbiter's own path is `arbiter`.
        let base = match &submission.folder {
            Some(folder) => folder.clone(),
            None => std::env::current_dir().unwrap_or_default(),
        };
        let exe = crate::harness::program::installed_path();
        let info = RunInfo {
            bot: bot.label(),
            corpus: setup.corpus.clone(),
            paths: RelativePaths::new(Path::new(&setup.corpus), &base, exe.as_deref()),
            hidden: setup.hidden.clone(),
            seed: options.seed,
            profile: setup.profile,
            disagreements: Vec::new(),
            categories: setup.cases.iter().map(|c| c.spec.category.clone()).collect(),
            start,
            sandbox: setup.sandbox.clone(),
            machine,
            refused: refusal.clone(),
        };
        let files = ReportFiles {
            gradescope: Some(folder.join("results.json")),
            junit: Some(folder.join("junit.xml")),
            json: Some(folder.join(JSON_REPORT)),
            text: Some((folder.join("report.txt"), setup.details)),
        };
        let mut notes: Vec<String> = Vec::new();
        if let Some(why) = &refusal {
            notes.push(format!("refused: {why}"));
        }
        notes.extend(calibration_note.clone());
        if Bot::needs_open(&submission.given, setup.referee) {
            notes.extend(setup.support_note.clone());
        }
        if own.is_ok() && (!recorded.is_empty() || !recorded.notes.is_empty()) {
            notes.push(format!("options: {}", recorded.describe()));
        }
        Ok(Plan { folder, recorded, options, bot, refusal, calibration_note, cases, info, files, notes })
    }
}

/// Runs the submission's calibrate program (in `own_folder`) and gives its file to `bot` in
/// every run, keeping a copy in the submission's report folder; says what happened, for the
/// report's notes. A submission without the program, or whose program fails, plays without the
/// file: calibrating is optional.
fn calibrate_submission(
    bot: &mut Bot,
    own_folder: &Path,
    reports: &Path,
    calibration: &crate::harness::referee::Calibration,
    limits: &runner::Limits,
) -> String {
    let Bot::Command(command, protocol) = bot else {
        return "calibrate: only a program bot can be calibrated".to_string();
    };
    if !own_folder.join(calibration.program).is_file() {
        return format!("no `{}` program to calibrate with", calibration.program);
    }
    let program = match BotCommand::parse_in(&format!("./{}", calibration.program), own_folder) {
        Ok(program) => program,
        Err(e) => return format!("calibrate: {e}"),
    };
    match crate::harness::calibrate::run_calibration(&program, calibration, limits) {
        Ok(done) => {
            let _ = write_atomic(&reports.join(calibration.file), &done.bytes);
            let note = format!(
                "calibrated: `{}` left {} ({} bytes) in {:.1} s of CPU",
                calibration.program,
                calibration.file,
                done.bytes.len(),
                done.cpu_seconds
            );
            *bot = Bot::Command(command.clone().with_file(calibration.file, done.bytes), protocol.clone());
            note
        }
        Err(why) => format!("calibration failed, so the bot plays without {}: {why}", calibration.file),
    }
}
