//! Network's answers for the position commands (`moves`, `apply`, `perft`, `show`, `expect`).

use std::fmt::Write as _;

use anyhow::{anyhow, bail};
use serde_json::json;

use super::color::Color;
use super::moves::{Move, list};
use super::oracle::{Category, Oracle, explain_status};
use super::position::{CHIPS_PER_PLAYER, Position};
use super::rules::{Rules, Status, legal_moves, play};
use super::square::{SIZE, Square};
use super::text::parse_move;
use crate::harness::analyst::{
    Analyst, ExpectRequest, MoveLine, PositionInput, category_sets, check_reachable, check_side, notations,
    only_category, plural, shown_set, write_threats,
};
use crate::harness::perft::divide_notated;
use crate::side::Side;

/// The deepest perft `arbiter perft` runs for Network: about 350^4 sequences once the chips
/// step, which is already too many; 48^4 = 5 million while they are added.
pub const MAX_PERFT_DEPTH: u32 = 4;

/// Network for the position commands, under these rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetworkAnalyst {
    /// The rules applied.
    pub rules: Rules,
}

/// Reads a position file and checks it: the side given (if any) must be the file's; more than
/// ten chips of a colour is always refused (the game has ten, and network search grows
/// exponentially with the chips); unless `allow_invalid`, the position must be one a game can
/// reach.
pub fn load(input: &PositionInput) -> anyhow::Result<Position> {
    let position = Position::parse(input.bytes, input.origin).map_err(|e| anyhow!("{}", e.render()))?;
    let file_side = position.to_move.side();
    check_side(input, file_side)?;
    for color in Color::BOTH {
        let n = position.board.count(color);
        if n > CHIPS_PER_PLAYER {
            bail!("{}: {color} has {n} chips on the board; each player has {CHIPS_PER_PLAYER}", input.origin);
        }
    }
    if !input.allow_invalid {
        check_reachable(input, &position.inconsistencies())?;
    }
    Ok(position)
}

/// The board with column numbers above and below and row numbers on both sides; chips of a
/// network in `marked` are drawn in capitals (`B`, `W`).
pub fn draw(position: &Position, marked: &[Square]) -> String {
    let header = format!("     {}\n", (0..SIZE).map(|x| x.to_string()).collect::<Vec<_>>().join(" "));
    let mut out = header.clone();
    for y in 0..SIZE {
        let cells: Vec<String> = (0..SIZE)
            .map(|x| {
                let sq = Square::at(x, y);
                match position.board.get(sq) {
                    Some(c) if marked.contains(&sq) => c.letter().to_ascii_uppercase().to_string(),
                    Some(c) => c.letter().to_string(),
                    None if sq.is_corner() => "#".to_string(),
                    None => ".".to_string(),
                }
            })
            .collect();
        let _ = writeln!(out, "  {y}  {}  {y}", cells.join(" "));
    }
    out.push_str(&header);
    out
}

/// `add` or `step`, as the player to move must play.
fn phase_word(pos: &Position) -> &'static str {
    if pos.adds() { "add" } else { "step" }
}

/// The text report of `expect`.
fn summary(oracle: &Oracle, only: Option<Category>) -> String {
    let pos = &oracle.position;
    let (phase, legal) = (phase_word(pos), plural(oracle.legal.len(), "legal move"));
    let mut out =
        format!("{} to move ({phase} moves): {legal}; {}\n", pos.to_move, super::rules::in_hand_words(pos));
    for color in Color::BOTH {
        match oracle.network(color) {
            Some(net) => {
                let _ = writeln!(out, "{color} has a network: {}", super::square::list(net));
            }
            None => {
                let _ = writeln!(out, "{color} has no network");
            }
        }
    }
    if let Some(reason) = oracle.no_moves_reason() {
        let _ = writeln!(out, "{reason}: no category expects anything here");
        return out;
    }
    let Some(category) = oracle.category() else { return out };
    let _ =
        writeln!(out, "the position's category: {category} (the first of win, block, legal that applies)");
    for c in Category::ALL {
        if only.is_some_and(|o| o != c) {
            continue;
        }
        let set = oracle.expected(c);
        let shown = shown_set(&set, c == Category::Legal, list);
        let _ = writeln!(out, "\n{c}: {shown}");
        if c == Category::Block {
            if oracle.threats.moves.is_empty() && oracle.win.is_empty() {
                let _ = writeln!(out, "  {} threatens no win", pos.to_move.opponent());
            } else {
                write_threats(&mut out, pos.to_move.opponent(), "with", &oracle.threats, list);
            }
        }
        if let Some(&first) = set.first()
            && c == category
        {
            let _ = writeln!(out, "  for example: {}", oracle.explain(first));
        }
    }
    if !oracle.losing.is_empty() {
        let _ = writeln!(out, "\nmoves that lose at once: {}", list(&oracle.losing));
    }
    if let Some(c) = only {
        let _ = writeln!(out, "\nexpected for {c}: {}", list(&oracle.expected(c)));
    }
    out
}

fn squares(net: Option<&[Square]>) -> serde_json::Value {
    net.map_or(serde_json::Value::Null, |n| json!(n.iter().map(Square::to_string).collect::<Vec<_>>()))
}

impl NetworkAnalyst {
    /// `mv` read from text given on the command line.
    fn read_move(text: &str, origin: &str) -> anyhow::Result<Move> {
        parse_move(text.as_bytes(), origin).map_err(|e| anyhow!("{}", e.render()))
    }
}

impl Analyst for NetworkAnalyst {
    fn moves(&self, input: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        let position = load(input)?;
        let lines = MoveLine::each(legal_moves(&position, &self.rules), |&m| play(&position, m).to_text());
        Ok((position.to_move.side(), lines))
    }

