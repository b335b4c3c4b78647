//! Positions drawn for people: what the HTML pages (`--html`) ask of a game. A game reads one
//! of its board files into a [`Grid`] (labels, pieces, a caption such as Pente's capture counts)
//! and the grid is drawn as inline SVG here, the same way for every game, so that a later game
//! draws itself by saying what stands where. A game with a board unlike a grid overrides
//! [`Drawing::draw`].

use std::fmt::Write as _;

use crate::harness::html::escape;
use crate::side::Side;

/// A game's drawings of its positions.
pub trait Drawing: Send + Sync {
    /// Reads a board file into a grid; `side` is the side to move when the caller knows it
    /// (Advance's files do not say). An error says why the file cannot be read.
    fn grid(&self, board: &[u8], side: Option<Side>) -> Result<Grid, String>;

    /// The move `notation` named for a reader (`Zombie leap e2-e4`), played from `board` by
    /// `side`; the notation itself when the game has no better name.
    fn name_move(&self, _board: &[u8], _side: Side, notation: &str) -> String {
        notation.to_string()
    }

    /// The cells (column, row from the top) that the move `notation` names on `board`, when
    /// `side` plays it: where a move that cannot be played is marked on the position it was
    /// given (Pente's point already taken). Empty (the default) when the game cannot say.
    fn move_cells(&self, _board: &[u8], _side: Side, _notation: &str) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// The cells that show how `winner` won, by the move from `before` to `after` that ended
    /// the game (Pente's five in a row, Advance's captured General), marked on the last
    /// position of the viewer. Empty (the default) when the game cannot say or the win has no
    /// place on the board (captures counted, a forfeit).
    fn winning_cells(&self, _before: &[u8], _after: &[u8], _winner: Side) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// The board file drawn as an SVG element, the squares in `marks` highlighted.
    fn draw(&self, board: &[u8], side: Option<Side>, marks: &[Mark]) -> Result<String, String> {
        Ok(self.grid(board, side)?.svg(marks))
    }

    /// A whole game drawn as one [`Scene`] that changes ply by ply, for a game whose board is
    /// no grid (PlanetWars' graph of planets) or whose games are too long to draw every
    /// position apart; `boards` are the record files of every ply from the start, and `ended`
    /// says the game is over after the last (whose frame then says so rather than who is to
    /// move). `None` (the default): the viewer draws each position's grid.
    fn scene(&self, _boards: &[Vec<u8>], _ended: bool) -> Option<Result<Scene, String>> {
        None
    }
}

/// A game drawn once and changed ply by ply by a script: the viewer shows `svg`, and to show
/// ply `n` calls `script` (a JavaScript function expression `function (svg, frame) { ... }`)
/// with the SVG element and `frames[n]`. `series` are drawn as a plot under the picture, its
/// cursor at the ply shown (PlanetWars: each player's population over time).
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// An `<svg>` element whose parts the script changes.
    pub svg: String,
    /// What the script needs to show each ply, one value per ply from the start.
    pub frames: Vec<serde_json::Value>,
    /// The function that shows a frame.
    pub script: &'static str,
    /// What the plot's vertical axis counts (`population`).
    pub measure: &'static str,
    /// The plot's lines: a name (`Player 1`), a colour, one value per ply.
    pub series: Vec<(String, &'static str, Vec<f64>)>,
}

/// A board as a grid of cells, for drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Column labels, left to right (`a`..`i`, `A`..`T`).
    pub columns: Vec<String>,
    /// Row labels, top to bottom (`9`..`1`).
    pub rows: Vec<String>,
    /// What stands on each cell, row by row from the top.
    pub cells: Vec<Option<Stone>>,
    /// Whether pieces stand in squares (Advance) or stones on the lines' crossings (Pente).
    pub style: GridStyle,
    /// A line under the board: the side to move, captures counted.
    pub caption: String,
}

/// Squares or crossings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridStyle {
    /// A chequered board of squares.
    Squares,
    /// A go board: stones on crossings.
    Crossings,
}

/// What stands on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stone {
    /// Whose it is; `None` for nobody's (Advance's walls).
    pub side: Option<Side>,
    /// The letter drawn on it (`Z`), empty for a plain stone.
    pub glyph: String,
    /// Its name, shown when the pointer rests on it (`white Zombie`).
    pub title: String,
}

/// A highlighted cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Column, from the left, 0-based.
    pub column: usize,
    /// Row, from the top, 0-based.
    pub row: usize,
    pub style: MarkStyle,
}

