//! Playing one game: the two bots move in turn until the game ends by its rules, by the move
//! limit or by a forfeit; hosted bots are told the opponent's moves.

use std::time::Instant;

use crate::harness::bot::Bot;
use crate::harness::host::case::first_failure;
use crate::harness::host::{CallLimits, Session};
use crate::harness::referee::GameState;
use crate::harness::referee::{Protocol, Referee};
use crate::harness::runner::{IdleCap, Outcome, TimeLimit};
use crate::harness::verify::{case_seed, decide, read_output};
use crate::side::Side;

use super::clock::{
    IDLE_BUDGET_TIMES, IDLE_GRACE, SYSTEM_ALLOWANCE, game_idle_budget, move_limits, varied_clock,
};
use super::record::{GameRecord, GameResult, MoveTime, result_by_material};
use super::{MatchOptions, rule_words};

/// Plays game `number`.
pub(super) fn play_game(
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
                let record = call.send(&mut session, limits);
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
    let (mut result, mut ending, mut detail) = 'game: loop {
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
        // The turn's move, once it stands; every other way a turn ends, ends the game.
        let (notation, time) = 'turn: {
            // A bot driven by calls answers in memory: a hosted bot through its session, and a
            // built-in bot in a game without a clock (PlanetWars plays hundreds of turns a game)
            // with no folder and no files. Either answer, or how it failed, is judged below.
            let answer: Option<Result<(Vec<u8>, MoveTime), String>> = if let Some(session) =
                sessions[turn].as_mut()
            {
                let call = game.host_turn();
                let limit = call.limit.unwrap_or(options.limits.timeout);
                let record = call.send(session, CallLimits::cpu(limit));
                let ran_out = matches!(record.outcome, crate::harness::host::CallOutcome::TimedOut(_));
                // Hosted bots are charged user + system time: a session's calls are not split.
                let cpu = record.cpu.as_secs_f64();
                if !ran_out && !game.spend(side, cpu) {
                    break 'game (
                        loser,
                        "out-of-time".to_string(),
                        format!(
                            "{by} ({}) used up its clock: the move took {cpu:.3} s of CPU time",
                            bot.label()
                        ),
                    );
                }
                let time = MoveTime { cpu, user: None, clock_left: game.clock(side) };
                Some(match record.value() {
                    Some(serde_json::Value::String(text)) => Ok((text.clone().into_bytes(), time)),
                    Some(other) => Ok((other.to_string().into_bytes(), time)),
                    None => {
                        let (verdict, why) = first_failure(std::slice::from_ref(&record)).unwrap_or((
                            crate::harness::verdict::Verdict::Crash,
                            "the bot gave no answer".to_string(),
                        ));
                        // A game may pass over a turn that threw, as its course's engine does; the
                        // exception stays in the game's notes.
                        let after = match &record.outcome {
                            crate::harness::host::CallOutcome::Error(e) if e.kind == "exception" => {
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
                                break 'game (
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
                Some(builtin.play_game(game.as_ref(), side, turn_seed).map(|bytes| {
                    (bytes, MoveTime { cpu: started.elapsed().as_secs_f64(), user: None, clock_left: None })
                }))
            } else {
                None
            };
            match answer {
                Some(Ok((bytes, time))) => match game.play_output(&bytes) {
                    Ok(notation) => break 'turn (notation, time),
                    Err(j) => {
                        forfeit_output = Some(String::from_utf8_lossy(&bytes).into_owned());
                        let verdict = j.verdict.map_or("malformed-output", |v| v.as_str());
                        break 'game (
                            loser,
                            verdict.to_string(),
                            format!("{} ({}) forfeits: {}", by, bot.label(), j.reason),
                        );
                    }
                },
                Some(Err(why)) => {
                    break 'game (
                        loser,
                        "crash".to_string(),
                        format!("{} ({}) forfeits: {why}", by, bot.label()),
                    );
                }
                None => {}
            }
            let dir =
                tempfile::Builder::new().prefix("arbiter-game-").tempdir().map_err(|e| e.to_string())?;
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
                let what =
                    if options.clock_counts_system || played.user.is_none() { "CPU" } else { "user CPU" };
                break 'game (
                    loser,
                    "out-of-time".to_string(),
                    format!(
                        "{by} ({}) used up its clock: the move took {charged:.3} s of {what} time, with {:.3} s left",
                        bot.label(),
                        clock_left.unwrap_or_default()
                    ),
                );
            }
            let time = MoveTime {
                cpu: played.cpu_seconds(),
                user: played.user_seconds(),
                clock_left: game.clock(side),
            };
            // A legal move stands, even if the bot then exits with an error (as in `verify`); a bot
            // that ran out of time forfeits whatever it wrote.
            let judgement = match (&output, played.outcome == Outcome::TimedOut) {
                (Ok(bytes), false) => match game.play_output(bytes) {
                    Ok(notation) => break 'turn (notation, time),
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
            break 'game (loser, verdict.to_string(), format!("{} ({}) forfeits: {why}", by, bot.label()));
        };
        // The move stands even when telling the bots of it ends the game.
        let forfeit = notify(&mut sessions, game.as_ref(), side, &notation, [white, black], options, sides);
        times.push(time);
        moves.push(notation);
        if let Some(forfeit) = forfeit {
            break forfeit;
        }
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
        let record = call.send(session, limits);
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

/// The game's name for `side` ([`crate::harness::referee::Words::sides`]).
fn named_side(sides: [&'static str; 2], side: Side) -> &'static str {
    match side {
        Side::White => sides[0],
        Side::Black => sides[1],
    }
}

/// Turns that threw and were passed over, noted one by one in a game record (the rest counted).
const NOTED_THROWS: usize = 10;
