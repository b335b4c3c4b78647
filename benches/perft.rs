//! Perft on both engines, side by side: `cargo bench --bench perft`.
//!
//! Each benchmark reports its throughput in moves counted per second ("elements" in
//! criterion's words), so engines searched to different depths still compare directly. The
//! reference engine goes one ply less deep to keep the run short.

use std::hint::black_box;
use std::time::Duration;

use arbiter::Side;
use arbiter::advance::{Board, Engine, Fast, Reference};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A crowded middle game: most pieces still on, Zombies meeting in the centre.
const CROWDED: &str = "mjdsgscjm\nbz.zz.z.b\n..z..#z..\n.#...z...\n..Z.Z.#..\n\
                       ...Z...Z.\n.Z...Z.#.\nB..Z...ZB\nMJCSGSDJM\n";
/// A sparse middle game: a few pieces each, Generals without their Sentinels.
const SPARSE: &str = "....g....\n..s...d..\n.#....z..\n...j.....\n.....M...\n\
                      ..Z......\n....#..C.\n...S.....\n....G....\n";

fn bench_engine<E: Engine>(c: &mut Criterion, group: &str, board: &Board, engine: &E, depth: u32) {
    let pos = engine.load(board, Side::White);
    let nodes = engine.perft(&pos, depth);
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(nodes));
    g.bench_function(format!("{}/depth {depth}", engine.name()), |b| {
        b.iter(|| engine.perft(black_box(&pos), depth))
    });
    g.finish();
}

fn perft(c: &mut Criterion) {
    let positions = [
        ("initial", Board::initial()),
        ("crowded", Board::from_text(CROWDED).expect("a board")),
        ("sparse", Board::from_text(SPARSE).expect("a board")),
    ];
    for (name, board) in &positions {
        bench_engine(c, name, board, &Fast, 4);
        bench_engine(c, name, board, &Reference, 3);
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
