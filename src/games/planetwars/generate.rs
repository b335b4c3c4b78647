//! Random maps: connected graphs with symmetric starts, from a seed, and maps in the course's
//! ranges ([`course_map`], `--rule maps=course`). The same seed always gives the same map.
//!
//! A map is two mirror halves of `k` planets each (`HALF_PLANETS`): a random spanning tree of
//! the half plus a few extra edges, copied planet for planet (same size, habitability and
//! distances) to the other half, and one to three pairs of bridges between the halves, each
//! bridge mirrored. Player 1's home is a planet of one half and Player 2's its mirror image, so
//! neither player's start is better. Bridges never touch a home. Planet ids are then shuffled,
//! so that ids say nothing about where a planet is.

use std::ops::RangeInclusive;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::map::{Edge, Map, PlanetInfo};
use super::state::State;

/// Planets in each half.
pub const HALF_PLANETS: RangeInclusive<usize> = 5..=10;
/// A planet's size (maximum population).
pub const SIZE: RangeInclusive<i64> = 100..=1000;
/// A planet's habitability (growth in percent per unit of time).
pub const HABITABILITY: RangeInclusive<i64> = 5..=50;
/// An edge's distance in turns.
pub const DISTANCE: RangeInclusive<u32> = 1..=5;
/// The chance of an extra edge between two planets of a half, beyond its spanning tree.
pub const EXTRA_EDGE: f64 = 0.15;
/// Pairs of mirrored bridges between the halves.
pub const BRIDGES: RangeInclusive<usize> = 1..=3;
/// The population each home planet starts with.
pub const HOME_POPULATION: i64 = 100;

/// A random map and its homes, with `mirror[i]` the planet symmetric to `i`.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The map.
    pub map: Map,
    /// Player 1's and Player 2's home planets (each the other's mirror image).
    pub homes: [usize; 2],
    /// The symmetry: `mirror[i]` is `i`'s twin (`mirror[mirror[i]] == i`).
    pub mirror: Vec<usize>,
}

/// The map of `seed`.
pub fn random_map(seed: u64) -> Generated {
    random_map_sized(seed, None)
}

/// The map of `seed` with `half` planets in each half (at least 2) instead of the number the
/// seed draws: fuzzing's smaller maps. `None` gives [`random_map`]'s map.
pub fn random_map_sized(seed: u64, half: Option<usize>) -> Generated {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let drawn = rng.gen_range(HALF_PLANETS);
    let k = half.map_or(drawn, |h| h.max(2));
    let half: Vec<PlanetInfo> = (0..k)
        .map(|_| PlanetInfo { size: rng.gen_range(SIZE), habitability: rng.gen_range(HABITABILITY) })
        .collect();
    let mut inner: Vec<(usize, usize, u32)> = Vec::new();
    for i in 1..k {
        let j = rng.gen_range(0..i);
        inner.push((j, i, rng.gen_range(DISTANCE)));
    }
    for i in 0..k {
        for j in i + 1..k {
            if !inner.iter().any(|&(a, b, _)| (a, b) == (i, j)) && rng.gen_bool(EXTRA_EDGE) {
                inner.push((i, j, rng.gen_range(DISTANCE)));
            }
        }
    }
    // Planet i of the first half is planet i; its mirror is k + i. Home: planet 0 and k.
    let mut edges: Vec<(usize, usize, u32)> = Vec::new();
    for &(a, b, d) in &inner {
        edges.push((a, b, d));
        edges.push((k + a, k + b, d));
    }
    let bridges = rng.gen_range(BRIDGES);
    for _ in 0..bridges {
        let (i, j) = (rng.gen_range(1..k), rng.gen_range(1..k));
        let d = rng.gen_range(DISTANCE);
        for (a, b) in [(i, k + j), (j, k + i)] {
            if !edges.iter().any(|&(x, y, _)| (x, y) == (a, b)) {
                edges.push((a, b, d));
            }
        }
    }
    let mut ids: Vec<usize> = (0..2 * k).collect();
    ids.shuffle(&mut rng);
    let mut planets = vec![PlanetInfo { size: 1, habitability: 0 }; 2 * k];
    for i in 0..k {
        planets[ids[i]] = half[i];
        planets[ids[k + i]] = half[i];
    }
    let mut edges: Vec<Edge> = edges
        .into_iter()
        .map(|(a, b, distance)| Edge { a: ids[a].min(ids[b]), b: ids[a].max(ids[b]), distance })
        .collect();
    edges.sort();
    let map = Map::new(planets, edges).expect("a generated map is well-formed");
    let mut mirror = vec![0; 2 * k];
    for i in 0..k {
        mirror[ids[i]] = ids[k + i];
        mirror[ids[k + i]] = ids[i];
    }
    Generated { map, homes: [ids[0], ids[k]], mirror }
}

impl Generated {
    /// The game's start on this map.
    pub fn start(&self) -> State {
        State::start(self.map.clone(), self.homes, HOME_POPULATION)
    }
}

/// The course's maps (its ranking maps `graph_0` to `graph_99`; its generator is not public):
/// 10 to 21 planets.
pub const COURSE_PLANETS: RangeInclusive<usize> = 10..=21;
/// Sizes 51 to 596, nearly all (96%) below 500.
pub const COURSE_SIZE: RangeInclusive<i64> = 51..=596;
/// Habitabilities 1 to 12, nearly all (95%) 1 to 10.
pub const COURSE_HABITABILITY: RangeInclusive<i64> = 1..=12;
/// Distances 1 to 7, the two ends half as often as the others.
pub const COURSE_DISTANCE: RangeInclusive<u32> = 1..=7;
/// The fewest hops between the homes (the course's maps: 3 to 6, mostly 3).
pub const COURSE_HOME_HOPS: usize = 3;
/// The people on each home before the engine's first unit of time (`SystemLoader`).
pub const COURSE_HOME_POPULATION: i64 = 1;

