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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::bot::Bot;
pub use super::forfeits::{ForfeitCause, Forfeits};
use super::host::case::first_failure;
use super::host::{CallLimits, Session};
pub use super::profile::Colours;
use super::referee::GameState;
use super::referee::{Protocol, Referee};
use super::runner::{IdleCap, Limits, Outcome, TimeLimit};
use super::verify::{case_seed, decide, read_output};
pub use super::wilson::wilson_interval;
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
    /// Both sides' starting clock in seconds, for a game with a clock (`--clock`). `None`: a
    /// start file's time line, else the game's own (Pente: 300 s).
    pub clock: Option<f64>,
    /// Without `clock`: each game's starting clock drawn from `[low, high]` seconds by the seed
    /// and the game's number ([`varied_clock`]), and noted in its record.
    pub clock_range: Option<[f64; 2]>,
    /// Charge a game clock user + system CPU time (`--clock-counts-system`); by default it is
    /// charged user time only, as the Unix `time` command the Pente graders use counts it.
    pub clock_counts_system: bool,
}

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

/// The `--rule` words among a referee's [`Referee::game_args`].
pub fn rule_words(game_args: &[String]) -> Vec<String> {
    game_args.windows(2).filter(|w| w[0] == "--rule").map(|w| w[1].clone()).collect()
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
    /// over (a game whose engine does so, [`GameState::after_exception`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
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
    // Plain threads taking games in order, each game holding one of the command's `--jobs`
    // slots (its two bots move in turn: one bot at a time).
    let next = AtomicUsize::new(1);
    let records: Mutex<Vec<Option<Result<GameRecord, String>>>> = Mutex::new(vec![None; options.games]);
    let lock = Mutex::new(());
    let workers = options.jobs.clamp(1, options.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number > options.games {
                        break;
                    }
                    let slot = super::runner::slots::take();
                    let record = play_game(referee, a, b, options, number);
                    drop(slot);
                    if let Ok(record) = &record {
                        let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                        progress(record);
                    }
                    records.lock().unwrap_or_else(|e| e.into_inner())[number - 1] = Some(record);
                }
            });
        }
    });
    records
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a game was not played".to_string())))
        .collect()
}

/// Game `number`'s starting clock, drawn from `[low, high]` seconds by `seed` (whole seconds
/// where the range holds one): the same for every run with the seed, whatever the order the
/// games are played in.
pub fn varied_clock([low, high]: [f64; 2], seed: u64, number: usize) -> f64 {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(case_seed(seed, &format!("clock {number}")));
    let (first, last) = (low.ceil(), high.floor());
    if first <= last { rng.gen_range(first as u64..=last as u64) as f64 } else { low }
}

