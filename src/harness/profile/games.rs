//! Games stages: games against one opponent, the colour each game gives the graded bot, the
//! points a stage gives for wins, draws or a win rate above a threshold, and how sure that win
//! rate is.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::clamp_percent;

/// Which colour the graded bot plays in each game of a games stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colours {
    /// The graded bot moves first in odd games, second in even ones.
    #[default]
    Alternate,
    /// The graded bot always moves first.
    First,
    /// The graded bot always moves second.
    Second,
    /// The graded bot moves first in this many of the games, spread evenly from the first game
    /// (CSCI561: "your agent will be given the first move for 6 of the 10 games").
    FirstIn(usize),
}

impl Colours {
    /// Whether the graded bot moves first in game `number` (1-based) of `games`.
    pub fn moves_first(self, number: usize, games: usize) -> bool {
        match self {
            Colours::Alternate => number % 2 == 1,
            Colours::First => true,
            Colours::Second => false,
            Colours::FirstIn(k) => {
                // Game i is a first-move game when ceil(i k / n) steps up at i: k of the n
                // games, the first among them, spread as evenly as whole games allow.
                let n = games.max(1);
                let k = k.min(n);
                (number * k).div_ceil(n) > ((number - 1) * k).div_ceil(n)
            }
        }
    }

    /// The option's text, as `--colours` takes it.
    pub fn describe(self) -> String {
        match self {
            Colours::Alternate => "alternate".to_string(),
            Colours::First => "first".to_string(),
            Colours::Second => "second".to_string(),
            Colours::FirstIn(k) => format!("first-in={k}"),
        }
    }
}

impl std::str::FromStr for Colours {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim() {
            "alternate" => Ok(Colours::Alternate),
            "first" => Ok(Colours::First),
            "second" => Ok(Colours::Second),
            other => {
                other.strip_prefix("first-in=").and_then(|k| k.parse().ok()).map(Colours::FirstIn).ok_or_else(
                    || format!("`{other}` is not a colour rule: alternate, first, second or first-in=K"),
                )
            }
        }
    }
}

/// A stage of games against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesStage {
    /// What reports call the stage (default: `games vs OPPONENT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub games: usize,
    /// The opponent, as a bot specification (`builtin:grade7`, or a command).
    pub opponent: String,
    /// Which colour the graded bot plays in each game.
    #[serde(default)]
    pub colours: Colours,
    /// Each side's clock at the start of a game, in seconds, for games with a clock (Pente);
    /// absent: the game's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<f64>,
    /// `[low, high]`: each game's starting clock drawn from these seconds (whole seconds, by
    /// the seed and the game's number, the same for both sides), for a course whose clock "will
    /// vary from game to game" (CSCI561). `clock` or `--clock`, when given, wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_range: Option<[f64; 2]>,
    /// The score on reaching the stage (gated profiles only).
    #[serde(default)]
    pub base: f64,
    #[serde(default)]
    pub per_win: f64,
    #[serde(default)]
    pub per_draw: f64,
    /// Wins that earn nothing: `per_win` counts only the wins above this many.
    #[serde(default)]
    pub wins_above: usize,
    /// The most the stage can give (gated: its whole score, base included).
    #[serde(default = "hundred")]
    pub max: f64,
    /// A threshold instead of points per game: `points` when the share of games won is more
    /// than this (0.7 for "more than 70%").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_rate_above: Option<f64>,
    #[serde(default)]
    pub points: f64,
}

fn hundred() -> f64 {
    100.0
}

/// How the graded bot did in one games stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Played {
    pub games: usize,
    pub won: usize,
    pub drawn: usize,
}

