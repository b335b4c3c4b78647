//! Playing one submission's games stages, each when reached (the final games stage of a gated
//! profile, and the games stages among the profile's stages), and scoring them with its cases.

use std::collections::BTreeMap;
use std::path::Path;

use crate::harness::bot::Bot;
use crate::harness::files::write_atomic;
use crate::harness::forfeits::Forfeits;
use crate::harness::matches::{GameRecord, MatchOptions, games_stage_score, play_match, tally};
use crate::harness::profile::{Played, Score};
use crate::harness::verify::VerifyOptions;

use super::plan::Plan;
use super::saved::pretty;
use super::setup::{Games, Setup};
use super::submission::safe_name;

/// The score with the games stages, and what the row says of their games.
pub(super) struct Scored {
    pub(super) score: Score,
    /// Notes for the row: forfeits, stages not played or not scored.
    pub(super) notes: Vec<String>,
    /// The final games stage's games played, won and score, when it was played.
    pub(super) summary: Option<(usize, usize, Option<f64>)>,
    /// Games lost by timing out, in every games stage.
    pub(super) timeouts: usize,
    /// Games lost by crashing, in every games stage.
    pub(super) crashes: usize,
}

impl Scored {
    /// Counts the games of stage `name` lost by forfeit, noting them; gives them when any was.
    fn count_forfeits(&mut self, name: &str, records: &[GameRecord]) -> Option<Forfeits> {
        let forfeits = crate::harness::matches::forfeits(records);
        self.timeouts += forfeits.timeouts();
        self.crashes += forfeits.crashes();
        let sentence = forfeits.sentence()?;
        self.notes.push(format!("{name}: {} of {} won; {sentence}", tally(records).0, records.len()));
        Some(forfeits)
    }
}

/// Scores the cases passed (`counts`, by category) with the games stages, playing each that is
/// reached (none for a refused submission) and writing its games to the report folder.
pub(super) fn score_with_games(
    plan: &Plan,
    setup: &Setup,
    counts: &BTreeMap<String, (usize, usize)>,
) -> Result<Scored, String> {
    let mut scored = Scored {
        score: setup.profile.score(counts, None),
        notes: Vec::new(),
        summary: None,
        timeouts: 0,
        crashes: 0,
    };
    let final_forfeits = final_stage(plan, setup, counts, &mut scored)?;
    listed_stages(plan, setup, counts, &mut scored)?;
    scored.score.games_forfeits = final_forfeits;
    Ok(scored)
}

/// The final games stage of a gated profile (`--games N`), played when every stage passed;
/// gives the games it lost by forfeit.
fn final_stage(
    plan: &Plan,
    setup: &Setup,
    counts: &BTreeMap<String, (usize, usize)>,
    scored: &mut Scored,
) -> Result<Option<Forfeits>, String> {
    let Some(games) = &setup.games else { return Ok(None) };
    if plan.refusal.is_some() {
        return Ok(None);
    }
    if scored.score.stopped_at.is_some() {
        scored
            .notes
            .push("games not played: the games stage is reached only when every stage passes".to_string());
        return Ok(None);
    }
    let records = play_games(setup, &plan.options, &plan.bot, games)?;
    write_records(&plan.folder.join("games.json"), &records)?;
    let (won, _, _) = tally(&records);
    let forfeits = scored.count_forfeits(&format!("games vs {}", games.opponent.label()), &records);
    let stage = setup.profile.games.as_ref().map(|g| games_stage_score(g, &records));
    let games_score = match stage {
        Some(Ok(s)) => {
            scored.score = setup.profile.score(counts, Some(won));
            Some(s)
        }
        Some(Err(why)) => {
            // As if the stage had not been played: the base is not earned by forfeits.
            scored.notes.push(format!("no games-stage score: the bot {why}"));
            None
        }
        None => None,
    };
    scored.summary = Some((records.len(), won, games_score));
    Ok(forfeits)
}

/// The games stages among the profile's stages, each when reached, and the score with them.
fn listed_stages(
    plan: &Plan,
    setup: &Setup,
    counts: &BTreeMap<String, (usize, usize)>,
    scored: &mut Scored,
) -> Result<(), String> {
    let mut played: Vec<Option<Played>> = vec![None; setup.game_stages.len()];
    let mut stage_notes: Vec<Option<String>> = vec![None; setup.game_stages.len()];
    let mut stage_forfeits = vec![None; setup.game_stages.len()];
    if plan.refusal.is_none() {
        for (j, games) in setup.game_stages.iter().enumerate() {
            let stage = &setup.profile.game_stages[j];
            if !setup.profile.reaches_games_stage(counts, &played, j) {
                stage_notes[j] = Some("not played: an earlier stage did not pass in full".to_string());
                continue;
            }
            let records = play_games(setup, &plan.options, &plan.bot, games)?;
            write_records(&plan.folder.join(format!("{}.json", safe_name(&stage.label()))), &records)?;
            stage_forfeits[j] = scored.count_forfeits(&stage.label(), &records);
            if let Err(why) = games_stage_score(stage, &records) {
                stage_notes[j] = Some(format!("the bot {why}"));
                scored.notes.push(format!("{}: the bot {why}", stage.label()));
            }
            played[j] = Some(crate::harness::matches::played(&records));
        }
    }
    if !setup.game_stages.is_empty() {
        let won = scored.score.games_won;
        scored.score = setup.profile.score_all(counts, &played, won);
        for ((g, note), forfeits) in scored.score.game_stages.iter_mut().zip(stage_notes).zip(stage_forfeits)
        {
            g.note = note;
            g.forfeits = forfeits;
        }
    }
    Ok(())
}

/// Writes a stage's games to `file`, as JSON.
fn write_records(file: &Path, records: &[GameRecord]) -> Result<(), String> {
    write_atomic(file, &pretty(&serde_json::to_value(records).unwrap_or_default()))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
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
