//! The game board: planets (by id, 0 to n-1) with a size and a habitability, joined by
//! undirected weighted edges whose weight is the travel time in turns.

/// A planet's fixed attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanetInfo {
    /// The maximum population the planet supports ("Size correlates to the total population
    /// the planet can support").
    pub size: i64,
    /// The growth rate in percent: g = 1 + habitability / 100.
    pub habitability: i64,
}

/// An edge between two planets, undirected; `a` and `b` are its ends as written (a course's
/// `.dot` map writes `13 -- 1`, and its engine orders edges by how they are written).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    /// One end.
    pub a: usize,
    /// The other end.
    pub b: usize,
    /// Turns a shuttle takes from one end to the other (at least 1).
    pub distance: u32,
}

/// The graph: planets, edges, and where each player starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Planets by id.
    pub planets: Vec<PlanetInfo>,
    /// Edges in the order and direction given (arbiter's generator gives them sorted, the
    /// smaller id first).
    pub edges: Vec<Edge>,
    /// Neighbours of each planet with the distance, sorted by id.
    adjacency: Vec<Vec<(usize, u32)>>,
}

impl Map {
    /// A map of `planets` joined by `edges` (kept in the order and direction given); refuses
    /// edges to unknown planets, loops, repeated edges and distances of 0.
    pub fn new(planets: Vec<PlanetInfo>, edges: Vec<Edge>) -> Result<Map, String> {
        let n = planets.len();
        let mut adjacency = vec![Vec::new(); n];
        let mut kept = Vec::with_capacity(edges.len());
        for e in edges {
            let (a, b) = (e.a.min(e.b), e.a.max(e.b));
            if b >= n {
                return Err(format!(
                    "edge {a} {b}: there is no planet {b} (planets are 0 to {})",
                    n.max(1) - 1
                ));
            }
            if a == b {
                return Err(format!("edge {a} {b}: a planet cannot be joined to itself"));
            }
            if e.distance == 0 {
                return Err(format!("edge {a} {b}: the distance must be at least 1"));
            }
            if adjacency[a].iter().any(|&(x, _)| x == b) {
                return Err(format!("edge {a} {b}: the planets are joined twice"));
            }
            adjacency[a].push((b, e.distance));
            adjacency[b].push((a, e.distance));
            kept.push(e);
        }
        for (i, p) in planets.iter().enumerate() {
            if p.size < 1 {
                return Err(format!("planet {i}: the size must be at least 1"));
            }
            if !(0..=1000).contains(&p.habitability) {
                return Err(format!("planet {i}: the habitability must be from 0 to 1000"));
            }
        }
        for list in &mut adjacency {
            list.sort();
        }
        Ok(Map { planets, edges: kept, adjacency })
    }

    /// The number of planets.
    pub fn len(&self) -> usize {
        self.planets.len()
    }

    /// Whether the map has no planets.
    pub fn is_empty(&self) -> bool {
        self.planets.is_empty()
    }

    /// The neighbours of `planet` and their distances, by id.
    pub fn neighbours(&self, planet: usize) -> &[(usize, u32)] {
        &self.adjacency[planet]
    }

    /// The distance from `a` to its neighbour `b`, or `None` when they are not joined.
    pub fn distance(&self, a: usize, b: usize) -> Option<u32> {
        self.adjacency.get(a)?.iter().find(|&&(x, _)| x == b).map(|&(_, d)| d)
    }

    /// Whether every planet can be reached from planet 0.
    pub fn is_connected(&self) -> bool {
        if self.planets.is_empty() {
            return true;
        }
        let mut seen = vec![false; self.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(p) = stack.pop() {
            for &(q, _) in self.neighbours(p) {
                if !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        seen.into_iter().all(|s| s)
    }

    /// Hops (edges, not turns) from `from` to every planet; `usize::MAX` where unreachable.
    pub fn hops_from(&self, from: usize) -> Vec<usize> {
        let mut hops = vec![usize::MAX; self.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        hops[from] = 0;
        while let Some(p) = queue.pop_front() {
            for &(q, _) in self.neighbours(p) {
                if hops[q] == usize::MAX {
                    hops[q] = hops[p] + 1;
                    queue.push_back(q);
                }
            }
        }
        hops
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> PlanetInfo {
        PlanetInfo { size: 100, habitability: 10 }
    }

    #[test]
    fn edges_are_undirected_and_kept_as_written() {
        let m = Map::new(vec![p(), p(), p()], vec![Edge { a: 2, b: 0, distance: 3 }]).unwrap();
        assert_eq!(m.distance(0, 2), Some(3));
        assert_eq!(m.distance(2, 0), Some(3));
        assert_eq!(m.distance(0, 1), None);
        assert_eq!(m.edges, vec![Edge { a: 2, b: 0, distance: 3 }]);
        assert!(!m.is_connected());
    }

    #[test]
    fn bad_edges_are_refused() {
        assert!(Map::new(vec![p()], vec![Edge { a: 0, b: 0, distance: 1 }]).is_err());
        assert!(Map::new(vec![p(), p()], vec![Edge { a: 0, b: 1, distance: 0 }]).is_err());
        assert!(Map::new(vec![p(), p()], vec![Edge { a: 0, b: 5, distance: 1 }]).is_err());
        let twice = vec![Edge { a: 0, b: 1, distance: 1 }, Edge { a: 1, b: 0, distance: 2 }];
        assert!(Map::new(vec![p(), p()], twice).is_err());
    }
}
