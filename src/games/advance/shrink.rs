//! One-step simplifications of a position, for shrinking a failure to something a person can
//! read: remove a piece or a wall, or make a piece simpler, keeping the position well-formed.

use super::board::Board;
use super::piece::{Cell, Kind, Piece};
use super::position::Position;
use super::reference::has_legal_move;
use super::square::Square;
use crate::side::Side;

/// Every position one step simpler than `board` (with `side` to move) that is well-formed and
/// leaves `side` a legal move (as the assignment promises every bot): first each non-General
/// piece or wall removed, then each piece other than a Zombie or General replaced by one of lower
/// value. Generals stay.
pub fn simplifications(board: &Board, side: Side) -> Vec<Board> {
    let mut out = Vec::new();
    let well_formed =
        |b: &Board| Position::new(b.clone(), side).validate().is_ok() && has_legal_move(b, side);
    for sq in Square::all() {
        let removable = match board[sq] {
            Cell::Wall => true,
            Cell::Piece(p) => p.kind != Kind::General,
            Cell::Empty => false,
        };
        if removable {
            let mut b = board.clone();
            b.set(sq, Cell::Empty);
            if well_formed(&b) {
                out.push(b);
            }
        }
    }
    for sq in Square::all() {
        let Cell::Piece(p) = board[sq] else { continue };
        for &kind in Kind::ALL.iter().filter(|k| k.value() < p.kind.value() && **k != Kind::General) {
            let mut b = board.clone();
            b.set(sq, Cell::Piece(Piece::new(p.side, kind)));
            if well_formed(&b) {
                out.push(b);
            }
        }
    }
    out
}

/// Shrinks `board` one step at a time while `keeps` holds of the simpler position, taking the
/// first simplification that keeps it each time, until none does.
pub fn shrink_while(board: &Board, side: Side, mut keeps: impl FnMut(&Board) -> bool) -> Board {
    let mut current = board.clone();
    'smaller: loop {
        for candidate in simplifications(&current, side) {
            if keeps(&candidate) {
                current = candidate;
                continue 'smaller;
            }
        }
        return current;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplifications_remove_or_weaken_one_thing_and_stay_well_formed() {
        let board = Board::from_text("....g....\n.........\n.........\n.........\n....#....\n.........\n....M....\n.........\n....G....\n").unwrap();
        let steps = simplifications(&board, Side::White);
        // The wall on e5 shields the black General from the white Miner: removing it would make
        // the position invalid, so it is not offered. The Miner may go, or become a Zombie,
        // Builder or Jester.
        assert_eq!(steps.len(), 4);
        assert!(steps.iter().all(|b| b.get("e5".parse().unwrap()) == Cell::Wall));
        assert_eq!(steps.iter().filter(|b| b.occupied_count() == 3).count(), 1);
        let weakened: Vec<char> =
            steps.iter().skip(1).map(|b| b.get("e3".parse().unwrap()).to_char()).collect();
        assert_eq!(weakened, ['Z', 'B', 'J']);
    }

    #[test]
    fn shrinking_keeps_only_what_the_property_needs() {
        // Keep "a black Dragon stands next to a white piece other than the General".
        let board = Board::from_text("....g..#.\n.zz......\n..#......\n...dJ....\n.M.......\n..s......\n.........\nZZ.......\n....G....\n").unwrap();
        let has = |b: &Board| {
            b.pieces().any(|(sq, p)| {
                p.kind == Kind::Dragon
                    && p.side == Side::Black
                    && b.pieces()
                        .any(|(t, q)| q.side == Side::White && q.kind != Kind::General && t.distance(sq) == 1)
            })
        };
        assert!(has(&board));
        let small = shrink_while(&board, Side::White, has);
        assert!(has(&small));
        // Both Generals, the Dragon and one neighbour, made as simple as possible: a Zombie.
        assert_eq!(small.occupied_count(), 4, "{small:?}");
        assert!(small.pieces().any(|(_, p)| p.kind == Kind::Zombie && p.side == Side::White));
    }
}