impl GamesStage {
    /// The stage's name in reports.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| format!("games vs {}", self.opponent))
    }

    /// The opponent as a bot specification: a built-in bot or a command as written, and a file
    /// or folder (a strategy's `.jar`, a folder of sources) taken from `opponents` (the grader's
    /// `--opponents DIR`) when it is there. A `#NAME` after a file (`AI1_obf.jar#pkg.Class`)
    /// names a class inside it and is kept. An opponent written as a file (a `/` in it, or an
    /// ending such as `.jar`) that is found nowhere is an error saying where it was looked for.
    pub fn opponent_in(&self, opponents: Option<&Path>) -> Result<String, String> {
        let given = self.opponent.as_str();
        if given.starts_with("builtin:") {
            return Ok(given.to_string());
        }
        let (file, class) = match given.split_once('#') {
            Some((file, class)) => (file, Some(class)),
            None => (given, None),
        };
        let with_class = |path: &Path| match class {
            Some(class) => format!("{}#{class}", path.display()),
            None => path.display().to_string(),
        };
        if let Some(dir) = opponents {
            let inside = dir.join(file);
            if Path::new(file).is_relative() && inside.exists() {
                return Ok(with_class(&inside));
            }
        }
        if Path::new(file).exists() {
            return Ok(given.to_string());
        }
        let looks_like_a_file = !file.contains(char::is_whitespace)
            && (file.contains('/') || Path::new(file).extension().is_some());
        if looks_like_a_file {
            return Err(match opponents {
                Some(dir) => format!(
                    "the opponent `{given}` of `{}` is neither in --opponents {} nor here",
                    self.label(),
                    dir.display()
                ),
                None => format!(
                    "the opponent `{given}` of `{}` is not here: give --opponents DIR, the folder that holds it",
                    self.label()
                ),
            });
        }
        Ok(given.to_string())
    }

    /// The points the games earn, without `base`: per win above `wins_above` and per draw, or
    /// `points` past the win-rate threshold.
    pub fn points_for(&self, played: Played) -> f64 {
        match self.win_rate_above {
            Some(t) if played.games > 0 && played.won as f64 / played.games as f64 > t => self.points,
            Some(_) => 0.0,
            None => {
                self.per_win * played.won.saturating_sub(self.wins_above) as f64
                    + self.per_draw * played.drawn as f64
            }
        }
    }

    /// The stage's score for `won` games won (no draws counted): the base, plus `per_win` per
    /// win above `wins_above`, capped at `max`; in [0, 100] and rounded to hundredths.
    pub fn score(&self, won: usize) -> f64 {
        self.score_played(Played { games: self.games, won, drawn: 0 })
    }

    /// [`GamesStage::score`] for a full result.
    pub fn score_played(&self, played: Played) -> f64 {
        clamp_percent((self.base + self.points_for(played)).min(self.max))
    }

    /// Whether the stage passed in full, for a gate: the threshold met, or every game won.
    pub fn passed(&self, played: Played) -> bool {
        match self.win_rate_above {
            Some(_) => self.points_for(played) > 0.0,
            None => played.won == played.games,
        }
    }

    /// The win rate of a threshold stage with its interval; `None` for points per game or no
    /// games.
    pub fn win_rate(&self, played: Played) -> Option<WinRate> {
        let above = self.win_rate_above?;
        if played.games == 0 {
            return None;
        }
        let (lo, hi) = crate::harness::wilson::wilson_interval(played.won, played.games);
        Some(WinRate {
            rate: played.won as f64 / played.games as f64,
            above,
            ci95: [lo, hi],
            too_close: lo <= above && above <= hi,
        })
    }

    /// The most the stage can add in an ungated profile.
    pub fn most(&self) -> f64 {
        let full = Played { games: self.games, won: self.games, drawn: 0 };
        let draws = Played { games: self.games, won: 0, drawn: self.games };
        self.points_for(full).max(self.points_for(draws)).min(self.max)
    }
}

/// A games stage's win rate against its threshold, with the 95% interval that says how sure
/// the verdict is: a bot that won 72 of 100 games passes "more than 70%", but another 100 games
/// could as well give 65.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WinRate {
    /// The share of games won.
    pub rate: f64,
    /// The threshold the rate must pass.
    pub above: f64,
    /// The Wilson 95% interval of the rate.
    pub ci95: [f64; 2],
    /// Whether the threshold lies inside the interval: the verdict could go the other way.
    pub too_close: bool,
}

impl WinRate {
    /// One sentence for reports: the rate, the interval and whether it is clear of the threshold.
    pub fn sentence(&self) -> String {
        let [lo, hi] = self.ci95;
        let verdict = if self.too_close {
            format!("too close to {:.0}% to be sure: the interval holds the threshold", 100.0 * self.above)
        } else if self.rate > self.above {
            format!("clearly above {:.0}%", 100.0 * self.above)
        } else {
            format!("clearly not above {:.0}%", 100.0 * self.above)
        };
        format!(
            "win rate {:.1}% (95% interval {:.1}% to {:.1}%, Wilson): {verdict}",
            100.0 * self.rate,
            100.0 * lo,
            100.0 * hi
        )
    }
}
