//! Built-in strategies. Each sees only what a student's strategy sees (a [`View`]) and returns
//! its orders; random choices follow the seed given, so a game is reproducible.
//!
//! - `random`: the course's `RandomStrategy`, move for move in kind: one order a turn, from a
//!   random planet of its own, a random number of people from 0 to one less than the planet's
//!   population, to a random planet it sees and does not own (often not a neighbour of the
//!   source, or 0 people, so that many of its orders are refused, as in the course's engine).
//! - `greedy`: every planet keeps half its people and sends the other half to its weakest
//!   neighbour it does not own, when that half is enough to take it (the defender's 10% and the
//!   shuttles already on the way counted).
//! - `defensive`: planets away from the frontier grow to their size and then send half of it
//!   one step towards the frontier; a frontier planet under attack (hostile shuttles on the
//!   way) sends nothing; otherwise it sends half its people to its cheapest neighbour, with a
//!   margin against an enemy planet's growth while the shuttle flies.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::turn::{Amount, Order};
use super::visibility::{View, Whose};

/// The names of the built-in strategies.
pub const NAMES: [&str; 3] = ["random", "greedy", "defensive"];

/// The orders of the strategy `name` for `view`, or `None` for an unknown name.
pub fn orders(name: &str, view: &View, seed: u64) -> Option<Vec<Order>> {
    match name {
        "random" => Some(random(view, seed)),
        "greedy" => Some(greedy(view)),
        "defensive" => Some(defensive(view)),
        _ => None,
    }
}

fn order(from: usize, to: usize, n: i64) -> Order {
    Order { from: from as i64, to: to as i64, amount: Amount::Whole(n) }
}

fn population(view: &View, planet: usize) -> i64 {
    view.planets[planet].map_or(0, |s| s.population)
}

/// The course's RandomStrategy.
pub fn random(view: &View, seed: u64) -> Vec<Order> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mine = view.mine();
    let others: Vec<usize> = (0..view.planets.len())
        .filter(|&i| matches!(view.planets[i], Some(s) if s.owner != Whose::Mine))
        .collect();
    if mine.is_empty() || others.is_empty() {
        return Vec::new();
    }
    let source = mine[rng.gen_range(0..mine.len())];
    let people = population(view, source);
    if people <= 0 {
        // Java's Random.nextInt(0) throws: the course's strategy gives no order then.
        return Vec::new();
    }
    let amount = rng.gen_range(0..people);
    let target = others[rng.gen_range(0..others.len())];
    vec![order(source, target, amount)]
}

/// People needed to take `planet` now, counting the viewer's shuttles already bound there.
fn needed(view: &View, planet: usize) -> i64 {
    let Some(seen) = view.planets[planet] else { return i64::MAX };
    let on_the_way: i64 =
        view.shuttles.iter().filter(|s| s.owner == Whose::Mine && s.to == planet).map(|s| s.population).sum();
    let hostile: i64 = view
        .shuttles
        .iter()
        .filter(|s| s.owner == Whose::Theirs && s.to == planet)
        .map(|s| s.population)
        .sum();
    let base = match seen.owner {
        Whose::Mine => return i64::MAX,
        Whose::Neutral => 1 + hostile,
        Whose::Theirs => (11 * (seen.population + hostile)) / 10 + 1,
    };
    (base - on_the_way).max(1)
}

/// Greedy expansion to the weakest neighbour.
pub fn greedy(view: &View) -> Vec<Order> {
    let mut out = Vec::new();
    for source in view.mine() {
        let spare = population(view, source) / 2;
        let target = view
            .neighbours(source)
            .filter(|&(t, _)| matches!(view.planets[t], Some(s) if s.owner != Whose::Mine))
            .map(|(t, d)| (needed(view, t), d, t))
            .filter(|&(need, _, _)| need <= spare)
            .min();
        if let Some((_, _, t)) = target {
            out.push(order(source, t, spare));
        }
    }
    out
}

/// Reinforce the frontier, attack with a margin.
pub fn defensive(view: &View) -> Vec<Order> {
    let n = view.planets.len();
    let mine = view.mine();
    let is_mine = |p: usize| matches!(view.planets[p], Some(s) if s.owner == Whose::Mine);
    let frontier: Vec<bool> =
        (0..n).map(|p| is_mine(p) && view.neighbours(p).any(|(q, _)| !is_mine(q))).collect();
    // Hops to the frontier within the viewer's planets.
    let mut hops = vec![usize::MAX; n];
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&p| frontier[p]).collect();
    for &p in &queue {
        hops[p] = 0;
    }
    while let Some(p) = queue.pop_front() {
        for (q, _) in view.neighbours(p) {
            if is_mine(q) && hops[q] == usize::MAX {
                hops[q] = hops[p] + 1;
                queue.push_back(q);
            }
        }
    }
    let threat = |p: usize| -> i64 {
        view.shuttles.iter().filter(|s| s.owner == Whose::Theirs && s.to == p).map(|s| s.population).sum()
    };
    let mut out = Vec::new();
    for source in mine {
        let people = population(view, source);
        let size = view.planets[source].map_or(0, |s| s.size);
        if !frontier[source] {
            // Growth stops at the size: only then is a planet's surplus sent on, half of it.
            let next =
                view.neighbours(source).filter(|&(q, _)| is_mine(q)).min_by_key(|&(q, d)| (hops[q], d, q));
            if let Some((q, _)) = next
                && hops[q] < hops[source]
                && people >= size
            {
                out.push(order(source, q, people - size / 2));
            }
            continue;
        }
        if threat(source) > 0 {
            continue;
        }
        let spare = people / 2;
        let target = view
            .neighbours(source)
            .filter(|&(t, _)| !is_mine(t))
            .map(|(t, d)| {
                let need = needed(view, t);
                // Enemy planets grow while the shuttle flies: ask for a margin.
                let margin = match view.planets[t] {
                    Some(s) if s.owner == Whose::Theirs => need / 10 + 2 * i64::from(d),
                    _ => 0,
                };
                (need + margin, d, t)
            })
            .filter(|&(need, _, _)| need <= spare)
            .min();
        if let Some((_, _, t)) = target {
            out.push(order(source, t, spare));
        }
    }
    out
}
