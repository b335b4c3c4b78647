//! Marking profiles: how pass counts and games become a score.
//!
//! A profile lists stages in order: **case stages** (the cases of one category, `per_pass` each)
//! and **games stages** (games against a named opponent, points per win and draw, or points for
//! a win rate above a threshold). Stages of both kinds may come in any order.
//!
//! - An **ungated** profile (the default) adds every stage's points: `per_pass * passed` for a
//!   case stage, the games points for a games stage. Every stage runs.
//! - A **gated** profile (`"gated": true`, the Advance assignment's scheme) scores like a ladder:
//!   a stage is reached only when every earlier stage passed in full (every case passed; every
//!   game won, or the win-rate threshold met), and the score is that of the first stage not
//!   passed in full, `base + per_pass * passed` (`base` being the score on reaching it). When
//!   every stage passes, the score is the final `games` stage's (played with `grade --games N`)
//!   or the last stage's full score.
//!
//! The default profile is the game's built-in one (`corpus/marking-profile.json` for Advance);
//! `--profile FILE` replaces it with any file of the same shape, checked on loading
//! ([`Profile::validate`]) so that it can only give scores from 0 to 100.

mod file;
mod games;
mod score;
mod validate;

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::category;

use super::files;

pub use games::{Colours, GamesStage, Played, WinRate};
pub use score::{GamesScore, Score, StageScore};

/// A marking scheme.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "file::ProfileFile", into = "file::ProfileFile")]
pub struct Profile {
    pub name: String,
    pub description: String,
    /// Whether a stage is reached only when every earlier one passed in full.
    pub gated: bool,
    /// The case stages, in order.
    pub stages: Vec<Stage>,
    /// The games stages listed among the stages, in order; always played (when reached).
    pub game_stages: Vec<GamesStage>,
    /// Both kinds in the order the file lists them.
    pub order: Vec<StageRef>,
    /// The final games stage of a gated ladder, played only when asked for (`grade --games N`)
    /// and only by a bot that passed every stage.
    pub games: Option<GamesStage>,
    /// The most an ungated profile's stages give together (`"max"`; the seed of PlanetWars adds
    /// 30 and three times 10 but gives at most 50); `None`: 100.
    pub max: Option<f64>,
    /// The game's rule options its games are played by (`"rules": ["engine=course"]`: the
    /// course's own engine), applied after the command line's `--rule`.
    pub rules: Vec<String>,
}

