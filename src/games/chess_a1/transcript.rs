//! What `main()` must print for a script of inputs (Section 3, Gameplay): the initial board,
//! then for each input its prompt and what follows, until the game ends or the user quits.
//!
//! Standard input is not a terminal, so the typed text is not echoed: the output holds the
//! prompts and what the program prints, nothing else.

use super::board::{Board, Move, parse_move};
use super::extras::{self, CastleSafety, Game, Kind};
use super::rules::{self, Status};
use super::texts::Texts;

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `q`/`Q` then `y`/`Y`.
    Quit,
    /// A move checkmated the other player.
    Checkmate,
    /// A move left the other player without a move, not in check.
    Stalemate,
    /// The script ran out before the game ended (a script that does this is not a valid case).
    OutOfInput,
}

/// One step of the expected transcript: the input read and the text printed up to the next
/// prompt (the prompt included), so that a failure can name the input that led there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The input line, `None` for the text before the first input.
    pub input: Option<String>,
    /// What is printed after reading it, up to and including the next prompt.
    pub printed: String,
}

/// The expected run of `main()` on `inputs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub steps: Vec<Step>,
    pub ending: Ending,
    /// The inputs the game read (those after its end are never read).
    pub used: usize,
}

impl Transcript {
    /// The whole expected output.
    pub fn text(&self) -> String {
        self.steps.iter().map(|s| s.printed.as_str()).collect()
    }
}

/// Plays `inputs` (lines without their newline) as CSSE1001's `main()` must.
pub fn play(inputs: &[String], texts: &Texts) -> Transcript {
    play_with(inputs, texts, None)
}

/// Plays `inputs` as `main()` must, with CSSE7030's special moves when `extras` is given (with
/// the squares castling needs safe): a move
/// `is_move_valid` refuses may be en passant or castling (`Game::kind`), and a pawn reaching its
/// last row is promoted by `attempt_promotion`, which asks for the piece (again after a choice
/// that is not one) before the board is printed.
pub fn play_with(inputs: &[String], texts: &Texts, extras: Option<CastleSafety>) -> Transcript {
    let castle_safety = extras.unwrap_or_default();
    let extras = extras.is_some();
    let mut game = Game { castle_safety, ..Game::new() };
    let mut board = game.board;
    let mut white = true;
    let mut steps = Vec::new();
    let mut printed = texts.board(&board);
    printed.push_str(texts.prompt(white));
    steps.push(Step { input: None, printed });
    let mut lines = inputs.iter();
    let mut used = 0;
    let ending = loop {
        let Some(line) = lines.next() else { break Ending::OutOfInput };
        used += 1;
        let mut out = String::new();
        // The input the text after it follows (a promotion's piece, when one was asked for).
        let mut step_input = line.clone();
        match line.as_str() {
            "h" | "H" => {
                out.push_str(&texts.help);
                out.push_str(&reprompt(texts, &board, white));
            }
            "q" | "Q" => {
                out.push_str(&texts.quit_prompt);
                steps.push(Step { input: Some(line.clone()), printed: std::mem::take(&mut out) });
                let Some(answer) = lines.next() else { break Ending::OutOfInput };
                used += 1;
                if answer == "y" || answer == "Y" {
                    steps.push(Step { input: Some(answer.clone()), printed: String::new() });
                    break Ending::Quit;
                }
                out.push_str(&reprompt(texts, &board, white));
                out.push_str(texts.prompt(white));
                steps.push(Step { input: Some(answer.clone()), printed: out });
                continue;
            }
            text => match parse_move(text).and_then(|mv| accept(&game, mv, extras).map(|k| (mv, k))) {
                None => {
                    out.push_str(&texts.invalid_move);
                    out.push_str(&reprompt(texts, &board, white));
                }
                Some((mv, kind)) => {
                    let mut piece = None;
                    if extras && game.promotes(mv, kind) {
                        // attempt_promotion asks until it is given one of the pieces.
                        out.push_str(&texts.promotion_prompt);
                        steps.push(Step { input: Some(line.clone()), printed: std::mem::take(&mut out) });
                        let mut answered = None;
                        for answer in lines.by_ref() {
                            used += 1;
                            if let Some(p) = extras::promotion_piece(answer, white) {
                                piece = Some(p);
                                answered = Some(answer.clone());
                                break;
                            }
                            let again = format!("{}{}", texts.invalid_piece, texts.promotion_prompt);
                            steps.push(Step { input: Some(answer.clone()), printed: again });
                        }
                        let Some(answer) = answered else { break Ending::OutOfInput };
                        step_input = answer;
                    }
                    game.play(mv, kind, piece);
                    board = game.board;
                    white = !white;
                    out.push_str(&texts.board(&board));
                    match rules::status(&board, white) {
                        Status::Normal => {}
                        Status::Check => out.push_str(&texts.check(white)),
                        Status::Checkmate => {
                            out.push_str(&texts.checkmate);
                            steps.push(Step { input: Some(step_input), printed: out });
                            break Ending::Checkmate;
                        }
                        Status::Stalemate => {
                            out.push_str(&texts.stalemate);
                            steps.push(Step { input: Some(step_input), printed: out });
                            break Ending::Stalemate;
                        }
                    }
                }
            },
        }
        out.push_str(texts.prompt(white));
        steps.push(Step { input: Some(step_input), printed: out });
    };
    Transcript { steps, ending, used }
}

