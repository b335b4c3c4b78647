//! Networks: when a player has won. The hot path of every search, so [`has_network`] works on
//! bitboards and stops at the first network; [`find_network`] returns one as a chip list.
//!
//! A network of `color` is a sequence of six or more of its chips such that
//! - the first chip is in one of its goal areas and the last in the other;
//! - no other chip of the sequence is in a goal area of its own;
//! - each chip sees the next along a row, column or diagonal with no chip of either colour
//!   between them;
//! - no chip appears twice;
//! - the direction changes at every chip: the line into a chip and the line out of it differ.
//!
//! Because a network read backwards is a network too, the search starts only from the first
//! goal area (Black's top row, White's left column).

use super::board::Board;
use super::color::Color;
use super::lines::first_seen;
use super::square::{Square, goals};

/// The fewest chips a network has.
pub const MIN_CHIPS: usize = 6;

/// No link in this direction.
const NONE: u8 = u8::MAX;

/// The visibility graph of one colour's chips: for each chip (by square index) and direction,
/// the square of the same colour's chip seen first that way, or [`NONE`] when the first chip
/// seen is the opponent's or there is none.
struct Links {
    next: [[u8; 8]; 64],
}

impl Links {
    fn of(board: &Board, color: Color) -> Links {
        let mine = board.chips(color);
        let occupied = board.occupied();
        let mut next = [[NONE; 8]; 64];
        for sq in Square::in_bits(mine) {
            for (d, slot) in next[sq.index()].iter_mut().enumerate() {
                if let Some(seen) = first_seen(occupied, sq.index(), d)
                    && mine & (1u64 << seen) != 0
                {
                    *slot = seen as u8;
                }
            }
        }
        Links { next }
    }
}

/// The search's fixed facts: the links, the goal to finish in, and the goal squares no middle
/// chip may use.
struct Search {
    links: Links,
    finish: u64,
    goals: u64,
}

impl Search {
    /// Whether a path whose last chip is `at` (entered going `came`, or 8 at the start), of
    /// `len` chips using `used`, extends to a network. The chips of the path, from its second,
    /// are pushed onto `path` when one is found (nothing is pushed otherwise).
    fn extend(&self, at: usize, came: usize, used: u64, len: usize, path: &mut Option<&mut Vec<u8>>) -> bool {
        for d in 0..8 {
            if d == came {
                continue; // A network turns at every chip.
            }
            let next = self.links.next[at][d];
            if next == NONE {
                continue;
            }
            let bit = 1u64 << next;
            if used & bit != 0 {
                continue;
            }
            let found = if self.finish & bit != 0 {
                len + 1 >= MIN_CHIPS
            } else if self.goals & bit != 0 {
                false // The starting goal again: only the first chip may be there.
            } else {
                self.extend(next as usize, d, used | bit, len + 1, path)
            };
            if found {
                if let Some(p) = path.as_deref_mut() {
                    p.push(next);
                }
                return true;
            }
        }
        false
    }
}

/// The search set up for `color`, or `None` when no network is possible at a glance: fewer than
/// six chips, or an empty goal area.
fn search(board: &Board, color: Color) -> Option<(Search, u64)> {
    let mine = board.chips(color);
    let [start, finish] = goals(color);
    if (mine.count_ones() as usize) < MIN_CHIPS || mine & start == 0 || mine & finish == 0 {
        return None;
    }
    Some((Search { links: Links::of(board, color), finish, goals: start | finish }, mine & start))
}

/// Whether `color` has a network on `board`.
pub fn has_network(board: &Board, color: Color) -> bool {
    let Some((search, starts)) = search(board, color) else { return false };
    Square::in_bits(starts).any(|s| search.extend(s.index(), 8, s.bit(), 1, &mut None))
}

/// One network of `color` on `board`, as its chips from the first goal area (Black's top row,
/// White's left column) to the other, when there is one. Which one is found is fixed: the
/// search tries start squares in listing order and directions in
/// [`DIRECTIONS`](super::lines::DIRECTIONS) order.
pub fn find_network(board: &Board, color: Color) -> Option<Vec<Square>> {
    let (search, starts) = search(board, color)?;
    for s in Square::in_bits(starts) {
        let mut rest = Vec::new();
        if search.extend(s.index(), 8, s.bit(), 1, &mut Some(&mut rest)) {
            let mut chips = vec![s];
            chips.extend(rest.iter().rev().filter_map(|&i| Square::from_index(i as usize)));
            return Some(chips);
        }
    }
    None
}

