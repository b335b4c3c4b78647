//! Elo ratings from game results by Bradley-Terry maximum likelihood, the model ordo and
//! bayeselo fit: player i beats player j with probability `g_i / (g_i + g_j)`, a draw counts as
//! half a win for each, and a rating is `400 log10 g`, anchored so that the ratings average 0.
//!
//! The fit is Hunter's MM iteration (Hunter 2004, "MM algorithms for generalized Bradley-Terry
//! models"), which increases the likelihood at every step and converges whenever the results
//! connect every player to every other both ways. A player who won (or lost) every game has no
//! finite maximum, so `prior_draws` virtual drawn games are added between every pair that
//! played, as bayeselo's prior does; 0 gives the plain maximum likelihood.
//!
//! Error bars come from the Fisher information at the fit: its pseudo-inverse (the ratings sum
//! to zero) is the covariance of the log-strengths, and 1.96 standard deviations make the 95%
//! interval.

/// Results between two players, from the first one's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pairing {
    pub wins: f64,
    pub draws: f64,
    pub losses: f64,
}

impl Pairing {
    /// Games played.
    pub fn games(&self) -> f64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins + self.draws / 2.0
    }
}

/// One player's rating.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// Elo, the players averaging 0.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error95: f64,
}

/// Elo per unit of natural-log strength.
const ELO_PER_NEPER: f64 = 400.0 / std::f64::consts::LN_10;

/// The ratings of `n` players from `results[i][j]` (i's results against j; `results[j][i]` is
/// expected to mirror it, and only the upper triangle i < j is read).
pub fn bradley_terry(results: &[Vec<Pairing>], prior_draws: f64) -> Vec<Rating> {
    let n = results.len();
    if n == 0 {
        return Vec::new();
    }
    // Games and points between each pair, from both sides, with the prior's virtual draws.
    let mut games = vec![vec![0.0; n]; n];
    let mut points = vec![0.0; n];
    for i in 0..n {
        for j in i + 1..n {
            let p = results[i][j];
            let g = p.games();
            if g == 0.0 {
                continue;
            }
            let total = g + prior_draws;
            games[i][j] = total;
            games[j][i] = total;
            points[i] += p.points() + prior_draws / 2.0;
            points[j] += (g - p.points()) + prior_draws / 2.0;
        }
    }
    let mut strength = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next = strength.clone();
        for i in 0..n {
            let denominator: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (strength[i] + strength[j]))
                .sum();
            if denominator > 0.0 {
                // A player with no points tends to strength 0; a floor keeps the logarithm finite.
                next[i] = (points[i] / denominator).max(1e-300);
            }
        }
        // Geometric mean 1: the ratings average 0.
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut next {
            *g = (g.ln() - mean_log).exp();
        }
        let change = next.iter().zip(&strength).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        strength = next;
        if change < 1e-12 {
            break;
        }
    }
    // The information matrix of the log-strengths: a weighted graph Laplacian.
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = strength[i] / (strength[i] + strength[j]);
                let w = games[i][j] * p * (1.0 - p);
                info[i][j] -= w;
                info[i][i] += w;
            }
        }
    }
    let covariance = pseudo_inverse_laplacian(&info);
    (0..n)
        .map(|i| Rating {
            elo: ELO_PER_NEPER * strength[i].ln(),
            error95: 1.96
                * ELO_PER_NEPER
                * covariance.as_ref().map_or(f64::INFINITY, |c| c[i][i].max(0.0).sqrt()),
        })
        .collect()
}

/// The pseudo-inverse of a connected graph's Laplacian `l`, `(l + J/n)^-1 - J/n` with `J` all
/// ones; `None` when it is singular (players not all connected).
fn pseudo_inverse_laplacian(l: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = l.len();
    let shift = 1.0 / n as f64;
    let a: Vec<Vec<f64>> = l.iter().map(|row| row.iter().map(|x| x + shift).collect()).collect();
    let inverse = invert(a)?;
    Some(inverse.into_iter().map(|row| row.into_iter().map(|x| x - shift).collect()).collect())
}

/// Gauss-Jordan inversion with partial pivoting; `None` for a singular matrix.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for k in 0..n {
            a[col][k] /= p;
            inv[col][k] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table(n: usize, games: &[(usize, usize, f64, f64, f64)]) -> Vec<Vec<Pairing>> {
        let mut t = vec![vec![Pairing::default(); n]; n];
        for &(i, j, w, d, l) in games {
            t[i][j] = Pairing { wins: w, draws: d, losses: l };
            t[j][i] = Pairing { wins: l, draws: d, losses: w };
        }
        t
    }

    #[test]
    fn three_wins_in_four_is_190_elo_with_the_hand_computed_error() {
        // A scores 3 of 4 against B: g_A/g_B = 3, 400 log10 3 = 190.85 Elo apart, +-95.42.
        // Information n p (1-p) = 4 * 3/4 * 1/4 = 3/4 on the difference; each log-strength, the
        // two summing to 0, has variance 1/(4 * 3/4) = 1/3, so 1.96 * sqrt(1/3) * 173.72.
        let r = bradley_terry(&table(2, &[(0, 1, 3.0, 0.0, 1.0)]), 0.0);
        assert!((r[0].elo - 95.424).abs() < 0.01, "{r:?}");
        assert!((r[1].elo + 95.424).abs() < 0.01, "{r:?}");
        let expected = 1.96 * (1.0f64 / 3.0).sqrt() * ELO_PER_NEPER;
        assert!((r[0].error95 - expected).abs() < 0.01, "{r:?} vs {expected}");
        // Two draws and two wins in four is the same 3 points.
        let d = bradley_terry(&table(2, &[(0, 1, 2.0, 2.0, 0.0)]), 0.0);
        assert!((d[0].elo - r[0].elo).abs() < 1e-6);
    }

    #[test]
    fn a_cycle_rates_everyone_equal() {
        let r = bradley_terry(
            &table(3, &[(0, 1, 2.0, 0.0, 0.0), (1, 2, 2.0, 0.0, 0.0), (2, 0, 2.0, 0.0, 0.0)]),
            0.0,
        );
        for x in &r {
            assert!(x.elo.abs() < 1e-6, "{r:?}");
        }
    }

    proptest! {
        #[test]
        fn a_player_who_beats_everyone_is_rated_highest(
            n in 2usize..6,
            scores in proptest::collection::vec((0u8..5, 0u8..5, 0u8..5), 15),
        ) {
            // Player 0 wins every game; the others play anything among themselves.
            let mut games = Vec::new();
            let mut k = 0;
            for i in 0..n {
                for j in i + 1..n {
                    if i == 0 {
                        games.push((0, j, 2.0, 0.0, 0.0));
                    } else {
                        let (w, d, l) = scores[k % scores.len()];
                        k += 1;
                        games.push((i, j, f64::from(w), f64::from(d), f64::from(l)));
                    }
                }
            }
            let r = bradley_terry(&table(n, &games), 1.0);
            for x in &r[1..] {
                prop_assert!(r[0].elo > x.elo, "{:?}", r);
            }
            let sum: f64 = r.iter().map(|x| x.elo).sum();
            prop_assert!(sum.abs() < 1e-6);
            prop_assert!(r.iter().all(|x| x.error95.is_finite() && x.error95 > 0.0));
        }
    }
}
