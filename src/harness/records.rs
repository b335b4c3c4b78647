//! Game records as readable text files, and reading them back for `arbiter replay`.
//!
//! ```text
//! # arbiter game record; `arbiter replay FILE` checks every move
//! game: 3
//! game name: advance
//! rules: KEY=VALUE ...   (only when the game was played with rule options)
//! white: builtin:grade7
//! black: ./mybot
//! start: initial
//! seed: 1234
//! result: white
//! ending: no-legal-move
//! detail: black has no legal move after 57 moves
//! material: 30 12
//!
//! start board:
//! mjdsgscjm
//! ...
//! moves:
//! Zb2-b3
//! ...
//! final board:
//! ...
//! times:
//! CPU-SECONDS USER-SECONDS CLOCK-LEFT   (one line per move; `-` where not known)
//! ...
//! forfeit output:
//! | what the forfeiting bot wrote, each line behind "| "
//! ```

use std::fmt::Write as _;

use super::matches::{GameRecord, GameResult, MoveTime};

/// The record as text.
pub fn write_record(r: &GameRecord) -> String {
    let mut out = String::from("# arbiter game record; `arbiter replay FILE` checks every move\n");
    let result = match r.result {
        GameResult::White => "white",
        GameResult::Black => "black",
        GameResult::Draw => "draw",
    };
    let _ = writeln!(out, "game: {}", r.number);
    if !r.game.is_empty() {
        let _ = writeln!(out, "game name: {}", r.game);
    }
    if !r.rules.is_empty() {
        let _ = writeln!(out, "rules: {}", r.rules.join(" "));
    }
    let _ = writeln!(out, "white: {}\nblack: {}\nstart: {}\nseed: {}", r.white, r.black, r.start, r.seed);
    let _ = writeln!(out, "result: {result}\nending: {}\ndetail: {}", r.ending, r.detail.replace('\n', " "));
    // Notes (turns that threw and were passed over) are for people: comments, which replay skips.
    for note in &r.notes {
        let _ = writeln!(out, "# note: {}", note.replace('\n', " "));
    }
    let _ = writeln!(out, "material: {} {}\n", r.material[0], r.material[1]);
    let _ = write!(out, "start board:\n{}", with_final_newline(&r.start_board));
    out.push_str("moves:\n");
    for m in &r.moves {
        let _ = writeln!(out, "{m}");
    }
    let _ = write!(out, "final board:\n{}", with_final_newline(&r.final_board));
    if !r.times.is_empty() {
        out.push_str("times:\n");
        let or_dash = |v: Option<f64>| v.map_or("-".to_string(), |v| v.to_string());
        for t in &r.times {
            let _ = writeln!(out, "{} {} {}", t.cpu, or_dash(t.user), or_dash(t.clock_left));
        }
    }
    if let Some(text) = &r.forfeit_output {
        out.push_str("forfeit output:\n");
        for line in text.split('\n') {
            let _ = writeln!(out, "| {}", line.escape_debug());
        }
    }
    out
}

fn with_final_newline(text: &str) -> String {
    if text.ends_with('\n') { text.to_string() } else { format!("{text}\n") }
}

/// A record read back from text: what `replay` needs to check.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedRecord {
    pub game: String,
    /// The game played (`pente`); `None` in records older than the line.
    pub game_name: Option<String>,
    /// The game's rule options (`opening=tournament`).
    pub rules: Vec<String>,
    /// Each move's time and the mover's clock after it (empty in older records).
    pub times: Vec<MoveTime>,
    pub white: String,
    pub black: String,
    pub result: GameResult,
    pub ending: String,
    pub start_board: String,
    pub moves: Vec<String>,
    /// The board after the moves; empty when the record has no `final board:` section.
    pub final_board: String,
    /// The forfeiting bot's output, unescaped.
    pub forfeit_output: Option<String>,
}

