//! A game as played and what is counted from games: who won, bot A's wins, draws and
//! forfeits (by cause), and a games stage's score.

use crate::harness::forfeits::Forfeits;

/// The time one move took, as a record keeps it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveTime {
    /// CPU seconds (user + system) the move used (wall seconds where CPU time was not measured).
    pub cpu: f64,
    /// The user part of `cpu`, where it could be told apart.
    #[serde(default)]
    pub user: Option<f64>,
    /// Seconds left on the mover's clock after the move, in a game with a clock.
    #[serde(default)]
    pub clock_left: Option<f64>,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    White,
    Black,
    Draw,
}

/// One game, as played.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// 1-based.
    pub number: usize,
    /// The game played (`pente`), as `--game` names it; empty in records older than the field.
    #[serde(default)]
    pub game: String,
    /// The game's rule options (`opening=tournament`), as `--rule` gives them.
    #[serde(default)]
    pub rules: Vec<String>,
    pub white: String,
    pub black: String,
    /// Whether bot A (the first `--bot`) played white.
    pub a_is_white: bool,
    /// Where the game started: `initial` or the start file's name.
    pub start: String,
    pub start_board: String,
    /// Every move in order, in notation.
    pub moves: Vec<String>,
    /// The time each move in `moves` took, and the mover's clock after it (empty in records
    /// older than the field).
    #[serde(default)]
    pub times: Vec<MoveTime>,
    pub result: GameResult,
    /// `no-legal-move`, `move-limit`, or the verdict of the losing bot's last turn
    /// (`illegal-move`, `malformed-output`, `unchanged`, `no-output`, `crash`, `timeout`).
    pub ending: String,
    /// The ending in a sentence.
    pub detail: String,
    pub final_board: String,
    /// What the forfeiting bot wrote, when it wrote something that was not a legal move.
    pub forfeit_output: Option<String>,
    /// Material of white and black at the end.
    pub material: [i32; 2],
    pub seed: u64,
    /// What happened on the way that the moves do not say: turns that threw and were passed
    /// over (a game whose engine does so, [`crate::harness::referee::GameState::after_exception`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[cfg(test)]
impl GameRecord {
    /// Game 1 between two unnamed bots, bot A white, from the initial position, with no moves,
    /// ended by `result` and `ending`: what tests of what is counted from records start from,
    /// setting the fields they count on.
    pub(crate) fn ended(result: GameResult, ending: &str) -> GameRecord {
        GameRecord {
            number: 1,
            game: String::new(),
            rules: Vec::new(),
            white: String::new(),
            black: String::new(),
            a_is_white: true,
            start: "initial".into(),
            start_board: String::new(),
            moves: Vec::new(),
            times: Vec::new(),
            result,
            ending: ending.into(),
            detail: String::new(),
            final_board: String::new(),
            forfeit_output: None,
            material: [0, 0],
            seed: 0,
            notes: Vec::new(),
        }
    }
}

impl GameRecord {
    /// Whether bot A lost this game by forfeit: by what it did on its own turn (a verdict such
    /// as `crash` or `timeout`, or its clock running out), not by the game's rules.
    pub fn a_forfeited(&self) -> bool {
        let forfeit = self.ending == "out-of-time"
            || crate::harness::verdict::Verdict::ALL.iter().any(|v| v.as_str() == self.ending);
        forfeit && self.a_outcome() == Some(false)
    }

    /// Whether bot A won, lost or drew.
    pub fn a_outcome(&self) -> Option<bool> {
        match self.result {
            GameResult::Draw => None,
            GameResult::White => Some(self.a_is_white),
            GameResult::Black => Some(!self.a_is_white),
        }
    }
}

/// The score of bot A in a games stage, or why it gets none: a bot that lost every game by
/// forfeit (crashing, timing out, writing nothing or an illegal board) never played the game,
/// and the stage's base score must not reward it for that.
pub fn games_stage_score(
    stage: &crate::harness::profile::GamesStage,
    records: &[GameRecord],
) -> Result<f64, String> {
    if !records.is_empty() && records.iter().all(GameRecord::a_forfeited) {
        let mut endings: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
        for r in records {
            *endings.entry(r.ending.as_str()).or_default() += 1;
        }
        let list: Vec<String> = endings.iter().map(|(e, n)| format!("{e} {n}")).collect();
        return Err(format!("lost all {} games by forfeit ({})", records.len(), list.join(", ")));
    }
    Ok(stage.score_played(played(records)))
}

/// Bot A's forfeits in `records`, by cause (see [`Forfeits`]).
pub fn forfeits(records: &[GameRecord]) -> Forfeits {
    let mut forfeits = Forfeits::default();
    for r in records.iter().filter(|r| r.a_forfeited()) {
        let (cause, first) = forfeit_cause(r);
        forfeits.add(&cause, r.number, first);
    }
    forfeits
}

/// The cause of a game bot A forfeited and its reason in one line.
fn forfeit_cause(record: &GameRecord) -> (String, String) {
    let why = record.detail.split_once(" forfeits: ").map_or(record.detail.as_str(), |(_, why)| why);
    let mut lines = why.lines();
    let mut first = lines.next().unwrap_or_default().trim().to_string();
    // Where an exception was thrown: the first frame of its trace.
    if let Some(frame) = lines.map(str::trim).find(|l| l.starts_with("at ")) {
        first.push(' ');
        first.push_str(frame);
    }
    let cause = match record.ending.as_str() {
        "timeout" | "out-of-time" => "timeout",
        "crash" if why.lines().next().is_some_and(|l| l.contains(" threw ")) => "exception",
        other => other,
    };
    (cause.to_string(), first)
}

/// Bot A's games, wins and draws in `records`.
pub fn played(records: &[GameRecord]) -> crate::harness::profile::Played {
    let (won, _, drawn) = tally(records);
    crate::harness::profile::Played { games: records.len(), won, drawn }
}

/// The result of a game stopped at the move limit: more material wins, equal is a draw.
pub fn result_by_material([white, black]: [i32; 2]) -> GameResult {
    match white.cmp(&black) {
        std::cmp::Ordering::Greater => GameResult::White,
        std::cmp::Ordering::Less => GameResult::Black,
        std::cmp::Ordering::Equal => GameResult::Draw,
    }
}

/// A's wins, B's wins and draws.
pub fn tally(records: &[GameRecord]) -> (usize, usize, usize) {
    let a = records.iter().filter(|r| r.a_outcome() == Some(true)).count();
    let b = records.iter().filter(|r| r.a_outcome() == Some(false)).count();
    (a, b, records.len() - a - b)
}
