//! Invariants of the reference engine over random well-formed positions.

mod common;

use arbiter::advance::explain::diagnose;
use arbiter::advance::reference::geometry::in_strike_shape;
use arbiter::advance::reference::reach::reach;
use arbiter::advance::reference::{apply, danger::in_danger, legal_moves, pseudo_legal_moves};
use arbiter::advance::{Action, Board, Engine, Kind, Move, Position, Reference, Square};
use proptest::prelude::*;

/// What stands where, ignoring whose it is: for "the kind is kept" checks.
fn kind_at(board: &Board, sq: Square) -> Option<Kind> {
    board.piece(sq).map(|p| p.kind)
}

fn mirrored(mv: Move) -> Move {
    Move { from: mv.from.mirror_files(), to: mv.to.mirror_files(), ..mv }
}

fn flipped(mv: Move) -> Move {
    Move { from: mv.from.mirror_ranks(), to: mv.to.mirror_ranks(), ..mv }
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_legal_move_leaves_the_movers_general_in_danger(pos in common::strategy::position()) {
        for mv in legal_moves(&pos.board, pos.turn) {
            prop_assert!(!in_danger(&apply(&pos.board, mv), pos.turn), "{mv} leaves the General in danger");
        }
    }

    #[test]
    fn a_pseudo_legal_move_is_illegal_exactly_when_it_leaves_the_general_in_danger(pos in common::strategy::position()) {
        let legal = legal_moves(&pos.board, pos.turn);
        for mv in pseudo_legal_moves(&pos.board, pos.turn) {
            let endangered = in_danger(&apply(&pos.board, mv), pos.turn);
            prop_assert_eq!(legal.contains(&mv), !endangered, "{}", mv);
        }
    }

    /// Danger tests only ask pieces whose capture shape covers the General's square; that is
    /// sound only if no piece ever strikes outside its shape.
    #[test]
    fn every_strike_lies_in_the_pieces_strike_shape(board in common::strategy::board_with(50)) {
        for (from, piece) in board.pieces() {
            for (_, to) in reach(&board, from, piece).strikes {
                prop_assert!(in_strike_shape(piece, from, to), "{:?} on {} strikes {}", piece, from, to);
            }
        }
    }

    #[test]
    fn every_move_changes_the_board(pos in common::strategy::position()) {
        for mv in legal_moves(&pos.board, pos.turn) {
            prop_assert_ne!(&apply(&pos.board, mv), &pos.board, "{} changes nothing", mv);
        }
    }

    #[test]
    fn material_changes_only_by_captures_and_conversions(pos in common::strategy::position()) {
        let me = pos.turn;
        let them = me.opponent();
        for mv in legal_moves(&pos.board, me) {
            let after = apply(&pos.board, mv);
            let taken = pos.board.piece(mv.to).filter(|p| p.side == them).map_or(0, |p| p.kind.value());
            let (mine, theirs) = match mv.action {
                Action::Move | Action::Build | Action::Swap => (0, 0),
                Action::Capture | Action::Leap | Action::Shoot => (0, -taken),
                Action::Convert => (taken, -taken),
            };
            prop_assert_eq!(after.material(me) - pos.board.material(me), mine, "{}", mv);
            prop_assert_eq!(after.material(them) - pos.board.material(them), theirs, "{}", mv);
        }
    }

    #[test]
    fn conversions_keep_the_kind_and_swaps_exchange_places(pos in common::strategy::position()) {
        for mv in legal_moves(&pos.board, pos.turn) {
            let after = apply(&pos.board, mv);
            match mv.action {
                Action::Convert => {
                    prop_assert_eq!(kind_at(&after, mv.to), kind_at(&pos.board, mv.to));
                    prop_assert_eq!(after.piece(mv.to).unwrap().side, pos.turn);
                }
                Action::Swap => {
                    prop_assert_eq!(after.get(mv.to), pos.board.get(mv.from));
                    prop_assert_eq!(after.get(mv.from), pos.board.get(mv.to));
                }
                _ => {}
            }
        }
    }

    #[test]
    fn perft_one_equals_the_number_of_moves_listed(pos in common::strategy::position()) {
        let engine = Reference;
        let p = engine.load(&pos.board, pos.turn);
        prop_assert_eq!(engine.perft(&p, 1), engine.moves(&p).len() as u64);
        prop_assert_eq!(engine.has_legal_move(&p), !engine.moves(&p).is_empty());
    }

    #[test]
    fn mirroring_the_board_mirrors_the_moves(pos in common::strategy::position()) {
        let mirror = pos.board.mirror_files();
        let expected = sorted(legal_moves(&pos.board, pos.turn).into_iter().map(mirrored).collect());
        prop_assert_eq!(legal_moves(&mirror, pos.turn), expected);
    }

    #[test]
    fn swapping_colours_and_turning_the_board_gives_the_same_moves(pos in common::strategy::position()) {
        let swapped = Position::new(pos.board.swap_sides(), pos.turn.opponent());
        prop_assert!(swapped.validate().is_ok());
        let expected = sorted(legal_moves(&pos.board, pos.turn).into_iter().map(flipped).collect());
        prop_assert_eq!(legal_moves(&swapped.board, swapped.turn), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The explainer and the move list never disagree: every candidate move that the explainer
    /// accepts is listed, and every listed move is accepted.
    #[test]
    fn the_explainer_accepts_exactly_the_legal_moves(pos in common::strategy::position_with(30)) {
        let legal = legal_moves(&pos.board, pos.turn);
        let engine = Reference;
        let p = engine.load(&pos.board, pos.turn);
        for (from, piece) in pos.board.pieces().filter(|(_, p)| p.side == pos.turn) {
            for to in Square::all() {
                for action in Action::ALL {
                    for kind in [piece.kind, Kind::Zombie, Kind::Catapult] {
                        let mv = Move::new(kind, from, action, to);
                        let accepted = diagnose(&pos.board, pos.turn, mv).is_ok();
                        prop_assert_eq!(accepted, legal.contains(&mv), "{}", mv);
                        prop_assert_eq!(engine.is_legal(&p, mv), accepted, "{}", mv);
                    }
                }
            }
        }
    }
}
