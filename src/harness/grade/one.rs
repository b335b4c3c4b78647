//! Grading one submission: its bot opened (and calibrated), its cases run as the ladder, its
//! games stages played when reached, then its reports, web page and gradebook row written.

use std::path::Path;
use std::time::Instant;

use crate::harness::bot::Bot;
use crate::harness::files::write_atomic;
use crate::harness::gradebook::{Row, StageCell};
use crate::harness::machine::Snapshot;
use crate::harness::matches::{GameRecord, MatchOptions, games_stage_score, play_match, tally};
use crate::harness::profile::Played;
use crate::harness::report::files::ReportFiles;
use crate::harness::report::live::LiveFiles;
use crate::harness::report::paths::RelativePaths;
use crate::harness::report::{RunInfo, pass_counts};
use crate::harness::robustness::run_checks;
use crate::harness::runner::{self, BotCommand};
use crate::harness::submission_options::SubmissionOptions;
use crate::harness::verdict::Verdict;
use crate::harness::verify::{CaseResult, ReadyCase, VerifyOptions, not_run};

use super::ladder::run_ladder;
use super::saved::{JSON_REPORT, ROW_FILE, SavedRow, earlier_grading};
use super::setup::{Games, Setup};
use super::submission::{Submission, apply, bot_name, open_bot, safe_name, submission_options};

/// What became of one submission.
pub enum Graded {
    /// Graded now.
    Graded(Row),
    /// Graded by an earlier run with the same settings: its row, as then.
    Skipped(Row),
}

