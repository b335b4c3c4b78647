//! The whole game: the map, each planet's owner and population, the shuttles in flight, whose
//! turn it is, and the orders refused so far; and its file.
//!
//! A state file (a map is a state file with no shuttles, at ply 0):
//!
//! ```text
//! planetwars state
//! ply 0
//! to-move 1
//! planet 0 size 1000 habitability 20 owner 1 population 100
//! planet 1 size 400 habitability 35 owner none population 0
//! edge 0 1 3
//! shuttle 1 from 0 to 1 population 50 remaining 2
//! refused 1 0 0 2 0 0 0
//! ```
//!
//! `refused P` lists player P's refused orders by reason, in the order of
//! [`Refusal::ALL`](super::refusal::Refusal::ALL). Blank lines and `#` comments are ignored.

use std::fmt::Write as _;

use super::map::{Edge, Map, PlanetInfo};
use super::planet::Player;
use super::refusal::Refusal;
use super::rules::Rules;
use super::shuttle::Shuttle;

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The board.
    pub map: Map,
    /// Each planet's owner (`None`: neutral).
    pub owner: Vec<Option<Player>>,
    /// Each planet's population.
    pub population: Vec<i64>,
    /// Shuttles in flight, in the order they were sent.
    pub shuttles: Vec<Shuttle>,
    /// The player to move.
    pub to_move: Player,
    /// Plies played (each player's turn is one ply; one unit of time passes in each).
    pub ply: u32,
    /// Orders refused so far, per player, by reason (in [`Refusal::ALL`]'s order).
    pub refused: [[u32; 6]; 2],
    /// The rules the game is played by (the seed's unless a `--rule` chose otherwise); a state
    /// file names those that differ on a `rules` line.
    pub rules: Rules,
}

impl State {
    /// The start of a game on `map`: every planet neutral and empty but the two homes, each
    /// with `population` people; Player 1 to move.
    pub fn start(map: Map, homes: [usize; 2], population: i64) -> State {
        let n = map.len();
        let mut state = State {
            map,
            owner: vec![None; n],
            population: vec![0; n],
            shuttles: Vec::new(),
            to_move: Player::One,
            ply: 0,
            refused: [[0; 6]; 2],
            rules: Rules::default(),
        };
        for (player, home) in Player::BOTH.into_iter().zip(homes) {
            state.owner[home] = Some(player);
            state.population[home] = population;
        }
        state
    }

