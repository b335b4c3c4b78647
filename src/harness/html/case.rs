//! A failing case drawn as two boards side by side: what the bot's answer leaves on the board,
//! and the expected board nearest to it, with the squares that differ marked.

use std::fmt::Write as _;

use std::path::Path;

use super::escape;
use crate::harness::analyst::PositionInput;
use crate::harness::files;
use crate::harness::referee::{Drawing, Grid, MarkStyle, Referee, named};
use crate::harness::verify::CaseResult;
use crate::side::Side;

/// Expected answers tried when looking for the nearest: a quiet position may expect every
/// legal move, and drawing each is needless.
const EXPECTED_TRIED: usize = 64;

/// A board and what to call it.
struct Shown {
    board: Vec<u8>,
    /// The side to move on it.
    side: Side,
    grid: Grid,
    caption: String,
}

/// The case's two boards and what went wrong, as a `<div class="case">`; without boards when
/// the game draws none or the case file cannot be read again.
pub fn failing_case(referee: &dyn Referee, case: &CaseResult) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"case\" data-case=\"{}\"><h3>{} <span class=\"fail\">{}</span></h3>",
        escape(&case.name),
        escape(&case.name),
        escape(case.verdict.as_str())
    );
    if let Some(drawing) = referee.drawing() {
        match files::read_capped(Path::new(&case.path), files::BOARD) {
            Ok(input) => out.push_str(&boards(referee, drawing, case, &input)),
            Err(e) => {
                let _ =
                    write!(out, "<p>(the case board cannot be read again: {})</p>", escape(&e.to_string()));
            }
        }
    }
    if referee.drawing().is_none()
        && let Some(picture) = &case.picture
    {
        let _ = write!(out, "<pre class=\"picture\">{}</pre>", escape(picture));
    }
    let _ = write!(out, "<p><b>Why:</b> {}</p>", escape(&case.reason));
    if let Some(diff) = &case.diff {
        out.push_str(&diff_lines(diff));
    }
    if let Some(rule) = &case.rule {
        let _ = write!(out, "<p><b>Rule:</b> <code>{}</code></p>", escape(rule));
    }
    if !case.stderr_tail.is_empty() {
        let _ = write!(out, "<p><b>The bot said:</b></p><pre>{}</pre>", escape(&case.stderr_tail));
    }
    let _ = write!(
        out,
        "<details><summary>reproduce</summary><pre>{}</pre></details></div>",
        escape(&case.reproduce)
    );
    out
}

/// A transcript or board diff as the text report shows it, one line of the page per line of
/// the diff, the expected and actual lines coloured.
fn diff_lines(diff: &str) -> String {
    let mut out = String::from("<pre class=\"diff\">");
    for line in diff.lines() {
        let trimmed = line.trim_start();
        let class = if trimmed.starts_with("expected") || trimmed.starts_with('-') {
            "expected"
        } else if trimmed.starts_with("actual") || trimmed.starts_with('+') {
            "actual"
        } else {
            "context"
        };
        let _ = writeln!(out, "<span class=\"{class}\">{}</span>", escape(line));
    }
    out.push_str("</pre>");
    out
}

