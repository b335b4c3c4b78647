//! What a marking profile must satisfy before it scores anyone.
//!
//! Every score a profile can give must be a number from 0 to 100: each amount is finite and in
//! [0, 100], a stage's full score (`base + per_pass * tests`) is at most 100, the games stage
//! cannot go past 100. Stages are of the game's categories, each at most once, so no stage is
//! silently shadowed by another of the same category.

use super::{GamesStage, Profile, Stage, StageRef};

/// Most cases a stage may expect.
const MAX_TESTS: usize = 100_000;
/// Most games a games stage may play (as `match --games`).
const MAX_GAMES: usize = 10_000;
/// Longest profile name: it is printed in every report.
const MAX_NAME_CHARS: usize = 100;
/// Slack for sums of decimal fractions: 0.3 * 50 is 15.000000000000002 in binary.
const EPSILON: f64 = 1e-9;

/// Every problem with `profile`, each naming its field (`stages[1].per_pass`); empty when it
/// is valid.
pub fn problems(profile: &Profile, categories: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let name = profile.name.trim();
    if name.is_empty() {
        out.push("name is empty".to_string());
    } else if profile.name.chars().count() > MAX_NAME_CHARS {
        out.push(format!(
            "name has {} characters; at most {MAX_NAME_CHARS} are allowed",
            profile.name.chars().count()
        ));
    } else if profile.name.chars().any(char::is_control) {
        out.push(format!("name {:?} holds control characters", profile.name));
    }
    if profile.order.is_empty() {
        out.push("stages is empty: a profile needs at least one stage of cases or of games".to_string());
    }
    for (k, stage) in profile.order.iter().enumerate() {
        match *stage {
            StageRef::Cases(i) => {
                let stage = &profile.stages[i];
                stage_problems(&format!("stages[{k}]"), stage, profile.gated, categories, &mut out);
                if let Some(first) = profile.stages[..i].iter().position(|s| s.category == stage.category) {
                    let at = profile.order.iter().position(|s| *s == StageRef::Cases(first)).unwrap_or(first);
                    let shown = shown(&stage.category);
                    out.push(format!("stages[{k}].grade {shown} is already the grade of stages[{at}]"));
                }
            }
            StageRef::Games(j) => {
                games_problems(&format!("stages[{k}]"), &profile.game_stages[j], profile.gated, &mut out)
            }
        }
    }
    if let Some(games) = &profile.games {
        games_problems("games", games, profile.gated, &mut out);
    }
    if let Some(max) = profile.max {
        percent("max", max, &mut out);
    }
    if !profile.gated && profile.max.is_none() {
        // Every stage adds its points: together they may not pass 100.
        let cases: f64 = profile.stages.iter().map(|s| s.per_pass * s.tests as f64).sum();
        let games: f64 = profile.game_stages.iter().chain(&profile.games).map(GamesStage::most).sum();
        if (cases + games).is_finite() && cases + games > 100.0 + EPSILON {
            let round = |x: f64| (x * 1000.0).round() / 1000.0;
            out.push(format!(
                "the stages together can give {}, more than 100 (cases {}, games {})",
                round(cases + games),
                round(cases),
                round(games)
            ));
        }
    }
    out
}

/// `value` is finite and in [0, 100].
fn percent(field: &str, value: f64, out: &mut Vec<String>) -> bool {
    let ok = value.is_finite() && (0.0..=100.0).contains(&value);
    if !ok {
        out.push(format!("{field} is {value}; it must be a number from 0 to 100"));
    }
    ok
}

/// A category as the profile file writes it: `4` for `grade4`, else the name.
fn shown(category: &str) -> String {
    crate::harness::category::grade_number(category).map_or_else(|| category.to_string(), |n| n.to_string())
}

fn stage_problems(at: &str, stage: &Stage, gated: bool, categories: &[&str], out: &mut Vec<String>) {
    if !categories.contains(&stage.category.as_str()) {
        let known: Vec<String> = categories.iter().map(|c| shown(c)).collect();
        out.push(format!(
            "{at}.grade is {}; the game's categories are {}",
            shown(&stage.category),
            known.join(", ")
        ));
    }
    if !(1..=MAX_TESTS).contains(&stage.tests) {
        out.push(format!("{at}.tests is {}; it must be from 1 to {MAX_TESTS}", stage.tests));
    }
    let base_ok = percent(&format!("{at}.base"), stage.base, out);
    let per_pass_ok = percent(&format!("{at}.per_pass"), stage.per_pass, out);
    ungated_base(at, stage.base, gated, out);
    let full = stage.base + stage.per_pass * stage.tests as f64;
    if base_ok && per_pass_ok && full > 100.0 + EPSILON {
        out.push(format!(
            "{at}: base + per_pass * tests is {} + {} * {} = {full}, more than 100",
            stage.base, stage.per_pass, stage.tests
        ));
    }
}

/// A `base` is the score on reaching a stage of a ladder; in a profile whose stages add up it
/// would mean nothing, and is most likely an old ladder profile missing `"gated": true`.
fn ungated_base(at: &str, base: f64, gated: bool, out: &mut Vec<String>) {
    if !gated && base != 0.0 && base.is_finite() {
        out.push(format!(
            "{at}.base is {base}, but the profile is not gated (its stages add up): add \"gated\": true for a ladder, or drop base"
        ));
    }
}

