//! Lines of sight: the eight directions, the squares each direction passes from each square,
//! and the first chip a square sees that way. Tables are built at compile time.

use super::square::{SIZE, Square};

/// The eight directions as (columns, rows) steps: right, down-right, down, down-left, left,
/// up-left, up, up-right. Direction `d + 4` (mod 8) is the opposite of `d`.
pub const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// The direction opposite to `d`.
pub const fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

/// Whether walking direction `d` raises the square index (`8x + y`), so that the nearest
/// square of a ray is its lowest bit.
const fn ascending(d: usize) -> bool {
    let (dx, dy) = DIRECTIONS[d];
    dx > 0 || (dx == 0 && dy > 0)
}

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut i = 0;
    while i < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRECTIONS[d];
            let mut x = (i / 8) as i8 + dx;
            let mut y = (i % 8) as i8 + dy;
            while x >= 0 && x < SIZE as i8 && y >= 0 && y < SIZE as i8 {
                rays[i][d] |= 1 << (x as usize * 8 + y as usize);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        i += 1;
    }
    rays
}

/// `RAYS[i][d]`: the squares strictly beyond square `i` in direction `d`, to the board's edge.
pub const RAYS: [[u64; 8]; 64] = build_rays();

const fn build_neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let mut d = 0;
        while d < 8 {
            // The nearest square of each ray is the neighbour that way.
            let ray = RAYS[i][d];
            if ray != 0 {
                out[i] |=
                    if ascending(d) { ray & ray.wrapping_neg() } else { 1 << (63 - ray.leading_zeros()) };
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// `NEIGHBOURS[i]`: the up to eight squares touching square `i`, orthogonally or diagonally.
pub const NEIGHBOURS: [u64; 64] = build_neighbours();

/// The first occupied square seen from square `from` in direction `d`, given the occupied
/// squares `occupied`: any chip, of either colour, stops the line.
#[inline]
pub fn first_seen(occupied: u64, from: usize, d: usize) -> Option<usize> {
    let hits = RAYS[from][d] & occupied;
    if hits == 0 {
        None
    } else if ascending(d) {
        Some(hits.trailing_zeros() as usize)
    } else {
        Some(63 - hits.leading_zeros() as usize)
    }
}

/// The direction from `a` to `b` when they share a row, column or diagonal (and differ).
pub fn direction_between(a: Square, b: Square) -> Option<usize> {
    (0..8).find(|&d| RAYS[a.index()][d] & b.bit() != 0)
}

/// The squares strictly between `a` and `b`, which share a line, nearest `a` first.
pub fn between(a: Square, b: Square) -> Vec<Square> {
    let Some(d) = direction_between(a, b) else { return Vec::new() };
    let (dx, dy) = DIRECTIONS[d];
    let mut out = Vec::new();
    let mut at = a;
    while let Some(next) = at.offset(dx, dy) {
        if next == b {
            break;
        }
        out.push(next);
        at = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::square::tests::sq;

    #[test]
    fn rays_reach_the_edge_and_neighbours_touch() {
        // From 33 going right: 43 53 63 73.
        assert_eq!(RAYS[sq("33").index()][0].count_ones(), 4);
        // From 00 going up-left: nothing.
        assert_eq!(RAYS[sq("00").index()][5], 0);
        assert_eq!(NEIGHBOURS[sq("00").index()].count_ones(), 3);
        assert_eq!(NEIGHBOURS[sq("33").index()].count_ones(), 8);
        assert_eq!(NEIGHBOURS[sq("70").index()].count_ones(), 3);
    }

    #[test]
    fn the_first_chip_stops_the_line() {
        let occupied = sq("53").bit() | sq("63").bit() | sq("11").bit();
        assert_eq!(first_seen(occupied, sq("33").index(), 0), Some(sq("53").index()));
        assert_eq!(first_seen(occupied, sq("33").index(), 5), Some(sq("11").index()));
        assert_eq!(first_seen(occupied, sq("33").index(), 4), None);
        assert_eq!(between(sq("33"), sq("63")), vec![sq("43"), sq("53")]);
        assert_eq!(direction_between(sq("33"), sq("45")), None);
    }
}
