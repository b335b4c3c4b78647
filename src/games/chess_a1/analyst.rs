//! The chess assignment's answers for the position commands (`moves`, `apply`, `perft`, `show`,
//! `expect`). A position file is the board's eight rows, one a line, then `white` or `black`
//! (the player to move; `--side` may give it instead).

use std::fmt::Write as _;

use anyhow::{anyhow, bail};

use super::board::{Board, Move, parse_move};
use super::case_file::CaseFile;
use super::rules::{self, Status, check_move, perft};
use super::texts::Texts;
use crate::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use crate::side::Side;

/// The chess assignment for the position commands.
#[derive(Clone, Copy, Debug, Default)]
pub struct ChessA1Analyst;

/// Reads a position file: eight rows, then optionally the player to move.
pub fn load(input: &PositionInput) -> anyhow::Result<(Board, bool)> {
    let text =
        std::str::from_utf8(input.bytes).map_err(|e| anyhow!("{}: not UTF-8 text: {e}", input.origin))?;
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if lines.len() < 8 {
        bail!("{}: expected eight rows of the board, found {} lines", input.origin, lines.len());
    }
    let board = Board::from_rows(&lines[..8]).map_err(|e| anyhow!("{}: {e}", input.origin))?;
    let file_side = match lines.get(8).copied() {
        Some("white") => Some(Side::White),
        Some("black") => Some(Side::Black),
        Some(other) => bail!("{}: line 9 should be `white` or `black`, found `{other}`", input.origin),
        None => None,
    };
    let side = match (file_side, input.side) {
        (Some(f), Some(g)) if f != g => {
            bail!("{}: the file gives {f} to move, but --side says {g}", input.origin)
        }
        (Some(s), _) | (None, Some(s)) => s,
        (None, None) => bail!("{}: say who moves: a ninth line `white` or `black`, or --side", input.origin),
    };
    let white = side == Side::White;
    if !input.allow_invalid && (board.find(b'K').is_none() || board.find(b'k').is_none()) {
        bail!("{}: each player needs a king (use --allow-invalid to look anyway)", input.origin);
    }
    Ok((board, white))
}

fn notation((from, to): Move) -> String {
    format!("{} {}", from.square().unwrap_or_default(), to.square().unwrap_or_default())
}

fn file(board: &Board, white: bool) -> String {
    let mut out = board.rows().join("\n");
    out.push_str(if white { "\nwhite\n" } else { "\nblack\n" });
    out
}

impl Analyst for ChessA1Analyst {
    fn side_to_move(&self, position: &PositionInput) -> anyhow::Result<Side> {
        let (_, white) = load(position)?;
        Ok(if white { Side::White } else { Side::Black })
    }

    fn moves(&self, position: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        let (board, white) = load(position)?;
        let lines = rules::legal_moves(&board, white)
            .into_iter()
            .map(|mv| MoveLine { notation: notation(mv), board: file(&board.moved(mv), !white) })
            .collect();
        Ok((if white { Side::White } else { Side::Black }, lines))
    }

    fn apply(&self, position: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let (board, white) = load(position)?;
        let Some(parsed) = parse_move(mv) else {
            return Ok(Err(format!("`{mv}` is not a move like `e2 e4`")));
        };
        Ok(match check_move(&board, parsed, white) {
            Ok(()) => Ok(file(&board.moved(parsed), !white)),
            Err(rule) => Err(format!("{mv} is not valid: {}", rule.sentence())),
        })
    }

    fn max_perft_depth(&self) -> u32 {
        4
    }

    fn perft(&self, position: &PositionInput, depth: u32) -> anyhow::Result<u64> {
        let (board, white) = load(position)?;
        Ok(perft(&board, white, depth))
    }

    fn perft_divide(&self, position: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        let (board, white) = load(position)?;
        Ok(rules::legal_moves(&board, white)
            .into_iter()
            .map(|mv| (notation(mv), perft(&board.moved(mv), !white, depth.saturating_sub(1))))
            .collect())
    }

    fn show(&self, position: &PositionInput) -> anyhow::Result<String> {
        let (board, white) = load(position)?;
        let mut out = Texts::default().board(&board);
        let player = if white { "White" } else { "Black" };
        let status = rules::status(&board, white);
        let _ = writeln!(
            out,
            "\n{player} to move: {status:?}, {} valid moves",
            rules::legal_moves(&board, white).len()
        );
        Ok(out)
    }

    fn expect(&self, position: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String> {
        if let Ok(case) = CaseFile::parse(position.bytes, position.origin) {
            return expect_case(&case, request);
        }
        let (board, white) = load(position)?;
        let status = rules::status(&board, white);
        let moves: Vec<String> = rules::legal_moves(&board, white).into_iter().map(notation).collect();
        if request.json {
            return Ok(serde_json::json!({
                "status": format!("{status:?}").to_lowercase(),
                "in_check": matches!(status, Status::Check | Status::Checkmate),
                "can_move": !moves.is_empty(),
                "valid_moves": moves,
            })
            .to_string()
                + "\n");
        }
        let mut out = format!("{status:?}; valid moves ({}): {}\n", moves.len(), moves.join(", "));
        if let Some(why) = &request.why {
            match parse_move(why) {
                Some(mv) => match check_move(&board, mv, white) {
                    Ok(()) => out.push_str(&format!("{why}: valid\n")),
                    Err(rule) => out.push_str(&format!("{why}: not valid, {}\n", rule.sentence())),
                },
                None => out.push_str(&format!("{why}: not a move like `e2 e4`\n")),
            }
        }
        Ok(out)
    }
}

/// What a case file (a call, or `main()` with its script) expects, with the reason: the answer
/// `verify` judges by, under the assignment's own texts (a graders' `--rule texts=FILE` is not
/// read here). A CSSE7030 function is answered under CSSE7030's rules.
fn expect_case(case: &CaseFile, request: &ExpectRequest) -> anyhow::Result<String> {
    let texts = Texts::default();
    if case.function == "main" {
        let t = super::transcript::play_with(&case.inputs, &texts, None);
        let text = t.text();
        let ending = format!("{:?}", t.ending).to_lowercase();
        if request.json {
            return Ok(
                serde_json::json!({"call": "main()", "inputs": case.inputs, "prints": text, "ending": ending})
                    .to_string() + "\n",
            );
        }
        let mut out = format!(
            "main() with inputs {} prints {} lines and ends by {ending}:\n",
            case.inputs.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", "),
            text.lines().count()
        );
        for (n, line) in text.lines().enumerate() {
            out.push_str(&format!("{:>5} | {line}\n", n + 1));
        }
        return Ok(out);
    }
    let answer = super::oracle::expect_with(&case.function, &case.args, &case.inputs, &texts, None)
        .or_else(|_| {
            super::oracle::expect_with(
                &case.function,
                &case.args,
                &case.inputs,
                &texts,
                Some(super::extras::CastleSafety::default()),
            )
        })
        .map_err(|e| anyhow!("{}: {e}", case.call()))?;
    if request.json {
        return Ok(serde_json::json!({
            "call": case.call(),
            "inputs": case.inputs,
            "returns": answer.value.to_string(),
            "prints": answer.printed,
            "why": answer.why,
        })
        .to_string()
            + "\n");
    }
    let mut out = format!("{} returns {}", case.call(), answer.value);
    if !answer.why.is_empty() {
        out.push_str(&format!(": {}", answer.why));
    }
    out.push('\n');
    if let Some(printed) = answer.printed.filter(|p| !p.is_empty()) {
        out.push_str("and prints:\n");
        out.push_str(&printed);
        if !printed.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}
