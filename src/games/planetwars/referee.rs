//! PlanetWars as the harness sees it: no test cases (a simulation graded by win rates), the
//! built-in strategies, and games for the match runner. Submissions are hosted
//! ([`Protocol::Hosted`], `docs/PROTOCOL.md`): a Java class implementing the course's
//! `IStrategy`, or any program that speaks the protocol. A turn is a `turn` request carrying the
//! player's view ([`View::to_json`]), answered by a list of orders `{"from", "to",
//! "population"}`, within [`TURN_CPU`] of CPU time. Illegal orders are refused and counted; an
//! answer that is not a list of orders forfeits the game. Built-in strategies play in memory,
//! on the view file ([`View::to_text`]).
//!
//! Without a start file each pair of games (1 and 2, 3 and 4, ...) is played on a random map
//! of the match's seed ([`super::generate::random_map`], or [`super::generate::course_map`]
//! with `maps=course`), each bot moving first in one of them. A start file is a state file or
//! one of the course's `.dot` maps ([`super::dot`]).

use std::fmt::Write as _;

use anyhow::{anyhow, bail};

use super::bots;
use super::end::ending;
use super::generate::{course_map, random_map};
use super::planet::Player;
use super::rules::Rules;
use super::state::State;
use super::turn::parse_orders;
use super::turn::{Amount, MAX_ORDERS, Order};
use super::visibility::View;
use crate::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use crate::harness::host::{HostCall, HostSpec, JavaEntry, JavaSpec};
use crate::harness::referee::{BuiltinBot, Builtins, GameInfo, GameState, Games, Protocol, Referee};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// CPU time a strategy may take for one turn: the course's engine gives `takeTurn` one second
/// (`MOVE_TIMEOUT`).
pub const TURN_CPU: std::time::Duration = std::time::Duration::from_secs(1);

/// How arbiter hosts a strategy: the course's public API as arbiter writes it, the bridge
/// compiled with it (it builds the planets a strategy sees and reads its queue), and the
/// adapter that answers requests. The class is the one implementing `IStrategy`.
pub const HOST: HostSpec = HostSpec {
    java: Some(JavaSpec {
        entry: JavaEntry::Implements("planetwars.publicapi.IStrategy"),
        api: &[
            (
                "planetwars/publicapi/IEdge.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IEdge.java"),
            ),
            (
                "planetwars/publicapi/IEvent.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IEvent.java"),
            ),
            (
                "planetwars/publicapi/IPlanet.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IPlanet.java"),
            ),
            (
                "planetwars/publicapi/IPlanetOperations.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IPlanetOperations.java"),
            ),
            (
                "planetwars/publicapi/IShuttle.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IShuttle.java"),
            ),
            (
                "planetwars/publicapi/IStrategy.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IStrategy.java"),
            ),
            (
                "planetwars/publicapi/IVisiblePlanet.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/IVisiblePlanet.java"),
            ),
            (
                "planetwars/publicapi/Owner.java",
                include_str!("../../../hosts/java/planetwars/planetwars/publicapi/Owner.java"),
            ),
            (
                "planetwars/core/EngineNotShipped.java",
                include_str!("../../../hosts/java/planetwars/planetwars/core/EngineNotShipped.java"),
            ),
            (
                "arbiter/host/planetwars/Bridge.java",
                include_str!("../../../hosts/java/planetwars/arbiter/host/planetwars/Bridge.java"),
            ),
        ],
        adapter: &[(
            "arbiter/host/PlanetwarsAdapter.java",
            include_str!("../../../hosts/java/planetwars/arbiter/host/PlanetwarsAdapter.java"),
        )],
        adapter_class: "arbiter.host.PlanetwarsAdapter",
        // Each game loads the strategy in a fresh class loader, so its code is compiled again
        // every game; the optimising compiler (C2) would spend more CPU time on that than the
        // strategy itself, and charge it to the strategy's turns. The client compiler's
        // thresholds doubled: it compiles fewer of a game's short-lived methods, which cut its
        // CPU time by about a second over a course's 400 games without slowing the strategy's
        // turns (docs/SCALING.md).
        jvm_options: "-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=2",
        foreign: &["planetwars.core", "planetwars.publicapi"],
    }),
    python: None,
};