/// What comes before the same player is prompted again (after help, an invalid move or a
/// cancelled quit): the board and, when the player is in check, the in-check text, as a game
/// loop that prints the board and calls `check_game_over` before every prompt does (RULES.md,
/// ambiguity 3).
fn reprompt(texts: &Texts, board: &Board, white: bool) -> String {
    let mut out = texts.board(board);
    if rules::in_check(board, white) {
        out.push_str(&texts.check(white));
    }
    out
}

/// How `main()` accepts `mv`: CSSE1001's `is_move_valid` alone, or with `extras` also en
/// passant and castling.
fn accept(game: &Game, mv: Move, extras: bool) -> Option<Kind> {
    if extras { game.kind(mv) } else { rules::is_valid(&game.board, mv, game.white).then_some(Kind::Normal) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.split('|').map(str::to_string).collect()
    }

    #[test]
    fn fools_mate_ends_with_checkmate_after_the_board() {
        let t = play(&lines("f2 f3|e7 e5|g2 g4|d8 h4"), &Texts::default());
        assert_eq!(t.ending, Ending::Checkmate);
        let text = t.text();
        assert!(text.starts_with("rnbqkbnr  8\n"), "{text}");
        assert!(text.ends_with("RNBQKBNR  1\n\nabcdefgh\n\nCheckmate\n"), "{text}");
        assert_eq!(text.matches("\nWhite's move: ").count(), 2);
        assert_eq!(text.matches("\nBlack's move: ").count(), 2);
    }

    #[test]
    fn help_invalid_and_a_cancelled_quit_keep_the_turn() {
        let texts = Texts::default();
        let t = play(&lines("h|e2e4|e7 e5|q|n|Q|Y"), &texts);
        assert_eq!(t.ending, Ending::Quit);
        let text = t.text();
        assert_eq!(text.matches("\nBlack's move: ").count(), 0, "White never moved");
        assert_eq!(text.matches("Invalid move\n\n").count(), 2);
        assert_eq!(text.matches("Are you sure you want to quit? ").count(), 2);
        assert!(text.ends_with("Are you sure you want to quit? "), "{text}");
        assert!(text.contains(&texts.help));
    }

    #[test]
    fn a_check_is_announced_before_the_prompt() {
        let t = play(&lines("e2 e4|f7 f6|d1 h5|q|y"), &Texts::default());
        assert!(t.text().contains("abcdefgh\n\nBlack is in check\n\nBlack's move: "), "{}", t.text());
    }

    #[test]
    fn a_player_in_check_is_told_again_when_prompted_again() {
        let t = play(&lines("e2 e4|f7 f6|d1 h5|h|e8e7|q|n|q|y"), &Texts::default());
        let told = t.text().matches("abcdefgh\n\nBlack is in check\n\nBlack's move: ").count();
        assert_eq!(told, 4, "after the move, the help, the invalid move and the cancelled quit");
    }
}
