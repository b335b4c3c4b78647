//! Pente's answers for the position commands (`moves`, `apply`, `perft`, `show`, `expect`).

use std::fmt::Write as _;

use anyhow::anyhow;
use serde_json::json;

use super::Color;
use super::move_text::parse_move;
use super::oracle::{Category, Oracle, explain_status};
use super::point::{COLUMNS, Point, SIZE, list};
use super::position::Position;
use super::referee::PenteReferee;
use super::rules::play;
use super::text::Strictness;
use crate::harness::analyst::{
    Analyst, ExpectRequest, MoveLine, PositionInput, category_sets, check_reachable, check_side, notations,
    only_category, plural, shown_set, write_threats,
};
use crate::harness::perft::divide_notated;
use crate::side::Side;

/// The deepest perft `arbiter perft` runs for Pente: about 361^3 = 47 million sequences on an
/// open board already.
pub const MAX_PERFT_DEPTH: u32 = 3;

/// Reads input.txt and checks it: the side given (if any) must be the file's, and unless
/// `allow_invalid`, the position must be one a game can reach.
pub fn load(input: &PositionInput) -> anyhow::Result<Position> {
    let position = Position::parse(input.bytes, input.origin, Strictness::Lenient)
        .map_err(|e| anyhow!("{}", e.render()))?;
    let file_side = position.to_move.side();
    check_side(input, file_side)?;
    if !input.allow_invalid {
        check_reachable(input, &position.inconsistencies())?;
    }
    Ok(position)
}

/// The board with column letters above and below and row numbers on both sides, row 19 first.
pub fn draw(position: &Position) -> String {
    draw_marked(position, &[])
}

/// [`draw`], with some points shown by a mark of their own instead of their stone or `.`: a
/// failure's report marks the bot's move and the expected points. A later mark of a point
/// wins over an earlier one.
pub fn draw_marked(position: &Position, marks: &[(Point, char)]) -> String {
    let letters: Vec<String> = COLUMNS.chars().map(String::from).collect();
    let files = format!("     {}\n", letters.join(" "));
    let mut out = files.clone();
    for (i, line) in position.board.lines().iter().enumerate() {
        let row = SIZE - i;
        let cells: Vec<String> = line
            .chars()
            .enumerate()
            .map(|(column, stone)| {
                let here = Point::new(row, column);
                let mark = marks.iter().rev().find(|(p, _)| Some(*p) == here).map(|&(_, m)| m);
                mark.unwrap_or(stone).to_string()
            })
            .collect();
        let _ = writeln!(out, " {row:>2}  {}  {row}", cells.join(" "));
    }
    out.push_str(&files);
    out
}

/// The text report of `expect`: the position's category, every category's set, and why.
fn summary(oracle: &Oracle, only: Option<Category>) -> String {
    let pos = &oracle.position;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} to move: {}; captured pieces White {}, Black {}",
        pos.to_move,
        plural(oracle.legal.len(), "legal move"),
        pos.captured_by(Color::White),
        pos.captured_by(Color::Black)
    );
    if let Some(reason) = oracle.no_moves_reason() {
        let _ = writeln!(out, "{reason}: no category expects anything here");
        return out;
    }
    let category = oracle.category().expect("there is a legal move");
    let _ = writeln!(
        out,
        "the position's category: {category} (the first of opening, win, block, capture, legal that applies)"
    );
    for c in [Category::Opening, Category::Win, Category::Block, Category::Capture, Category::Legal] {
        if only.is_some_and(|o| o != c) {
            continue;
        }
        let set = oracle.expected(c);
        let shown = shown_set(&set, matches!(c, Category::Legal | Category::Opening), list);
        let _ = writeln!(out, "\n{c}: {shown}");
        if c == Category::Block {
            write_threats(&mut out, pos.to_move.opponent(), "at", &oracle.threats, list);
        }
        if c == Category::Capture && !set.is_empty() {
            let _ = writeln!(out, "  each captures {}", plural(oracle.most_pairs, "pair"));
        }
        if let Some(&first) = set.first()
            && c == category
        {
            let _ = writeln!(out, "  for example: {}", oracle.explain(first));
        }
    }
    if let Some(c) = only {
        let _ = writeln!(out, "\nexpected for {c}: {}", list(&oracle.expected(c)));
    }
    out
}

impl Analyst for PenteReferee {
    fn moves(&self, input: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        let position = load(input)?;
        let legal = super::legal_moves(&position, &self.rules);
        let lines = MoveLine::each(legal, |&p| play(&position, p).to_input_text());
        Ok((position.to_move.side(), lines))
    }

    fn apply(&self, input: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let position = load(input)?;
        let p = parse_move(mv.as_bytes(), "the move", Strictness::Lenient)
            .map_err(|e| anyhow!("{}", e.render()))?;
        let oracle = Oracle::new(&position, &self.rules);
        Ok(if oracle.legal.contains(&p) {
            Ok(play(&position, p).to_input_text())
        } else {
            Err(oracle.explain(p))
        })
    }

