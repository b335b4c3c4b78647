//! A grading case as a file: the position, the game that led to it, and (for `accept` and
//! `reject` cases) the move offered to the player: `offer: MOVE` to `forceMove` of a player of
//! the side to move, or `offer-opponent: MOVE` to `opponentMove` of a player of the other side
//! (the same move of the side to move, told as the opponent's).
//!
//! A `MachinePlayer` keeps its own board and can only be brought to a position by being told
//! the moves of a game, so a case carries its game; the board above it is for people, and must
//! be where the game leads:
//!
//! ```text
//! #......#
//! ........
//! ........
//! ........
//! ...w....
//! ....b...
//! ........
//! #......#
//! white
//! game: add 34, add 45
//! offer: add 22
//! ```

use super::rules::{Rules, check, play};
use super::text::parse_move;
use super::{Move, Position};

/// The lines of the position part (8 board lines and the side to move).
const POSITION_LINES: usize = 9;

/// A case read from its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseFile {
    /// The position the player is asked about, after `game`.
    pub position: Position,
    /// The moves from the start, White's first.
    pub game: Vec<Move>,
    /// For `accept` and `reject`: the move offered to `forceMove`.
    pub offer: Option<Move>,
    /// The offer goes to `opponentMove` of a player of the other side instead
    /// (`offer-opponent:`).
    pub opponent: bool,
}

impl CaseFile {
    /// Reads a case file; errors name `origin`, the line and the column.
    pub fn parse(bytes: &[u8], origin: &str, rules: &Rules) -> Result<CaseFile, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{origin}: not UTF-8 text: {e}"))?;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        if lines.len() <= POSITION_LINES {
            return Err(format!(
                "{origin}:{}:1: expected a `game:` line after the position (nine lines), found the end of the file",
                lines.len() + 1
            ));
        }
        let head: String = lines[..POSITION_LINES].concat();
        let position = Position::parse(head.as_bytes(), origin).map_err(|e| e.render())?;
        let mut game = None;
        let mut offer = None;
        let mut opponent = false;
        for (i, raw) in lines.iter().enumerate().skip(POSITION_LINES) {
            let number = i + 1;
            let line = raw.trim_end_matches(['\n', '\r']);
            if line.trim().is_empty() {
                continue;
            }
            let (key, value) = line.split_once(':').ok_or_else(|| {
                format!("{origin}:{number}:1: expected `game: ...`, `offer: ...` or `offer-opponent: ...`, found `{line}`")
            })?;
            let column = key.len() + 2;
            match key.trim() {
                "game" if game.is_none() => game = Some(moves(value, origin, number, column)?),
                key @ ("offer" | "offer-opponent") if offer.is_none() => {
                    let item = value.trim();
                    let at = column + value.find(item).unwrap_or(0);
                    offer = Some(one_move(item, origin, number, at)?);
                    opponent = key == "offer-opponent";
                }
                other => {
                    return Err(format!(
                        "{origin}:{number}:1: expected `game:` once and `offer:` or `offer-opponent:` at most once, found `{other}:`"
                    ));
                }
            }
        }
        let game = game.ok_or_else(|| format!("{origin}: no `game:` line after the position"))?;
        let reached = replay(&game, rules).map_err(|e| format!("{origin}:{}:1: {e}", POSITION_LINES + 1))?;
        if reached != position {
            return Err(format!(
                "{origin}: the game does not lead to the board above it; it leads to\n{}",
                reached.to_text()
            ));
        }
        Ok(CaseFile { position, game, offer, opponent })
    }

    /// The file's text, as [`CaseFile::parse`] reads it.
    pub fn render(&self) -> String {
        let mut out = self.position.to_text();
        let game: Vec<String> = self.game.iter().map(Move::to_string).collect();
        out.push_str(&format!("game: {}\n", game.join(", ")));
        if let Some(offer) = self.offer {
            let key = if self.opponent { "offer-opponent" } else { "offer" };
            out.push_str(&format!("{key}: {offer}\n"));
        }
        out
    }
}

/// The position after `game` from the start, each move checked.
pub fn replay(game: &[Move], rules: &Rules) -> Result<Position, String> {
    let mut pos = Position::start();
    for (n, &mv) in game.iter().enumerate() {
        check(&pos, rules, mv)
            .map_err(|why| format!("move {} of the game, {mv}, is illegal ({})", n + 1, why.name()))?;
        pos = play(&pos, mv);
    }
    Ok(pos)
}

/// A comma-separated list of moves (maybe empty), starting at `column` of line `line`.
fn moves(list: &str, origin: &str, line: usize, column: usize) -> Result<Vec<Move>, String> {
    let mut out = Vec::new();
    let mut at = column;
    for item in list.split(',') {
        let trimmed = item.trim();
        if !trimmed.is_empty() {
            let lead = item.len() - item.trim_start().len();
            out.push(one_move(trimmed, origin, line, at + lead)?);
        }
        at += item.len() + 1;
    }
    Ok(out)
}

fn one_move(text: &str, origin: &str, line: usize, column: usize) -> Result<Move, String> {
    parse_move(text.as_bytes(), "move")
        .map_err(|e| format!("{origin}:{line}:{}: {}", column + e.column.saturating_sub(1), e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = "#......#\n........\n........\n........\n...w....\n....b...\n........\n#......#\nwhite\ngame: add 34, add 45\noffer: add 22\n";

    #[test]
    fn a_case_file_round_trips() {
        let case = CaseFile::parse(CASE.as_bytes(), "c.txt", &Rules::default()).unwrap();
        assert_eq!(case.game.len(), 2);
        assert_eq!(case.offer.map(|m| m.to_string()), Some("add 22".to_string()));
        assert_eq!(case.render(), CASE);
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let bad = CASE.replace("add 45", "add 4x");
        let err = CaseFile::parse(bad.as_bytes(), "c.txt", &Rules::default()).unwrap_err();
        assert!(err.starts_with("c.txt:10:19:"), "{err}");
        let wrong = CASE.replace("game: add 34, add 45", "game: add 34, add 46");
        let err = CaseFile::parse(wrong.as_bytes(), "c.txt", &Rules::default()).unwrap_err();
        assert!(err.contains("does not lead to the board"), "{err}");
        let illegal = CASE.replace("add 45", "add 34");
        let err = CaseFile::parse(illegal.as_bytes(), "c.txt", &Rules::default()).unwrap_err();
        assert!(err.starts_with("c.txt:10:1: move 2 of the game, add 34, is illegal"), "{err}");
        let short: String = CASE.lines().take(9).map(|l| format!("{l}\n")).collect();
        assert!(CaseFile::parse(short.as_bytes(), "c.txt", &Rules::default()).unwrap_err().contains("game:"));
    }
}
