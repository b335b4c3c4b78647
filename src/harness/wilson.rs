//! The Wilson score interval of a win rate: how sure a number of games makes a rate. Its own
//! file because both the match runner and the marking profiles use it, and neither should
//! import the other for it.

/// The Wilson score interval (95%) of a proportion `wins / games`.
pub fn wilson_interval(wins: usize, games: usize) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (games as f64, wins as f64 / games as f64, 1.959_963_984_540_054);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (((centre - spread) / denom).max(0.0), ((centre + spread) / denom).min(1.0))
}