/// The two figures.
fn boards(referee: &dyn Referee, drawing: &dyn Drawing, case: &CaseResult, input: &[u8]) -> String {
    let side = case.side;
    let analyst = referee.analyst();
    let position = PositionInput { bytes: input, origin: &case.path, side: Some(side), allow_invalid: true };
    let Ok(start) = drawing.grid(input, Some(side)) else {
        return "<p>(the case board cannot be drawn)</p>".to_string();
    };
    let after = |mv: &str| match analyst.apply(&position, mv) {
        Ok(Ok(board)) => {
            let board = board.into_bytes();
            drawing.grid(&board, Some(side.opponent())).ok().map(|grid| (board, grid))
        }
        _ => None,
    };
    // What the bot's answer leaves: its legal move played, else the board it wrote (an illegal
    // or unchanged board), else the position it was given.
    let played = case.played.as_deref().map(|m| named(m, case.played_kind.as_ref()));
    // Where the bot's move points, when it cannot be played: Pente's taken point.
    let unplayable = case
        .played
        .as_deref()
        .filter(|m| after(m).is_none())
        .map(|m| drawing.move_cells(input, side, m))
        .unwrap_or_default();
    let bot = case
        .played
        .as_deref()
        .and_then(after)
        .map(|(board, grid)| Shown {
            board,
            side: side.opponent(),
            grid,
            caption: format!("The bot played {}", played.clone().unwrap_or_default()),
        })
        .or_else(|| {
            let output = case.output.as_deref()?;
            let grid = drawing.grid(output.as_bytes(), Some(side.opponent())).ok()?;
            let what = played.as_ref().map_or(String::new(), |p| format!(" ({p})"));
            Some(Shown {
                board: output.as_bytes().to_vec(),
                side: side.opponent(),
                grid,
                caption: format!("The board the bot wrote{what}"),
            })
        })
        .unwrap_or_else(|| Shown {
            board: input.to_vec(),
            side,
            grid: start.clone(),
            caption: match (&played, &case.output) {
                (Some(p), _) if !unplayable.is_empty() => {
                    format!("The position; the bot answered {p} (marked red)")
                }
                (Some(p), _) => format!("The position; the bot answered {p}"),
                (None, None) => format!("The position ({side} to move); the bot gave no move"),
                (None, Some(_)) => "The position of the case".to_string(),
            },
        });
    // The expected board nearest to the bot's.
    let nearest = case
        .expected
        .iter()
        .take(EXPECTED_TRIED)
        .filter_map(|mv| after(mv).map(|(board, grid)| (mv, board, grid)))
        .min_by_key(|(_, _, grid)| grid.differences(&bot.grid, MarkStyle::Differs).len());
    let mut out = String::from("<div class=\"pair\">");
    let mut bot_marks = bot.grid.differences(&start, MarkStyle::Moved);
    // The bot's unplayable point alone is red (the expected move is on the other board).
    if let Some((_, _, grid)) = nearest.as_ref().filter(|_| unplayable.is_empty()) {
        bot_marks.extend(bot.grid.differences(grid, MarkStyle::Differs));
    }
    bot_marks.extend(bot.grid.marks(&unplayable, MarkStyle::Differs));
    figure(&mut out, drawing, &bot.board, bot.side, &bot_marks, &bot.caption, "bot");
    match &nearest {
        Some((mv, board, grid)) => {
            let kind = (case.expected.len() == 1).then_some(case.expected_kind.as_ref()).flatten();
            let others = case.expected.len() - 1;
            let caption = format!(
                "Expected: {}{}",
                named(mv, kind),
                if others > 0 {
                    format!(" (or {others} other move{})", if others == 1 { "" } else { "s" })
                } else {
                    String::new()
                }
            );
            let marks = grid.differences(&start, MarkStyle::Moved);
            figure(&mut out, drawing, board, side.opponent(), &marks, &caption, "expected");
        }
        None if case.expected.is_empty() => out.push_str("<p>(no expected answer is known)</p>"),
        None => {
            // An answer that is no move to play here (a function's value): the position again,
            // the squares the first expected answer names marked.
            let cells = drawing.move_cells(input, side, &case.expected[0]);
            if cells.is_empty() {
                let _ = write!(out, "<p>Expected: {}</p>", escape(&case.expected.join(", ")));
            } else {
                let marks = start.marks(&cells, MarkStyle::Moved);
                let caption = format!("Expected: {}", case.expected.join(", "));
                figure(&mut out, drawing, input, side, &marks, &caption, "expected");
            }
        }
    }
    out.push_str("</div>");
    out
}

/// One board with its caption, as a `<figure>` whose class says which board it is.
fn figure(
    out: &mut String,
    drawing: &dyn Drawing,
    board: &[u8],
    side: Side,
    marks: &[crate::harness::referee::Mark],
    caption: &str,
    class: &str,
) {
    let svg = drawing.draw(board, Some(side), marks).unwrap_or_else(|e| format!("<p>({})</p>", escape(&e)));
    let _ =
        write!(out, "<figure class=\"{class}\"><figcaption>{}</figcaption>{svg}</figure>", escape(caption));
}
