//! PlanetWars' `fuzz`: a strategy plays whole games on random maps, from either seat, against a
//! built-in strategy, and every one of its turns is judged: a turn that throws, runs over its
//! CPU time (a loop), ends the host or answers something that is not a list of orders ends the
//! game there; an order the engine refuses (a planet not its own, not a neighbour, too many
//! people, ...) is noted with its turn and the game goes on, so one game shows every kind of
//! refusal the strategy makes. Each kind is shrunk to the shortest game that shows it: fewer
//! turns, then a map with fewer planets.
//!
//! A fuzzed case is a game file:
//!
//! ```text
//! # planetwars fuzz: the strategy is player 2 against builtin:greedy for at most 40 of its turns
//! map: 1234 7
//! seat: 2
//! opponent: greedy
//! turns: 40
//! ```
//!
//! `map: SEED HALF` is the random map of `SEED` with `HALF` planets a side (both halves mirror
//! each other; 5 to 10 in a match, down to 2 when shrunk); `turns` counts the strategy's own.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bots;
use super::games::{PlanetwarsGame, orders_from_json};
use super::generate::{HALF_PLANETS, random_map_sized};
use super::planet::Player;
use super::referee::PlanetwarsReferee;
use super::turn::{Order, parse_orders};
use super::visibility::View;
use crate::harness::bot::Bot;
use crate::harness::host::{CallLimits, CallOutcome};
use crate::harness::referee::{Fuzzing, GameState, PlayedCase};
use crate::harness::runner::Limits;
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// The most turns of its own a fuzzed game gives the strategy.
pub const MAX_TURNS: u32 = 200;

/// The fewest planets a side a shrunk map keeps.
const MIN_HALF: usize = 2;

/// A fuzzed game: where, from which seat, against whom, and for how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCase {
    /// The map's seed.
    pub map_seed: u64,
    /// Planets a side.
    pub half: usize,
    /// The strategy's seat.
    pub seat: Player,
    /// The built-in opponent.
    pub opponent: &'static str,
    /// The strategy's turns at most.
    pub turns: u32,
}

impl GameCase {
    /// Reads a game file; errors name `origin` and the line.
    pub fn parse(bytes: &[u8], origin: &str) -> Result<GameCase, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{origin}: not UTF-8 text: {e}"))?;
        let (mut map, mut seat, mut opponent, mut turns) = (None, None, None, None);
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("{origin}:{}: {e}", i + 1);
            let (key, value) =
                line.split_once(':').ok_or_else(|| at(format!("expected `key: value`, found `{line}`")))?;
            let value = value.trim();
            match key.trim() {
                "map" => {
                    let mut parts = value.split_whitespace();
                    let seed = parts.next().and_then(|s| s.parse::<u64>().ok());
                    let half = parts.next().and_then(|s| s.parse::<usize>().ok());
                    match (seed, half, parts.next()) {
                        (Some(seed), Some(half), None)
                            if (MIN_HALF..=*HALF_PLANETS.end()).contains(&half) =>
                        {
                            map = Some((seed, half))
                        }
                        _ => {
                            return Err(at(format!(
                                "expected `map: SEED HALF` (HALF from {MIN_HALF} to {}), found `{value}`",
                                HALF_PLANETS.end()
                            )));
                        }
                    }
                }
                "seat" => {
                    seat = Some(match value {
                        "1" => Player::One,
                        "2" => Player::Two,
                        _ => return Err(at(format!("expected `seat: 1` or `seat: 2`, found `{value}`"))),
                    })
                }
                "opponent" => {
                    let name = value.strip_prefix("builtin:").unwrap_or(value);
                    opponent = Some(bots::NAMES.iter().copied().find(|n| *n == name).ok_or_else(|| {
                        at(format!("`{value}` is not a built-in strategy ({})", bots::NAMES.join(", ")))
                    })?)
                }
                "turns" => {
                    turns =
                        Some(value.parse::<u32>().ok().filter(|t| (1..=MAX_TURNS).contains(t)).ok_or_else(
                            || at(format!("expected `turns: N`, N from 1 to {MAX_TURNS}, found `{value}`")),
                        )?)
                }
                other => {
                    return Err(at(format!(
                        "expected `map:`, `seat:`, `opponent:` or `turns:`, found `{other}:`"
                    )));
                }
            }
        }
        let missing = |what: &str| format!("{origin}: no `{what}:` line");
        let (map_seed, half) = map.ok_or_else(|| missing("map"))?;
        Ok(GameCase {
            map_seed,
            half,
            seat: seat.ok_or_else(|| missing("seat"))?,
            opponent: opponent.ok_or_else(|| missing("opponent"))?,
            turns: turns.ok_or_else(|| missing("turns"))?,
        })
    }

    /// The file's text, as [`GameCase::parse`] reads it.
    pub fn render(&self) -> String {
        format!(
            "# planetwars fuzz: the strategy is player {} against builtin:{} for at most {} of its turns, on a map of {} planets\n\
             map: {} {}\nseat: {}\nopponent: {}\nturns: {}\n",
            self.seat.number(),
            self.opponent,
            self.turns,
            2 * self.half,
            self.map_seed,
            self.half,
            self.seat.number(),
            self.opponent,
            self.turns
        )
    }

    fn side(&self) -> Side {
        if self.seat == Player::One { Side::White } else { Side::Black }
    }
}

