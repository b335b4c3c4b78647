//! Marking profiles: how pass counts become a score.
//!
//! A profile lists stages in order. Each stage covers the cases of one grade and scores
//! `base + per_pass * passes`; a stage is reached only when every case of every earlier stage
//! passed, and the score is that of the first stage not passed in full. When every stage passes,
//! the score is the games stage's base, plus `per_win` for each game won above `wins_above` if
//! games were played, capped at `max`.
//!
//! The default profile is `corpus/marking-profile.json` (the assignment's scheme, built in);
//! `--profile FILE` replaces it with any file of the same shape, checked on loading
//! ([`validate`]) so that it can only give scores from 0 to 100.

mod validate;

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::category;

use super::files;

/// A marking scheme.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub stages: Vec<Stage>,
    pub games: Option<GamesStage>,
}

/// One stage: the cases of one category.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// The category, written `grade` in profile files: a grade number (Advance) or a name.
    #[serde(
        rename = "grade",
        alias = "category",
        serialize_with = "category::serialize",
        deserialize_with = "category::deserialize"
    )]
    pub category: String,
    /// How many cases the scheme expects (a warning is shown when the corpus differs).
    pub tests: usize,
    /// The score on reaching the stage, in percent.
    pub base: f64,
    /// Percent per case passed in this stage.
    pub per_pass: f64,
}

/// The final stage: games against a reference bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesStage {
    pub games: usize,
    /// The opponent, as a bot specification (`builtin:grade7`).
    pub opponent: String,
    pub base: f64,
    pub per_win: f64,
    pub wins_above: usize,
    pub max: f64,
}

impl GamesStage {
    /// The games stage's score for `won` games won: the base, plus `per_win` per win above
    /// `wins_above`, capped at `max`; in [0, 100] and rounded to hundredths.
    pub fn score(&self, won: usize) -> f64 {
        let bonus = self.per_win * won.saturating_sub(self.wins_above) as f64;
        clamp_percent((self.base + bonus).min(self.max))
    }
}

/// A percentage rounded to hundredths and held to [0, 100]. A loaded profile cannot give
/// anything else, but a corpus larger than the profile expects (more passes than `tests`) or a
/// profile built in code could; a grade outside [0, 100], or NaN (null in JSON), must never
/// reach a report.
fn clamp_percent(percent: f64) -> f64 {
    if percent.is_nan() {
        return 0.0;
    }
    ((percent * 100.0).round() / 100.0).clamp(0.0, 100.0)
}

/// How one stage went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StageScore {
    #[serde(rename = "grade", serialize_with = "category::serialize")]
    pub category: String,
    pub passed: usize,
    pub total: usize,
    /// Whether the gate let the run reach this stage (its count is shown either way).
    pub reached: bool,
}

/// The score of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// The gated score, in percent, rounded to hundredths.
    pub percent: f64,
    pub stages: Vec<StageScore>,
    /// The category of the first stage not passed in full, if any.
    #[serde(serialize_with = "category::serialize_option")]
    pub stopped_at: Option<String>,
    /// Games won, when the games stage was played.
    pub games_won: Option<usize>,
    /// Differences between the corpus and the profile worth a warning.
    pub warnings: Vec<String>,
}

impl Profile {
    /// The assignment's scheme, as shipped in `corpus/marking-profile.json`.
    pub fn course() -> Profile {
        serde_json::from_str(include_str!("../../corpus/marking-profile.json"))
            .expect("the built-in profile is valid")
    }

    /// A game's built-in profile (its [`crate::harness::referee::Referee::marking_profile`]).
    pub fn builtin(json: &str) -> Profile {
        serde_json::from_str(json).expect("a built-in profile is valid")
    }

    /// Reads a profile file and checks it against the game's `categories` (see
    /// [`Profile::validate`]).
    pub fn load(path: &Path, categories: &[&str]) -> Result<Profile, String> {
        let text = files::read_capped_text(path, files::PROFILE).map_err(|e| e.to_string())?;
        let profile: Profile = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a marking profile: {e}", path.display()))?;
        profile
            .validate(categories)
            .map_err(|e| format!("{}: not a valid marking profile: {e}", path.display()))?;
        Ok(profile)
    }