/// The harness's view of PlanetWars.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlanetwarsReferee {
    /// The rule options (`--rule`); the seed's rules by default.
    pub rules: Rules,
}

impl PlanetwarsReferee {
    /// `state` played by the referee's rules when `--rule` chose any, else by its file's.
    fn ruled(&self, mut state: State) -> State {
        if self.rules != Rules::default() {
            state.rules = self.rules;
        }
        state
    }
}

fn side_of(player: Player) -> Side {
    match player {
        Player::One => Side::White,
        Player::Two => Side::Black,
    }
}

impl Referee for PlanetwarsReferee {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("../../../docs/games/planetwars/game.toml"))
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), self.game().to_string()];
        for option in self.rules.describe() {
            args.push("--rule".to_string());
            args.push(option.to_string());
        }
        args
    }

    fn analyst(&self) -> &dyn Analyst {
        self
    }

    fn protocol(&self) -> Protocol {
        Protocol::Hosted(HOST)
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![
            include_str!("../../../corpus/planetwars/marking-profile.json"),
            include_str!("../../../corpus/planetwars/course-profile.json"),
            include_str!("../../../corpus/planetwars/hard-profile.json"),
        ]
    }

    fn with_rules(&self, rules: &[String]) -> Result<Box<dyn Referee>, String> {
        let mut referee = *self;
        for rule in rules {
            referee.rules = referee.rules.with_option(rule).map_err(|e| format!("rule {rule}: {e}"))?;
        }
        Ok(Box::new(referee))
    }

    crate::concerns!(builtins, games, drawing, fuzzing);
}

impl Builtins for PlanetwarsReferee {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        let name = bots::NAMES.iter().find(|n| **n == name)?;
        Some(Box::new(Strategy { name }))
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        bots::NAMES.to_vec()
    }
}

/// A built-in strategy as a bot: reads a view, writes orders.
struct Strategy {
    name: &'static str,
}

impl BuiltinBot for Strategy {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let view = View::parse(&String::from_utf8_lossy(input), origin)?;
        Ok(self.answer(&view, seed))
    }

    fn play_game(&self, game: &dyn GameState, side: Side, seed: u64) -> Result<Vec<u8>, String> {
        // The view the board file's text would give, taken from the state itself: the text
        // round trip was about a sixth of arbiter's own time in a course's 400 games.
        match game.as_any().and_then(|g| g.downcast_ref::<PlanetwarsGame>()) {
            Some(g) => Ok(self.answer(&View::of(&g.state, g.state.to_move), seed)),
            None => self.play(&game.board_file(), "input.txt", side, seed),
        }
    }
}

impl Strategy {
    /// The orders the strategy gives for `view`, as order lines (`pass` for none).
    fn answer(&self, view: &View, seed: u64) -> Vec<u8> {
        let orders = bots::orders(self.name, view, seed).expect("a known strategy");
        let mut out = String::new();
        for o in &orders {
            let amount = match &o.amount {
                super::turn::Amount::Whole(n) => n.to_string(),
                super::turn::Amount::Fraction(t) => t.clone(),
            };
            let _ = writeln!(out, "send {} {} {amount}", o.from, o.to);
        }
        if orders.is_empty() {
            out.push_str("pass\n");
        }
        out.into_bytes()
    }
}

