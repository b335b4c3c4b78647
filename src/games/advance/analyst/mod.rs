//! Advance's answers for the position commands (`moves`, `apply`, `perft`, `show`, `expect`):
//! [`Analyst`] for the Advance referee, computing with the referee's engine.

mod expect;
mod show;

pub use super::labelled_board::draw;

use anyhow::{Context, anyhow, bail};

use super::explain::diagnose;
use super::referee::AdvanceReferee;
use super::{Board, Engine, Move, Position, Strictness};
use crate::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use crate::side::Side;

/// The deepest perft `arbiter perft` runs for Advance (about 10^9 sequences from the start).
pub const MAX_PERFT_DEPTH: u32 = 6;

/// Reads the board and checks the position, unless `allow_invalid` was given. Advance's board
/// files do not say who is to move, so the side is required.
pub fn load(input: &PositionInput) -> anyhow::Result<Position> {
    let Some(side) = input.side else {
        bail!("--side white|black is required: an Advance board file does not say who is to move");
    };
    let board = Board::parse(input.bytes, input.origin, Strictness::Lenient)
        .map_err(|e| anyhow!("{}", e.render()))?;
    let position = Position::new(board, side);
    if !input.allow_invalid {
        position.validate().map_err(|e| {
            anyhow!(
                "{}: not a well-formed position with {side} to move: {e}\n(use --allow-invalid to look at it anyway)",
                input.origin
            )
        })?;
    }
    Ok(position)
}

impl<E: Engine + Clone + 'static> Analyst for AdvanceReferee<E> {
    fn side_to_move(&self, input: &PositionInput) -> anyhow::Result<Side> {
        Ok(load(input)?.turn)
    }

    fn moves(&self, input: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        let position = load(input)?;
        let engine = &self.engine;
        let pos = engine.load(&position.board, position.turn);
        let lines = engine
            .moves(&pos)
            .into_iter()
            .map(|mv| MoveLine {
                notation: mv.to_string(),
                board: engine.board(&engine.play(&pos, mv)).to_text(),
            })
            .collect();
        Ok((position.turn, lines))
    }

    fn apply(&self, input: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let position = load(input)?;
        let mv: Move = mv.parse().context("cannot read the move")?;
        Ok(match diagnose(&position.board, position.turn, mv) {
            Ok(()) => Ok(super::reference::apply(&position.board, mv).to_text()),
            Err(violation) => Err(format!("{mv} is not a legal move for {}: {violation}", position.turn)),
        })
    }

    fn max_perft_depth(&self) -> u32 {
        MAX_PERFT_DEPTH
    }

    fn perft(&self, input: &PositionInput, depth: u32) -> anyhow::Result<u64> {
        let position = load(input)?;
        let pos = self.engine.load(&position.board, position.turn);
        Ok(self.engine.perft(&pos, depth))
    }

    fn perft_divide(&self, input: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        let position = load(input)?;
        let engine = &self.engine;
        let pos = engine.load(&position.board, position.turn);
        let below = depth.saturating_sub(1);
        Ok(engine
            .moves(&pos)
            .into_iter()
            .map(|mv| (mv.to_string(), engine.perft(&engine.play(&pos, mv), below)))
            .collect())
    }

    fn show(&self, input: &PositionInput) -> anyhow::Result<String> {
        Ok(show::show(&load(input)?))
    }

    fn expect(&self, input: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String> {
        expect::run(&self.engine, &load(input)?, request)
    }
}
