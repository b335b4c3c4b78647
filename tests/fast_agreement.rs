//! The fast engine agrees with the reference engine: the same moves, the same danger, the same
//! boards after every move and the same perft, on hand-picked and random positions, valid or not.

mod common;

use std::collections::HashSet;

use arbiter::Side;
use arbiter::advance::{Action, Board, Cell, Engine, Fast, Kind, Move, Piece, Position, Reference, Square};
use proptest::prelude::*;

/// The initial position's perft for depths 1 to 4 (confirmed by an independent implementation).
const INITIAL_PERFT: [u64; 4] = [43, 1849, 80482, 3502461];

/// The four worked examples of the rules page, in the page's order (grades 4 to 7).
const WORKED_EXAMPLES: [&str; 4] = [
    "........g
     .........
     .........
     .........
     .........
     .....d...
     .....Z...
     ........#
     .......#G",
    "b#g.S.cmb
     M......sj
     ..m.B..##
     .........
     ........z
     .Jz.#....
     ..Z#.z..#
     C..#z.JZB
     .G......s",
    "d.bz..cmj
     Dj.#...b#
     m.z.g.zs.
     ......#z#
     .....Z#.Z
     .#..S...#
     ..Z.zZ...
     ...BZ..Z.
     M.CSMG.J.",
    "..j....c.
     .........
     ##b.g....
     .........
     .#.......
     #.#...#..
     .G#......
     #......##
     .....M...",
];

/// Hand-picked positions, crowded and sparse, each chosen to exercise a rule of danger.
const HAND_PICKED: [(&str, &str); 15] = [
    (
        "crowded middle game",
        "mjdsgscjm
         bz.zz.z.b
         ..z..#z..
         .#...z...
         ..Z.Z.#..
         ...Z...Z.
         .Z...Z.#.
         B..Z...ZB
         MJCSGSDJM",
    ),
    (
        "sparse middle game",
        "....g....
         ..s...d..
         .#....z..
         ...j.....
         .....M...
         ..Z......
         ....#..C.
         ...S.....
         ....G....",
    ),
    (
        "screens on files and diagonals",
        "g...m....
         .........
         d.......d
         .........
         ....J....
         ..B...Z..
         .........
         ....G....
         .........",
    ),
    (
        "Zombie leaps blocked and open",
        "....g....
         ....z....
         ....Z....
         ...Z.Z...
         .........
         ..z...z..
         ....z....
         ....B....
         ....G....",
    ),
    (
        "white in danger from a Catapult",
        "....g....
         .........
         .........
         .........
         .........
         ....c....
         ...B.J...
         .........
         ....G..S.",
    ),
    (
        "Generals under double protection",
        "...sgs...
         ....s....
         ....d....
         .........
         ....M....
         .........
         ....S....
         ...SGS...
         .........",
    ),
    (
        "Jesters next to Generals and Sentinels",
        "....gj...
         ...js....
         .........
         ..m......
         .........
         ....c....
         ...JS....
         ...G.....
         ..J......",
    ),
    (
        "maze of walls and Miners",
        "#.#.g.#.#
         .#.m.#.#.
         #.#.#.#.#
         .M.#.#.m.
         #.#.#.#.#
         .#.#.#.#.
         #.#.#.M.#
         .#.#.#.#.
         #.#.G.#.#",
    ),
    (
        "Dragons next to Generals",
        "....g....
         ...D.d...
         .........
         .........
         ....d....
         .........
         .........
         ...dD....
         ....G....",
    ),
    (
        "Generals two apart",
        ".........
         .........
         .........
         ....g....
         .........
         ....G....
         .........
         .........
         .........",
    ),
    (
        "almost full board",
        "mjdsgscjm
         bzzzzzzzb
         zb#jc#bzs
         ZBJM#CDSZ
         dzm.s.czb
         SZ#cDj#ZB
         bbzZZZzzj
         BZZZZZZZB
         MJCSGSDJM",
    ),
    (
        "lone Generals among walls",
        "........g
         .#.......
         .........
         ...#.....
         .........
         .....#...
         .........
         .......#.
         G........",
    ),
    (
        "conversions next to the General",
        "....g....
         .........
         .........
         .........
         ...c.....
         ....J....
         ...sG....
         ...Sm....
         .........",
    ),
    (
        "a Miner pinned against a Dragon",
        "m.......g
         .........
         .........
         .........
         B...d....
         .........
         ..M......
         .........
         G........",
    ),
    (
        "a shot that would open a file onto the own General",
        "....g....
         ....m....
         .........
         .........
         .C..b....
         .........
         .........
         .........
         ....G....",
    ),
];