/// Why a cell is highlighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkStyle {
    /// The move just played touched it (from, to, a capture).
    Moved,
    /// It differs from the board it is compared with (the bot's board against the expected),
    /// or the bot named it with a move that cannot be played.
    Differs,
    /// It shows how the game was won (the winning line, the captured piece's square).
    Wins,
}

impl MarkStyle {
    fn colour(self) -> &'static str {
        match self {
            MarkStyle::Moved => "#f2c94c",
            MarkStyle::Differs => "#eb5757",
            MarkStyle::Wins => "#6fcf97",
        }
    }

    /// The class name the pages (and the browser test) find marks by.
    fn class(self) -> &'static str {
        match self {
            MarkStyle::Moved => "moved",
            MarkStyle::Differs => "differs",
            MarkStyle::Wins => "wins",
        }
    }
}

/// Pixels per cell.
const CELL: usize = 32;
/// Boards wider than this many cells are drawn in smaller cells.
const LARGE: usize = 12;
/// Room for labels around the board.
const MARGIN: usize = 22;

impl Grid {
    /// Marks of `style` on `cells` (column, row from the top) that lie on the grid.
    pub fn marks(&self, cells: &[(usize, usize)], style: MarkStyle) -> Vec<Mark> {
        cells
            .iter()
            .filter(|&&(column, row)| column < self.columns.len() && row < self.rows.len())
            .map(|&(column, row)| Mark { column, row, style })
            .collect()
    }

    /// The cell at `column`, `row`.
    pub fn at(&self, column: usize, row: usize) -> Option<&Stone> {
        self.cells.get(row * self.columns.len() + column).and_then(Option::as_ref)
    }

    /// The cells where `self` and `other` hold different things, as marks of `style`; every
    /// cell when the grids are of different sizes.
    pub fn differences(&self, other: &Grid, style: MarkStyle) -> Vec<Mark> {
        let width = self.columns.len();
        let same_shape = width == other.columns.len() && self.rows.len() == other.rows.len();
        (0..self.cells.len())
            .filter(|&i| !same_shape || strip(&self.cells[i]) != strip(&other.cells[i]))
            .map(|i| Mark { column: i % width.max(1), row: i / width.max(1), style })
            .collect()
    }