    /// Checks that the profile can only give scores from 0 to 100: every amount finite and in
    /// [0, 100], each stage's full score at most 100, grades 4 to 7 each at most once, the games
    /// stage capped at 100. The error lists every problem, each naming its field.
    pub fn validate(&self, categories: &[&str]) -> Result<(), String> {
        let problems = validate::problems(self, categories);
        if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) }
    }

    /// Scores pass counts (category -> (passed, total)) and, if the games stage was played, wins.
    pub fn score(&self, counts: &BTreeMap<String, (usize, usize)>, games_won: Option<usize>) -> Score {
        let mut stages = Vec::new();
        let mut warnings = Vec::new();
        let mut percent = None;
        let mut stopped_at = None;
        let mut sizes = Vec::new();
        for stage in &self.stages {
            let (passed, total) = counts.get(&stage.category).copied().unwrap_or((0, 0));
            if total != stage.tests {
                sizes.push(format!("{} has {total} (not {})", category::label(&stage.category), stage.tests));
            }
            let reached = stopped_at.is_none();
            if reached && passed < total {
                percent = Some(stage.base + stage.per_pass * passed as f64);
                stopped_at = Some(stage.category.clone());
            }
            stages.push(StageScore { category: stage.category.clone(), passed, total, reached });
        }
        if !sizes.is_empty() {
            warnings.push(format!(
                "the corpus differs from the profile `{}`: {}",
                self.name,
                sizes.join(", ")
            ));
        }
        let percent = percent.unwrap_or_else(|| match &self.games {
            Some(g) => g.score(games_won.unwrap_or(0)),
            // Without a games stage, passing everything earns the last stage's full score.
            None => self.stages.last().map_or(100.0, |s| s.base + s.per_pass * s.tests as f64),
        });
        Score {
            percent: clamp_percent(percent),
            stages,
            games_won: games_won.filter(|_| stopped_at.is_none()),
            stopped_at,
            warnings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(list: &[(u8, usize, usize)]) -> BTreeMap<String, (usize, usize)> {
        list.iter().map(|&(g, p, t)| (format!("grade{g}"), (p, t))).collect()
    }

    #[test]
    fn the_first_incomplete_stage_sets_the_score() {
        let p = Profile::course();
        let s = p.score(&counts(&[(4, 49, 50), (5, 50, 50), (6, 50, 50), (7, 50, 50)]), None);
        assert_eq!(s.percent, 49.0);
        assert_eq!(s.stopped_at.as_deref(), Some("grade4"));
        assert!(s.stages[0].reached && !s.stages[1].reached);
        assert_eq!(s.stages[3].passed, 50, "counts are kept past the gate");
        let s = p.score(&counts(&[(4, 50, 50), (5, 17, 50), (6, 50, 50), (7, 0, 50)]), None);
        assert_eq!(s.percent, 55.1);
        let s = p.score(&counts(&[(4, 50, 50), (5, 50, 50), (6, 50, 50), (7, 33, 50)]), None);
        assert_eq!(s.percent, 81.6);
    }

    #[test]
    fn passing_everything_reaches_the_games_stage() {
        let p = Profile::course();
        let all = counts(&[(4, 50, 50), (5, 50, 50), (6, 50, 50), (7, 50, 50)]);
        assert_eq!(p.score(&all, None).percent, 85.0);
        assert_eq!(p.score(&all, Some(30)).percent, 85.0);
        assert_eq!(p.score(&all, Some(50)).percent, 95.0);
        assert_eq!(p.score(&all, Some(90)).percent, 100.0, "capped");
    }

    #[test]
    fn scores_stay_between_0_and_100_whatever_the_counts() {
        let mut p = Profile::course();
        // A corpus larger than the profile expects: 120 passes of a stage expecting 50 give
        // 50 + 0.3 * 120 = 86, past the stage's full 65 but still a percentage ...
        let s = p.score(&counts(&[(4, 50, 50), (5, 120, 121)]), None);
        assert_eq!(s.percent, 86.0);
        // ... while 150 passes at grade 4 would be 150%: held to 100.
        assert_eq!(p.score(&counts(&[(4, 150, 151)]), None).percent, 100.0);
        // A profile built in code, never validated.
        p.stages[0].base = -20.0;
        assert_eq!(p.score(&counts(&[(4, 3, 50)]), None).percent, 0.0);
        p.stages[0].per_pass = f64::NAN;
        assert_eq!(p.score(&counts(&[(4, 3, 50)]), None).percent, 0.0);
        p.games.as_mut().unwrap().max = 1000.0;
        let all = counts(&[(4, 50, 50), (5, 50, 50), (6, 50, 50), (7, 50, 50)]);
        assert_eq!(p.score(&all, Some(100)).percent, 100.0);
    }

    #[test]
    fn a_corpus_of_another_size_is_scored_with_a_warning() {
        let p = Profile::course();
        let s = p.score(&counts(&[(4, 25, 25), (5, 1, 2)]), None);
        assert_eq!(s.percent, 50.3);
        assert_eq!(s.warnings.len(), 1);
        assert!(
            s.warnings[0].contains("grade 4 has 25 (not 50), grade 5 has 2 (not 50), grade 6 has 0"),
            "{:?}",
            s.warnings
        );
    }
}
