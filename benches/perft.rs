//! Perft on both engines, side by side, on the positions `arbiter bench` uses:
//! `cargo bench --bench perft`.
//!
//! Each benchmark reports its throughput in moves counted per second ("elements" in
//! criterion's words), so engines searched to different depths still compare directly. The
//! reference engine goes one ply less deep to keep the run short.

use std::hint::black_box;
use std::time::Duration;

use arbiter::Side;
use arbiter::advance::bench_positions::bench_positions;
use arbiter::advance::{Board, Engine, Fast, Reference};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench_engine<E: Engine>(
    c: &mut Criterion,
    group: &str,
    board: &Board,
    side: Side,
    engine: &E,
    depth: u32,
) {
    let pos = engine.load(board, side);
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
    for (name, board, side) in bench_positions() {
        bench_engine(c, name, &board, side, &Fast, 4);
        bench_engine(c, name, &board, side, &Reference, 3);
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
