//! The fixed positions engines are measured on (`arbiter bench`, `cargo bench`): the initial
//! position and three middle games, kept as files in `benches/positions/`.

use super::board::Board;
use crate::side::Side;

/// Name, board and side to move of each benchmark position.
pub fn bench_positions() -> Vec<(&'static str, Board, Side)> {
    let board = |text: &str| Board::from_text(text).expect("the bench positions are valid");
    vec![
        ("initial", Board::initial(), Side::White),
        // Most pieces still on, Zombies meeting in the centre.
        ("crowded", board(include_str!("../../../benches/positions/crowded.txt")), Side::White),
        // A few pieces each, Generals without their Sentinels.
        ("sparse", board(include_str!("../../../benches/positions/sparse.txt")), Side::White),
        // Crowded, and every white move ties at grade 6: the worst case for grade 7.
        ("crowded-tie", board(include_str!("../../../benches/positions/crowded-tie.txt")), Side::White),
    ]
}