/// How the strategy answers a turn: a hosted class through its session, or a built-in one in
/// memory.
enum Strategist<'a> {
    Hosted(crate::harness::host::Session, &'a crate::harness::host::HostedBot),
    Builtin(&'a dyn crate::harness::referee::BuiltinBot),
}

/// One failure of a turn, before it becomes a judgement.
fn failure(verdict: Verdict, rule: String, played: Option<String>, reason: String) -> Box<Judgement> {
    Box::new(Judgement { verdict: Some(verdict), rule: Some(rule), played, reason, ..Judgement::default() })
}

impl Fuzzing for PlanetwarsReferee {
    fn any_move_category(&self) -> &'static str {
        "game"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let case = GameCase {
            map_seed: rng.r#gen(),
            half: rng.gen_range(HALF_PLANETS),
            seat: if rng.gen_bool(0.5) { Player::One } else { Player::Two },
            opponent: bots::NAMES.choose(&mut rng).expect("built-in strategies"),
            turns: MAX_TURNS,
        };
        (case.render().into_bytes(), case.side())
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        let Ok(case) = GameCase::parse(input, "fuzzed game") else { return Vec::new() };
        let mut out = Vec::new();
        // Fewer turns first (the game stops at the first throw anyway, so the shortest game
        // that shows a failure ends with it), then a smaller map.
        let t = case.turns;
        let mut turns: Vec<u32> = vec![t / 2, t * 3 / 4, t * 7 / 8, t.saturating_sub(1)];
        turns.retain(|&n| n >= 1 && n < t);
        turns.dedup();
        out.extend(turns.into_iter().map(|turns| GameCase { turns, ..case.clone() }));
        if case.half > MIN_HALF {
            out.push(GameCase { half: case.half - 1, ..case.clone() });
        }
        out.into_iter().map(|c| c.render().into_bytes()).collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        GameCase::parse(input, "fuzzed game").map_or(0, |c| c.turns as usize)
    }

    fn size_unit(&self) -> &'static str {
        "turns"
    }

    fn side_of(&self, input: &[u8]) -> Option<Side> {
        GameCase::parse(input, "fuzzed game").ok().map(|c| c.side())
    }

    fn side_words(&self, side: Side) -> String {
        let seat = if side == Side::White { 1 } else { 2 };
        format!("the strategy is player {seat}")
    }

    fn plays_cases(&self) -> bool {
        true
    }

    fn play_case(&self, input: &[u8], bot: &Bot, limits: &Limits, seed: u64) -> Result<PlayedCase, String> {
        let case = GameCase::parse(input, "fuzzed game")?;
        let generated = random_map_sized(case.map_seed, Some(case.half));
        let mut game = PlanetwarsGame { state: generated.start(), homes: generated.homes.to_vec() };
        if self.rules != super::Rules::default() {
            game.state.rules = self.rules;
        }
        let mut setup = None;
        let mut player = match bot {
            Bot::Hosted(hosted) => {
                let (session, record) = hosted.game_session(limits)?;
                setup = record;
                Strategist::Hosted(session, hosted)
            }
            Bot::Builtin { bot, .. } => Strategist::Builtin(bot.as_ref()),
            Bot::Command(..) => {
                return Err(
                    "PlanetWars fuzzing plays a strategy class (a folder of Java sources) or a program \
                            speaking the host protocol"
                        .to_string(),
                );
            }
        };
        let mut played = PlayedCase {
            reproduce: format!(
                "the game file: map {} {}, seat {}, opponent builtin:{}, turns {}",
                case.map_seed,
                case.half,
                case.seat.number(),
                case.opponent,
                case.turns
            ),
            ..PlayedCase::default()
        };
        let mut failures: Vec<Judgement> = Vec::new();
        let (mut cpu, mut wall) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
        let mut stdout = String::new();
        // Loading the strategy afresh (`reset`, `load`) is part of the game, and charged to it.
        if let Some(record) = &setup {
            cpu += record.cpu;
            if let Some(why) = record.failure() {
                failures.push(*failure(Verdict::Crash, "load-fails".to_string(), None, why));
            }
        }
        if let Strategist::Hosted(session, _) = &mut player
            && failures.is_empty()
        {
            for call in game.host_start(case.side()) {
                let record = call.send(session, CallLimits::cpu(limits.timeout));
                if let Some(why) = record.failure() {
                    failures.push(*failure(Verdict::Crash, "new-fails".to_string(), None, why));
                }
            }
        }
        let mut turn = 0u32;
        let mut ended = String::new();
        while failures.is_empty() || failures.iter().all(|f| f.verdict == Some(Verdict::IllegalMove)) {
            if let Some((_, name, _)) = game.ending() {
                ended = format!("the game ended ({name})");
                break;
            }
            if game.state.to_move != case.seat {
                let view = View::of(&game.state, game.state.to_move);
                let ply_seed = seed ^ u64::from(game.state.ply).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let orders = bots::orders(case.opponent, &view, ply_seed).unwrap_or_default();
                game.state.play(&orders);
                continue;
            }
            if turn >= case.turns {
                break;
            }
            turn += 1;
            let ply = game.state.ply;
            let at = format!("turn {turn} (ply {ply})");
            let orders: Result<Vec<Order>, Box<Judgement>> = match &mut player {
                Strategist::Hosted(session, _) => {
                    let call = game.host_turn();
                    let limit = call.limit.unwrap_or(limits.timeout);
                    let record = call.send(session, CallLimits::cpu(limit));
                    cpu += record.cpu;
                    wall += record.wall;
                    if stdout.len() < 4096 {
                        stdout.push_str(&record.stdout);
                    }
                    match &record.outcome {
                        CallOutcome::Value(v) => {
                            let text = match v {
                                serde_json::Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            // arbiter's own host answers order lines; another host may
                            // answer a JSON list.
                            let orders = if text.trim_start().starts_with(['[', '{', '"']) {
                                orders_from_json(&text)
                            } else {
                                parse_orders(&text)
                            };
                            orders.map_err(|e| {
                                failure(
                                    Verdict::MalformedOutput,
                                    "takeTurn-not-orders".to_string(),
                                    Some(short(&text)),
                                    format!("{at}: the answer is not a list of orders: {e}"),
                                )
                            })
                        }
                        CallOutcome::Error(e) => {
                            let frame = e.trace.first().map(|t| format!(" at {t}")).unwrap_or_default();
                            let kind = e.type_name.rsplit('.').next().unwrap_or("exception");
                            Err(failure(
                                Verdict::Crash,
                                format!(
                                    "takeTurn-throws-{}",
                                    if kind.is_empty() { "exception" } else { kind }
                                ),
                                None,
                                format!("{at}: takeTurn threw {}{frame}", e.headline()),
                            ))
                        }
                        CallOutcome::TimedOut(why) => Err(failure(
                            Verdict::Timeout,
                            "takeTurn-runs-over".to_string(),
                            None,
                            format!(
                                "{at}: takeTurn {why} (a loop, or a search too slow for the turn's CPU time)"
                            ),
                        )),
                        CallOutcome::Background(why) => Err(failure(
                            Verdict::Crash,
                            "runs-between-turns".to_string(),
                            None,
                            format!("{at}: {why}"),
                        )),
                        CallOutcome::Died(how) => Err(failure(
                            Verdict::Crash,
                            "takeTurn-ends-the-host".to_string(),
                            None,
                            format!("{at}: the strategy {how} during takeTurn"),
                        )),
                        CallOutcome::Garbled(what) => Err(failure(
                            Verdict::MalformedOutput,
                            "takeTurn-garbled".to_string(),
                            None,
                            format!("{at}: {what}"),
                        )),
                    }
                }
                Strategist::Builtin(builtin) => {
                    let view = View::of(&game.state, game.state.to_move).to_text();
                    builtin
                        .play(view.as_bytes(), "view", case.side(), seed ^ u64::from(ply))
                        .map_err(|e| {
                            failure(Verdict::Crash, "turn-fails".to_string(), None, format!("{at}: {e}"))
                        })
                        .and_then(|out| {
                            parse_orders(&String::from_utf8_lossy(&out)).map_err(|e| {
                                failure(
                                    Verdict::MalformedOutput,
                                    "turn-not-orders".to_string(),
                                    None,
                                    format!("{at}: not a list of orders: {e}"),
                                )
                            })
                        })
                }
            };
            let orders = match orders {
                Ok(orders) => orders,
                Err(j) => {
                    failures.push(*j);
                    break;
                }
            };
            let before = game.state.clone();
            let report = game.state.play(&orders);
            for (order, why) in &report.refused {
                let rule = format!("order-refused-{why}");
                if failures.iter().any(|f| f.rule.as_deref() == Some(rule.as_str())) {
                    continue;
                }
                failures.push(*failure(
                    Verdict::IllegalMove,
                    rule,
                    Some(order.to_string()),
                    format!(
                        "{at}: the order {order} was refused ({why}): {}",
                        refusal_words(&before, case.seat, order)
                    ),
                ));
                if played.picture.is_none() {
                    played.picture = Some(View::of(&before, case.seat).to_text());
                }
            }
        }
        if let Strategist::Hosted(session, hosted) = player {
            played.stderr_tail = session.stderr_tail(8);
            if let Some(fault) = hosted.give_back(session) {
                failures.push(*failure(Verdict::Crash, "runs-between-turns".to_string(), None, fault));
            }
        }
        played.cpu_ms = Some(u64::try_from(cpu.as_millis()).unwrap_or(u64::MAX));
        played.elapsed_ms = u64::try_from(wall.as_millis()).unwrap_or(u64::MAX);
        played.stdout_head = stdout.lines().take(8).collect::<Vec<_>>().join("\n");
        let planets = 2 * case.half;
        played.process = if ended.is_empty() {
            format!("{turn} turn(s) played on a map of {planets} planets")
        } else {
            format!("{turn} turn(s) played on a map of {planets} planets; {ended}")
        };
        played.judgement = if failures.is_empty() {
            Judgement {
                verdict: Some(Verdict::Pass),
                reason: format!("{} without a throw, a loop or a refused order", played.process),
                ..Judgement::default()
            }
        } else {
            let mut first = failures.remove(0);
            first.also = failures;
            first
        };
        Ok(played)
    }
}

