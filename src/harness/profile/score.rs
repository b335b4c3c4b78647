//! Scoring: pass counts and games results turned into a score by a profile, ungated (every
//! stage's points added) or gated (the first stage not passed in full sets the score).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Played, Profile, StageRef, WinRate, category, clamp_percent};

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

/// How one games stage went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamesScore {
    pub name: String,
    pub opponent: String,
    /// The result, when the stage was played.
    pub played: Option<Played>,
    /// The points it added (ungated) or its score (gated, when it set the score).
    pub points: f64,
    pub reached: bool,
    /// Why it has no result, when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// For a win-rate threshold, the rate and how sure its verdict is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<WinRate>,
    /// The games the bot lost by forfeit, by cause, when it lost any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeits: Option<crate::harness::forfeits::Forfeits>,
}

/// The score of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// The score, in percent, rounded to hundredths.
    pub percent: f64,
    pub stages: Vec<StageScore>,
    /// The games stages listed among the stages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub game_stages: Vec<GamesScore>,
    /// The category of the first stage not passed in full, if any (gated profiles).
    #[serde(serialize_with = "category::serialize_option")]
    pub stopped_at: Option<String>,
    /// Games won in the final games stage, when it was played.
    pub games_won: Option<usize>,
    /// The games of the final games stage the bot lost by forfeit, when it lost any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_forfeits: Option<crate::harness::forfeits::Forfeits>,
    /// Differences between the corpus and the profile worth a warning.
    pub warnings: Vec<String>,
}

impl Profile {
    /// Scores pass counts (category -> (passed, total)) and, if the final games stage was
    /// played, its wins; no games stage listed among the stages was played.
    pub fn score(&self, counts: &BTreeMap<String, (usize, usize)>, games_won: Option<usize>) -> Score {
        self.score_all(counts, &vec![None; self.game_stages.len()], games_won)
    }

    /// Whether games stage `index` is reached with these counts and earlier games results:
    /// always in an ungated profile; in a gated one, when every earlier stage passed in full.
    pub fn reaches_games_stage(
        &self,
        counts: &BTreeMap<String, (usize, usize)>,
        played: &[Option<Played>],
        index: usize,
    ) -> bool {
        if !self.gated {
            return true;
        }
        for stage in &self.order {
            match *stage {
                StageRef::Games(j) if j == index => return true,
                StageRef::Games(j) => match played.get(j).copied().flatten() {
                    Some(p) if self.game_stages[j].passed(p) => {}
                    _ => return false,
                },
                StageRef::Cases(i) => {
                    let (passed, total) = counts.get(&self.stages[i].category).copied().unwrap_or((0, 0));
                    if passed < total {
                        return false;
                    }
                }
            }
        }
        false
    }

    /// Scores pass counts, each games stage's result (`played[j]` for `game_stages[j]`, None
    /// when not played) and the final games stage's wins.
    pub fn score_all(
        &self,
        counts: &BTreeMap<String, (usize, usize)>,
        played: &[Option<Played>],
        games_won: Option<usize>,
    ) -> Score {
        let mut stages = Vec::new();
        let mut game_stages = Vec::new();
        let mut warnings = Vec::new();
        let mut percent = None;
        let mut stopped_at = None;
        let mut sizes = Vec::new();
        let mut sum = 0.0;
        for stage in &self.order {
            let reached = stopped_at.is_none();
            match *stage {
                StageRef::Cases(i) => {
                    let stage = &self.stages[i];
                    let (passed, total) = counts.get(&stage.category).copied().unwrap_or((0, 0));
                    if total != stage.tests {
                        sizes.push(format!(
                            "{} has {total} (not {})",
                            category::label(&stage.category),
                            stage.tests
                        ));
                    }
                    sum += stage.per_pass * passed as f64;
                    if self.gated && reached && passed < total {
                        percent = Some(stage.base + stage.per_pass * passed as f64);
                        stopped_at = Some(stage.category.clone());
                    }
                    stages.push(StageScore { category: stage.category.clone(), passed, total, reached });
                }
                StageRef::Games(j) => {
                    let stage = &self.game_stages[j];
                    let result = played.get(j).copied().flatten();
                    let points = match result {
                        Some(p) => stage.points_for(p).min(stage.max),
                        None => 0.0,
                    };
                    sum += points;
                    let mut shown = points;
                    if self.gated && reached {
                        let score = match result {
                            Some(p) => stage.score_played(p),
                            None => stage.base,
                        };
                        if !result.is_some_and(|p| stage.passed(p)) {
                            percent = Some(score);
                            stopped_at = Some(stage.label());
                        }
                        shown = score;
                    }
                    game_stages.push(GamesScore {
                        name: stage.label(),
                        opponent: stage.opponent.clone(),
                        played: result,
                        points: clamp_percent(shown),
                        reached,
                        note: None,
                        win_rate: result.and_then(|p| stage.win_rate(p)),
                        forfeits: None,
                    });
                }
            }
        }
        if !sizes.is_empty() {
            warnings.push(format!(
                "the corpus differs from the profile `{}`: {}",
                self.name,
                sizes.join(", ")
            ));
        }
        let percent = if self.gated {
            percent.unwrap_or_else(|| match (&self.games, self.order.last()) {
                (Some(g), _) => g.score(games_won.unwrap_or(0)),
                // Without a final games stage, passing everything earns the last stage's full
                // score.
                (None, Some(StageRef::Cases(i))) => {
                    let s = &self.stages[*i];
                    s.base + s.per_pass * s.tests as f64
                }
                (None, Some(StageRef::Games(j))) => {
                    let s = &self.game_stages[*j];
                    played.get(*j).copied().flatten().map_or(s.base, |p| s.score_played(p))
                }
                (None, None) => 100.0,
            })
        } else {
            let finale = match (&self.games, games_won) {
                (Some(g), Some(won)) => g.points_for(Played { games: g.games, won, drawn: 0 }).min(g.max),
                _ => 0.0,
            };
            (sum + finale).min(self.max.unwrap_or(100.0))
        };
        Score {
            percent: clamp_percent(percent),
            stages,
            game_stages,
            games_won: games_won.filter(|_| stopped_at.is_none()),
            games_forfeits: None,
            stopped_at,
            warnings,
        }
    }
}
