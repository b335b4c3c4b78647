//! PlanetWars as the harness sees it: no test cases (a simulation graded by win rates), the
//! built-in strategies, and games for the match runner. A bot's turn: it reads its view of the
//! game (`input.txt`, [`View`]) and writes its orders, one a line, `send FROM TO AMOUNT`
//! (`output.txt`; nothing, or `pass`, gives no order). Illegal orders are refused and counted;
//! output that cannot be read as orders forfeits the game.
//!
//! Without a start file each pair of games (1 and 2, 3 and 4, ...) is played on a random map
//! of the match's seed ([`super::generate::random_map`]), each bot moving first in one of them.

use std::fmt::Write as _;

use anyhow::{anyhow, bail};

use super::bots;
use super::end::ending;
use super::generate::random_map;
use super::planet::Player;
use super::rules::Rules;
use super::state::State;
use super::turn::parse_orders;
use super::visibility::View;
use crate::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use crate::harness::referee::{BuiltinBot, Builtins, GameState, Games, Protocol, Referee};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

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
    fn game(&self) -> &'static str {
        "planetwars"
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
        Protocol::FixedFiles { input: "input.txt", output: "output.txt", persist: &[] }
    }

    fn marking_profile(&self) -> &'static str {
        include_str!("../../../corpus/planetwars/marking-profile.json")
    }

    fn builtins(&self) -> Option<&dyn Builtins> {
        Some(self)
    }

    fn games(&self) -> Option<&dyn Games> {
        Some(self)
    }
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
        let orders = bots::orders(self.name, &view, seed).expect("a known strategy");
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
        Ok(out.into_bytes())
    }
}

impl Games for PlanetwarsReferee {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        self.new_game_seeded(start, 0)
    }

    fn new_game_seeded(&self, start: Option<(&str, &[u8])>, seed: u64) -> Result<Box<dyn GameState>, String> {
        let state = self.ruled(match start {
            Some((origin, bytes)) => State::parse(&String::from_utf8_lossy(bytes), origin)?,
            None => random_map(seed).start(),
        });
        Ok(Box::new(PlanetwarsGame { state }))
    }
}

/// A game in progress.
pub struct PlanetwarsGame {
    /// The whole state.
    pub state: State,
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
        let orders = parse_orders(&text).map_err(|e| {
            Box::new(Judgement {
                verdict: Some(Verdict::MalformedOutput),
                reason: format!("the output is not a list of orders `send FROM TO AMOUNT`: {e}"),
                ..Judgement::default()
            })
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

    fn move_limit(&self) -> Option<usize> {
        // The turn limit is the game's own ending (with its own sentence).
        None
    }
}

fn load(referee: &PlanetwarsReferee, input: &PositionInput) -> anyhow::Result<State> {
    let state = referee
        .ruled(State::parse(&String::from_utf8_lossy(input.bytes), input.origin).map_err(|e| anyhow!(e))?);
    if let Some(side) = input.side
        && side != side_of(state.to_move)
    {
        bail!("{}: the file gives player {} to move, not {side}", input.origin, state.to_move.number());
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