    fn max_perft_depth(&self) -> u32 {
        MAX_PERFT_DEPTH
    }

    fn perft_divide(&self, input: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        let moves = |p: &Position| super::legal_moves(p, &self.rules);
        Ok(divide_notated(&load(input)?, depth, &moves, &play))
    }

    fn show(&self, input: &PositionInput) -> anyhow::Result<String> {
        let position = load(input)?;
        let oracle = Oracle::new(&position, &self.rules);
        let mut out = draw(&position);
        out.push('\n');
        for color in [Color::White, Color::Black] {
            let _ = writeln!(
                out,
                "{color:5}  {} on the board, {} captured",
                plural(position.board.count(color), "stone"),
                plural(position.captured_by(color) as usize, "piece")
            );
        }
        match explain_status(&position) {
            Some(over) => {
                let _ = writeln!(out, "the game is over: {over}");
            }
            None if oracle.threats.moves.is_empty() => {
                let _ = writeln!(out, "{} threatens no win", position.to_move.opponent());
            }
            None => {
                let _ = writeln!(
                    out,
                    "{} threatens to win at {}",
                    position.to_move.opponent(),
                    list(&oracle.threats.moves)
                );
            }
        }
        if let Some(rule) = self.rules.describe_opening(&position) {
            let _ = writeln!(out, "opening: {rule}");
        }
        let _ = writeln!(
            out,
            "{} to move, {} seconds left, {}",
            position.to_move,
            position.seconds_left,
            plural(oracle.legal.len(), "legal move")
        );
        Ok(out)
    }

    fn expect(&self, input: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String> {
        let only: Option<Category> = only_category(request, "Pente")?;
        let position = load(input)?;
        let oracle = Oracle::new(&position, &self.rules);
        if request.json {
            let sets = category_sets(Category::ALL, Category::name, |c| notations(&oracle.expected(c)));
            let mut out = json!({
                "to_move": position.to_move.side(),
                "legal": notations(&oracle.legal),
                "category": oracle.category().map(Category::name),
                "sets": sets,
                "threats": notations(&oracle.threats.moves),
                "lost": oracle.threats.lost(),
                "most_pairs": oracle.most_pairs,
                "no_moves": oracle.no_moves_reason(),
            });
            if let Some(c) = only {
                out["expected"] = json!(notations(&oracle.expected(c)));
            }
            return Ok(serde_json::to_string_pretty(&out)? + "\n");
        }
        if let Some(text) = &request.why {
            let p = parse_move(text.as_bytes(), "--why", Strictness::Lenient)
                .map_err(|e| anyhow!("{}", e.render()))?;
            return Ok(oracle.explain(p) + "\n");
        }
        Ok(summary(&oracle, only))
    }
}

/// What a category asks for, in the few words a report puts after the expected points.
pub fn asks(category: Category) -> &'static str {
    match category {
        Category::Opening => "a point the opening rule allows",
        Category::Win => "a point that wins at once (five in a row, or the tenth captured stone)",
        Category::Block => "a point that stops every threat to win at once",
        Category::Capture => "a point that captures the most pairs",
        Category::Legal => "any legal point",
    }
}

/// The cause of a failure whose point is one column to the left of a right one, from column J
/// on, or whose letter is `I`: the bot letters the columns A..S with I, where the board skips
/// I (A..H, J..T). Its `9J` means 9K, so from J on every point it names is one column to the
/// left of the one it means: some show as illegal, more as wrong. Sure when the bot wrote `I`,
/// or when the point it meant is one of a case's few right answers; possible when the point it
/// meant is merely legal (or one of many right ones), which a bot with another bug also shows.
pub fn columns_with_i(
    output: &[u8],
    played: Option<Point>,
    legal: &[Point],
    expected: &[Point],
) -> Option<crate::harness::failure::Cause> {
    /// Expected points at most, for the point meant being among them to be telling.
    const FEW: usize = 4;
    let cause = |sure: bool| {
        let text = "the columns skip I (A..H, J..T): the bot seems to letter them A..S with I, so \
                    its points from J on are one column left of those it means (its 9J is 9K)";
        let c = crate::harness::failure::Cause::new("columns-skip-i", text);
        if sure { c } else { c.possible() }
    };
    let text = String::from_utf8_lossy(output);
    let letter = text.trim().trim_start_matches(|c: char| c.is_ascii_digit()).chars().next();
    if played.is_none() {
        return (letter == Some('I')).then(|| cause(true));
    }
    let p = played?;
    if p.column() < COLUMNS.find('J')? {
        return None;
    }
    // The bot's letter names the column to the right of the one it lands on.
    let meant = p.offset(0, 1)?;
    if expected.contains(&meant) {
        return Some(cause(expected.len() <= FEW));
    }
    (!legal.contains(&p) && legal.contains(&meant)).then(|| cause(false))
}
