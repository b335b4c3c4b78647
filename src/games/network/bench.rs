//! Timings of the hot paths, for `arbiter bench` and the README: network detection per second,
//! the oracle (`expect`) on crowded positions, and the alpha-beta player's depth-3 search of
//! the opening. [`measure`] returns them as JSON; `cargo bench --bench network` runs the same
//! through criterion.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value as Json, json};

use super::bots::AlphaBeta;
use super::color::Color;
use super::connection::has_network;
use super::generate::random_game;
use super::oracle::Oracle;
use super::position::Position;
use super::rules::Rules;

/// Positions from seeded random games: after 20 plies (every chip down) up to 80 (60 steps).
/// The same list every run.
pub fn crowded_positions() -> Vec<Position> {
    let rules = Rules::default();
    (0..24u64)
        .map(|seed| {
            let plies = 20 + (seed as usize * 7) % 61;
            random_game(&mut ChaCha8Rng::seed_from_u64(seed), &rules, plies).position
        })
        .collect()
}

/// Runs `f` until `min_time` has passed (at least once); returns seconds per run.
pub fn time<F: FnMut()>(min_time: Duration, mut f: F) -> f64 {
    let start = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || start.elapsed() < min_time {
        f();
        runs += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(runs)
}

/// Network detections per second, both colours of every [`crowded_positions`] board.
pub fn network_checks_per_second(positions: &[Position], min_time: Duration) -> f64 {
    let per_run = time(min_time, || {
        for pos in positions {
            for color in Color::BOTH {
                black_box(has_network(black_box(&pos.board), color));
            }
        }
    });
    (positions.len() * 2) as f64 / per_run
}

/// The measurements as JSON: `network_checks_per_second`, `expect_mean_ms` and
/// `expect_max_ms` over the crowded positions, `alphabeta_depth3_opening_ms`, and the search
/// of the first crowded position (steps) to depths 2 and 3.
pub fn measure(min_time: Duration) -> Json {
    let rules = Rules::default();
    let positions = crowded_positions();
    let checks = network_checks_per_second(&positions, min_time);
    let per_position = min_time / positions.len().max(1) as u32;
    let expect_ms: Vec<f64> = positions
        .iter()
        .map(|pos| 1000.0 * time(per_position, || drop(black_box(Oracle::new(pos, &rules)))))
        .collect();
    let mean = expect_ms.iter().sum::<f64>() / expect_ms.len().max(1) as f64;
    let max = expect_ms.iter().copied().fold(0.0, f64::max);
    let start = Position::start();
    let search_ms = 1000.0
        * time(Duration::ZERO, || {
            black_box(AlphaBeta::search(&start, &rules, 3, 0));
        });
    let step_ms = 1000.0
        * time(Duration::ZERO, || {
            black_box(AlphaBeta::search(&positions[0], &rules, 2, 0));
        });
    let step3_ms = 1000.0
        * time(Duration::ZERO, || {
            black_box(AlphaBeta::search(&positions[0], &rules, 3, 0));
        });
    json!({
        "network_checks_per_second": checks,
        "expect_mean_ms": mean,
        "expect_max_ms": max,
        "expect_positions": positions.len(),
        "alphabeta_depth3_opening_ms": search_ms,
        "alphabeta_depth2_steps_ms": step_ms,
        "alphabeta_depth3_steps_ms": step3_ms,
    })
}
