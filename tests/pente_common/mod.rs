//! Helpers shared by the Pente tests: boards drawn by hand, points by name.
#![allow(dead_code)]

use arbiter::games::pente::point::COLUMNS;
use arbiter::games::pente::{Board, Color, Point, Position};

/// A board drawn as 19 lines, row 19 first, each optionally labelled with its row number; a
/// line of column letters and blank lines are skipped. Panics on a bad drawing.
pub fn board(drawing: &str) -> Board {
    let mut rows = Vec::new();
    for line in drawing.lines().map(str::trim).filter(|l| !l.is_empty() && *l != COLUMNS) {
        let (label, cells) = match line.split_once(' ') {
            Some((label, cells)) => (Some(label), cells.trim()),
            None => (None, line),
        };
        if let Some(label) = label {
            assert_eq!(label, (19 - rows.len()).to_string(), "row labels count down from 19: {line}");
        }
        rows.push(cells.to_string());
    }
    Board::from_text(&rows.join("\n")).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The position with `to_move` to play on a drawn board, nothing captured.
pub fn position(to_move: Color, drawing: &str) -> Position {
    Position::new(to_move, board(drawing))
}

/// The position with White's stones on `white` and Black's on `black` (space-separated names).
pub fn stones(to_move: Color, white: &str, black: &str) -> Position {
    Position::new(to_move, Board::from_points(white, black).unwrap())
}

/// A point by name.
pub fn pt(name: &str) -> Point {
    name.parse().unwrap()
}

/// Points by space-separated names, sorted as the oracle lists them (`1A` first).
pub fn pts(names: &str) -> Vec<Point> {
    let mut v: Vec<Point> = names.split_whitespace().map(pt).collect();
    v.sort();
    v
}

/// Names of points, space-separated, for readable assertions.
pub fn names(points: &[Point]) -> String {
    points.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
}