    fn apply(&self, input: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let position = load(input)?;
        let m = NetworkAnalyst::read_move(mv, "the move")?;
        Ok(match super::rules::check(&position, &self.rules, m) {
            Ok(()) => Ok(play(&position, m).to_text()),
            Err(why) => Err(super::oracle::explain_illegal(&position, &self.rules, m, why)),
        })
    }

    fn winner_after(&self, input: &PositionInput, mv: &str) -> anyhow::Result<Option<String>> {
        let position = load(input)?;
        let m = NetworkAnalyst::read_move(mv, "the move")?;
        if super::rules::check(&position, &self.rules, m).is_err() {
            return Ok(None);
        }
        Ok(match super::rules::outcome(&position, &self.rules, m) {
            Status::Won { winner, .. } => Some(format!("{} wins", format!("{winner:?}").to_lowercase())),
            Status::Ongoing => None,
        })
    }

    fn max_perft_depth(&self) -> u32 {
        MAX_PERFT_DEPTH
    }

    fn perft_divide(&self, input: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        Ok(divide_notated(&load(input)?, depth, &|p: &Position| legal_moves(p, &self.rules), &play))
    }

    fn show(&self, input: &PositionInput) -> anyhow::Result<String> {
        let position = load(input)?;
        let oracle = Oracle::new(&position, &self.rules);
        let marked: Vec<Square> = oracle.networks.iter().flatten().flatten().copied().collect();
        let mut out = draw(&position, &marked);
        out.push_str("(square xy: column x across, row y down; network chips in capitals)\n\n");
        for color in Color::BOTH {
            let network = match oracle.network(color) {
                Some(net) => format!("network {}", super::square::list(net)),
                None => "no network".to_string(),
            };
            let _ = writeln!(
                out,
                "{color:5}  {} on the board, {} to add, {network}",
                plural(position.board.count(color) as usize, "chip"),
                position.in_hand(color)
            );
        }
        match explain_status(&position, &self.rules) {
            Some(over) => {
                let _ = writeln!(out, "the game is over: {over}");
            }
            None if oracle.threats.moves.is_empty() && oracle.win.is_empty() => {
                let _ = writeln!(out, "{} threatens no win", position.to_move.opponent());
            }
            None if oracle.win.is_empty() => {
                let _ = writeln!(
                    out,
                    "{} threatens to win with {}",
                    position.to_move.opponent(),
                    list(&oracle.threats.moves)
                );
            }
            None => {
                let _ = writeln!(out, "{} can win with {}", position.to_move, list(&oracle.win));
            }
        }
        let options = self.rules.describe();
        if !options.is_empty() {
            let _ = writeln!(out, "rule options: {}", options.join(" "));
        }
        let _ = writeln!(
            out,
            "{} to move ({} moves), {}",
            position.to_move,
            phase_word(&position),
            plural(oracle.legal.len(), "legal move")
        );
        Ok(out)
    }

    fn expect(&self, input: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String> {
        let only: Option<Category> = only_category(request, "Network")?;
        // A case file (the position, the game that led to it, perhaps a move offered): its
        // position, and what the offer must get.
        let case = super::case_file::CaseFile::parse(input.bytes, input.origin, &self.rules).ok();
        let position = match &case {
            Some(case) => case.position,
            None => load(input)?,
        };
        let oracle = Oracle::new(&position, &self.rules);
        let offer = case.as_ref().and_then(|c| c.offer.map(|m| (m, c.opponent)));
        if request.json {
            let sets = category_sets(Category::ALL, Category::name, |c| notations(&oracle.expected(c)));
            let status = match oracle.status {
                Status::Ongoing => json!("ongoing"),
                Status::Won { winner, reason } => json!({"winner": winner, "reason": reason}),
            };
            let mut out = json!({
                "to_move": position.to_move,
                "phase": phase_word(&position),
                "status": status,
                "networks": {
                    "black": squares(oracle.network(Color::Black)),
                    "white": squares(oracle.network(Color::White)),
                },
                "legal": notations(&oracle.legal),
                "win": notations(&oracle.win),
                "losing": notations(&oracle.losing),
                "threats": notations(&oracle.threats.moves),
                "block": oracle.threats.block.as_deref().map(notations),
                "lost": oracle.threats.lost(),
                "category": oracle.category().map(Category::name),
                "sets": sets,
                "rules": self.rules,
                "no_moves": oracle.no_moves_reason(),
            });
            if let Some(c) = only {
                out["expected"] = json!(notations(&oracle.expected(c)));
            }
            if let Some((m, opponent)) = offer {
                out["offer"] = json!({
                    "move": m.to_string(),
                    "to": if opponent { "opponentMove" } else { "forceMove" },
                    "legal": oracle.legal.contains(&m),
                });
            }
            return Ok(serde_json::to_string_pretty(&out)? + "\n");
        }
        if let Some(text) = &request.why {
            let m = NetworkAnalyst::read_move(text, "--why")?;
            return Ok(oracle.explain(m) + "\n");
        }
        let mut out = summary(&oracle, only);
        if let Some((m, opponent)) = offer {
            let (to, answer) = match (opponent, oracle.legal.contains(&m)) {
                (false, true) => ("forceMove", "accept it (return true)"),
                (false, false) => ("forceMove", "refuse it (return false)"),
                (true, true) => ("opponentMove", "accept it (return true)"),
                (true, false) => ("opponentMove", "refuse it (return false)"),
            };
            let _ = writeln!(out, "the case offers {m} to {to}, which must {answer}: {}", oracle.explain(m));
        }
        Ok(out)
    }
}
