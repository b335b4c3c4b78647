//! Bot against bot, as in the assignment's final stage.
//!
//! Colours follow the match's [`Colours`] rule: by default they alternate game by game (bot A is
//! white in odd games). White moves first in every game arbiter has. A game ends
//! when the side to move has no legal move (it loses), or after 100 moves by each side, when
//! the side with more material wins and equal material is a draw. A bot that writes an illegal,
//! malformed or unchanged board, writes nothing, crashes or runs out of time loses at once; the
//! record says which and keeps the position and what the bot wrote.
//!
//! Each game's random choices follow a seed derived from the match seed and the game number,
//! so results do not depend on how many games run at once.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use super::bot::Bot;
use super::host::case::first_failure;
use super::host::{CallLimits, Session};
pub use super::profile::Colours;
use super::referee::GameState;
use super::referee::{Protocol, Referee};
use super::runner::{Limits, Outcome};
use super::verify::{case_seed, decide, read_output};
use crate::side::Side;

/// Moves each side makes before the game is decided on material.
pub const MOVES_EACH: usize = 100;

/// How to play a match.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub games: usize,
    pub seed: u64,
    pub jobs: usize,
    pub limits: Limits,
    pub same_file: bool,
    /// Starting positions (a label and a board file with white to move), used in turn: games
    /// 2k-1 and 2k share one, so each bot plays it once with each colour. Empty: the initial
    /// position.
    pub starts: Vec<(String, Vec<u8>)>,
    /// Which games bot A plays white.
    pub colours: Colours,
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
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameRecord {
    /// 1-based.
    pub number: usize,
    pub white: String,
    pub black: String,
    /// Whether bot A (the first `--bot`) played white.
    pub a_is_white: bool,
    /// Where the game started: `initial` or the start file's name.
    pub start: String,
    pub start_board: String,
    /// Every move in order, in notation.
    pub moves: Vec<String>,
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
}