/// Plays game `number`.
fn play_game(
    referee: &dyn Referee,
    a: &Bot,
    b: &Bot,
    options: &MatchOptions,
    number: usize,
) -> Result<GameRecord, String> {
    // The game's own names for its sides (PlanetWars' player 1 and 2) in every forfeit.
    let sides = referee.words().sides;
    let a_is_white = options.colours.moves_first(number, options.games);
    let (white, black) = if a_is_white { (a, b) } else { (b, a) };
    let start = options.starts.get(((number - 1) / 2) % options.starts.len().max(1));
    let map_seed = case_seed(options.seed, &format!("start {}", number.div_ceil(2)));
    let mut game = referee
        .require_games()?
        .new_game_seeded(start.map(|(label, board)| (label.as_str(), board.as_slice())), map_seed)?;
    let varied = options.clock.is_none().then_some(options.clock_range).flatten();
    if let Some(seconds) = options.clock.or(varied.map(|range| varied_clock(range, options.seed, number))) {
        game.set_clock(seconds);
    }
    let start_board = String::from_utf8_lossy(&game.record_file()).into_owned();
    let seed = case_seed(options.seed, &format!("game {number}"));
    let mut moves = Vec::new();
    let mut times: Vec<MoveTime> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    if let (Some([low, high]), Some(seconds)) = (varied, game.clock(Side::White)) {
        notes.push(format!(
            "each side's clock started at {seconds} s (drawn from {low}-{high} s by the seed)"
        ));
    }
    let mut thrown_turns = 0usize;
    let mut forfeit_output = None;
    let persist: &[&str] = match referee.protocol() {
        Protocol::FixedFiles { persist, .. } => persist,
        Protocol::SideInOut | Protocol::Hosted(_) => &[],
    };
    let mut persisted: [Vec<(String, Vec<u8>)>; 2] = [Vec::new(), Vec::new()];
    // Hosted bots (classes driven by calls) keep one session each for the whole game.
    let mut sessions: [Option<Session>; 2] = [None, None];
    let mut forfeit_at_start = None;
    for (turn, (bot, side)) in [(white, Side::White), (black, Side::Black)].into_iter().enumerate() {
        let Bot::Hosted(hosted) = bot else { continue };
        let loser = if side == Side::White { GameResult::Black } else { GameResult::White };
        let started = hosted.game_session(&options.limits).and_then(|(mut session, setup)| {
            // Loading the submission afresh (`reset`, `load`) is part of the game.
            if let Some((_, why)) = setup.as_ref().and_then(|s| first_failure(std::slice::from_ref(s))) {
                return Err(format!("loading the submission: {why}"));
            }
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
                forfeit_at_start = Some((
                    loser,
                    "crash".to_string(),
                    format!("{} ({}) forfeits: {why}", named_side(sides, side), bot.label()),
                ));
            }
            Err(_) => {}
        }
    }
    // Idle time each side has spent (no task running or waiting for a processor), and what a
    // side with a clock may spend in all: its starting clock and a grace. The clock is charged
    // CPU time, so without this a bot that sleeps instead of computing could hold the match up
    // for ever; idle time, unlike wall time, does not grow when the machine is busy.
    let mut idle_used = [0.0f64; 2];
    let start_clock = [Side::White, Side::Black].map(|s| game.clock(s));
    let idle_budget = start_clock.map(|c| c.map(game_idle_budget));
    let side_name = |white_to_move: bool| if white_to_move { sides[0] } else { sides[1] };
    let (mut result, mut ending, mut detail) = loop {
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
        let turn_seed = case_seed(seed, &format!("ply {}", moves.len()));
        // A bot driven by calls answers in memory: a hosted bot through its session, and a
        // built-in bot in a game without a clock (PlanetWars plays hundreds of turns a game) with
        // no folder and no files. Either answer, or how it failed, is judged below.
        let answer: Option<Result<(Vec<u8>, MoveTime), String>> = if let Some(session) =
            sessions[turn].as_mut()
        {
            let call = game.host_turn();
            let limit = call.limit.unwrap_or(options.limits.timeout);
            let record = session.call(&call.op, call.args, CallLimits::cpu(limit));
            let ran_out = matches!(record.outcome, super::host::CallOutcome::TimedOut(_));
            // Hosted bots are charged user + system time: a session's calls are not split.
            let cpu = record.cpu.as_secs_f64();
            if !ran_out && !game.spend(side, cpu) {
                break (
                    loser,
                    "out-of-time".to_string(),
                    format!("{by} ({}) used up its clock: the move took {cpu:.3} s of CPU time", bot.label()),
                );
            }
            let time = MoveTime { cpu, user: None, clock_left: game.clock(side) };
            Some(match record.value() {
                Some(serde_json::Value::String(text)) => Ok((text.clone().into_bytes(), time)),
                Some(other) => Ok((other.to_string().into_bytes(), time)),
                None => {
                    let (verdict, why) = first_failure(std::slice::from_ref(&record))
                        .unwrap_or((super::verdict::Verdict::Crash, "the bot gave no answer".to_string()));
                    // A game may pass over a turn that threw, as its course's engine does; the
                    // exception stays in the game's notes.
                    let after = match &record.outcome {
                        super::host::CallOutcome::Error(e) if e.kind == "exception" => {
                            game.after_exception(e.partial.as_ref())
                        }
                        _ => None,
                    };
                    match after {
                        Some(output) => {
                            thrown_turns += 1;
                            // The first few in full: a strategy that throws every turn would
                            // otherwise fill the record with the same line.
                            if thrown_turns <= NOTED_THROWS {
                                notes.push(format!(
                                    "ply {}: {by} {why}; the turn gave no move",
                                    moves.len() + 1
                                ));
                            }
                            Ok((output, time))
                        }
                        None => {
                            break (
                                loser,
                                verdict.to_string(),
                                format!("{} ({}) forfeits: {why}", by, bot.label()),
                            );
                        }
                    }
                }
            })
        } else if let Bot::Builtin { bot: builtin, .. } = bot
            && game.clock(side).is_none()
            && persist.is_empty()
        {
            let started = Instant::now();
            // Wall seconds stand for CPU here, as `MoveTime::cpu` allows: one thread, no clock.
            Some(builtin.play(&game.board_file(), "input.txt", side, turn_seed).map(|bytes| {
                (bytes, MoveTime { cpu: started.elapsed().as_secs_f64(), user: None, clock_left: None })
            }))
        } else {
            None
        };
        match answer {
            Some(Ok((bytes, time))) => match game.play_output(&bytes) {
                Ok(notation) => {
                    times.push(time);
                    if let Some(forfeit) =
                        notify(&mut sessions, game.as_ref(), side, &notation, [white, black], options, sides)
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
                        format!("{} ({}) forfeits: {}", by, bot.label(), j.reason),
                    );
                }
            },
            Some(Err(why)) => {
                break (loser, "crash".to_string(), format!("{} ({}) forfeits: {why}", by, bot.label()));
            }
            None => {}
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
        let clock_left = game.clock(side);
        let mut caps = None;
        if let (Some(left), Some(budget)) = (clock_left, idle_budget[turn]) {
            let move_caps = move_limits(left, budget - idle_used[turn], options.clock_counts_system);
            limits.timeout = move_caps.cpu;
            limits.idle_cap = IdleCap::fixed(move_caps.idle);
            caps = Some(move_caps);
        }
        let played = bot.play(side, dir.path(), "input.txt", output_name, &limits, turn_seed);
        idle_used[turn] += played.idle.unwrap_or_default().as_secs_f64();
        let output = read_output(&dir.path().join(output_name), Instant::now() + limits.timeout);
        *kept = persist
            .iter()
            .filter_map(|name| {
                Some((name.to_string(), read_output(&dir.path().join(name), Instant::now()).ok()?))
            })
            .collect();
        let charged = played.clock_seconds(options.clock_counts_system);
        if played.outcome != Outcome::TimedOut && !game.spend(side, charged) {
            let by = side_name(white_to_move);
            let what = if options.clock_counts_system || played.user.is_none() { "CPU" } else { "user CPU" };
            break (
                loser,
                "out-of-time".to_string(),
                format!(
                    "{by} ({}) used up its clock: the move took {charged:.3} s of {what} time, with {:.3} s left",
                    bot.label(),
                    clock_left.unwrap_or_default()
                ),
            );
        }
        let time =
            MoveTime { cpu: played.cpu_seconds(), user: played.user_seconds(), clock_left: game.clock(side) };
        // A legal move stands, even if the bot then exits with an error (as in `verify`); a bot
        // that ran out of time forfeits whatever it wrote.
        let judgement = match (&output, played.outcome == Outcome::TimedOut) {
            (Ok(bytes), false) => match game.play_output(bytes) {
                Ok(notation) => {
                    times.push(time);
                    if let Some(forfeit) =
                        notify(&mut sessions, game.as_ref(), side, &notation, [white, black], options, sides)
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
        let (verdict, mut why) = decide(&played, &output, judgement.as_deref());
        // In a game with a clock, say which limit ended a move that ran out of time, with its
        // formula and numbers.
        if let (Outcome::TimedOut, Some(left), Some(caps)) = (&played.outcome, clock_left, caps) {
            let idle = played.idle.unwrap_or_default().as_secs_f64();
            let cpu = played.cpu_seconds();
            why.push_str(&match played.time_limit {
                Some(TimeLimit::Idle) if caps.by_budget => format!(
                    "; ended by its idle budget for the game: idle (neither running nor waiting for a \
                     processor) {:.1} s over its moves, the budget being {IDLE_BUDGET_TIMES} x its {:.2} s \
                     starting clock + {IDLE_GRACE} s = {:.1} s (this move used {cpu:.2} s of CPU time; \
                     {left:.2} s were left on its clock)",
                    idle_used[turn],
                    start_clock[turn].unwrap_or_default(),
                    idle_budget[turn].unwrap_or_default(),
                ),
                Some(TimeLimit::Idle) => format!(
                    "; ended by the idle cap of a move: idle (neither running nor waiting for a processor) \
                     {idle:.1} s, the cap being the {left:.2} s left on its clock + {IDLE_GRACE} s = {:.2} s \
                     (it used {cpu:.2} s of CPU time), not by its CPU clock",
                    caps.idle.as_secs_f64()
                ),
                _ if options.clock_counts_system => format!(
                    "; ended by its CPU clock: {left:.2} s were left, and a move is killed when its CPU \
                     time reaches what is left"
                ),
                _ => format!(
                    "; ended by its CPU clock: {left:.2} s were left, and a move is killed at the clock \
                     left + {SYSTEM_ALLOWANCE} s of user + system CPU time = {:.2} s (the clock counts \
                     user time)",
                    caps.cpu.as_secs_f64()
                ),
            });
        }
        if judgement.is_some() {
            forfeit_output = output.ok().map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        }
        break (loser, verdict.to_string(), format!("{} ({}) forfeits: {why}", by, bot.label()));
    };
    if thrown_turns > NOTED_THROWS {
        notes.push(format!("{} turns threw in all; the first {NOTED_THROWS} are above", thrown_turns));
    }
    for ((bot, side), session) in [(white, Side::White), (black, Side::Black)].into_iter().zip(sessions) {
        if let (Bot::Hosted(hosted), Some(session)) = (bot, session)
            && let Some(fault) = hosted.give_back(session)
        {
            // Its code ran on while no call was in progress: the game is lost, whatever the
            // board says (once, for the first side found).
            if !detail.contains(" forfeits: ") {
                result = if side == Side::White { GameResult::Black } else { GameResult::White };
                ending = "crash".to_string();
                detail = format!("{} ({}) forfeits: {fault}", named_side(sides, side), bot.label());
            }
        }
    }
    Ok(GameRecord {
        number,
        game: referee.game().to_string(),
        rules: rule_words(&referee.game_args()),
        white: white.label(),
        black: black.label(),
        a_is_white,
        start: start.map_or("initial".to_string(), |(label, _)| label.clone()),
        start_board,
        moves,
        times,
        result,
        ending,
        detail,
        final_board: String::from_utf8_lossy(&game.record_file()).into_owned(),
        forfeit_output,
        material: game.material(),
        seed,
        notes,
    })
}

/// A side with a clock may sit idle (no task running or waiting for a processor) over a game
/// this many times its starting clock, plus [`IDLE_GRACE`].
pub const IDLE_BUDGET_TIMES: f64 = 1.0;

/// Seconds of idle time a move may take beyond what is left on its clock, and a game beyond
/// [`IDLE_BUDGET_TIMES`] x its starting clock: time to read a program from a disk.
pub const IDLE_GRACE: f64 = 1.0;

/// The idle time a side with a starting clock of `clock` seconds may spend over a game.
pub fn game_idle_budget(clock: f64) -> f64 {
    IDLE_BUDGET_TIMES * clock + IDLE_GRACE
}

/// The CPU time a bot whose clock counts only user time may use beyond what is left on its
/// clock before it is killed: the runner watches user + system time as the bot runs, and the
/// system part is not the bot's to pay for.
pub const SYSTEM_ALLOWANCE: f64 = 1.0;

/// The limits of one move in a game with a clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLimits {
    /// The CPU time after which the move is killed.
    pub cpu: std::time::Duration,
    /// The idle time after which the move is killed.
    pub idle: std::time::Duration,
    /// Whether the idle cap is what is left of the side's idle budget for the game rather than
    /// the move's own cap.
    pub by_budget: bool,
}

/// The limits of one move by a side with `left` seconds on its clock and `idle_left` seconds of
/// its game's idle budget: the CPU time after which it is killed (what is left on the clock,
/// with [`SYSTEM_ALLOWANCE`] when the clock counts only user time) and its idle cap, there only
/// to stop a bot that sleeps instead of computing (the clock left + [`IDLE_GRACE`], within the
/// idle budget).
pub fn move_limits(left: f64, idle_left: f64, counts_system: bool) -> MoveLimits {
    let cpu = if counts_system { left } else { left + SYSTEM_ALLOWANCE };
    let own = left + IDLE_GRACE;
    let idle = own.min(idle_left).max(0.05);
    let secs = |s: f64| std::time::Duration::from_secs_f64(s.max(0.01));
    MoveLimits { cpu: secs(cpu), idle: secs(idle), by_budget: idle_left < own }
}

/// Tells the opponent of `mover`, if it is hosted, the move just played. A call that fails
/// forfeits the game for the opponent: the result, ending and detail to end the game with.
fn notify(
    sessions: &mut [Option<Session>; 2],
    game: &dyn GameState,
    mover: Side,
    notation: &str,
    [white, black]: [&Bot; 2],
    options: &MatchOptions,
    sides: [&'static str; 2],
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
            return Some((
                winner,
                verdict.to_string(),
                format!("{} ({}) forfeits: {why}", named_side(sides, other), bot.label()),
            ));
        }
    }
    None
}

/// The result of a game stopped at the move limit: more material wins, equal is a draw.
/// The game's name for `side` ([`crate::harness::referee::Words::sides`]).
fn named_side(sides: [&'static str; 2], side: Side) -> &'static str {
    match side {
        Side::White => sides[0],
        Side::Black => sides[1],
    }
}

pub fn result_by_material([white, black]: [i32; 2]) -> GameResult {
    match white.cmp(&black) {
        std::cmp::Ordering::Greater => GameResult::White,
        std::cmp::Ordering::Less => GameResult::Black,
        std::cmp::Ordering::Equal => GameResult::Draw,
    }
}

/// Turns that threw and were passed over, noted one by one in a game record (the rest counted).
const NOTED_THROWS: usize = 10;

/// A's wins, B's wins and draws.
pub fn tally(records: &[GameRecord]) -> (usize, usize, usize) {
    let a = records.iter().filter(|r| r.a_outcome() == Some(true)).count();
    let b = records.iter().filter(|r| r.a_outcome() == Some(false)).count();
    (a, b, records.len() - a - b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_varied_clock_is_whole_seconds_in_its_range_and_the_seeds() {
        let clocks: Vec<f64> = (1..=20).map(|n| varied_clock([100.0, 300.0], 7, n)).collect();
        assert!(clocks.iter().all(|&c| (100.0..=300.0).contains(&c) && c.fract() == 0.0), "{clocks:?}");
        assert!(clocks.iter().any(|&c| c != clocks[0]), "{clocks:?}");
        assert_eq!(clocks, (1..=20).map(|n| varied_clock([100.0, 300.0], 7, n)).collect::<Vec<_>>());
        assert_ne!(clocks, (1..=20).map(|n| varied_clock([100.0, 300.0], 8, n)).collect::<Vec<_>>());
        assert_eq!(varied_clock([2.5, 2.7], 7, 1), 2.5, "a range without a whole second gives its low end");
    }

    #[test]
    fn a_move_is_killed_at_the_clock_and_its_idle_cap_only_stops_sleepers() {
        let secs = |d: std::time::Duration| d.as_secs_f64();
        let caps = move_limits(100.0, 900.0, true);
        assert_eq!((secs(caps.cpu), secs(caps.idle), caps.by_budget), (100.0, 100.0 + IDLE_GRACE, false));
        // Counting user time only, the kill (on user + system) allows for the system part.
        let caps = move_limits(100.0, 900.0, false);
        assert_eq!(secs(caps.cpu), 100.0 + SYSTEM_ALLOWANCE);
        // The idle cap stays within what is left of the side's idle budget for the game.
        let caps = move_limits(100.0, 40.0, true);
        assert_eq!((secs(caps.idle), caps.by_budget), (40.0, true));
        let caps = move_limits(1.0, -3.0, true);
        assert_eq!(secs(caps.idle), 0.05);
        assert_eq!(game_idle_budget(300.0), 300.0 + IDLE_GRACE);
    }

    fn lost_game(number: usize, ending: &str, detail: &str) -> GameRecord {
        GameRecord {
            number,
            game: String::new(),
            rules: Vec::new(),
            white: "a".into(),
            black: "b".into(),
            a_is_white: true,
            start: "initial".into(),
            start_board: String::new(),
            moves: Vec::new(),
            times: Vec::new(),
            result: GameResult::Black,
            ending: ending.into(),
            detail: detail.into(),
            final_board: String::new(),
            forfeit_output: None,
            material: [0, 0],
            seed: 0,
            notes: Vec::new(),
        }
    }

    #[test]
    fn forfeits_are_counted_by_cause_with_the_first_reason() {
        let throw = "white (a) forfeits: takeTurn threw NullPointerException: x\n  at S.takeTurn(S.java:12)\n  at H.run(H.java:1)";
        let records = vec![
            lost_game(1, "no-legal-move", "white has no legal move after 9 moves"),
            lost_game(2, "crash", throw),
            lost_game(3, "timeout", "white (a) forfeits: the bot timed out: idle ..."),
            lost_game(4, "crash", throw),
            lost_game(5, "out-of-time", "white (a) used up its clock"),
            lost_game(6, "crash", "white (a) forfeits: the bot exited with status 1 during takeTurn"),
        ];
        let f = forfeits(&records);
        assert_eq!((f.lost, f.timeouts(), f.crashes()), (5, 2, 3));
        assert_eq!(f.causes[0].cause, "exception");
        assert_eq!(
            f.sentence().unwrap().split("; ").next().unwrap(),
            "2 lost by exception: takeTurn threw NullPointerException: x at S.takeTurn(S.java:12) (first in game 2)"
        );
        assert_eq!(forfeits(&records[..1]).sentence(), None);
    }

    #[test]
    fn rule_words_are_the_rule_options_of_game_args() {
        let args: Vec<String> =
            ["--game", "pente", "--rule", "opening=tournament"].iter().map(|s| s.to_string()).collect();
        assert_eq!(rule_words(&args), ["opening=tournament"]);
        assert!(rule_words(&args[..2]).is_empty());
    }

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