/// Reads a record. Errors name the line.
pub fn parse_record(text: &str) -> Result<ParsedRecord, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut header = std::collections::HashMap::new();
    let mut i = 0;
    while i < lines.len() && !lines[i].is_empty() {
        let line = lines[i];
        if !line.starts_with('#') {
            let (key, value) = line
                .split_once(": ")
                .ok_or_else(|| format!("line {}: expected `key: value`, found `{line}`", i + 1))?;
            header.insert(key.to_string(), value.to_string());
        }
        i += 1;
    }
    let get = |key: &str| header.get(key).cloned().ok_or_else(|| format!("the record has no `{key}:` line"));
    let result = match get("result")?.as_str() {
        "white" => GameResult::White,
        "black" => GameResult::Black,
        "draw" => GameResult::Draw,
        other => return Err(format!("`result: {other}`: expected white, black or draw")),
    };
    let section = |name: &str| {
        lines.iter().position(|l| *l == name).ok_or_else(|| format!("the record has no `{name}` section"))
    };
    // A board section runs to the next section (or a blank line, or the end): its length is
    // the game's (9 lines for Advance, 22 for Pente's input.txt).
    let board_after = |at: usize| -> Result<String, String> {
        let rows: Vec<&&str> = lines[at + 1..]
            .iter()
            .take_while(|l| {
                !l.is_empty()
                    && **l != "moves:"
                    && **l != "final board:"
                    && **l != "times:"
                    && **l != "forfeit output:"
            })
            .collect();
        if rows.is_empty() {
            return Err(format!("line {}: expected the board's lines", at + 2));
        }
        Ok(rows.iter().map(|r| format!("{r}\n")).collect())
    };
    let start = section("start board:")?;
    let moves_at = section("moves:")?;
    // The final board may be left out (a record written by hand, or cut short): the moves then
    // run to the next section or the end, and `replay` has nothing to compare its board with.
    let final_at = section("final board:").ok();
    let moves_end = final_at.unwrap_or_else(|| {
        lines[moves_at + 1..]
            .iter()
            .position(|l| *l == "times:" || *l == "forfeit output:")
            .map_or(lines.len(), |k| moves_at + 1 + k)
    });
    if !(start < moves_at && moves_at < moves_end) {
        return Err("sections out of order: expected start board, moves, final board".to_string());
    }
    let moves = lines[moves_at + 1..moves_end]
        .iter()
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    let forfeit_output = lines.iter().position(|l| *l == "forfeit output:").map(|at| {
        let body: Vec<String> =
            lines[at + 1..].iter().filter_map(|l| l.strip_prefix("| ")).map(unescape).collect();
        body.join("\n")
    });
    let times = match lines.iter().position(|l| *l == "times:") {
        None => Vec::new(),
        Some(at) => lines[at + 1..]
            .iter()
            .enumerate()
            .take_while(|(_, l)| !l.is_empty() && **l != "forfeit output:")
            .map(|(k, l)| {
                parse_time(l)
                    .ok_or_else(|| format!("line {}: expected `CPU USER CLOCK`, found `{l}`", at + k + 2))
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(ParsedRecord {
        game: get("game")?,
        game_name: header.get("game name").cloned(),
        rules: header
            .get("rules")
            .map(|r| r.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        times,
        white: get("white")?,
        black: get("black")?,
        result,
        ending: get("ending")?,
        start_board: board_after(start)?,
        moves,
        final_board: final_at.map(board_after).transpose()?.unwrap_or_default(),
        forfeit_output,
    })
}

/// One line of the `times:` section: CPU seconds, user seconds and the clock left, `-` where
/// not known.
fn parse_time(line: &str) -> Option<MoveTime> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [cpu, user, clock] = words[..] else { return None };
    let maybe = |w: &str| if w == "-" { Some(None) } else { w.parse::<f64>().ok().map(Some) };
    Some(MoveTime { cpu: cpu.parse().ok()?, user: maybe(user)?, clock_left: maybe(clock)? })
}

/// Undoes `str::escape_debug` for the escapes it produces.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let board = "mjdsgscjm\nbzzzzzzzb\n.........\n.........\n.........\n.........\n.........\nBZZZZZZZB\nMJCSGSDJM\n";
        let record = GameRecord {
            number: 2,
            game: "advance".into(),
            rules: vec!["opening=tournament".into(), "x=y".into()],
            times: vec![
                MoveTime { cpu: 0.012_345, user: Some(0.01), clock_left: Some(299.987_655) },
                MoveTime { cpu: 1.5, user: None, clock_left: None },
            ],
            white: "builtin:random".into(),
            black: "sh bot.sh".into(),
            a_is_white: false,
            start: "initial".into(),
            start_board: board.into(),
            moves: vec!["Zb2-b3".into(), "Zb8-b7".into()],
            result: GameResult::White,
            ending: "malformed-output".into(),
            detail: "black forfeits".into(),
            final_board: board.into(),
            forfeit_output: Some("garbage\twith a tab\n\u{1}\\".into()),
            material: [40, 40],
            seed: 9,
            notes: vec!["ply 3: white threw X\nat y".into()],
        };
        assert!(write_record(&record).contains("\n# note: ply 3: white threw X at y\n"));
        let parsed = parse_record(&write_record(&record)).unwrap();
        assert_eq!(parsed.moves, record.moves);
        assert_eq!(parsed.result, GameResult::White);
        assert_eq!(parsed.ending, "malformed-output");
        assert_eq!(parsed.start_board, board);
        assert_eq!(parsed.forfeit_output.as_deref(), Some("garbage\twith a tab\n\u{1}\\"));
        // Without its final board, a record still gives its moves (replay then has no board to
        // compare with).
        let written = write_record(&record);
        let (head, tail) = written.split_once("final board:\n").unwrap();
        let rest = &tail[tail.find("times:").unwrap()..];
        let cut = parse_record(&format!("{head}{rest}")).unwrap();
        assert_eq!(cut.moves, record.moves);
        assert_eq!(cut.final_board, "");
        assert_eq!(cut.times.len(), 2);
        assert_eq!(parsed.final_board, board);
        assert_eq!(parsed.game_name.as_deref(), Some("advance"));
        assert_eq!(parsed.rules, record.rules);
        assert_eq!(parsed.times, record.times);
        // A record as JSON (`match --json`) reads back too, and one without the newer fields
        // loads with them empty.
        let json = serde_json::to_value(&record).unwrap();
        let back: GameRecord = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(
            (back.game, back.rules, back.times),
            (record.game.clone(), record.rules.clone(), record.times.clone())
        );
        let mut old = json;
        for key in ["game", "rules", "times"] {
            old.as_object_mut().unwrap().remove(key);
        }
        let back: GameRecord = serde_json::from_value(old).unwrap();
        assert!(back.game.is_empty() && back.rules.is_empty() && back.times.is_empty());
        let mut old_text = write_record(&record);
        old_text =
            old_text.replace("game name: advance\n", "").replace("rules: opening=tournament x=y\n", "");
        let parsed = parse_record(&old_text).unwrap();
        assert_eq!((parsed.game_name, parsed.rules.len()), (None, 0));
        assert!(parse_record("game: 1\n").unwrap_err().contains("no `result:` line"));
    }
}
