//! A marking profile as its JSON file writes it: one `stages` list holding case stages
//! (`{"grade": ...}`) and games stages (`{"games": N, "opponent": ...}`) in any order.

use serde::{Deserialize, Serialize};

use super::{GamesStage, Profile, Stage, StageRef};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileFile {
    name: String,
    #[serde(default)]
    description: String,
    /// Ladder scoring (see the module documentation); absent: every stage adds its points.
    #[serde(default)]
    gated: bool,
    stages: Vec<AnyStage>,
    #[serde(default)]
    games: Option<GamesStage>,
    /// The most the stages together give (ungated profiles); absent: 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max: Option<f64>,
    /// The game's rule options the profile is played by (`["engine=course"]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rules: Vec<String>,
}

/// A stage of either kind, told apart by its `games` field.
#[derive(Serialize)]
#[serde(untagged)]
enum AnyStage {
    Cases(Stage),
    Games(GamesStage),
}

impl<'de> Deserialize<'de> for AnyStage {
    // Told apart by hand rather than `untagged`, so that an error names the stage's real
    // problem instead of "did not match any variant".
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        let is_games = value.get("games").is_some();
        if is_games {
            serde_json::from_value(value)
                .map(AnyStage::Games)
                .map_err(|e| D::Error::custom(format!("a games stage: {e}")))
        } else {
            serde_json::from_value(value)
                .map(AnyStage::Cases)
                .map_err(|e| D::Error::custom(format!("a case stage: {e}")))
        }
    }
}

impl TryFrom<ProfileFile> for Profile {
    type Error = String;
    fn try_from(file: ProfileFile) -> Result<Profile, String> {
        let mut stages = Vec::new();
        let mut game_stages = Vec::new();
        let mut order = Vec::new();
        for stage in file.stages {
            match stage {
                AnyStage::Cases(s) => {
                    order.push(StageRef::Cases(stages.len()));
                    stages.push(s);
                }
                AnyStage::Games(g) => {
                    order.push(StageRef::Games(game_stages.len()));
                    game_stages.push(g);
                }
            }
        }
        Ok(Profile {
            name: file.name,
            description: file.description,
            gated: file.gated,
            stages,
            game_stages,
            order,
            games: file.games,
            max: file.max,
            rules: file.rules,
        })
    }
}

impl From<Profile> for ProfileFile {
    fn from(p: Profile) -> ProfileFile {
        let stages = p
            .order
            .iter()
            .map(|s| match *s {
                StageRef::Cases(i) => AnyStage::Cases(p.stages[i].clone()),
                StageRef::Games(j) => AnyStage::Games(p.game_stages[j].clone()),
            })
            .collect();
        ProfileFile {
            name: p.name,
            description: p.description,
            gated: p.gated,
            stages,
            games: p.games,
            max: p.max,
            rules: p.rules,
        }
    }
}
