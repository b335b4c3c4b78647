//! What a player sees. "Each player receives information about the entire game board,
//! including the planet IDs of all planets and which planets are interconnected. However, a
//! player can only see detailed information (owner, population, size, habitability, incoming
//! shuttles) about the planets that they own and their neighboring planets."
//!
//! The view file a bot reads:
//!
//! ```text
//! planetwars view
//! ply 4
//! you 1
//! planet 0 size 1000 habitability 20 owner self population 120
//! planet 1 size 400 habitability 35 owner neutral population 0
//! planet 2 hidden
//! edge 0 1 3
//! edge 1 2 3
//! shuttle self from 0 to 1 population 50 remaining 2
//! ```
//!
//! Shuttles shown: the player's own, and any bound for a planet it sees.

use std::fmt::Write as _;

use super::planet::Player;
use super::rules::ViewRule;
use super::state::State;

/// Whose a planet or shuttle is, from the viewer's side (the course's `Owner`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The viewer's.
    Mine,
    /// The opponent's.
    Theirs,
    /// Nobody's.
    Neutral,
}

impl Whose {
    fn word(self) -> &'static str {
        match self {
            Whose::Mine => "self",
            Whose::Theirs => "opponent",
            Whose::Neutral => "neutral",
        }
    }

    fn of(owner: Option<Player>, viewer: Player) -> Whose {
        match owner {
            None => Whose::Neutral,
            Some(p) if p == viewer => Whose::Mine,
            Some(_) => Whose::Theirs,
        }
    }
}

/// A planet the viewer sees in detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// Maximum population.
    pub size: i64,
    /// Growth in percent.
    pub habitability: i64,
    /// Whose it is.
    pub owner: Whose,
    /// People on it.
    pub population: i64,
}

/// A shuttle the viewer sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenShuttle {
    /// Whose it is.
    pub owner: Whose,
    /// Where from.
    pub from: usize,
    /// Where to.
    pub to: usize,
    /// People on board.
    pub population: i64,
    /// Turns to go.
    pub remaining: u32,
}

/// One player's view of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Plies played.
    pub ply: u32,
    /// The viewer.
    pub you: Player,
    /// Every planet by id: `Some` when the viewer sees it in detail.
    pub planets: Vec<Option<Seen>>,
    /// Every edge: the two planets and the distance.
    pub edges: Vec<(usize, usize, u32)>,
    /// The shuttles the viewer sees.
    pub shuttles: Vec<SeenShuttle>,
}

/// Whether `viewer` sees `planet` in detail: it owns it or a neighbour of it.
pub fn sees(state: &State, viewer: Player, planet: usize) -> bool {
    state.owner[planet] == Some(viewer)
        || state.map.neighbours(planet).iter().any(|&(q, _)| state.owner[q] == Some(viewer))
}

impl View {
    /// What `viewer` sees of `state`.
    pub fn of(state: &State, viewer: Player) -> View {
        let visible: Vec<bool> = (0..state.map.len()).map(|i| sees(state, viewer, i)).collect();
        View {
            ply: state.ply,
            you: viewer,
            planets: (0..state.map.len())
                .map(|i| {
                    visible[i].then(|| Seen {
                        size: state.map.planets[i].size,
                        habitability: state.map.planets[i].habitability,
                        owner: Whose::of(state.owner[i], viewer),
                        population: state.population[i],
                    })
                })
                .collect(),
            edges: {
                // By the smaller end, then the larger, whatever the order the map was written in.
                let mut edges: Vec<(usize, usize, u32)> =
                    state.map.edges.iter().map(|e| (e.a.min(e.b), e.a.max(e.b), e.distance)).collect();
                edges.sort_unstable();
                edges
            },
            shuttles: state
                .shuttles
                .iter()
                .filter(|s| (s.owner == viewer && state.rules.view == ViewRule::Arbiter) || visible[s.to])
                .map(|s| SeenShuttle {
                    owner: Whose::of(Some(s.owner), viewer),
                    from: s.from,
                    to: s.to,
                    population: s.population,
                    remaining: s.remaining,
                })
                .collect(),
        }
    }

