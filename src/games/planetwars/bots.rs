//! Built-in strategies. Each sees only what a student's strategy sees (a [`View`]) and returns
//! its orders; random choices follow the seed given, so a game is reproducible.
//!
//! - `random`: the course's `RandomStrategy`, move for move in kind: one order a turn, from a
//!   random planet of its own, a random number of people from 0 to one less than the planet's
//!   population, to a random planet it sees and does not own (often not a neighbour of the
//!   source, or 0 people, so that many of its orders are refused, as in the course's engine).
//! - `timid`, `scatter` and `settler`: the default profile's stand-ins for the course's AI1,
//!   AI2 and AI3 (which are not arbiter's), as weak as those are: each one's win rate against
//!   `random` and against the other two, under the seed's rules on arbiter's maps, within a few
//!   points of the course AI's in the course's own engine (docs/games/planetwars/README.md).
//!   - `timid`: every turn each planet sends 6 in 100 of its people to every neighbour it does
//!     not own; nothing more.
//!   - `scatter`: each planet claims every neutral neighbour none of its shuttles is bound for,
//!     with enough people to grow there (100/h + 1), then sends a random share of what it has
//!     left to a random planet it sees (often not a neighbour: refused).
//!   - `settler`: each turn each planet, with a chance of 14 in 100, sends half its people to
//!     its neighbour that is not its own, has fewer people, and costs least (people times
//!     habitability; the nearest, then the smallest id, on a tie).
//! - `greedy`: every planet keeps half its people and sends the other half to its weakest
//!   neighbour it does not own, when that half is enough to take it (the defender's 10% and the
//!   shuttles already on the way counted).
//! - `defensive`: planets away from the frontier grow to their size and then send half of it
//!   one step towards the frontier; a frontier planet under attack (hostile shuttles on the
//!   way) sends nothing; otherwise it sends half its people to its cheapest neighbour, with a
//!   margin against an enemy planet's growth while the shuttle flies.
//! - `attacker`: concentrates force on the weakest enemy neighbour. Of the enemy planets next
//!   to its own that its planets next to them can take together, it picks the one that needs
//!   the fewest people when the shuttles land (its growth during the flight, the defender's
//!   10%, the shuttles already on the way counted), and those planets all send what they can
//!   spare at once (half their people, less what they need against hostile shuttles bound for
//!   them); then the next weakest, with the planets still free. The planets left take their
//!   weakest neutral neighbour as `greedy` does, and planets behind the frontier, once grown to
//!   their size, send the surplus one step towards the planets next to an enemy.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::turn::{Amount, Order};
use super::visibility::{View, Whose};

/// The names of the built-in strategies.
pub const NAMES: [&str; 7] = ["random", "timid", "settler", "scatter", "greedy", "defensive", "attacker"];

