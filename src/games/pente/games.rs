//! Pente games for the match runner: a position with each player's clock, how a game ends, and
//! the files a bot is given.

use super::Color;
use super::move_text::parse_move;
use super::oracle::Oracle;
use super::point::Point;
use super::position::Position;
use super::referee::{GAME_SECONDS, PenteReferee, read};
use super::rules::{Rules, Status, WinReason, is_legal, play, status};
use super::text::Strictness;
use crate::harness::referee::{GameState, Games};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

impl Games for PenteReferee {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        // A start file's time line is both sides' starting clock (`match --clock` overrides it).
        let (position, start) = match start {
            Some((origin, bytes)) => {
                let position = read(bytes, origin)?;
                let seconds = position.seconds_left;
                (position, seconds)
            }
            None => (Position::start(), GAME_SECONDS),
        };
        Ok(Box::new(PenteGame { position, rules: self.rules, seconds: [start; 2], start }))
    }
}

/// A Pente game in progress, with each player's clock.
struct PenteGame {
    position: Position,
    rules: Rules,
    /// Seconds left for White and Black.
    seconds: [f64; 2],
    /// Seconds each side started with, which records show on their boards' time line.
    start: f64,
}

/// The time line of the input.txt a bot is given: seconds left with two decimals, rounded
/// down (never more than is left), and at least 0.01 (the assignment's time is always above
/// zero).
pub fn clock_line(seconds: f64) -> String {
    format!("{:.2}", ((seconds * 100.0).floor().max(1.0)) / 100.0)
}

/// Seconds as game details give them: to the hundredth.
fn seconds_text(seconds: f64) -> String {
    format!("{:.2} s", seconds)
}

impl GameState for PenteGame {
    fn to_move(&self) -> Side {
        self.position.to_move.side()
    }

    fn board_file(&self) -> Vec<u8> {
        let text = self.position.to_input_text();
        let (side, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let rest = rest.split_once('\n').map_or("", |(_, rest)| rest);
        let clock = clock_line(self.seconds[self.position.to_move.index()]);
        format!("{side}\n{clock}\n{rest}").into_bytes()
    }

    fn record_file(&self) -> Vec<u8> {
        let mut position = self.position.clone();
        position.seconds_left = self.start;
        position.to_input_text().into_bytes()
    }

    fn has_legal_move(&self) -> bool {
        !super::legal_moves(&self.position, &self.rules).is_empty()
    }

    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let point = parse_move(output, "output.txt", Strictness::Lenient).map_err(|e| {
            Box::new(Judgement {
                verdict: Some(Verdict::MalformedOutput),
                location: Some((e.line, e.column)),
                reason: format!("the output is not a point like `9N`: {e}"),
                ..Judgement::default()
            })
        })?;
        self.play_notation(&point.to_string()).map_err(|why| {
            Box::new(Judgement {
                verdict: Some(Verdict::IllegalMove),
                played: Some(point.to_string()),
                reason: why,
                ..Judgement::default()
            })
        })?;
        Ok(point.to_string())
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), String> {
        let point: Point = notation.trim().parse()?;
        if !is_legal(&self.position, &self.rules, point) {
            let oracle = Oracle::new(&self.position, &self.rules);
            return Err(oracle.explain(point));
        }
        self.position = play(&self.position, point);
        Ok(())
    }

