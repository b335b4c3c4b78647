//! Planets' owners and population growth.

use std::fmt;

/// One of the two players. Player 1 moves first (White to the harness), Player 2 second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player who moves first.
    One,
    /// The player who moves second.
    Two,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 1 or 2, as files write it.
    pub fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }

    /// 0 for Player 1, 1 for Player 2: an index into per-player arrays.
    pub fn index(self) -> usize {
        usize::from(self == Player::Two)
    }

    /// The player numbered `n` (1 or 2).
    pub fn from_number(n: u8) -> Option<Player> {
        match n {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }

    /// Both players, Player 1 first.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// The overpopulation penalty p = 0.1, as a fraction: (c - m) * 1 / 10.
pub const PENALTY_DENOMINATOR: i64 = 10;

/// The population after one unit of time on a planet of size (maximum population) `m` and
/// habitability `h`, from `c`: "If c < m, pop next turn = c*g; If c >= m, pop next turn =
/// c - (c-m)*p", with g = 1 + h/100 and p = 0.1. Populations are whole numbers (the course's
/// API counts people in `long`s): each formula is computed exactly and rounded down, so
/// `c*g` is `floor(c * (100 + h) / 100)` and `c - (c-m)*p` is `c - ceil((c - m) / 10)`.
pub fn grow(c: i64, m: i64, h: i64) -> i64 {
    if c < m {
        c * (100 + h) / 100
    } else {
        // floor(c - (c-m)/10) = c - ceil((c-m)/10), with c - m >= 0.
        c - (c - m + PENALTY_DENOMINATOR - 1) / PENALTY_DENOMINATOR
    }
}

/// The course engine's growth step (`Planet.grow`, rule option `growth=course`), before the
/// landings: no growth above the size; otherwise `min(size, ceil(c * (1 + h/100.)))` computed
/// in doubles as Java computes it (so 100 at h = 10 gives 111: 100 * 1.1 is 110.00000000000001).
pub fn grow_course(c: i64, m: i64, h: i64) -> i64 {
    if c > m {
        return c;
    }
    let g = 1.0 + (h as f64) / 100.0;
    (c as f64 * g).ceil().min(m as f64) as i64
}

/// The course engine's decay (`Planet.shrink`, rule option `growth=course`), after the
/// landings: above the size, `ceil((c - m) * 0.1)` people die, computed in doubles as Java
/// computes it (for every excess up to 2,000,000 the same as rounding (c - m) / 10 up).
pub fn shrink_course(c: i64, m: i64) -> i64 {
    if c <= m {
        return c;
    }
    c - ((c - m) as f64 * 0.1).ceil() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_the_size_population_multiplies_by_g_rounded_down() {
        // g = 1.2: 100 -> 120; 7 * 1.2 = 8.4 -> 8.
        assert_eq!(grow(100, 1000, 20), 120);
        assert_eq!(grow(7, 1000, 20), 8);
        // A growth step may overshoot the size (the formula has no cap).
        assert_eq!(grow(900, 1000, 20), 1080);
    }

    #[test]
    fn at_or_above_the_size_population_decays_by_a_tenth_of_the_excess() {
        assert_eq!(grow(1000, 1000, 20), 1000);
        assert_eq!(grow(1080, 1000, 20), 1072);
        // 1005 - 0.5 = 1004.5 -> 1004.
        assert_eq!(grow(1005, 1000, 20), 1004);
    }

    #[test]
    fn the_course_engine_rounds_up_in_doubles_and_caps_at_the_size() {
        assert_eq!(grow_course(1, 1000, 5), 2, "one person grows to two");
        assert_eq!(grow_course(100, 1000, 10), 111, "100 * 1.1 is 110.00000000000001 in doubles");
        assert_eq!(grow_course(950, 1000, 20), 1000, "capped at the size");
        assert_eq!(grow_course(1200, 1000, 20), 1200, "no growth above the size");
        assert_eq!(grow_course(0, 1000, 20), 0);
        assert_eq!(shrink_course(1030, 1000), 1027);
        assert_eq!(shrink_course(1031, 1000), 1027, "3.1 rounded up");
        assert_eq!(shrink_course(1005, 1000), 1004);
        assert_eq!(shrink_course(1000, 1000), 1000);
    }

    #[test]
    fn an_empty_planet_stays_empty() {
        assert_eq!(grow(0, 500, 50), 0);
    }
}