/// Why `chips` is not a network of `color` on `board`, naming the first rule it breaks; `None`
/// when it is one. Used to explain networks and to check [`find_network`].
pub fn network_flaw(board: &Board, color: Color, chips: &[Square]) -> Option<String> {
    if chips.len() < MIN_CHIPS {
        return Some(format!("it has {} chips; a network needs at least {MIN_CHIPS}", chips.len()));
    }
    if let Some(&sq) = chips.iter().find(|&&sq| board.get(sq) != Some(color)) {
        return Some(format!("{sq} does not hold a {} chip", color.word()));
    }
    for (i, a) in chips.iter().enumerate() {
        if chips[..i].contains(a) {
            return Some(format!("it passes through {a} twice"));
        }
    }
    let [g1, g2] = goals(color);
    let (first, last) = (chips[0].bit(), chips[chips.len() - 1].bit());
    if !((first & g1 != 0 && last & g2 != 0) || (first & g2 != 0 && last & g1 != 0)) {
        return Some("it does not start in one of its goal areas and end in the other".to_string());
    }
    if let Some(sq) = chips[1..chips.len() - 1].iter().find(|sq| (g1 | g2) & sq.bit() != 0) {
        return Some(format!("{sq} is in a goal area, where only the first and last chips may be"));
    }
    let mut came = None;
    for pair in chips.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let Some(d) = super::lines::direction_between(a, b) else {
            return Some(format!("{a} and {b} are not on one row, column or diagonal"));
        };
        if let Some(blocker) = super::lines::between(a, b).into_iter().find(|&q| board.get(q).is_some()) {
            return Some(format!("the chip on {blocker} stands between {a} and {b}"));
        }
        if came == Some(d) {
            return Some(format!("it passes through {a} without turning a corner"));
        }
        came = Some(d);
    }
    None
}

/// The plain reading of the definition, for tests: every sequence of distinct chips that starts
/// in a goal area is tried, each condition checked on squares one by one. Exponential in the
/// number of chips; fine for ten.
pub fn has_network_slow(board: &Board, color: Color) -> bool {
    let chips: Vec<Square> = board.squares(color).collect();
    fn grow(board: &Board, color: Color, chips: &[Square], path: &mut Vec<Square>) -> bool {
        if path.len() >= MIN_CHIPS && network_flaw(board, color, path).is_none() {
            return true;
        }
        for &c in chips {
            if path.contains(&c) {
                continue;
            }
            path.push(c);
            // Only extend prefixes that could still become a network: all but the first chip
            // outside the goals, lines clear, turning at every chip.
            let ok = prefix_ok(board, color, path) && grow(board, color, chips, path);
            path.pop();
            if ok {
                return true;
            }
        }
        false
    }
    let mut path = Vec::new();
    chips.iter().filter(|c| c.goal_of() == Some(color)).any(|&start| {
        path.clear();
        path.push(start);
        grow(board, color, &chips, &mut path)
    })
}

/// Whether `path` (starting in a goal) may be the start of a network, or a whole one: each step
/// along a clear line, a turn at each chip, and no goal chip but the first and a last one.
fn prefix_ok(board: &Board, color: Color, path: &[Square]) -> bool {
    let n = path.len();
    let in_goal = |sq: Square| sq.goal_of() == Some(color);
    if path[1..n.saturating_sub(1)].iter().any(|&sq| in_goal(sq)) {
        return false;
    }
    if n >= 2 {
        let (a, b) = (path[n - 2], path[n - 1]);
        let Some(d) = super::lines::direction_between(a, b) else { return false };
        if super::lines::between(a, b).iter().any(|&q| board.get(q).is_some()) {
            return false;
        }
        if n >= 3 && super::lines::direction_between(path[n - 3], a) == Some(d) {
            return false;
        }
        // A goal chip ends the path: it must be the other goal and the path long enough.
        if in_goal(b) {
            let same_goal = goals(color).iter().any(|g| g & path[0].bit() != 0 && g & b.bit() != 0);
            return !same_goal && n >= MIN_CHIPS;
        }
    }
    true
}
