//! Times perft on both engines: `cargo run --release --example perft_timing -- [depth] [ref-depth]`.
//!
//! Prints nodes, seconds and moves per second for the initial position and two middle-game
//! positions (one crowded, one sparse), white to move.

use std::time::Instant;

use arbiter::Side;
use arbiter::advance::{Board, Engine, Fast, Reference};

const CROWDED: &str =
    "mjdsgscjm\nbz.zz.z.b\n..z..#z..\n.#...z...\n..Z.Z.#..\n...Z...Z.\n.Z...Z.#.\nB..Z...ZB\nMJCSGSDJM\n";
const SPARSE: &str =
    "....g....\n..s...d..\n.#....z..\n...j.....\n.....M...\n..Z......\n....#..C.\n...S.....\n....G....\n";

fn time<E: Engine>(engine: &E, board: &Board, depth: u32) -> (u64, f64) {
    let pos = engine.load(board, Side::White);
    let start = Instant::now();
    let nodes = engine.perft(&pos, depth);
    (nodes, start.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse().expect("a depth")).collect();
    let depth = args.first().copied().unwrap_or(4);
    let ref_depth = args.get(1).copied().unwrap_or(depth.saturating_sub(1));
    for (name, text) in [("initial", None), ("crowded", Some(CROWDED)), ("sparse", Some(SPARSE))] {
        let board = text.map_or_else(Board::initial, |t| Board::from_text(t).expect("a board"));
        for (engine, d) in [("fast", depth), ("reference", ref_depth)] {
            if d == 0 {
                continue;
            }
            let (nodes, secs) = match engine {
                "fast" => time(&Fast, &board, d),
                _ => time(&Reference, &board, d),
            };
            println!(
                "{name:8} {engine:9} depth {d}: {nodes:>12} moves in {secs:8.3} s = {:>7.2} M moves/s",
                nodes as f64 / secs / 1e6
            );
        }
    }
}
