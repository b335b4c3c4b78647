//! Proptest strategies for random positions. Positions are built from a list of placements, so
//! that proptest shrinks a failing case by removing pieces and walls one at a time.

use arbiter::Side;
use arbiter::advance::{Board, Cell, Kind, Piece, Position, Square};
use proptest::prelude::*;

/// Any cell but a General: Generals are placed separately.
pub fn non_general_cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        1 => Just(Cell::Wall),
        6 => (any::<bool>(), 0..7usize).prop_map(|(white, k)| {
            let side = if white { Side::White } else { Side::Black };
            Cell::Piece(Piece::new(side, Kind::ALL[k]))
        }),
    ]
}

/// A board with one General per side and up to `max_extra` other pieces and walls.
pub fn board_with(max_extra: usize) -> impl Strategy<Value = Board> {
    (0..81usize, 0..80usize, prop::collection::vec((0..81usize, non_general_cell()), 0..=max_extra)).prop_map(
        |(white_general, black_offset, placements)| {
            let black_general = (white_general + 1 + black_offset) % 81;
            let mut board = Board::empty();
            for (index, cell) in placements {
                board.set(Square::from_index(index), cell);
            }
            board.set(Square::from_index(white_general), Cell::Piece(Piece::new(Side::White, Kind::General)));
            board.set(Square::from_index(black_general), Cell::Piece(Piece::new(Side::Black, Kind::General)));
            board
        },
    )
}

/// A well-formed position (one General each, the side not to move not in danger), either side
/// to move, with up to `max_extra` other pieces and walls.
pub fn position_with(max_extra: usize) -> impl Strategy<Value = Position> {
    (board_with(max_extra), any::<bool>())
        .prop_map(|(board, white)| Position::new(board, if white { Side::White } else { Side::Black }))
        .prop_filter("the side not to move must not be in danger", |p| p.validate().is_ok())
}

/// Well-formed positions of every density, from nearly empty to crowded.
pub fn position() -> impl Strategy<Value = Position> {
    position_with(50)
}
