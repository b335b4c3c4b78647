//! Attack tables, computed at compile time: for each square, the squares a piece standing there
//! reaches by the shape of its move, and the rays sliders travel along.
//!
//! Every pattern of the game except the Zombie's is symmetric under turning the board half way
//! round, so the same table answers both "where does a piece on `sq` strike?" and "from where
//! could a piece strike `sq`?". The Zombie's pattern is not: a white Zombie strikes upwards, so
//! the squares from which a white Zombie strikes `sq` are black's forward squares of `sq`.

use super::bitboard::Bb;

/// The 8 ray directions as (files right, ranks up). The first four raise the square index, the
/// last four lower it, so the nearest square of a ray is its lowest bit for `d < 4` and its
/// highest for `d >= 4`; direction `d` and `d ^ 4` are opposite.
pub const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];

/// True when direction `d` is orthogonal (a Miner's direction).
#[inline(always)]
pub const fn is_orthogonal(d: usize) -> bool {
    d & 3 < 2
}

/// The 8 adjacent squares (Builder, Jester, General; the squares a Dragon never takes).
pub static ADJACENT: [Bb; 81] =
    pattern(&[(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)]);

/// The 4 orthogonal neighbours (Catapult moves; where a protecting Sentinel stands).
pub static ORTHOGONAL: [Bb; 81] = pattern(&[(0, 1), (1, 0), (0, -1), (-1, 0)]);

/// The Sentinel's 8 knight jumps.
pub static KNIGHT: [Bb; 81] =
    pattern(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);

/// The Catapult's 8 targets: 3 away orthogonally and (2,2) away diagonally.
pub static CATAPULT: [Bb; 81] =
    pattern(&[(0, 3), (3, 0), (0, -3), (-3, 0), (2, 2), (2, -2), (-2, -2), (-2, 2)]);

/// `RAYS[d][sq]`: the squares from `sq` (excluded) to the edge in direction `d`.
pub static RAYS: [[Bb; 81]; 8] = rays();

/// All 8 rays of a square together: where a slider must stand to strike it.
pub static LINES: [Bb; 81] = lines();

/// `ZOMBIE_NEAR[side][sq]`: the 3 forward squares of a Zombie of `side` (0 white, 1 black).
pub static ZOMBIE_NEAR: [[Bb; 81]; 2] =
    [pattern(&[(-1, 1), (0, 1), (1, 1)]), pattern(&[(-1, -1), (0, -1), (1, -1)])];

/// One Zombie leap: the square it jumps over (which must be empty) and the square it takes.
#[derive(Clone, Copy, Debug)]
pub struct Leap {
    pub over: Bb,
    pub onto: Bb,
}

/// `ZOMBIE_LEAPS[side][sq]`: the leaps of a Zombie of `side` on `sq`; a leap that would leave
/// the board has `onto` empty, so it never matches anything.
pub static ZOMBIE_LEAPS: [[[Leap; 3]; 81]; 2] = [leaps(1), leaps(-1)];

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (sq % 9) as i8 + df;
    let rank = (sq / 9) as i8 + dr;
    if file >= 0 && file < 9 && rank >= 0 && rank < 9 { Some((rank * 9 + file) as usize) } else { None }
}

const fn pattern(steps: &[(i8, i8)]) -> [Bb; 81] {
    let mut table = [Bb::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = offset(sq, steps[i].0, steps[i].1) {
                bits |= 1u128 << to;
            }
            i += 1;
        }
        table[sq] = Bb(bits);
        sq += 1;
    }
    table
}

const fn rays() -> [[Bb; 81]; 8] {
    let mut table = [[Bb::EMPTY; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 81 {
            let mut bits = 0u128;
            let mut at = sq;
            while let Some(next) = offset(at, df, dr) {
                bits |= 1u128 << next;
                at = next;
            }
            table[d][sq] = Bb(bits);
            sq += 1;
        }
        d += 1;
    }
    table
}

const fn lines() -> [Bb; 81] {
    let rays = rays();
    let mut table = [Bb::EMPTY; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut bits = 0u128;
        let mut d = 0;
        while d < 8 {
            bits |= rays[d][sq].0;
            d += 1;
        }
        table[sq] = Bb(bits);
        sq += 1;
    }
    table
}

const fn leaps(up: i8) -> [[Leap; 3]; 81] {
    let none = Leap { over: Bb::EMPTY, onto: Bb::EMPTY };
    let mut table = [[none; 3]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < 3 {
            let df = i as i8 - 1;
            if let (Some(over), Some(onto)) = (offset(sq, df, up), offset(sq, 2 * df, 2 * up)) {
                table[sq][i] = Leap { over: Bb::square(over), onto: Bb::square(onto) };
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_sizes_match_the_board_geometry() {
        let e5 = 4 * 9 + 4;
        assert_eq!(ADJACENT[e5].count(), 8);
        assert_eq!(KNIGHT[e5].count(), 8);
        assert_eq!(CATAPULT[e5].count(), 8);
        assert_eq!(KNIGHT[0].count(), 2);
        assert_eq!(CATAPULT[0].count(), 3);
        assert_eq!(LINES[e5].count(), 32);
        assert_eq!(ZOMBIE_NEAR[0][e5], Bb::square(e5 + 8) | Bb::square(e5 + 9) | Bb::square(e5 + 10));
        assert!(ZOMBIE_LEAPS[1][9][0].onto.is_empty());
        assert_eq!(ZOMBIE_LEAPS[0][e5][1].onto, Bb::square(e5 + 18));
    }

    #[test]
    fn ray_ends_are_the_lowest_or_highest_bit_as_documented() {
        let e5 = 4 * 9 + 4;
        for d in 0..8 {
            let (df, dr) = DIRECTIONS[d];
            let near = offset(e5, df, dr).unwrap();
            let ray = RAYS[d][e5];
            assert_eq!(if d < 4 { ray.lowest() } else { ray.highest() }, near);
            assert!(RAYS[d ^ 4][near].has(e5));
        }
        assert!(is_orthogonal(0) && is_orthogonal(1) && is_orthogonal(4) && is_orthogonal(5));
        assert!(!is_orthogonal(2) && !is_orthogonal(7));
    }
}