/// Every position the tests look at closely: the initial position, the worked examples and the
/// hand-picked positions, with each side to move for which the position is well-formed.
fn test_positions() -> Vec<(String, Position)> {
    let mut boards = vec![("initial".to_string(), Board::initial())];
    for (i, text) in WORKED_EXAMPLES.iter().enumerate() {
        boards.push((format!("worked example, grade {}", i + 4), common::board(text)));
    }
    for (name, text) in HAND_PICKED {
        boards.push((name.to_string(), common::board(text)));
    }
    let mut positions = Vec::new();
    for (name, board) in boards {
        let valid: Vec<Position> = Side::BOTH
            .into_iter()
            .map(|side| Position::new(board.clone(), side))
            .filter(|p| p.validate().is_ok())
            .collect();
        assert!(!valid.is_empty(), "{name} is well-formed for neither side");
        for p in valid {
            positions.push((format!("{name}, {} to move", p.turn), p));
        }
    }
    positions
}

#[test]
fn the_worked_examples_are_well_formed_with_white_to_move() {
    for text in WORKED_EXAMPLES {
        let pos = Position::new(common::board(text), Side::White);
        assert!(pos.validate().is_ok(), "{:?}", pos.board);
    }
}

#[test]
fn initial_perft_matches_the_known_counts() {
    let pos = Fast.load(&Board::initial(), Side::White);
    for (depth, &expected) in (1..).zip(INITIAL_PERFT.iter()) {
        assert_eq!(Fast.perft(&pos, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_to_depth_three_agrees_on_test_positions() {
    for (name, p) in test_positions() {
        let reference = Reference.load(&p.board, p.turn);
        let fast = Fast.load(&p.board, p.turn);
        for depth in 1..=3 {
            assert_eq!(Fast.perft(&fast, depth), Reference.perft(&reference, depth), "{name}, depth {depth}");
        }
    }
}

/// Every candidate move of a position: all from/to pairs, all actions, and every kind (the one
/// on the from-square and all the wrong ones).
fn candidates() -> impl Iterator<Item = Move> {
    Square::all().flat_map(|from| {
        Square::all().flat_map(move |to| {
            Action::ALL.into_iter().flat_map(move |action| {
                Kind::ALL.into_iter().map(move |kind| Move::new(kind, from, action, to))
            })
        })
    })
}

/// Checks that `engine.is_legal` says yes exactly to the moves `engine.legal_moves` lists.
fn is_legal_matches_move_list<E: Engine>(engine: &E, name: &str, board: &Board, side: Side) {
    let pos = engine.load(board, side);
    let listed: HashSet<Move> = engine.moves(&pos).into_iter().collect();
    let mut said_yes = 0;
    for mv in candidates() {
        let legal = engine.is_legal(&pos, mv);
        assert_eq!(legal, listed.contains(&mv), "{} is_legal({mv}) in {name}", engine.name());
        said_yes += legal as usize;
    }
    assert_eq!(said_yes, listed.len(), "{name}");
}

/// Every position of the committed corpus and the worked examples, with its side to move.
fn corpus_positions() -> Vec<(String, Board, Side)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases =
        arbiter::harness::corpus::find_cases(&root.join("corpus"), arbiter::advance::referee::CATEGORIES)
            .unwrap();
    cases.extend(
        arbiter::harness::corpus::find_cases(
            &root.join("corpus/examples"),
            arbiter::advance::referee::CATEGORIES,
        )
        .unwrap(),
    );
    assert_eq!(cases.len(), 204);
    cases
        .into_iter()
        .map(|c| (c.name, Board::from_text(&std::fs::read_to_string(&c.path).unwrap()).unwrap(), c.side))
        .collect()
}

#[test]
fn perft_to_depth_three_agrees_on_every_corpus_position() {
    use rayon::prelude::*;
    corpus_positions().par_iter().for_each(|(name, board, side)| {
        let (fast, reference) = (Fast.load(board, *side), Reference.load(board, *side));
        assert_eq!(Fast.perft(&fast, 3), Reference.perft(&reference, 3), "perft 3 of {name}");
    });
}

#[test]
fn is_legal_matches_the_move_list_on_every_corpus_position() {
    use rayon::prelude::*;
    corpus_positions().par_iter().for_each(|(name, board, side)| {
        is_legal_matches_move_list(&Fast, name, board, *side);
        is_legal_matches_move_list(&Reference, name, board, *side);
    });
}

#[test]
fn is_legal_matches_the_move_list_for_every_candidate() {
    for (name, p) in test_positions() {
        is_legal_matches_move_list(&Fast, &name, &p.board, p.turn);
        is_legal_matches_move_list(&Reference, &name, &p.board, p.turn);
    }
}

/// Checks everything the two engines can be asked about `board` with `side` to move.
fn assert_agreement(board: &Board, side: Side, perft_depth: u32) -> Result<(), TestCaseError> {
    let reference = Reference.load(board, side);
    let fast = Fast.load(board, side);
    prop_assert_eq!(Fast.board(&fast), board.clone());
    let moves = Reference.moves(&reference);
    prop_assert_eq!(&Fast.moves(&fast), &moves);
    prop_assert_eq!(Fast.has_legal_move(&fast), Reference.has_legal_move(&reference));
    for s in Side::BOTH {
        prop_assert_eq!(Fast.in_danger(&fast, s), Reference.in_danger(&reference, s));
        prop_assert_eq!(Fast.advantage(&fast, s), Reference.advantage(&reference, s));
    }
    for &mv in &moves {
        prop_assert!(Fast.is_legal(&fast, mv), "{} is legal", mv);
        let after = Fast.play(&fast, mv);
        prop_assert_eq!(Fast.board(&after), Reference.play(&reference, mv).board, "after {}", mv);
        prop_assert_eq!(Fast.turn(&after), side.opponent());
    }
    prop_assert_eq!(Fast.perft(&fast, 1), moves.len() as u64);
    prop_assert_eq!(Fast.perft(&fast, perft_depth), Reference.perft(&reference, perft_depth));
    Ok(())
}

/// Any board at all: 0 to 3 Generals of either side and up to 45 other placements, with no
/// promise about danger. Most have a side without a General or with two.
fn any_board() -> impl Strategy<Value = Board> {
    let general = (0..81usize, any::<bool>()).prop_map(|(index, white)| {
        let side = if white { Side::White } else { Side::Black };
        (index, Cell::Piece(Piece::new(side, Kind::General)))
    });
    (
        prop::collection::vec((0..81usize, common::strategy::non_general_cell()), 0..=45),
        prop::collection::vec(general, 0..=3),
    )
        .prop_map(|(placements, generals)| {
            let mut board = Board::empty();
            for (index, cell) in placements.into_iter().chain(generals) {
                board.set(Square::from_index(index), cell);
            }
            board
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn engines_agree_on_well_formed_positions(p in common::strategy::position()) {
        assert_agreement(&p.board, p.turn, 2)?;
    }

    #[test]
    fn engines_agree_when_the_waiting_side_may_be_in_danger(
        board in common::strategy::board_with(40),
        white in any::<bool>(),
    ) {
        let side = if white { Side::White } else { Side::Black };
        assert_agreement(&board, side, 2)?;
    }

    #[test]
    fn engines_agree_on_any_board(board in any_board(), white in any::<bool>()) {
        let side = if white { Side::White } else { Side::Black };
        assert_agreement(&board, side, 2)?;
    }
}

proptest! {
    // Sparse positions are cheap enough to compare one ply deeper.
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn engines_agree_on_sparse_positions_to_depth_three(p in common::strategy::position_with(12)) {
        assert_agreement(&p.board, p.turn, 3)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_is_legal_matches_its_move_list_on_random_positions(p in common::strategy::position()) {
        is_legal_matches_move_list(&Fast, "a random position", &p.board, p.turn);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The oracle gives the same answers on either engine: legal and winning moves, every
    /// grade's set under every aggregation, and every grade-7 value.
    #[test]
    fn engines_give_the_same_grade_sets(p in common::strategy::position_with(24)) {
        use arbiter::advance::grades::{Aggregation, grade_report};
        let fast = grade_report(&Fast, &Fast.load(&p.board, p.turn));
        let reference = grade_report(&Reference, &Reference.load(&p.board, p.turn));
        prop_assert_eq!(&fast.legal, &reference.legal);
        prop_assert_eq!(&fast.winning, &reference.winning);
        prop_assert_eq!(&fast.advantage_after, &reference.advantage_after);
        for agg in Aggregation::ALL {
            for grade in 4..=7 {
                prop_assert_eq!(fast.expected(grade, agg), reference.expected(grade, agg), "grade {} {:?}", grade, agg);
            }
        }
        prop_assert_eq!(&fast.candidates, &reference.candidates);
        prop_assert_eq!(fast.sensitive(), reference.sensitive());
    }
}