/// The orders of the strategy `name` for `view`, or `None` for an unknown name.
pub fn orders(name: &str, view: &View, seed: u64) -> Option<Vec<Order>> {
    match name {
        "random" => Some(random(view, seed)),
        "timid" => Some(timid(view)),
        "settler" => Some(settler(view, seed)),
        "scatter" => Some(scatter(view, seed)),
        "greedy" => Some(greedy(view)),
        "defensive" => Some(defensive(view)),
        "attacker" => Some(attacker(view)),
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

/// `timid`'s share: 6 in 100 of a planet's people to each neighbour it does not own.
const TIMID_PERCENT: i64 = 6;

/// The chance in 100 that one of `settler`'s planets acts in a turn.
const SETTLER_CHANCE: u32 = 14;

/// Small shares to every neighbour it does not own.
pub fn timid(view: &View) -> Vec<Order> {
    let mut out = Vec::new();
    for source in view.mine() {
        let share = population(view, source) * TIMID_PERCENT / 100;
        if share <= 0 {
            continue;
        }
        for (t, _) in view.neighbours(source) {
            if matches!(view.planets[t], Some(s) if s.owner != Whose::Mine) {
                out.push(order(source, t, share));
            }
        }
    }
    out
}

/// Now and then, half of a planet to its cheapest neighbour with fewer people.
pub fn settler(view: &View, seed: u64) -> Vec<Order> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for source in view.mine() {
        if rng.gen_range(0..100) >= SETTLER_CHANCE {
            continue;
        }
        let people = population(view, source);
        let target = view
            .neighbours(source)
            .filter_map(|(t, d)| view.planets[t].filter(|s| s.owner != Whose::Mine).map(|s| (s, t, d)))
            .filter(|(s, _, _)| s.population < people)
            .map(|(s, t, d)| (s.population * s.habitability.max(1), d, t))
            .min();
        if let Some((_, _, t)) = target
            && people / 2 > 0
        {
            out.push(order(source, t, people / 2));
        }
    }
    out
}

/// Claims each neutral neighbour with enough people to grow, then sends a random share of each
/// planet to a random planet it sees.
pub fn scatter(view: &View, seed: u64) -> Vec<Order> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut left: Vec<i64> = (0..view.planets.len()).map(|p| population(view, p)).collect();
    let mut out = Vec::new();
    let mine = view.mine();
    for &source in &mine {
        for (t, _) in view.neighbours(source) {
            let bound = view.shuttles.iter().any(|s| s.owner == Whose::Mine && s.to == t);
            if let Some(seen) = view.planets[t].filter(|s| s.owner == Whose::Neutral)
                && !bound
                && left[source] > 1
            {
                // With populations rounded down, fewer than 100/h people never grow.
                let claim = (100 / seen.habitability.max(1) + 1).min(left[source] - 1);
                out.push(order(source, t, claim));
                left[source] -= claim;
            }
        }
    }
    let seen: Vec<usize> = (0..view.planets.len()).filter(|&p| view.planets[p].is_some()).collect();
    for &source in &mine {
        if left[source] > 1 && !seen.is_empty() {
            let n = rng.gen_range(0..left[source]);
            let t = seen[rng.gen_range(0..seen.len())];
            out.push(order(source, t, n));
        }
    }
    out
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
    let hops = hops_within(view, (0..n).filter(|&p| frontier[p]), &is_mine);
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

/// Hops from the nearest of `sources` to every planet, moving only through planets for which
/// `inside` holds (the viewer's own); `usize::MAX` where none is reached.
fn hops_within(
    view: &View,
    sources: impl Iterator<Item = usize>,
    inside: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let mut hops = vec![usize::MAX; view.planets.len()];
    let mut queue = std::collections::VecDeque::new();
    for p in sources {
        hops[p] = 0;
        queue.push_back(p);
    }
    while let Some(p) = queue.pop_front() {
        for (q, _) in view.neighbours(p) {
            if inside(q) && hops[q] == usize::MAX {
                hops[q] = hops[p] + 1;
                queue.push_back(q);
            }
        }
    }
    hops
}

/// The people an enemy planet will hold after `turns` units of time, grown by the seed's rule.
fn grown(view: &View, planet: usize, turns: u32) -> i64 {
    let Some(seen) = view.planets[planet] else { return i64::MAX };
    let mut c = seen.population;
    for _ in 0..turns {
        c = super::planet::grow(c, seen.size, seen.habitability);
    }
    c
}

/// Concentrate force on the weakest enemy neighbour.
pub fn attacker(view: &View) -> Vec<Order> {
    let n = view.planets.len();
    let mine = view.mine();
    let whose = |p: usize| view.planets[p].map(|s| s.owner);
    let is_mine = |p: usize| whose(p) == Some(Whose::Mine);
    let incoming = |p: usize, who: Whose| -> i64 {
        view.shuttles.iter().filter(|s| s.owner == who && s.to == p).map(|s| s.population).sum()
    };
    // What each planet can send: half its people (the other half keeps it growing: with
    // populations rounded down, a handful of people hardly grows), less what it needs to hold
    // against the hostile shuttles bound for it.
    let mut spare = vec![0i64; n];
    for &p in &mine {
        let threat = incoming(p, Whose::Theirs);
        let reserve = if threat > 0 { threat * 10 / 11 + 1 } else { 0 };
        let people = population(view, p);
        spare[p] = (people / 2).min(people - reserve).max(0);
    }
    let mut out = Vec::new();
    let mut busy = vec![false; n];
    // The weakest enemy neighbour that the free planets next to it can take together, again
    // and again: each attack uses every person those planets can spare, at once.
    loop {
        let mut best: Option<(i64, usize, Vec<usize>)> = None;
        for t in 0..n {
            if whose(t) != Some(Whose::Theirs) {
                continue;
            }
            let attackers: Vec<(usize, u32)> =
                view.neighbours(t).filter(|&(q, _)| is_mine(q) && !busy[q] && spare[q] > 0).collect();
            let Some(longest) = attackers.iter().map(|&(_, d)| d).max() else { continue };
            let defenders = grown(view, t, longest) + incoming(t, Whose::Theirs);
            let need = (11 * defenders) / 10 + 1 - incoming(t, Whose::Mine);
            let force: i64 = attackers.iter().map(|&(q, _)| spare[q]).sum();
            if force >= need && best.as_ref().is_none_or(|(b, bt, _)| (need, t) < (*b, *bt)) {
                best = Some((need, t, attackers.iter().map(|&(q, _)| q).collect()));
            }
        }
        let Some((_, target, attackers)) = best else { break };
        for q in attackers {
            busy[q] = true;
            out.push(order(q, target, spare[q]));
        }
    }
    // The other planets take their weakest neutral neighbour, as `greedy` does.
    for &p in &mine {
        if busy[p] {
            continue;
        }
        let target = view
            .neighbours(p)
            .filter(|&(t, _)| whose(t) == Some(Whose::Neutral))
            .map(|(t, d)| (needed(view, t), d, t))
            .filter(|&(need, _, _)| need <= spare[p])
            .min();
        if let Some((_, _, t)) = target {
            busy[p] = true;
            out.push(order(p, t, spare[p]));
        }
    }
    // Behind the frontier: one step towards the planets next to an enemy (or to any frontier).
    let touches = |p: usize, enemy_only: bool| {
        view.neighbours(p)
            .any(|(q, _)| if enemy_only { whose(q) == Some(Whose::Theirs) } else { !is_mine(q) })
    };
    let mut goal: Vec<usize> = mine.iter().copied().filter(|&p| touches(p, true)).collect();
    if goal.is_empty() {
        goal = mine.iter().copied().filter(|&p| touches(p, false)).collect();
    }
    let hops = hops_within(view, goal.iter().copied(), &is_mine);
    for &p in &mine {
        if busy[p] || hops[p] == 0 || hops[p] == usize::MAX || touches(p, false) {
            continue;
        }
        // Growth stops at the size: only then is the surplus sent on, as `defensive` does.
        let people = population(view, p);
        let size = view.planets[p].map_or(0, |s| s.size);
        let next = view.neighbours(p).filter(|&(q, _)| is_mine(q)).min_by_key(|&(q, d)| (hops[q], d, q));
        if let Some((q, _)) = next
            && hops[q] < hops[p]
            && people >= size
            && people - size / 2 > 0
        {
            out.push(order(p, q, people - size / 2));
        }
    }
    out
}
