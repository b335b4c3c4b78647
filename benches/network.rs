//! Network's hot paths through criterion: `cargo bench --bench network`. Network detection on
//! crowded boards (reported as checks per second), the oracle behind `expect` on each of them,
//! and the alpha-beta player's depth-3 search of the opening. `arbiter bench` can call
//! `arbiter::games::network::bench::measure` for the same numbers in one JSON object.

use std::hint::black_box;
use std::time::Duration;

use arbiter::games::network::bench::crowded_positions;
use arbiter::games::network::{AlphaBeta, Color, Oracle, Position, Rules, has_network};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn network(c: &mut Criterion) {
    let rules = Rules::default();
    let positions = crowded_positions();
    let mut g = c.benchmark_group("network");
    g.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(2 * positions.len() as u64));
    g.bench_function("has_network/both colours of 24 crowded boards", |b| {
        b.iter(|| {
            for pos in &positions {
                for color in Color::BOTH {
                    black_box(has_network(black_box(&pos.board), color));
                }
            }
        })
    });
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("expect (Oracle::new)/24 crowded positions", |b| {
        b.iter(|| {
            for pos in &positions {
                black_box(Oracle::new(black_box(pos), &rules));
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("alphabeta");
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    let start = Position::start();
    g.bench_function("depth 3 from the opening", |b| {
        b.iter(|| black_box(AlphaBeta::search(&start, &rules, 3, 0)))
    });
    g.bench_function("depth 2 of steps", |b| {
        b.iter(|| black_box(AlphaBeta::search(&positions[0], &rules, 2, 0)))
    });
    g.finish();
}

criterion_group!(benches, network);
criterion_main!(benches);