/// Grades one submission into `setup.reports/<name>/` (skipping it if an earlier run with the
/// same settings completed it, unless `force`), calling `progress` with each case that finishes
/// (the case's position in `setup.cases`; None for a case not run).
pub fn grade(
    submission: &Submission,
    setup: &Setup,
    force: bool,
    progress: &(dyn Fn(Option<&CaseResult>) + Sync),
) -> Result<Graded, String> {
    let folder = setup.reports.join(&submission.name);
    let own = submission_options(submission, setup);
    // Options that cannot be read are recorded as such, so that fixing the file (even to no
    // option at all) makes the submission count as changed and graded again.
    let recorded = own.clone().unwrap_or_else(|why| SubmissionOptions {
        notes: vec![format!("unreadable: {why}")],
        ..SubmissionOptions::default()
    });
    if !force && let Ok(row) = earlier_grading(&folder, &setup.settings, &recorded) {
        return Ok(Graded::Skipped(row));
    }
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    // The old row goes first: until the new one is written the submission counts as not done.
    match std::fs::remove_file(folder.join(ROW_FILE)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot remove {}: {e}", folder.join(ROW_FILE).display()));
        }
        _ => {}
    }
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
    let all: Vec<&ReadyCase> =
        if setup.profile.has_case_stages() { setup.cases.iter().collect() } else { Vec::new() };
    // Paths in the reports are relative to the submission (a student reads them), the corpus's
    // relative to the corpus, and arbiter's own path is `arbiter`.
    let base = match &submission.folder {
        Some(folder) => folder.clone(),
        None => std::env::current_dir().unwrap_or_default(),
    };
    let exe = std::env::current_exe().ok();
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
    let report_files = ReportFiles {
        gradescope: Some(folder.join("results.json")),
        junit: Some(folder.join("junit.xml")),
        json: Some(folder.join(JSON_REPORT)),
        text: Some((folder.join("report.txt"), setup.details)),
    };
    let (bot_name, results) = match &refusal {
        Some(why) => {
            let reason = format!("the submission was refused before any case ran: {why}");
            let results: Vec<CaseResult> =
                all.iter().map(|c| not_run(c, &bot, &options, reason.clone())).collect();
            for _ in &results {
                progress(None);
            }
            (String::new(), results)
        }
        None => {
            let name = bot_name(&bot, setup.referee, &options.limits);
            let live = LiveFiles::new(&info, &report_files, all.len(), all.len());
            live.write_now()?;
            let results = std::thread::scope(|scope| {
                scope.spawn(|| live.keep_writing());
                let results = run_ladder(&all, setup.profile, &bot, &options, &setup.rules, &|i, r| {
                    live.record(i, r);
                    progress(Some(r));
                });
                for _ in results.iter().filter(|r| r.verdict == Verdict::NotRun) {
                    progress(None);
                }
                // A failed partial write is made good by the complete write below.
                let _ = live.finish();
                results
            });
            (name, results)
        }
    };

    // The bad-input checks, beside the cases: reported, not scored.
    let checks = match (&setup.robustness, &refusal) {
        (Some(boards), None) => {
            run_checks(&bot.as_command(options.seed), &setup.referee.protocol(), boards, &options.limits)
        }
        _ => Vec::new(),
    };
    let counts = pass_counts(&info.categories, &results);
    let mut score = setup.profile.score(&counts, None);
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
    let mut games_summary = None;
    // Games lost by forfeit in every games stage: counted in the row, said in the reports.
    let mut final_forfeits = None;
    let mut game_timeouts = 0;
    let mut game_crashes = 0;
    let mut count_forfeits = |name: &str, records: &[GameRecord], notes: &mut Vec<String>| {
        let forfeits = crate::harness::matches::forfeits(records);
        game_timeouts += forfeits.timeouts();
        game_crashes += forfeits.crashes();
        let sentence = forfeits.sentence()?;
        notes.push(format!("{name}: {} of {} won; {sentence}", tally(records).0, records.len()));
        Some(forfeits)
    };
    if let Some(games) = &setup.games
        && refusal.is_none()
    {
        if score.stopped_at.is_some() {
            notes.push(
                "games not played: the games stage is reached only when every stage passes".to_string(),
            );
        } else {
            let records = play_games(setup, &options, &bot, games)?;
            write_atomic(
                &folder.join("games.json"),
                &pretty(&serde_json::to_value(&records).unwrap_or_default()),
            )
            .map_err(|e| format!("cannot write {}: {e}", folder.join("games.json").display()))?;
            let (won, _, _) = tally(&records);
            final_forfeits =
                count_forfeits(&format!("games vs {}", games.opponent.label()), &records, &mut notes);
            let stage = setup.profile.games.as_ref().map(|g| games_stage_score(g, &records));
            let games_score = match stage {
                Some(Ok(s)) => {
                    score = setup.profile.score(&counts, Some(won));
                    Some(s)
                }
                Some(Err(why)) => {
                    // As if the stage had not been played: the base is not earned by forfeits.
                    notes.push(format!("no games-stage score: the bot {why}"));
                    None
                }
                None => None,
            };
            games_summary = Some((records.len(), won, games_score));
        }
    }

    // The games stages among the profile's stages, each when reached.
    let mut played: Vec<Option<Played>> = vec![None; setup.game_stages.len()];
    let mut stage_notes: Vec<Option<String>> = vec![None; setup.game_stages.len()];
    let mut stage_forfeits = vec![None; setup.game_stages.len()];
    if refusal.is_none() {
        for (j, games) in setup.game_stages.iter().enumerate() {
            let stage = &setup.profile.game_stages[j];
            if !setup.profile.reaches_games_stage(&counts, &played, j) {
                stage_notes[j] = Some("not played: an earlier stage did not pass in full".to_string());
                continue;
            }
            let records = play_games(setup, &options, &bot, games)?;
            let file = folder.join(format!("{}.json", safe_name(&stage.label())));
            write_atomic(&file, &pretty(&serde_json::to_value(&records).unwrap_or_default()))
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            stage_forfeits[j] = count_forfeits(&stage.label(), &records, &mut notes);
            if let Err(why) = games_stage_score(stage, &records) {
                stage_notes[j] = Some(format!("the bot {why}"));
                notes.push(format!("{}: the bot {why}", stage.label()));
            }
            played[j] = Some(crate::harness::matches::played(&records));
        }
    }
    if !setup.game_stages.is_empty() {
        let won = score.games_won;
        score = setup.profile.score_all(&counts, &played, won);
        for ((g, note), forfeits) in score.game_stages.iter_mut().zip(stage_notes).zip(stage_forfeits) {
            g.note = note;
            g.forfeits = forfeits;
        }
    }
    score.games_forfeits = final_forfeits;

    let mut report = info.report(&results, &[], true);
    report.score = score.clone();
    report.robustness = &checks;
    // How the calibration went belongs where the student reads, not only in the row.
    report.notes.extend(calibration_note);
    report_files.write(&report)?;
    if let Some(dir) = &setup.html {
        let page = crate::harness::html::verify::submission_page(setup.referee, &report, Some("index.html"));
        crate::harness::html::write(
            &dir.join(crate::harness::html::class::page_name(&submission.name)),
            &page,
        )?;
    }
    if !checks.is_empty() {
        let passed = checks.iter().filter(|c| c.passed).count();
        notes.push(format!("bad inputs handled: {passed} of {}", checks.len()));
    }
    if !report.course_score() {
        notes.push(format!(
            "not a course score: the corpus is not the profile's ({})",
            report.corpus_mismatch().unwrap_or_default()
        ));
    }

    let count = |v: Verdict| results.iter().filter(|r| r.verdict == v).count();
    if refusal.is_none() && count(Verdict::NotRun) > 0 {
        let reasons: std::collections::BTreeSet<&str> =
            results.iter().filter(|r| r.verdict == Verdict::NotRun).map(|r| r.reason.as_str()).collect();
        notes.push(format!(
            "{} case(s) not run: {}",
            count(Verdict::NotRun),
            reasons.into_iter().collect::<Vec<_>>().join("; ")
        ));
    }
    if count(Verdict::GraderError) > 0 {
        let first = results.iter().find(|r| r.verdict == Verdict::GraderError).map(|r| r.reason.as_str());
        notes.push(format!(
            "GRADER ERROR: {} case(s) not run because the grader failed, not the bot (grade again): {}",
            count(Verdict::GraderError),
            first.unwrap_or_default()
        ));
    }
    // A games stage is a column pair too: games won of games played.
    let stages = score
        .stages
        .iter()
        .map(|s| StageCell {
            category: s.category.clone(),
            passed: s.passed,
            total: s.total,
            reached: s.reached,
        })
        .chain(score.game_stages.iter().map(|g| StageCell {
            category: safe_name(&g.name).replace(['-', ' '], "_"),
            passed: g.played.map_or(0, |p| p.won),
            total: g.played.map_or(0, |p| p.games),
            reached: g.reached,
        }))
        .collect();
    let row = Row {
        submission: submission.name.clone(),
        bot_name,
        status: if refusal.is_some() { "refused" } else { "graded" }.to_string(),
        score: score.percent,
        stages,
        stopped_at: score.stopped_at.clone(),
        games_played: games_summary.map(|g| g.0),
        games_won: games_summary.map(|g| g.1),
        games_score: games_summary.and_then(|g| g.2),
        cases_run: results.len() - count(Verdict::NotRun) - count(Verdict::GraderError),
        not_run: count(Verdict::NotRun),
        grader_errors: count(Verdict::GraderError),
        timeouts: count(Verdict::Timeout) + game_timeouts,
        crashes: count(Verdict::Crash) + game_crashes,
        wall_seconds: (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        note: notes.join("; "),
    };
    let saved = SavedRow {
        settings: setup.settings.clone(),
        options: recorded,
        shard: setup.shard.clone(),
        machine: Some(report.machine.clone()),
        row: row.clone(),
    };
    write_atomic(&folder.join(ROW_FILE), &pretty(&serde_json::to_value(&saved).unwrap_or_default()))
        .map_err(|e| format!("cannot write {}: {e}", folder.join(ROW_FILE).display()))?;
    Ok(Graded::Graded(row))
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

/// Plays the games stage for `bot`, run with `options`.
fn play_games(
    setup: &Setup,
    options: &VerifyOptions,
    bot: &Bot,
    games: &Games,
) -> Result<Vec<GameRecord>, String> {
    let options = MatchOptions {
        games: games.games,
        seed: options.seed,
        jobs: games.jobs,
        limits: options.limits.clone(),
        same_file: options.same_file,
        starts: Vec::new(),
        colours: games.colours,
        clock: games.clock,
        clock_range: games.clock_range,
        clock_counts_system: false,
    };
    play_match(setup.referee, bot, &games.opponent, &options, &|_| {})
}

fn pretty(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(value).unwrap_or_default();
    text.push(b'\n');
    text
}