    /// The grid as an SVG element. Every cell carries `data-square` (its label, `e4`) and, when
    /// something stands on it, `data-piece` (its glyph, or `w`/`b` for a plain stone), so that
    /// a test reading the page in a browser finds what is drawn where.
    pub fn svg(&self, marks: &[Mark]) -> String {
        let (w, h) = (self.columns.len(), self.rows.len());
        // A large board (Pente's 19x19) in smaller cells, so that two fit side by side.
        let cell = if w > LARGE { CELL * 2 / 3 } else { CELL };
        // Wide enough for the caption too (about 6.5 pixels a character at its size).
        let width = (2 * MARGIN + w * cell).max(MARGIN + self.caption.chars().count() * 13 / 2);
        let height = 2 * MARGIN + h * cell + 20;
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">"#
        );
        let board_colour = match self.style {
            GridStyle::Squares => "#f0e6d2",
            GridStyle::Crossings => "#dcb35c",
        };
        let _ = write!(
            out,
            r#"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="{board_colour}"/>"#,
            w * cell,
            h * cell
        );
        let cx = move |c: usize| MARGIN + c * cell + cell / 2;
        let cy = cx;
        for (r, label) in self.rows.iter().enumerate() {
            let y = cy(r) + 4;
            let _ = write!(out, r#"<text x="{}" y="{y}" class="label">{}</text>"#, MARGIN / 2, escape(label));
            let _ = write!(
                out,
                r#"<text x="{}" y="{y}" class="label">{}</text>"#,
                MARGIN + w * cell + MARGIN / 2,
                escape(label)
            );
        }
        for (c, label) in self.columns.iter().enumerate() {
            let x = cx(c);
            let _ = write!(out, r#"<text x="{x}" y="{}" class="label">{}</text>"#, MARGIN - 7, escape(label));
            let _ = write!(
                out,
                r#"<text x="{x}" y="{}" class="label">{}</text>"#,
                MARGIN + h * cell + 15,
                escape(label)
            );
        }
        if self.style == GridStyle::Crossings {
            for i in 0..w {
                let x = cx(i);
                let _ = write!(
                    out,
                    r##"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#5a4320"/>"##,
                    cy(0),
                    cy(h.saturating_sub(1))
                );
            }
            for j in 0..h {
                let y = cy(j);
                let _ = write!(
                    out,
                    r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#5a4320"/>"##,
                    cx(0),
                    cx(w.saturating_sub(1))
                );
            }
        }
        for r in 0..h {
            for c in 0..w {
                let (x, y) = (MARGIN + c * cell, MARGIN + r * cell);
                let square = format!("{}{}", self.columns[c], self.rows[r]);
                let stone = self.at(c, r);
                let piece = stone.map(|s| {
                    if s.glyph.is_empty() {
                        match s.side {
                            Some(Side::White) => "w".to_string(),
                            Some(Side::Black) => "b".to_string(),
                            None => "#".to_string(),
                        }
                    } else {
                        s.glyph.clone()
                    }
                });
                let mark = marks.iter().rev().find(|m| m.column == c && m.row == r);
                let class = mark.map_or("cell".to_string(), |m| format!("cell {}", m.style.class()));
                let _ = write!(out, r#"<g class="{class}" data-square="{}""#, escape(&square));
                if let Some(p) = &piece {
                    let _ = write!(out, r#" data-piece="{}""#, escape(p));
                }
                out.push('>');
                let fill = match (self.style, mark) {
                    (_, Some(m)) => Some(m.style.colour()),
                    (GridStyle::Squares, None) if (r + c) % 2 == 1 => Some("#d9c7a3"),
                    _ => None,
                };
                if let Some(fill) = fill {
                    let opacity = if self.style == GridStyle::Crossings { "0.7" } else { "1" };
                    let _ = write!(
                        out,
                        r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" fill-opacity="{opacity}"/>"#
                    );
                }
                if let Some(s) = stone {
                    let _ = write!(out, "<title>{} {}</title>", escape(&square), escape(&s.title));
                    let (fill, ink) = match s.side {
                        Some(Side::White) => ("#ffffff", "#111111"),
                        Some(Side::Black) => ("#222222", "#ffffff"),
                        None => ("#777777", "#ffffff"),
                    };
                    let (px, py) = (x + cell / 2, y + cell / 2);
                    if s.side.is_none() {
                        let _ = write!(
                            out,
                            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/>"#,
                            x + 3,
                            y + 3,
                            cell - 6,
                            cell - 6
                        );
                    } else {
                        let _ = write!(
                            out,
                            r##"<circle cx="{px}" cy="{py}" r="{}" fill="{fill}" stroke="#111111"/>"##,
                            cell / 2 - 3
                        );
                    }
                    if !s.glyph.is_empty() {
                        let _ = write!(
                            out,
                            r#"<text x="{px}" y="{}" class="glyph" fill="{ink}">{}</text>"#,
                            py + 5,
                            escape(&s.glyph)
                        );
                    }
                }
                out.push_str("</g>");
            }
        }
        let _ = write!(
            out,
            r#"<text x="{MARGIN}" y="{}" class="caption">{}</text></svg>"#,
            height - 4,
            escape(&self.caption)
        );
        out
    }
}

/// What a cell shows, for comparing two boards: side and glyph, not the hover text.
fn strip(stone: &Option<Stone>) -> Option<(Option<Side>, &str)> {
    stone.as_ref().map(|s| (s.side, s.glyph.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(cells: &str) -> Grid {
        Grid {
            columns: vec!["a".into(), "b".into()],
            rows: vec!["2".into(), "1".into()],
            cells: cells
                .chars()
                .map(|c| {
                    (c != '.').then(|| Stone {
                        side: Some(if c.is_uppercase() { Side::White } else { Side::Black }),
                        glyph: c.to_uppercase().to_string(),
                        title: "a <piece>".into(),
                    })
                })
                .collect(),
            style: GridStyle::Squares,
            caption: "White to move & <b>".into(),
        }
    }

    #[test]
    fn differences_are_the_cells_that_change() {
        let a = grid("Z..z");
        let b = grid(".Z.z");
        let d = a.differences(&b, MarkStyle::Moved);
        assert_eq!(d.iter().map(|m| (m.column, m.row)).collect::<Vec<_>>(), vec![(0, 0), (1, 0)]);
        assert!(a.differences(&a, MarkStyle::Moved).is_empty());
    }

    #[test]
    fn the_svg_names_squares_and_pieces_and_escapes_text() {
        let svg = grid("Z..z").svg(&[Mark { column: 1, row: 1, style: MarkStyle::Differs }]);
        assert!(svg.contains(r#"data-square="a2" data-piece="Z""#), "{svg}");
        assert!(svg.contains(r#"class="cell differs" data-square="b1" data-piece="Z""#), "{svg}");
        assert!(!svg.contains("<b>") && !svg.contains("<piece>"));
        assert!(svg.contains("&amp; &lt;b&gt;"));
    }
}