    /// The planets `player` owns, by id.
    pub fn planets_of(&self, player: Player) -> impl Iterator<Item = usize> + '_ {
        (0..self.map.len()).filter(move |&i| self.owner[i] == Some(player))
    }

    /// `player`'s people on its planets and in its shuttles.
    pub fn total_population(&self, player: Player) -> i64 {
        self.planets_of(player).map(|i| self.population[i]).sum::<i64>()
            + self.shuttles.iter().filter(|s| s.owner == player).map(|s| s.population).sum::<i64>()
    }

    /// Everyone's people, on planets (neutral ones too) and in flight.
    pub fn everyone(&self) -> i64 {
        self.population.iter().sum::<i64>() + self.shuttles.iter().map(|s| s.population).sum::<i64>()
    }

    /// `player`'s refused orders in all.
    pub fn refused_total(&self, player: Player) -> u32 {
        self.refused[player.index()].iter().sum()
    }

    /// `player`'s refused orders in words: `3 (2 not-a-neighbour, 1 not-positive)`.
    pub fn refused_summary(&self, player: Player) -> String {
        let counts = &self.refused[player.index()];
        let parts: Vec<String> = Refusal::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| **n > 0)
            .map(|(r, n)| format!("{n} {r}"))
            .collect();
        if parts.is_empty() {
            "0".to_string()
        } else {
            format!("{} ({})", self.refused_total(player), parts.join(", "))
        }
    }

    /// The state file.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "planetwars state");
        let _ = writeln!(out, "ply {}", self.ply);
        let _ = writeln!(out, "to-move {}", self.to_move.number());
        let rules = self.rules.describe();
        if !rules.is_empty() {
            let _ = writeln!(out, "rules {}", rules.join(" "));
        }
        for (i, p) in self.map.planets.iter().enumerate() {
            let owner = self.owner[i].map_or("none".to_string(), |o| o.number().to_string());
            let _ = writeln!(
                out,
                "planet {i} size {} habitability {} owner {owner} population {}",
                p.size, p.habitability, self.population[i]
            );
        }
        for e in &self.map.edges {
            let _ = writeln!(out, "edge {} {} {}", e.a, e.b, e.distance);
        }
        for s in &self.shuttles {
            let _ = writeln!(
                out,
                "shuttle {} from {} to {} population {} remaining {}",
                s.owner.number(),
                s.from,
                s.to,
                s.population,
                s.remaining
            );
        }
        for player in Player::BOTH {
            if self.refused_total(player) > 0 {
                let counts: Vec<String> = self.refused[player.index()].iter().map(u32::to_string).collect();
                let _ = writeln!(out, "refused {} {}", player.number(), counts.join(" "));
            }
        }
        out
    }

    /// Reads a state file (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<State, String> {
        let mut planets: Vec<(usize, PlanetInfo, Option<Player>, i64)> = Vec::new();
        let mut edges = Vec::new();
        let mut shuttles = Vec::new();
        let mut to_move = Player::One;
        let mut ply = 0u32;
        let mut refused = [[0u32; 6]; 2];
        let mut rules = Rules::default();
        let mut header = false;
        for (i, raw) in text.lines().enumerate() {
            let at = |e: String| format!("{origin}:{}: {e}", i + 1);
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            if !header {
                if w != ["planetwars", "state"] && w != ["planetwars", "map"] {
                    return Err(at(format!("expected `planetwars state` first, found `{line}`")));
                }
                header = true;
                continue;
            }
            let num = |s: &str| s.parse::<i64>().map_err(|_| at(format!("`{s}` is not a whole number")));
            let player = |s: &str| {
                s.parse::<u8>()
                    .ok()
                    .and_then(Player::from_number)
                    .ok_or_else(|| at(format!("`{s}` is not a player (1 or 2)")))
            };
            match w.as_slice() {
                ["ply", n] => ply = num(n)?.try_into().map_err(|_| at("the ply must be 0 or more".into()))?,
                ["to-move", p] => to_move = player(p)?,
                ["rules", options @ ..] => {
                    for option in options {
                        rules = rules.with_option(option).map_err(|e| at(format!("rules {option}: {e}")))?;
                    }
                }
                ["planet", id, "size", size, "habitability", h, rest @ ..] => {
                    let (owner, population) = match rest {
                        [] => (None, 0),
                        ["owner", "none", "population", pop] => (None, num(pop)?),
                        ["owner", o, "population", pop] => (Some(player(o)?), num(pop)?),
                        _ => {
                            return Err(at(format!(
                                "expected `owner 1|2|none population N`, found `{}`",
                                rest.join(" ")
                            )));
                        }
                    };
                    if population < 0 {
                        return Err(at("a population cannot be negative".into()));
                    }
                    let id = usize::try_from(num(id)?).map_err(|_| at("a planet id is 0 or more".into()))?;
                    planets.push((
                        id,
                        PlanetInfo { size: num(size)?, habitability: num(h)? },
                        owner,
                        population,
                    ));
                }
                ["edge", a, b, d] => {
                    let id =
                        |s: &str| usize::try_from(num(s)?).map_err(|_| at("a planet id is 0 or more".into()));
                    let distance =
                        u32::try_from(num(d)?).map_err(|_| at("a distance is 1 or more".into()))?;
                    edges.push(Edge { a: id(a)?, b: id(b)?, distance });
                }
                ["shuttle", o, "from", f, "to", t, "population", p, "remaining", r] => {
                    let id =
                        |s: &str| usize::try_from(num(s)?).map_err(|_| at("a planet id is 0 or more".into()));
                    let population = num(p)?;
                    let remaining =
                        u32::try_from(num(r)?).map_err(|_| at("`remaining` is 1 or more".into()))?;
                    if population < 1 || remaining < 1 {
                        return Err(at(
                            "a shuttle carries at least 1 person and has at least 1 turn to go".into()
                        ));
                    }
                    shuttles.push(Shuttle {
                        owner: player(o)?,
                        from: id(f)?,
                        to: id(t)?,
                        population,
                        remaining,
                    });
                }
                ["refused", p, counts @ ..] if counts.len() == 6 => {
                    let p = player(p)?;
                    for (slot, c) in refused[p.index()].iter_mut().zip(counts) {
                        *slot = u32::try_from(num(c)?).map_err(|_| at("a count is 0 or more".into()))?;
                    }
                }
                _ => return Err(at(format!("cannot read `{line}`"))),
            }
        }
        if !header {
            return Err(format!("{origin}: empty; expected `planetwars state`"));
        }
        planets.sort_by_key(|p| p.0);
        for (expected, p) in planets.iter().enumerate() {
            if p.0 != expected {
                return Err(format!(
                    "{origin}: planets must be numbered 0, 1, 2, ... without gaps; planet {expected} is missing or repeated"
                ));
            }
        }
        let map =
            Map::new(planets.iter().map(|p| p.1).collect(), edges).map_err(|e| format!("{origin}: {e}"))?;
        for s in &shuttles {
            if map.distance(s.from, s.to).is_none() {
                return Err(format!("{origin}: a shuttle from {} to {}, which are not joined", s.from, s.to));
            }
        }
        Ok(State {
            owner: planets.iter().map(|p| p.2).collect(),
            population: planets.iter().map(|p| p.3).collect(),
            map,
            shuttles,
            to_move,
            ply,
            refused,
            rules,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_file_round_trips() {
        let map = Map::new(
            vec![
                PlanetInfo { size: 1000, habitability: 20 },
                PlanetInfo { size: 400, habitability: 35 },
                PlanetInfo { size: 1000, habitability: 20 },
            ],
            vec![Edge { a: 0, b: 1, distance: 3 }, Edge { a: 1, b: 2, distance: 3 }],
        )
        .unwrap();
        let mut s = State::start(map, [0, 2], 100);
        s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 50, remaining: 2 });
        s.refused[0][2] = 3;
        let text = s.to_text();
        assert_eq!(State::parse(&text, "s").unwrap(), s);
        s.rules = Rules::COURSE;
        let text = s.to_text();
        assert!(text.contains(
            "\nrules growth=course battle=course emptied=neutral end=course view=course thrown=skip order=course maps=course\n"
        ));
        assert_eq!(State::parse(&text, "s").unwrap(), s);
        assert!(State::parse("nonsense", "s").unwrap_err().starts_with("s:1:"));
    }
}
