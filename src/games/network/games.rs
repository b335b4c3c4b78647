//! Network games between classes for the match runner: the moves so far, told to each player
//! as calls, and how a game ends.

use serde_json::json;

use super::case_file::{CaseFile, replay};
use super::cases::set_up;
use super::oracle::explain_illegal;
use super::referee::{MOVE_LIMIT, NetworkReferee};
use super::rules::{Rules, Status, WinReason, check, play, status};
use super::text::parse_move;
use super::{Color, Move, Position};
use crate::harness::host::HostCall;
use crate::harness::referee::{GameState, Games};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

impl Games for NetworkReferee {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        let game = match start {
            None => Vec::new(),
            Some((origin, bytes)) => match CaseFile::parse(bytes, origin, &self.rules) {
                Ok(file) => file.game,
                Err(case_error) => {
                    // A plain position: only the start can be reached without its game, since a
                    // MachinePlayer learns the board from the moves it is told.
                    let pos = Position::parse(bytes, origin).map_err(|_| case_error.clone())?;
                    if pos != Position::start() {
                        return Err(format!(
                            "{origin}: a Network game starts from a case file with its `game:` line (players learn \
                             the board from the moves), not from a bare position"
                        ));
                    }
                    Vec::new()
                }
            },
        };
        let pos = replay(&game, &self.rules)?;
        Ok(Box::new(NetworkGame { pos, rules: self.rules, start: game, ended: None }))
    }
}

/// A game in progress.
struct NetworkGame {
    pos: Position,
    rules: Rules,
    /// The moves before the game's first (from a `--start` case file), told to hosted players.
    start: Vec<Move>,
    /// A move that ended the game otherwise than by networks (a quit).
    ended: Option<(Color, String)>,
}

impl NetworkGame {
    fn play_move(&mut self, mv: Move) -> Result<(), (Verdict, String, Option<String>)> {
        if mv == Move::Quit {
            self.ended = Some((self.pos.to_move.opponent(), format!("{} quit", self.pos.to_move)));
            return Ok(());
        }
        match check(&self.pos, &self.rules, mv) {
            Ok(()) => {
                self.pos = play(&self.pos, mv);
                Ok(())
            }
            Err(rule) => Err((
                Verdict::IllegalMove,
                explain_illegal(&self.pos, &self.rules, mv, rule),
                Some(rule.name().to_string()),
            )),
        }
    }
}

impl GameState for NetworkGame {
    fn to_move(&self) -> Side {
        self.pos.to_move.side()
    }

    fn board_file(&self) -> Vec<u8> {
        self.pos.to_text().into_bytes()
    }

    fn has_legal_move(&self) -> bool {
        !super::rules::legal_moves(&self.pos, &self.rules).is_empty()
    }

    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let mv = parse_move(output, "the move").map_err(|e| {
            Box::new(Judgement {
                verdict: Some(Verdict::MalformedOutput),
                reason: format!("not a move like `add 34` or `step 34 56`: {}", e.message),
                location: Some((e.line, e.column)),
                ..Judgement::default()
            })
        })?;
        self.play_move(mv).map_err(|(verdict, reason, rule)| {
            Box::new(Judgement {
                verdict: Some(verdict),
                played: Some(mv.to_string()),
                reason,
                rule,
                ..Judgement::default()
            })
        })?;
        Ok(mv.to_string())
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), String> {
        let mv = parse_move(notation.as_bytes(), "move").map_err(|e| e.render())?;
        self.play_move(mv).map_err(|(_, reason, _)| reason)
    }

    fn material(&self) -> [i32; 2] {
        [0, 0]
    }

    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        if let Some((winner, why)) = &self.ended {
            return Some((Some(winner.side()), "quit".to_string(), why.clone()));
        }
        match status(&self.pos, &self.rules) {
            Status::Ongoing => None,
            Status::Won { winner, reason } => {
                let (name, sentence) = match reason {
                    WinReason::Network => ("network", format!("{winner} completed a network")),
                    WinReason::GaveNetwork => {
                        ("gave-network", format!("{}'s step left {winner} a network", winner.opponent()))
                    }
                    WinReason::DoubleNetwork => (
                        "double-network",
                        format!("the last move completed networks for both players; {winner} wins"),
                    ),
                };
                Some((Some(winner.side()), name.to_string(), sentence))
            }
        }
    }

    fn move_limit(&self) -> Option<usize> {
        Some(MOVE_LIMIT)
    }

    fn host_start(&self, side: Side) -> Vec<HostCall> {
        set_up(Color::from_side(side), None, &self.start)
    }

    fn host_turn(&self) -> HostCall {
        HostCall::new("choose", json!({}))
    }

    fn host_notify(&self, _side: Side, notation: &str) -> Vec<HostCall> {
        vec![HostCall::new("opponent", json!({ "move": notation }))]
    }
}