/// A map in the course's ranges, from `seed`, and its start: a random spanning tree of
/// [`COURSE_PLANETS`] planets plus 0 to n - 3 extra edges, sizes, habitabilities and distances
/// drawn as the course's maps have them, the two homes at least [`COURSE_HOME_HOPS`] hops apart
/// (nothing mirrored: the homes differ, which a pair of games with the players swapped evens
/// out). Each home starts with 1 person and the engine's first unit of time has passed (1 grows
/// to 2 at any habitability), as when the course's engine loads a map; Player 1 to move.
pub fn course_map(seed: u64) -> (State, [usize; 2]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let n = rng.gen_range(COURSE_PLANETS);
        let planets: Vec<PlanetInfo> = (0..n)
            .map(|_| {
                let size =
                    if rng.gen_bool(0.04) { rng.gen_range(500..=596) } else { rng.gen_range(51..=499) };
                let habitability =
                    if rng.gen_bool(0.05) { rng.gen_range(11..=12) } else { rng.gen_range(1..=10) };
                PlanetInfo { size, habitability }
            })
            .collect();
        // Twelve equally likely steps, the two ends taking one each: 1 and 7 half as often.
        let distance = |rng: &mut ChaCha8Rng| rng.gen_range(0..12u32).div_ceil(2) + 1;
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for i in 1..n {
            let j = rng.gen_range(0..i);
            pairs.push((order[i].min(order[j]), order[i].max(order[j])));
        }
        let extra = rng.gen_range(0..=n - 3);
        let mut tries = 0;
        while pairs.len() < n - 1 + extra && tries < 1000 {
            tries += 1;
            let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
            let pair = (a.min(b), a.max(b));
            if a != b && !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
        pairs.sort();
        let edges = pairs.into_iter().map(|(a, b)| Edge { a, b, distance: distance(&mut rng) }).collect();
        let map = Map::new(planets, edges).expect("a generated map is well-formed");
        let first = rng.gen_range(0..n);
        let far: Vec<usize> = map
            .hops_from(first)
            .iter()
            .enumerate()
            .filter(|&(_, &h)| h >= COURSE_HOME_HOPS)
            .map(|(i, _)| i)
            .collect();
        if far.is_empty() {
            continue;
        }
        let second = far[rng.gen_range(0..far.len())];
        let homes = if rng.gen_bool(0.5) { [first, second] } else { [second, first] };
        return (course_start(map, homes), homes);
    }
}

/// The start of a game on a course map: each home with [`COURSE_HOME_POPULATION`] person, grown
/// by the engine's first unit of time (its `gameTick` lets time pass before asking Player 1 to
/// move), the rest neutral and empty; the course's rules.
pub fn course_start(map: Map, homes: [usize; 2]) -> State {
    let mut state = State::start(map, homes, COURSE_HOME_POPULATION);
    for home in homes {
        let info = state.map.planets[home];
        state.population[home] =
            super::planet::grow_course(state.population[home], info.size, info.habitability);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_connected_symmetric_and_within_the_ranges() {
        for seed in 0..200 {
            let g = random_map(seed);
            let m = &g.map;
            assert!(m.is_connected(), "seed {seed}");
            assert_eq!(g.mirror[g.homes[0]], g.homes[1]);
            assert!(m.distance(g.homes[0], g.homes[1]).is_none());
            for (i, p) in m.planets.iter().enumerate() {
                assert!(SIZE.contains(&p.size) && HABITABILITY.contains(&p.habitability));
                assert_eq!(m.planets[g.mirror[i]], *p);
                assert_eq!(g.mirror[g.mirror[i]], i);
            }
            for e in &m.edges {
                assert!(DISTANCE.contains(&e.distance));
                assert_eq!(m.distance(g.mirror[e.a], g.mirror[e.b]), Some(e.distance), "seed {seed}");
            }
            assert!(HALF_PLANETS.contains(&(m.len() / 2)));
        }
    }

    #[test]
    fn course_maps_are_connected_and_within_the_courses_ranges() {
        let mut sizes_over_500 = 0;
        let mut planets = 0;
        for seed in 0..300 {
            let (state, homes) = course_map(seed);
            let m = &state.map;
            assert!(m.is_connected(), "seed {seed}");
            assert!(COURSE_PLANETS.contains(&m.len()));
            assert!(m.hops_from(homes[0])[homes[1]] >= COURSE_HOME_HOPS, "seed {seed}");
            for p in &m.planets {
                assert!(COURSE_SIZE.contains(&p.size) && COURSE_HABITABILITY.contains(&p.habitability));
                sizes_over_500 += usize::from(p.size >= 500);
                planets += 1;
            }
            assert!(m.edges.iter().all(|e| COURSE_DISTANCE.contains(&e.distance)));
            // 1 person at home, grown to 2 by the engine's first unit of time.
            assert_eq!(homes.map(|h| state.population[h]), [2, 2], "seed {seed}");
            assert_eq!(state.planets_of(super::super::Player::One).collect::<Vec<_>>(), vec![homes[0]]);
        }
        assert!(sizes_over_500 * 10 < planets, "{sizes_over_500} of {planets}");
        assert_eq!(course_map(5).0, course_map(5).0);
    }

    #[test]
    fn the_same_seed_gives_the_same_map() {
        assert_eq!(random_map(7).map, random_map(7).map);
        assert_ne!(random_map(7).map, random_map(8).map);
    }
}