impl GameRecord {
    /// Whether bot A lost this game by forfeit: by what it did on its own turn (a verdict such
    /// as `crash` or `timeout`, or its clock running out), not by the game's rules.
    pub fn a_forfeited(&self) -> bool {
        let forfeit = self.ending == "out-of-time"
            || super::verdict::Verdict::ALL.iter().any(|v| v.as_str() == self.ending);
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
pub fn games_stage_score(stage: &super::profile::GamesStage, records: &[GameRecord]) -> Result<f64, String> {
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

/// Bot A's games, wins and draws in `records`.
pub fn played(records: &[GameRecord]) -> super::profile::Played {
    let (won, _, drawn) = tally(records);
    super::profile::Played { games: records.len(), won, drawn }
}

/// Plays every game, `jobs` at a time, calling `progress` as each ends. Records come back in
/// game order.
pub fn play_match(
    referee: &dyn Referee,
    a: &Bot,
    b: &Bot,
    options: &MatchOptions,
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, String> {
    // Check every start position before any bot runs.
    for (label, board) in &options.starts {
        referee
            .require_games()?
            .new_game(Some((label, board)))
            .map_err(|e| format!("bad start position: {e}"))?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let lock = Mutex::new(());
    pool.install(|| {
        (1..=options.games)
            .into_par_iter()
            .map(|number| {
                let record = play_game(referee, a, b, options, number)?;
                let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                progress(&record);
                Ok(record)
            })
            .collect()
    })
}

/// Plays game `number`.
fn play_game(
    referee: &dyn Referee,
    a: &Bot,
    b: &Bot,
    options: &MatchOptions,
    number: usize,
) -> Result<GameRecord, String> {
    let a_is_white = options.colours.moves_first(number, options.games);
    let (white, black) = if a_is_white { (a, b) } else { (b, a) };
    let start = options.starts.get(((number - 1) / 2) % options.starts.len().max(1));
    let map_seed = case_seed(options.seed, &format!("start {}", number.div_ceil(2)));
    let mut game = referee
        .require_games()?
        .new_game_seeded(start.map(|(label, board)| (label.as_str(), board.as_slice())), map_seed)?;
    let start_board = String::from_utf8_lossy(&game.record_file()).into_owned();
    let seed = case_seed(options.seed, &format!("game {number}"));
    let mut moves = Vec::new();
    let mut forfeit_output = None;
    let persist: &[&str] = match referee.protocol() {
        Protocol::FixedFiles { persist, .. } => persist,
        Protocol::SideInOut | Protocol::Hosted(_) => &[],
    };
    let mut persisted: [Vec<(String, Vec<u8>)>; 2] = [Vec::new(), Vec::new()];
    // Wall time each side has used, and what a side with a clock may use in all: twice its
    // starting clock. The clock is charged CPU time, so without this a bot that sleeps instead
    // of computing could hold the match up for ever.
    // Hosted bots (classes driven by calls) keep one session each for the whole game.
    let mut sessions: [Option<Session>; 2] = [None, None];
    let mut forfeit_at_start = None;
    for (turn, (bot, side)) in [(white, Side::White), (black, Side::Black)].into_iter().enumerate() {
        let Bot::Hosted(hosted) = bot else { continue };
        let loser = if side == Side::White { GameResult::Black } else { GameResult::White };
        let started = hosted.game_session(&options.limits).and_then(|mut session| {
            for call in game.host_start(side) {
                let limits = CallLimits::cpu(call.limit.unwrap_or(options.limits.timeout));
                let record = session.call(&call.op, call.args, limits);
                if let Some((_, why)) = first_failure(std::slice::from_ref(&record)) {
                    return Err(why);
                }
            }
            Ok(session)
        });
        match started {
            Ok(session) => sessions[turn] = Some(session),
            Err(why) if forfeit_at_start.is_none() => {
                forfeit_at_start =
                    Some((loser, "crash".to_string(), format!("{side} ({}) forfeits: {why}", bot.label())));
            }
            Err(_) => {}
        }
    }
    let mut wall_used = [0.0f64; 2];
    let wall_budget =
        [crate::side::Side::White, crate::side::Side::Black].map(|s| game.clock(s).map(|c| 2.0 * c));
    let side_name = |white_to_move: bool| if white_to_move { "white" } else { "black" };
    let (result, ending, detail) = loop {
        if let Some(forfeit) = forfeit_at_start.take() {
            break forfeit;
        }
        let side = game.to_move();
        let white_to_move = side == crate::side::Side::White;
        // The game's own ending (Pente: five in a row, ten captured, a full board).
        if let Some((winner, name, detail)) = game.ending() {
            let result = match winner {
                Some(crate::side::Side::White) => GameResult::White,
                Some(crate::side::Side::Black) => GameResult::Black,
                None => GameResult::Draw,
            };
            break (result, name, detail);
        }
        // At the game's move limit (Advance: 100 moves each) the game is over and decided on
        // material: there is no further turn, so "no legal move" only counts before that.
        if let Some(limit) = game.move_limit()
            && moves.len() >= limit
        {
            let [w, bl] = game.material();
            break (
                result_by_material([w, bl]),
                "move-limit".to_string(),
                format!("{} moves each; material {w} to {bl}", limit / 2),
            );
        }
        if !game.has_legal_move() {
            let winner = if white_to_move { GameResult::Black } else { GameResult::White };
            break (
                winner,
                "no-legal-move".to_string(),
                format!("{side} has no legal move after {} moves", moves.len()),
            );
        }
        let bot = if white_to_move { white } else { black };
        let loser = if white_to_move { GameResult::Black } else { GameResult::White };
        let by = side_name(white_to_move);
        let turn = usize::from(!white_to_move);
        if let Some(session) = sessions[turn].as_mut() {
            let call = game.host_turn();
            let limit = call.limit.unwrap_or(options.limits.timeout);
            let record = session.call(&call.op, call.args, CallLimits::cpu(limit));
            wall_used[turn] += record.wall.as_secs_f64();
            let ran_out = matches!(record.outcome, super::host::CallOutcome::TimedOut(_));
            if !ran_out && !game.spend(side, record.cpu.as_secs_f64()) {
                break (
                    loser,
                    "out-of-time".to_string(),
                    format!("{by} ({}) used up its clock", bot.label()),
                );
            }
            let Some(value) = record.value() else {
                let (verdict, why) = first_failure(std::slice::from_ref(&record))
                    .unwrap_or((super::verdict::Verdict::Crash, "the bot gave no answer".to_string()));
                break (loser, verdict.to_string(), format!("{by} ({}) forfeits: {why}", bot.label()));
            };
            let bytes = match value {
                serde_json::Value::String(text) => text.clone().into_bytes(),
                other => other.to_string().into_bytes(),
            };
            match game.play_output(&bytes) {
                Ok(notation) => {
                    if let Some(forfeit) =
                        notify(&mut sessions, game.as_ref(), side, &notation, white, black, options)
                    {
                        moves.push(notation);
                        break forfeit;
                    }
                    moves.push(notation);
                    continue;
                }
                Err(j) => {
                    forfeit_output = Some(String::from_utf8_lossy(&bytes).into_owned());
                    let verdict = j.verdict.map_or("malformed-output", |v| v.as_str());
                    break (
                        loser,
                        verdict.to_string(),
                        format!("{by} ({}) forfeits: {}", bot.label(), j.reason),
                    );
                }
            }
        }
        let turn_seed = case_seed(seed, &format!("ply {}", moves.len()));
        // A built-in bot in a game without a clock is called in memory: no folder, no files
        // (PlanetWars plays hundreds of turns a game). What it answers is judged the same way.
        if let Bot::Builtin { bot: builtin, .. } = bot
            && game.clock(side).is_none()
            && persist.is_empty()
        {
            match builtin.play(&game.board_file(), "input.txt", side, turn_seed) {
                Ok(bytes) => match game.play_output(&bytes) {
                    Ok(notation) => {
                        if let Some(forfeit) =
                            notify(&mut sessions, game.as_ref(), side, &notation, white, black, options)
                        {
                            moves.push(notation);
                            break forfeit;
                        }
                        moves.push(notation);
                        continue;
                    }
                    Err(j) => {
                        forfeit_output = Some(String::from_utf8_lossy(&bytes).into_owned());
                        let verdict = j.verdict.map_or("malformed-output", |v| v.as_str());
                        break (loser, verdict.to_string(), format!("{by} ({}) forfeits: {}", bot.label(), j.reason));
                    }
                },
                Err(why) => break (loser, "crash".to_string(), format!("{by} ({}) forfeits: {why}", bot.label())),
            }
        }
        let dir = tempfile::Builder::new().prefix("arbiter-game-").tempdir().map_err(|e| e.to_string())?;
        let output_name = if options.same_file { "input.txt" } else { "output.txt" };
        std::fs::write(dir.path().join("input.txt"), game.board_file()).map_err(|e| e.to_string())?;
        // Files the game lets a bot keep between its turns (Pente's playdata.txt).
        let kept = &mut persisted[usize::from(!white_to_move)];
        for (name, bytes) in kept.iter() {
            std::fs::write(dir.path().join(name), bytes).map_err(|e| e.to_string())?;
        }
        let mut limits = options.limits.clone();
        if let (Some(left), Some(budget)) = (game.clock(side), wall_budget[turn]) {
            // A game with a clock kills a bot when its clock runs out, not after a fixed time
            // per move: the move may take what is left (and a second to start up), within the
            // side's wall budget.
            let wall = (left + 1.0).min(budget - wall_used[turn]).max(0.05);
            limits.timeout = std::time::Duration::from_secs_f64(wall);
        }
        let played = bot.play(side, dir.path(), "input.txt", output_name, &limits, turn_seed);
        wall_used[turn] += played.elapsed.as_secs_f64();
        let output = read_output(&dir.path().join(output_name), Instant::now() + limits.timeout);
        *kept = persist
            .iter()
            .filter_map(|name| {
                Some((name.to_string(), read_output(&dir.path().join(name), Instant::now()).ok()?))
            })
            .collect();
        if played.outcome != Outcome::TimedOut && !game.spend(side, played.cpu_seconds()) {
            let by = side_name(white_to_move);
            break (loser, "out-of-time".to_string(), format!("{by} ({}) used up its clock", bot.label()));
        }
        // A legal move stands, even if the bot then exits with an error (as in `verify`); a bot
        // that ran out of time forfeits whatever it wrote.
        let judgement = match (&output, played.outcome == Outcome::TimedOut) {
            (Ok(bytes), false) => match game.play_output(bytes) {
                Ok(notation) => {
                    if let Some(forfeit) =
                        notify(&mut sessions, game.as_ref(), side, &notation, white, black, options)
                    {
                        moves.push(notation);
                        break forfeit;
                    }
                    moves.push(notation);
                    continue;
                }
                Err(j) => Some(j),
            },
            _ => None,
        };
        let (verdict, why) = decide(&played, &output, judgement.as_deref());
        if judgement.is_some() {
            forfeit_output = output.ok().map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        }
        break (loser, verdict.to_string(), format!("{by} ({}) forfeits: {why}", bot.label()));
    };
    for (bot, session) in [white, black].into_iter().zip(sessions) {
        if let (Bot::Hosted(hosted), Some(session)) = (bot, session) {
            hosted.give_back(session);
        }
    }
    Ok(GameRecord {
        number,
        white: white.label(),
        black: black.label(),
        a_is_white,
        start: start.map_or("initial".to_string(), |(label, _)| label.clone()),
        start_board,
        moves,
        result,
        ending,
        detail,
        final_board: String::from_utf8_lossy(&game.record_file()).into_owned(),
        forfeit_output,
        material: game.material(),
        seed,
    })
}

/// Tells the opponent of `mover`, if it is hosted, the move just played. A call that fails
/// forfeits the game for the opponent: the result, ending and detail to end the game with.
fn notify(
    sessions: &mut [Option<Session>; 2],
    game: &dyn GameState,
    mover: Side,
    notation: &str,
    white: &Bot,
    black: &Bot,
    options: &MatchOptions,
) -> Option<(GameResult, String, String)> {
    let other = mover.opponent();
    let (turn, bot, winner) = match other {
        Side::White => (0, white, GameResult::Black),
        Side::Black => (1, black, GameResult::White),
    };
    let session = sessions[turn].as_mut()?;
    for call in game.host_notify(other, notation) {
        let limits = CallLimits::cpu(call.limit.unwrap_or(options.limits.timeout));
        let record = session.call(&call.op, call.args, limits);
        if let Some((verdict, why)) = first_failure(std::slice::from_ref(&record)) {
            return Some((winner, verdict.to_string(), format!("{other} ({}) forfeits: {why}", bot.label())));
        }
    }
    None
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

/// The Wilson score interval (95%) of a proportion `wins / games`.
pub fn wilson_interval(wins: usize, games: usize) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (games as f64, wins as f64 / games as f64, 1.959_963_984_540_054);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (((centre - spread) / denom).max(0.0), ((centre + spread) / denom).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson_interval(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson_interval(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