impl Games for PlanetwarsReferee {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        self.new_game_seeded(start, 0)
    }

    fn start_extensions(&self) -> &'static [&'static str] {
        &["txt", "dot"]
    }

    fn enters_tournament(&self, greeting: &serde_json::Value) -> bool {
        // `new` answers {"name": getName(), "compete": compete()}: "return true in this method
        // if you want your submission to compete in the class tournament".
        greeting.get("compete") != Some(&serde_json::Value::Bool(false))
    }

    fn new_game_seeded(&self, start: Option<(&str, &[u8])>, seed: u64) -> Result<Box<dyn GameState>, String> {
        let (state, homes) = match start {
            Some((origin, bytes)) if super::dot::is_dot(&String::from_utf8_lossy(bytes)) => {
                let (state, homes) = super::dot::parse(&String::from_utf8_lossy(bytes), origin)?;
                (state, homes.to_vec())
            }
            Some((origin, bytes)) => {
                let state = State::parse(&String::from_utf8_lossy(bytes), origin)?;
                // A game's start: each player's one planet is its home. Later, not known.
                let homes: Vec<usize> = if state.ply == 0 {
                    Player::BOTH
                        .iter()
                        .filter_map(|&p| {
                            let mut owned = state.planets_of(p);
                            owned.next().filter(|_| owned.next().is_none())
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                (state, homes)
            }
            None if self.rules.maps == super::rules::Maps::Course => {
                let (state, homes) = course_map(seed);
                (state, homes.to_vec())
            }
            None => {
                let generated = random_map(seed);
                (generated.start(), generated.homes.to_vec())
            }
        };
        Ok(Box::new(PlanetwarsGame { state: self.ruled(state), homes }))
    }
}

/// A game in progress.
pub struct PlanetwarsGame {
    /// The whole state.
    pub state: State,
    /// The planets the players started on, where known (`IVisiblePlanet.isHomeworld`).
    pub homes: Vec<usize>,
}

/// Reads a hosted strategy's answer: a JSON list of `{"from", "to", "population"}`.
pub(crate) fn orders_from_json(text: &str) -> Result<Vec<Order>, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let list = value.as_array().ok_or("not a list of orders")?;
    if list.len() > MAX_ORDERS {
        return Err(format!("more than {MAX_ORDERS} orders in one turn"));
    }
    list.iter()
        .enumerate()
        .map(|(i, o)| {
            let field = |k: &str| o.get(k).ok_or_else(|| format!("order {} has no `{k}`", i + 1));
            let id = |k: &str| {
                field(k)?
                    .as_i64()
                    .ok_or_else(|| format!("order {}: `{k}` is not a planet id (a whole number)", i + 1))
            };
            let population = field("population")?;
            let amount = match (population.as_i64(), population.as_f64()) {
                (Some(n), _) => Amount::Whole(n),
                (None, Some(_)) => Amount::Fraction(population.to_string()),
                _ => return Err(format!("order {}: `population` is not a number", i + 1)),
            };
            Ok(Order { from: id("from")?, to: id("to")?, amount })
        })
        .collect()
}

impl GameState for PlanetwarsGame {
    fn to_move(&self) -> Side {
        side_of(self.state.to_move)
    }

    fn board_file(&self) -> Vec<u8> {
        View::of(&self.state, self.state.to_move).to_text().into_bytes()
    }

    fn record_file(&self) -> Vec<u8> {
        self.state.to_text().into_bytes()
    }

    fn has_legal_move(&self) -> bool {
        // Giving no order is always allowed.
        true
    }

    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let text = String::from_utf8_lossy(output);
        // A hosted strategy answers JSON (a list); a built-in one writes order lines.
        let orders = if text.trim_start().starts_with(['[', '{', '"']) {
            orders_from_json(&text).map_err(|e| {
                format!("the answer is not a list of orders {{\"from\", \"to\", \"population\"}}: {e}")
            })
        } else {
            parse_orders(&text)
                .map_err(|e| format!("the output is not a list of orders `send FROM TO AMOUNT`: {e}"))
        }
        .map_err(|reason| {
            Box::new(Judgement { verdict: Some(Verdict::MalformedOutput), reason, ..Judgement::default() })
        })?;
        let report = self.state.play(&orders);
        Ok(report.notation(&orders))
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), String> {
        let orders = parse_orders(notation)?;
        self.state.play(&orders);
        Ok(())
    }

    fn material(&self) -> [i32; 2] {
        Player::BOTH.map(|p| self.state.total_population(p).clamp(0, i64::from(i32::MAX)) as i32)
    }

    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        let end = ending(&self.state, self.state.turn_limit())?;
        Some((end.winner.map(side_of), end.name.to_string(), end.detail))
    }

    fn after_exception(&self, partial: Option<&serde_json::Value>) -> Option<Vec<u8>> {
        // The course's engine catches a turn that throws and carries out the orders queued
        // before it (`thrown=skip`, in engine=course).
        (self.state.rules.thrown == super::rules::Thrown::Skip)
            .then(|| partial.map_or_else(|| b"pass".to_vec(), |orders| orders.to_string().into_bytes()))
    }

    fn move_limit(&self) -> Option<usize> {
        // The turn limit is the game's own ending (with its own sentence).
        None
    }

    fn host_start(&self, side: Side) -> Vec<HostCall> {
        let player = if side == Side::White { Player::One } else { Player::Two };
        vec![HostCall::new("new", serde_json::json!({ "player": player.number() }))]
    }

    fn host_turn(&self) -> HostCall {
        // Under engine=course the bridge builds the planets and edges as the course's engine
        // does, from the edges as the map writes them (the engine orders them by how they are
        // written).
        let course = self.state.rules.order == super::rules::ListOrder::Course;
        let view = View::of(&self.state, self.state.to_move)
            .host_json(&self.homes, course.then_some(self.state.map.edges.as_slice()));
        HostCall::written("turn", view).limited(TURN_CPU)
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

fn load(referee: &PlanetwarsReferee, input: &PositionInput) -> anyhow::Result<State> {
    let text = String::from_utf8_lossy(input.bytes);
    let state = if super::dot::is_dot(&text) {
        super::dot::parse(&text, input.origin).map(|(state, _)| state)
    } else {
        State::parse(&text, input.origin)
    };
    let state = referee.ruled(state.map_err(|e| anyhow!(e))?);
    if let Some(side) = input.side
        && side != side_of(state.to_move)
    {
        let asked = if side == Side::White { 1 } else { 2 };
        bail!(
            "{}: the file gives player {} to move, not player {asked}",
            input.origin,
            state.to_move.number()
        );
    }
    Ok(state)
}

impl Analyst for PlanetwarsReferee {
    fn side_to_move(&self, input: &PositionInput) -> anyhow::Result<Side> {
        Ok(side_of(load(self, input)?.to_move))
    }

    fn moves(&self, _input: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        bail!("a PlanetWars turn is any list of orders, too many to list; try `apply STATE 'send 0 1 50'`")
    }

    fn apply(&self, input: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let mut state = load(self, input)?;
        let orders = match parse_orders(&mv.replace(';', "\n")) {
            Ok(o) => o,
            Err(e) => return Ok(Err(e)),
        };
        state.play(&orders);
        Ok(Ok(state.to_text()))
    }

    fn max_perft_depth(&self) -> u32 {
        0
    }

    fn perft(&self, _input: &PositionInput, _depth: u32) -> anyhow::Result<u64> {
        bail!("PlanetWars has no perft: a turn is any list of orders")
    }

    fn perft_divide(&self, _input: &PositionInput, _depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        bail!("PlanetWars has no perft: a turn is any list of orders")
    }

    fn show(&self, input: &PositionInput) -> anyhow::Result<String> {
        let state = load(self, input)?;
        let mut out = String::new();
        let _ = writeln!(out, "ply {}, player {} to move", state.ply, state.to_move.number());
        for player in Player::BOTH {
            let planets: Vec<String> = state.planets_of(player).map(|i| i.to_string()).collect();
            let _ = writeln!(
                out,
                "{player}: {} people; planets {}; refused orders {}",
                state.total_population(player),
                if planets.is_empty() { "none".to_string() } else { planets.join(" ") },
                state.refused_summary(player)
            );
        }
        if let Some(end) = ending(&state, state.turn_limit()) {
            let _ = writeln!(out, "the game is over ({}): {}", end.name, end.detail);
        }
        Ok(out)
    }

    fn expect(&self, _input: &PositionInput, _request: &ExpectRequest) -> anyhow::Result<String> {
        bail!("PlanetWars has no expected answers: it is graded by games (`match`, `grade`)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builtin_answers_the_same_from_the_state_as_from_the_board_text() {
        let referee = PlanetwarsReferee::default();
        for name in bots::NAMES {
            let bot = referee.builtin(name).expect("a known strategy");
            let mut game = referee.new_game_seeded(None, 7).expect("a random map");
            for ply in 0..60u64 {
                if game.ending().is_some() {
                    break;
                }
                let side = game.to_move();
                let from_state = bot.play_game(game.as_ref(), side, ply).expect("an answer");
                let from_text = bot.play(&game.board_file(), "input.txt", side, ply).expect("an answer");
                assert_eq!(from_state, from_text, "{name} at ply {ply}");
                game.play_output(&from_state).expect("the bot's own orders are read");
            }
        }
    }
}
