//! PlanetWars for `arbiter show`, `apply` and the other position commands: a state or map file
//! read, orders applied; no move lists or perft, since a turn is any list of orders.

use std::fmt::Write as _;

use anyhow::{anyhow, bail};

use super::end::ending;
use super::games::side_of;
use super::planet::Player;
use super::referee::PlanetwarsReferee;
use super::state::State;
use super::turn::parse_orders;
use crate::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use crate::side::Side;

/// Reads a state or `.dot` map file under the referee's rules, checking the side to move when the
/// command names one.
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
