//! PlanetWars games for the match runner: a game from a start file, a course map or a random map
//! of the seed, and each turn's orders read and played.

use super::end::ending;
use super::generate::{course_map, random_map};
use super::planet::Player;
use super::referee::{PlanetwarsReferee, TURN_CPU};
use super::state::State;
use super::turn::parse_orders;
use super::turn::{Amount, MAX_ORDERS, Order};
use super::visibility::View;
use crate::harness::host::HostCall;
use crate::harness::referee::{GameState, Games};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// The harness's side for a player: player 1 moves first, as White does.
pub(super) fn side_of(player: Player) -> Side {
    match player {
        Player::One => Side::White,
        Player::Two => Side::Black,
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