/// The answer, cut for a report.
fn short(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    if cut.len() < text.len() { format!("{cut}...") } else { cut }
}

/// Why the engine refused `order` of `player`'s in `state`, with the numbers it looked at.
fn refusal_words(state: &super::State, player: Player, order: &Order) -> String {
    let mut out = String::new();
    let n = state.map.len() as i64;
    let planet = |id: i64| (0..n).contains(&id).then_some(id as usize);
    match (planet(order.from), planet(order.to)) {
        (None, _) | (_, None) => {
            let _ = write!(out, "the map has planets 0 to {}", n - 1);
        }
        (Some(from), Some(to)) => {
            let owner = match state.owner[from] {
                Some(p) if p == player => "the strategy's own".to_string(),
                Some(p) => format!("player {}'s", p.number()),
                None => "neutral".to_string(),
            };
            let _ = write!(out, "planet {from} is {owner} with {} people", state.population[from]);
            match state.map.distance(from, to) {
                Some(d) => {
                    let _ = write!(out, "; planet {to} is {d} away");
                }
                None => {
                    let _ = write!(out, "; planet {to} is not its neighbour");
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_files_round_trip_and_shrink_to_fewer_turns_or_planets() {
        let referee = PlanetwarsReferee::default();
        let (input, side) = referee.random_position(7);
        assert_eq!((input.clone(), side), referee.random_position(7));
        let case = GameCase::parse(&input, "g").unwrap();
        assert_eq!(GameCase::parse(case.render().as_bytes(), "g").unwrap(), case);
        assert_eq!(referee.side_of(&input), Some(side));
        for smaller in referee.shrink_steps(&input, side) {
            let c = GameCase::parse(&smaller, "s").unwrap();
            assert!(c.turns < case.turns || c.half < case.half);
            assert_eq!((c.seat, c.opponent, c.map_seed), (case.seat, case.opponent, case.map_seed));
        }
        for bad in [
            "map: x 3\nseat: 1\nopponent: greedy\nturns: 3\n",
            "map: 1 3\nseat: 3\n",
            "turns: 0\n",
            "fly: 1\n",
        ] {
            assert!(GameCase::parse(bad.as_bytes(), "g").is_err(), "{bad}");
        }
        let small = random_map_sized(5, Some(2));
        assert_eq!(small.map.len(), 4);
        assert_eq!(random_map_sized(5, None).map.len(), super::super::generate::random_map(5).map.len());
    }
}