fn games_problems(at: &str, games: &GamesStage, gated: bool, out: &mut Vec<String>) {
    if !(1..=MAX_GAMES).contains(&games.games) {
        out.push(format!("{at}.games is {}; it must be from 1 to {MAX_GAMES}", games.games));
    }
    if games.opponent.trim().is_empty() {
        out.push(format!("{at}.opponent is empty; it must name a bot (`builtin:grade7`)"));
    }
    let base_ok = percent(&format!("{at}.base"), games.base, out);
    percent(&format!("{at}.per_win"), games.per_win, out);
    percent(&format!("{at}.per_draw"), games.per_draw, out);
    percent(&format!("{at}.points"), games.points, out);
    let max_ok = percent(&format!("{at}.max"), games.max, out);
    ungated_base(at, games.base, gated, out);
    if base_ok && max_ok && games.base > games.max {
        out.push(format!("{at}.base {} is more than {at}.max {}", games.base, games.max));
    }
    if games.wins_above > games.games {
        out.push(format!(
            "{at}.wins_above is {}, more than the {} games played",
            games.wins_above, games.games
        ));
    }
    if let Some(t) = games.win_rate_above
        && !(t.is_finite() && (0.0..1.0).contains(&t))
    {
        out.push(format!("{at}.win_rate_above is {t}; it must be a share from 0 to 1 (0.7 for 70%)"));
    }
    if games.win_rate_above.is_none() && games.points != 0.0 {
        out.push(format!("{at}.points is given without win_rate_above; use per_win for points per game"));
    }
    if let Some(super::Colours::FirstIn(k)) = Some(games.colours)
        && k > games.games
    {
        out.push(format!("{at}.colours gives the first move in {k} games of {}", games.games));
    }
    if let Some(c) = games.clock
        && !(c.is_finite() && c > 0.0 && c <= 86_400.0)
    {
        out.push(format!("{at}.clock is {c}; it must be more than 0 and at most 86400 seconds"));
    }
    if let Some([low, high]) = games.clock_range
        && !(low.is_finite() && high.is_finite() && low > 0.0 && low <= high && high <= 86_400.0)
    {
        out.push(format!(
            "{at}.clock_range is [{low}, {high}]; it must be [low, high] seconds with 0 < low <= high <= 86400"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADVANCE: &[&str] = &["grade4", "grade5", "grade6", "grade7"];

    fn profile(json: &str) -> Profile {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_course_profile_is_valid() {
        assert_eq!(problems(&Profile::course(), ADVANCE), Vec::<String>::new());
    }

    #[test]
    fn every_problem_is_named_by_its_field() {
        let p = profile(
            r#"{"name": " ", "gated": true, "stages": [
                {"grade": 4, "tests": 10, "base": -1, "per_pass": 1},
                {"grade": 5, "tests": 10, "base": 50, "per_pass": 6},
                {"grade": 4, "tests": 0, "base": 0, "per_pass": 101},
                {"grade": 9, "tests": 1, "base": 0, "per_pass": 0}],
                "games": {"games": 10, "opponent": "", "base": 90, "per_win": 150, "wins_above": 11, "max": 80}}"#,
        );
        assert_eq!(
            problems(&p, ADVANCE),
            vec![
                "name is empty",
                "stages[0].base is -1; it must be a number from 0 to 100",
                "stages[1]: base + per_pass * tests is 50 + 6 * 10 = 110, more than 100",
                "stages[2].tests is 0; it must be from 1 to 100000",
                "stages[2].per_pass is 101; it must be a number from 0 to 100",
                "stages[2].grade 4 is already the grade of stages[0]",
                "stages[3].grade is 9; the game's categories are 4, 5, 6, 7",
                "games.opponent is empty; it must name a bot (`builtin:grade7`)",
                "games.per_win is 150; it must be a number from 0 to 100",
                "games.base 90 is more than games.max 80",
                "games.wins_above is 11, more than the 10 games played",
            ]
        );
    }

    #[test]
    fn not_a_number_is_refused_wherever_it_comes_from() {
        // JSON has no NaN, but a profile built in code can.
        let mut p = Profile::course();
        p.stages[2].per_pass = f64::NAN;
        p.games.as_mut().unwrap().max = f64::INFINITY;
        assert_eq!(
            problems(&p, ADVANCE),
            vec![
                "stages[2].per_pass is NaN; it must be a number from 0 to 100",
                "games.max is inf; it must be a number from 0 to 100"
            ]
        );
    }

    #[test]
    fn a_clock_range_must_be_low_then_high_seconds() {
        let with = |range: &str| {
            profile(&format!(
                r#"{{"name": "r", "stages": [{{"games": 2, "opponent": "builtin:grade4", "clock_range": {range}, "per_win": 1}}]}}"#
            ))
        };
        assert_eq!(problems(&with("[100, 300]"), ADVANCE), Vec::<String>::new());
        assert_eq!(
            problems(&with("[300, 100]"), ADVANCE),
            vec![
                "stages[0].clock_range is [300, 100]; it must be [low, high] seconds with 0 < low <= high <= 86400"
            ]
        );
        assert_eq!(problems(&with("[0, 10]"), ADVANCE).len(), 1);
    }

    #[test]
    fn a_stage_may_add_up_to_exactly_100_despite_rounding() {
        let p = profile(
            r#"{"name": "full", "gated": true, "stages": [{"grade": 4, "tests": 50, "base": 85, "per_pass": 0.3}], "games": null}"#,
        );
        assert_eq!(problems(&p, ADVANCE), Vec::<String>::new());
    }
}
