//! Helpers shared by the Pente tests: boards drawn by hand, points by name.
#![allow(dead_code)]

use arbiter::games::pente::point::COLUMNS;
use arbiter::games::pente::{Board, Color, Point, Position};

/// A board drawn by hand, row 19 at the top. Either 19 unlabelled lines, or lines labelled with
/// their row number (counting down), where a row left out is empty: a test draws only the rows
/// that hold stones. A line of column letters and blank lines are skipped. Panics on a bad
/// drawing.
pub fn board(drawing: &str) -> Board {
    let mut rows = vec![".".repeat(19); 19];
    let (mut next, mut unlabelled) = (19, 0);
    for line in drawing.lines().map(str::trim).filter(|l| !l.is_empty() && *l != COLUMNS) {
        let (row, cells) = match line.split_once(' ') {
            Some((label, cells)) => (label.parse::<usize>().unwrap_or(0), cells.trim()),
            None => {
                unlabelled += 1;
                (next, line)
            }
        };
        assert!((1..=next).contains(&row), "row labels count down from 19: {line}");
        rows[19 - row] = cells.to_string();
        next = row - 1;
    }
    assert!(unlabelled == 0 || unlabelled == 19, "an unlabelled drawing has 19 lines, found {unlabelled}");
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
