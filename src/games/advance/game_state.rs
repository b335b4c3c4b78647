//! An Advance game in progress, as the match runner drives it.

use super::board::Board;
use super::engine::Engine;
use super::explain::diagnose;
use super::judge::{Answer, Answers, Finding, judge};
use super::notation::Move;
use super::position::Position;
use super::referee::AdvanceReferee;
use super::text::Strictness;
use crate::harness::referee::{GameState, Games};
use crate::harness::verdict::Judgement;
use crate::side::Side;

/// A game: the engine's position, and the legal moves of the side to move (computed once per
/// turn, since both judging and "has a legal move" need them).
pub struct AdvanceGame<E: Engine> {
    engine: E,
    pos: E::Pos,
    legal: Vec<Move>,
}

impl<E: Engine> AdvanceGame<E> {
    /// A game from `board` with `turn` to move; the position must be well-formed.
    pub fn new(engine: E, board: &Board, turn: Side) -> Result<AdvanceGame<E>, String> {
        Position::new(board.clone(), turn).validate().map_err(|e| e.to_string())?;
        let pos = engine.load(board, turn);
        let legal = engine.moves(&pos);
        Ok(AdvanceGame { engine, pos, legal })
    }

    fn play(&mut self, mv: Move) {
        self.pos = self.engine.play(&self.pos, mv);
        self.legal = self.engine.moves(&self.pos);
    }
}

impl<E: Engine + 'static> GameState for AdvanceGame<E> {
    fn to_move(&self) -> Side {
        self.engine.turn(&self.pos)
    }

    fn board_file(&self) -> Vec<u8> {
        self.engine.board(&self.pos).to_text().into_bytes()
    }

    fn has_legal_move(&self) -> bool {
        !self.legal.is_empty()
    }

    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let before = self.engine.board(&self.pos);
        let side = self.to_move();
        let legal: Vec<Answer> = self
            .legal
            .iter()
            .map(|&mv| Answer { mv, board: self.engine.board(&self.engine.play(&self.pos, mv)) })
            .collect();
        // Only legality matters in a game: every legal move is "expected".
        let all: Vec<usize> = (0..legal.len()).collect();
        let answers = Answers { side, legal, grades: [all.clone(), all.clone(), all.clone(), all] };
        match judge(&before, &answers, output, "output", Strictness::Lenient) {
            Finding::Legal { mv, .. } => {
                self.play(mv);
                Ok(mv.to_string())
            }
            other => Err(Box::new(other.judgement(side, None))),
        }
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), String> {
        let mv: Move = notation.parse().map_err(|e: super::notation::NotationError| e.to_string())?;
        if !self.legal.contains(&mv) {
            let board = self.engine.board(&self.pos);
            let why =
                diagnose(&board, self.to_move(), mv).err().map_or("not legal".to_string(), |v| v.to_string());
            return Err(format!("{mv} is not a legal move for {}: {why}", self.to_move()));
        }
        self.play(mv);
        Ok(())
    }

    fn material(&self) -> [i32; 2] {
        let board = self.engine.board(&self.pos);
        [board.material(Side::White), board.material(Side::Black)]
    }
}

impl<E: Engine + Clone + 'static> Games for AdvanceReferee<E> {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        let board = match start {
            Some((origin, bytes)) => {
                Board::parse(bytes, origin, Strictness::Lenient).map_err(|e| e.to_string())?
            }
            None => Board::initial(),
        };
        // White moves first.
        Ok(Box::new(AdvanceGame::new(self.engine.clone(), &board, Side::White)?))
    }
}