/// A stage by its kind and index: into [`Profile::stages`] or [`Profile::game_stages`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageRef {
    Cases(usize),
    Games(usize),
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
    /// The score on reaching the stage, in percent (gated profiles only).
    #[serde(default)]
    pub base: f64,
    /// Percent per case passed in this stage.
    pub per_pass: f64,
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

    /// The profile `--profile` names for `referee`: the game's shipped profile of that name, or
    /// else a file; without `--profile`, the game's default.
    pub fn choose(
        given: Option<&Path>,
        referee: &dyn crate::harness::referee::Referee,
    ) -> Result<Profile, String> {
        let Some(path) = given else { return Ok(Profile::builtin(referee.marking_profile())) };
        let shipped: Vec<Profile> = referee.marking_profiles().into_iter().map(Profile::builtin).collect();
        if let Some(p) = shipped.iter().find(|p| Path::new(&p.name) == path) {
            // A shipped profile may grade a category the game has only under a rule option
            // (chess-a1's `csse7030-a1` and `--rule extras=on`).
            p.validate(referee.categories()).map_err(|e| {
                format!(
                    "--profile {}: {e}; this profile needs a rule option of {} (see --rule)",
                    p.name,
                    referee.game()
                )
            })?;
            return Ok(p.clone());
        }
        if !path.exists() && path.extension().is_none() {
            let names: Vec<&str> = shipped.iter().map(|p| p.name.as_str()).collect();
            return Err(format!(
                "--profile {}: no such file, and {}'s shipped profiles are {}",
                path.display(),
                referee.game(),
                names.join(", ")
            ));
        }
        Profile::load(path, referee.categories())
    }

    /// Checks that the profile can only give scores from 0 to 100: every amount finite and in
    /// [0, 100], each stage's full score at most 100 (gated) or all stages' together (ungated),
    /// each category at most once. The error lists every problem, each naming its field.
    pub fn validate(&self, categories: &[&str]) -> Result<(), String> {
        let problems = validate::problems(self, categories);
        if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) }
    }

    /// Whether the profile scores any cases (a profile of games alone runs none).
    pub fn has_case_stages(&self) -> bool {
        !self.stages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

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

    fn parse(json: &str) -> Profile {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn an_ungated_profile_adds_every_stage_and_the_games() {
        let p = parse(
            r#"{"name": "u", "stages": [
                {"grade": "legal", "tests": 10, "per_pass": 2},
                {"grade": "win", "tests": 10, "per_pass": 3},
                {"games": 10, "opponent": "builtin:random", "per_win": 2, "per_draw": 1}]}"#,
        );
        assert_eq!(p.validate(&["legal", "win"]), Ok(()));
        let c: BTreeMap<String, (usize, usize)> =
            [("legal".to_string(), (5, 10)), ("win".to_string(), (10, 10))].into_iter().collect();
        // 5 * 2 + 10 * 3 without games; a later stage counts although the first failed.
        let s = p.score(&c, None);
        assert_eq!(s.percent, 40.0);
        assert_eq!(s.stopped_at, None);
        // 4 wins and 3 draws: 8 + 3.
        let s = p.score_all(&c, &[Some(Played { games: 10, won: 4, drawn: 3 })], None);
        assert_eq!(s.percent, 51.0);
        assert_eq!(s.game_stages[0].points, 11.0);
        assert!(p.reaches_games_stage(&c, &[None], 0), "ungated stages are always reached");
    }

    #[test]
    fn a_top_level_max_caps_the_sum_as_planetwars_seed_caps_its_marks_at_50() {
        let p = parse(include_str!("../../corpus/planetwars/marking-profile.json"));
        assert_eq!(p.validate(&[]), Ok(()));
        let won = |n| Some(Played { games: 100, won: n, drawn: 0 });
        // Random and all three stronger strategies beaten: 30 + 3 * 10 = 60, capped at 50.
        let s = p.score_all(&BTreeMap::new(), &[won(100), won(80), won(90), won(71)], None);
        assert_eq!(s.percent, 50.0);
        let s = p.score_all(&BTreeMap::new(), &[won(100), won(80), won(10), won(70)], None);
        assert_eq!(s.percent, 40.0, "70 of 100 is not more than 70%");
        let bad =
            parse(r#"{"name": "m", "max": 120, "stages": [{"games": 1, "opponent": "x", "per_win": 5}]}"#);
        assert!(bad.validate(&[]).unwrap_err().contains("max is 120"));
    }

    #[test]
    fn a_profile_of_games_alone_runs_no_case_and_scores_wins() {
        let p = parse(include_str!("../../corpus/pente/csci561.json"));
        assert_eq!(p.validate(&["legal"]), Ok(()));
        assert!(!p.has_case_stages());
        let s = p.score_all(
            &BTreeMap::new(),
            &[Some(Played { games: 10, won: 10, drawn: 0 }), Some(Played { games: 10, won: 7, drawn: 2 })],
            None,
        );
        assert_eq!(s.percent, 85.0, "5 points a win, draws nothing");
    }

    #[test]
    fn a_gated_games_stage_is_reached_only_past_every_earlier_stage() {
        let p = parse(
            r#"{"name": "g", "gated": true, "stages": [
                {"grade": "legal", "tests": 2, "per_pass": 10},
                {"games": 4, "opponent": "x", "base": 20, "win_rate_above": 0.7, "points": 30},
                {"grade": "win", "tests": 2, "base": 50, "per_pass": 25}]}"#,
        );
        assert_eq!(p.validate(&["legal", "win"]), Ok(()));
        let c = |a, b| -> BTreeMap<String, (usize, usize)> {
            [("legal".to_string(), (a, 2)), ("win".to_string(), (b, 2))].into_iter().collect()
        };
        assert!(!p.reaches_games_stage(&c(1, 2), &[None], 0));
        assert!(p.reaches_games_stage(&c(2, 0), &[None], 0));
        // 3 of 4 won is 75% > 70%: the stage passes and the ladder goes on to `win`.
        let s = p.score_all(&c(2, 1), &[Some(Played { games: 4, won: 3, drawn: 0 })], None);
        assert_eq!((s.percent, s.stopped_at.as_deref()), (75.0, Some("win")));
        // 2 of 4 is not more than 70%: the score is the games stage's base.
        let s = p.score_all(&c(2, 2), &[Some(Played { games: 4, won: 2, drawn: 0 })], None);
        assert_eq!((s.percent, s.stopped_at.as_deref()), (20.0, Some("games vs x")));
    }

    #[test]
    fn a_win_rate_near_its_threshold_is_reported_as_too_close_to_be_sure() {
        let p = parse(
            r#"{"name": "w", "stages": [
                {"games": 100, "opponent": "x", "win_rate_above": 0.7, "points": 30}]}"#,
        );
        let stage = &p.game_stages[0];
        let rate = |won| stage.win_rate(Played { games: 100, won, drawn: 0 }).expect("a threshold stage");
        // 72 of 100 passes "more than 70%", but its interval (about 62% to 80%) holds 70%.
        let close = rate(72);
        assert!(close.too_close && close.ci95[0] < 0.7 && close.ci95[1] > 0.7, "{close:?}");
        assert!(close.sentence().contains("too close to 70%"), "{}", close.sentence());
        assert!(!rate(85).too_close && rate(85).sentence().contains("clearly above 70%"));
        assert!(!rate(50).too_close && rate(50).sentence().contains("clearly not above 70%"));
        let s = p.score_all(&BTreeMap::new(), &[Some(Played { games: 100, won: 72, drawn: 0 })], None);
        assert_eq!((s.percent, s.game_stages[0].win_rate.map(|r| r.too_close)), (30.0, Some(true)));
        // Points per game have no threshold to be sure of.
        let per_win = parse(r#"{"name": "p", "stages": [{"games": 10, "opponent": "x", "per_win": 5}]}"#);
        assert_eq!(per_win.game_stages[0].win_rate(Played { games: 10, won: 7, drawn: 0 }), None);
    }

    #[test]
    fn the_course_colour_rule_gives_the_first_move_in_k_games_from_the_first() {
        let firsts: Vec<bool> = (1..=10).map(|n| Colours::FirstIn(6).moves_first(n, 10)).collect();
        assert_eq!(firsts.iter().filter(|&&f| f).count(), 6);
        assert!(firsts[0]);
        assert_eq!(firsts, [true, true, false, true, false, true, true, false, true, false]);
        for k in 0..=7 {
            assert_eq!((1..=7).filter(|&n| Colours::FirstIn(k).moves_first(n, 7)).count(), k);
        }
        assert_eq!("first-in=6".parse::<Colours>(), Ok(Colours::FirstIn(6)));
        assert!("sometimes".parse::<Colours>().unwrap_err().contains("alternate, first, second"));
        assert!((1..=4).all(|n| Colours::First.moves_first(n, 4) && !Colours::Second.moves_first(n, 4)));
    }

    #[test]
    fn an_old_ladder_profile_without_gated_is_refused_by_name() {
        let p = parse(
            r#"{"name": "old", "stages": [{"grade": "legal", "tests": 10, "base": 0, "per_pass": 5},
                {"grade": "win", "tests": 10, "base": 50, "per_pass": 5}]}"#,
        );
        let e = p.validate(&["legal", "win"]).unwrap_err();
        assert!(e.contains("stages[1].base is 50, but the profile is not gated"), "{e}");
        let too_much = parse(
            r#"{"name": "x", "stages": [{"grade": "legal", "tests": 10, "per_pass": 5},
                {"games": 10, "opponent": "b", "per_win": 6}]}"#,
        );
        let e = too_much.validate(&["legal"]).unwrap_err();
        assert!(e.contains("the stages together can give 110, more than 100"), "{e}");
    }

    #[test]
    fn a_profile_file_round_trips_with_its_stages_in_order() {
        let p = parse(include_str!("../../corpus/network/cs61b-alphabeta.json"));
        assert_eq!(p.order.last(), Some(&StageRef::Games(1)));
        let again: Profile = serde_json::from_value(serde_json::to_value(&p).unwrap()).unwrap();
        assert_eq!(again, p);
        let course: Profile =
            serde_json::from_value(serde_json::to_value(Profile::course()).unwrap()).unwrap();
        assert_eq!(course, Profile::course());
    }
}