    fn material(&self) -> [i32; 2] {
        [Color::White, Color::Black].map(|c| self.position.captured_by(c) as i32)
    }

    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        match status(&self.position) {
            Status::Ongoing => None,
            Status::Won(color, reason) => {
                let (name, detail) = match reason {
                    WinReason::FiveInARow => ("five", format!("{color} has five in a row")),
                    WinReason::Captures => ("captures", format!("{color} captured 10 stones")),
                };
                Some((Some(color.side()), name.to_string(), detail))
            }
            // "In case of a draw, the agent with more remaining play time wins."
            Status::Drawn => {
                let [white, black] = self.seconds;
                let clocks = format!("White has {} left, Black {}", seconds_text(white), seconds_text(black));
                let (winner, detail) = match white.partial_cmp(&black) {
                    Some(std::cmp::Ordering::Greater) => {
                        (Some(Side::White), format!("the board is full; {clocks}: White wins on time"))
                    }
                    Some(std::cmp::Ordering::Less) => {
                        (Some(Side::Black), format!("the board is full; {clocks}: Black wins on time"))
                    }
                    _ => (None, format!("the board is full; {clocks}: a draw")),
                };
                Some((winner, "full-board".to_string(), detail))
            }
        }
    }

    fn move_limit(&self) -> Option<usize> {
        None
    }

    fn clock(&self, side: Side) -> Option<f64> {
        Some(self.seconds[if side == Side::White { 0 } else { 1 }])
    }

    fn set_clock(&mut self, seconds: f64) {
        self.seconds = [seconds; 2];
        self.start = seconds;
    }

    fn set_clock_left(&mut self, side: Side, seconds: f64) {
        self.seconds[if side == Side::White { 0 } else { 1 }] = seconds;
    }

    fn spend(&mut self, side: Side, seconds: f64) -> bool {
        let i = if side == Side::White { 0 } else { 1 };
        // Kept to the microsecond (CPU time is measured in them), so that records write the
        // clock exactly and short.
        self.seconds[i] = ((self.seconds[i] - seconds) * 1e6).round() / 1e6;
        self.seconds[i] > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pente::Board;

    /// A full board without five in a row: rows of `wwbb`, each shifted by two from the last.
    fn full_board_game() -> PenteGame {
        let rows: String = (0..19)
            .map(|r| (0..19).map(|c| if (c + 2 * r) % 4 < 2 { 'w' } else { 'b' }).collect::<String>() + "\n")
            .collect();
        let board = Board::parse(rows.as_bytes(), "test", Strictness::Lenient).unwrap();
        let position = Position::new(Color::White, board);
        PenteGame { position, rules: Rules::default(), seconds: [GAME_SECONDS; 2], start: GAME_SECONDS }
    }

    #[test]
    fn a_full_board_goes_to_the_side_with_more_time_left() {
        let mut game = full_board_game();
        let (winner, name, detail) = game.ending().unwrap();
        assert_eq!((winner, name.as_str()), (None, "full-board"), "{detail}");
        assert!(detail.contains("White has 300.00 s left, Black 300.00 s: a draw"), "{detail}");
        assert!(game.spend(Side::White, 1.5));
        let (winner, name, detail) = game.ending().unwrap();
        assert_eq!((winner, name.as_str()), (Some(Side::Black), "full-board"));
        assert!(detail.contains("White has 298.50 s left, Black 300.00 s: Black wins on time"), "{detail}");
        game.set_clock_left(Side::Black, 10.0);
        assert_eq!(game.ending().unwrap().0, Some(Side::White));
    }

    #[test]
    fn the_board_file_gives_the_time_with_two_decimals() {
        let mut game = PenteReferee::default().new_game(None).unwrap();
        assert!(game.spend(Side::White, 0.116_636));
        assert_eq!(game.clock(Side::White), Some(299.883_364));
        let text = String::from_utf8(game.board_file()).unwrap();
        assert_eq!(text.lines().nth(1), Some("299.88"), "{text}");
        assert_eq!(clock_line(0.004), "0.01");
        assert_eq!(clock_line(300.0), "300.00");
        assert_eq!(clock_line(5.209), "5.20");
        // Records show the starting clock, whatever is left.
        assert_eq!(String::from_utf8(game.record_file()).unwrap().lines().nth(1), Some("300.0"));
        game.set_clock(3.0);
        assert_eq!(game.clock(Side::Black), Some(3.0));
        assert_eq!(String::from_utf8(game.record_file()).unwrap().lines().nth(1), Some("3.0"));
    }

    #[test]
    fn a_start_file_gives_the_starting_clock() {
        let mut position = Position::start();
        position.seconds_left = 3.0;
        let text = position.to_input_text();
        let game = PenteReferee::default().new_game(Some(("start.txt", text.as_bytes()))).unwrap();
        assert_eq!((game.clock(Side::White), game.clock(Side::Black)), (Some(3.0), Some(3.0)));
        assert_eq!(String::from_utf8(game.board_file()).unwrap().lines().nth(1), Some("3.00"));
    }
}