    /// The view file.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "planetwars view");
        let _ = writeln!(out, "ply {}", self.ply);
        let _ = writeln!(out, "you {}", self.you.number());
        for (i, p) in self.planets.iter().enumerate() {
            match p {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "planet {i} size {} habitability {} owner {} population {}",
                        s.size,
                        s.habitability,
                        s.owner.word(),
                        s.population
                    );
                }
                None => {
                    let _ = writeln!(out, "planet {i} hidden");
                }
            }
        }
        for (a, b, d) in &self.edges {
            let _ = writeln!(out, "edge {a} {b} {d}");
        }
        for s in &self.shuttles {
            let _ = writeln!(
                out,
                "shuttle {} from {} to {} population {} remaining {}",
                s.owner.word(),
                s.from,
                s.to,
                s.population,
                s.remaining
            );
        }
        out
    }

    /// The view as the host protocol's `turn` request carries it (`docs/PROTOCOL.md`):
    /// `{"ply", "you", "planets": [{"id"} or {"id", "size", "habitability", "owner",
    /// "population", "home"}], "edges": [[a, b, distance]], "shuttles": [{"owner", "from", "to",
    /// "population", "remaining"}]}`. `homes` are the planets the players started on, where
    /// known; only planets seen in detail say whether they are one.
    pub fn to_json(&self, homes: &[usize]) -> serde_json::Value {
        use serde_json::json;
        let planets: Vec<serde_json::Value> = self
            .planets
            .iter()
            .enumerate()
            .map(|(i, p)| match p {
                Some(s) => json!({
                    "id": i,
                    "size": s.size,
                    "habitability": s.habitability,
                    "owner": s.owner.word(),
                    "population": s.population,
                    "home": homes.contains(&i),
                }),
                None => json!({ "id": i }),
            })
            .collect();
        let shuttles: Vec<serde_json::Value> = self
            .shuttles
            .iter()
            .map(|s| {
                json!({
                    "owner": s.owner.word(),
                    "from": s.from,
                    "to": s.to,
                    "population": s.population,
                    "remaining": s.remaining,
                })
            })
            .collect();
        json!({
            "ply": self.ply,
            "you": self.you.number(),
            "planets": planets,
            "edges": self.edges.iter().map(|&(a, b, d)| json!([a, b, d])).collect::<Vec<_>>(),
            "shuttles": shuttles,
        })
    }

    /// The view as the host protocol's `turn` request carries it, written straight to JSON
    /// text (the same object as [`View::to_json`], keys in the same order, without a
    /// `serde_json::Value` per turn: a game sends hundreds). `course_edges`, under
    /// `engine=course`, replaces the edges by the map's own, in the order it was written, and
    /// adds `"order": "course"`.
    pub fn host_json(&self, homes: &[usize], course_edges: Option<&[super::map::Edge]>) -> String {
        use serde::Serialize;
        #[derive(Serialize)]
        struct Detail {
            habitability: i64,
            home: bool,
            id: usize,
            owner: &'static str,
            population: i64,
            size: i64,
        }
        #[derive(Serialize)]
        struct Hidden {
            id: usize,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Planet {
            Seen(Detail),
            Hidden(Hidden),
        }
        #[derive(Serialize)]
        struct Shuttle {
            from: usize,
            owner: &'static str,
            population: i64,
            remaining: u32,
            to: usize,
        }
        #[derive(Serialize)]
        struct Turn {
            edges: Vec<(usize, usize, u32)>,
            #[serde(skip_serializing_if = "Option::is_none")]
            order: Option<&'static str>,
            planets: Vec<Planet>,
            ply: u32,
            shuttles: Vec<Shuttle>,
            you: u8,
        }
        let turn = Turn {
            edges: match course_edges {
                Some(edges) => edges.iter().map(|e| (e.a, e.b, e.distance)).collect(),
                None => self.edges.clone(),
            },
            order: course_edges.map(|_| "course"),
            planets: self
                .planets
                .iter()
                .enumerate()
                .map(|(id, p)| match p {
                    Some(s) => Planet::Seen(Detail {
                        habitability: s.habitability,
                        home: homes.contains(&id),
                        id,
                        owner: s.owner.word(),
                        population: s.population,
                        size: s.size,
                    }),
                    None => Planet::Hidden(Hidden { id }),
                })
                .collect(),
            ply: self.ply,
            shuttles: self
                .shuttles
                .iter()
                .map(|s| Shuttle {
                    from: s.from,
                    owner: s.owner.word(),
                    population: s.population,
                    remaining: s.remaining,
                    to: s.to,
                })
                .collect(),
            you: self.you.number(),
        };
        serde_json::to_string(&turn).expect("a view always serialises")
    }

    /// Reads a view file.
    pub fn parse(text: &str, origin: &str) -> Result<View, String> {
        let mut view =
            View { ply: 0, you: Player::One, planets: Vec::new(), edges: Vec::new(), shuttles: Vec::new() };
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        match lines.next() {
            Some((_, l)) if l.trim() == "planetwars view" => {}
            _ => return Err(format!("{origin}:1: expected `planetwars view`")),
        }
        let whose = |w: &str| match w {
            "self" => Some(Whose::Mine),
            "opponent" => Some(Whose::Theirs),
            "neutral" => Some(Whose::Neutral),
            _ => None,
        };
        for (i, line) in lines {
            let bad = || format!("{origin}:{}: cannot read `{line}`", i + 1);
            let w: Vec<&str> = line.split_whitespace().collect();
            let n = |s: &str| s.parse::<i64>().map_err(|_| bad());
            let u = |s: &str| s.parse::<usize>().map_err(|_| bad());
            match w.as_slice() {
                ["ply", p] => view.ply = p.parse().map_err(|_| bad())?,
                ["you", p] => {
                    view.you = p.parse().ok().and_then(Player::from_number).ok_or_else(bad)?;
                }
                ["planet", id, "hidden"] => {
                    if u(id)? != view.planets.len() {
                        return Err(bad());
                    }
                    view.planets.push(None);
                }
                ["planet", id, "size", s, "habitability", h, "owner", o, "population", p] => {
                    if u(id)? != view.planets.len() {
                        return Err(bad());
                    }
                    view.planets.push(Some(Seen {
                        size: n(s)?,
                        habitability: n(h)?,
                        owner: whose(o).ok_or_else(bad)?,
                        population: n(p)?,
                    }));
                }
                ["edge", a, b, d] => view.edges.push((u(a)?, u(b)?, d.parse().map_err(|_| bad())?)),
                ["shuttle", o, "from", f, "to", t, "population", p, "remaining", r] => {
                    view.shuttles.push(SeenShuttle {
                        owner: whose(o).ok_or_else(bad)?,
                        from: u(f)?,
                        to: u(t)?,
                        population: n(p)?,
                        remaining: r.parse().map_err(|_| bad())?,
                    })
                }
                _ => return Err(bad()),
            }
        }
        Ok(view)
    }

    /// The neighbours of `planet` with distances.
    pub fn neighbours(&self, planet: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.edges.iter().filter_map(move |&(a, b, d)| {
            if a == planet {
                Some((b, d))
            } else if b == planet {
                Some((a, d))
            } else {
                None
            }
        })
    }

    /// The viewer's planets by id.
    pub fn mine(&self) -> Vec<usize> {
        (0..self.planets.len())
            .filter(|&i| matches!(self.planets[i], Some(s) if s.owner == Whose::Mine))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::map::{Edge, Map, PlanetInfo};
    use super::super::shuttle::Shuttle;
    use super::*;

    #[test]
    fn the_written_turn_view_is_the_json_view_to_the_byte() {
        let map = Map::new(
            vec![
                PlanetInfo { size: 1000, habitability: 20 },
                PlanetInfo { size: 400, habitability: 35 },
                PlanetInfo { size: 1000, habitability: 20 },
                PlanetInfo { size: 300, habitability: 5 },
            ],
            vec![
                Edge { a: 2, b: 1, distance: 3 },
                Edge { a: 0, b: 1, distance: 3 },
                Edge { a: 2, b: 3, distance: 1 },
            ],
        )
        .unwrap();
        let mut s = State::start(map, [0, 2], 100);
        s.shuttles.push(Shuttle { owner: Player::One, from: 0, to: 1, population: 50, remaining: 2 });
        s.shuttles.push(Shuttle { owner: Player::Two, from: 2, to: 1, population: 7, remaining: 1 });
        for viewer in Player::BOTH {
            let view = View::of(&s, viewer);
            let json = view.to_json(&[0, 2]);
            assert_eq!(view.host_json(&[0, 2], None), json.to_string());
            let mut course = json.clone();
            course["order"] = serde_json::json!("course");
            course["edges"] = s.map.edges.iter().map(|e| serde_json::json!([e.a, e.b, e.distance])).collect();
            assert_eq!(view.host_json(&[0, 2], Some(&s.map.edges)), course.to_string());
        }
    }
}
