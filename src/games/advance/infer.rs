//! What move a bot meant, from the board it wrote.
//!
//! When a bot's output is not the board after any legal move, the most useful thing to tell its
//! author is which move it tried and which rule forbids it. [`attempted_moves`] reads the
//! squares that changed and returns every move that, carried out mechanically, turns the
//! input board into the output board, whoever owns the piece and whatever the rules say.

use super::board::Board;
use super::notation::{Action, Move};
use super::piece::{Cell, Kind, Piece};
use super::square::Square;

/// One square that differs between two boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub square: Square,
    pub before: Cell,
    pub after: Cell,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} -> {}", self.square, self.before.to_char(), self.after.to_char())
    }
}

/// The squares that differ between `before` and `after`, a1 first.
pub fn changes(before: &Board, after: &Board) -> Vec<Change> {
    Square::all()
        .filter(|&sq| before[sq] != after[sq])
        .map(|square| Change { square, before: before[square], after: after[square] })
        .collect()
}

/// Every move that mechanically turns `before` into `after` (see the module documentation),
/// nearest pieces first. Empty when no single action of any piece explains the change.
pub fn attempted_moves(before: &Board, after: &Board) -> Vec<Move> {
    let changed = changes(before, after);
    let mut found = match changed.as_slice() {
        [one] => single_square(before, one),
        [a, b] => two_squares(a, b),
        _ => Vec::new(),
    };
    found.sort_by_key(|m| (m.from.distance(m.to), *m));
    found
}

/// Pieces of `kind` (either side) on the board.
fn all_of(board: &Board, kind: Kind) -> impl Iterator<Item = (Square, Piece)> + '_ {
    board.pieces().filter(move |(_, p)| p.kind == kind)
}

/// One square changed: a wall built, a piece shot, or a piece converted.
fn single_square(before: &Board, c: &Change) -> Vec<Move> {
    let to = c.square;
    let acting = |kind: Kind, action: Action, side: Option<crate::side::Side>| -> Vec<Move> {
        all_of(before, kind)
            .filter(|(_, p)| side.is_none_or(|s| p.side == s))
            .map(|(from, _)| Move::new(kind, from, action, to))
            .collect()
    };
    match (c.before, c.after) {
        (Cell::Empty, Cell::Wall) => acting(Kind::Builder, Action::Build, None),
        (Cell::Piece(p), Cell::Empty) => acting(Kind::Catapult, Action::Shoot, Some(p.side.opponent())),
        (Cell::Piece(p), Cell::Piece(q)) if p.kind == q.kind && p.side != q.side => {
            acting(Kind::Jester, Action::Convert, Some(q.side))
        }
        _ => Vec::new(),
    }
}

/// Two squares changed: a piece moved (perhaps capturing), or two pieces swapped places.
fn two_squares(a: &Change, b: &Change) -> Vec<Move> {
    let mut found = Vec::new();
    for (from, to) in [(a, b), (b, a)] {
        if let (Cell::Piece(p), Cell::Empty) = (from.before, from.after)
            && to.after == Cell::Piece(p)
        {
            let action = match to.before {
                Cell::Empty => Action::Move,
                _ if p.kind == Kind::Zombie && from.square.distance(to.square) == 2 => Action::Leap,
                _ => Action::Capture,
            };
            found.push(Move::new(p.kind, from.square, action, to.square));
        }
    }
    if let (Cell::Piece(p), Cell::Piece(q)) = (a.before, b.before)
        && a.after == b.before
        && b.after == a.before
        && p.side == q.side
    {
        // The Jester is the one that acts; if neither is, the first square's piece "tried".
        let (from, to, kind) = if q.kind == Kind::Jester && p.kind != Kind::Jester {
            (b.square, a.square, q.kind)
        } else {
            (a.square, b.square, p.kind)
        };
        found.push(Move::new(kind, from, Action::Swap, to));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(text: &str) -> Board {
        Board::from_text(text).unwrap()
    }

    const BEFORE: &str =
        "........g\n.........\n.........\n.........\n.........\n.....d...\n.....Z...\n........#\n.......#G\n";

    #[test]
    fn a_piece_moving_onto_a_square_is_a_move_or_capture() {
        let before = b(BEFORE);
        let after = b(&BEFORE.replace(".....d...\n.....Z...", ".....Z...\n........."));
        assert_eq!(attempted_moves(&before, &after), vec!["Zf3xf4".parse().unwrap()]);
        let after = b(&BEFORE.replace("........#\n.......#G", "........#\n......G#."));
        assert_eq!(attempted_moves(&before, &after), vec!["Gi1-g1".parse().unwrap()]);
    }

    #[test]
    fn a_vanished_piece_is_a_shot_only_if_there_is_a_catapult() {
        let before = b(BEFORE);
        let after = b(&BEFORE.replace(".....d...", "........."));
        assert!(attempted_moves(&before, &after).is_empty());
    }

    #[test]
    fn several_changes_are_no_single_move() {
        let before = b(BEFORE);
        let after = b(&BEFORE
            .replace(".....d...\n.....Z...", ".........\n.........")
            .replace("........g", "......g.."));
        assert!(attempted_moves(&before, &after).is_empty());
        assert_eq!(changes(&before, &after).len(), 4);
    }
}
