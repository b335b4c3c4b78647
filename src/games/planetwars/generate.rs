//! Random maps: connected graphs with symmetric starts, from a seed. The same seed always gives
//! the same map.
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
    let edges = edges.into_iter().map(|(a, b, distance)| Edge { a: ids[a], b: ids[b], distance }).collect();
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
    fn the_same_seed_gives_the_same_map() {
        assert_eq!(random_map(7).map, random_map(7).map);
        assert_ne!(random_map(7).map, random_map(8).map);
    }
}
