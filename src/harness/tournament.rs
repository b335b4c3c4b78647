//! Round robins: every pair of bots plays a match (both colours, `games` games), through the
//! match machinery of [`super::matches`], so forfeits and records are as in `match`. The results
//! make a crosstable, points, and Elo ratings ([`super::rating`]).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::bot::Bot;
use super::matches::{GameRecord, MatchOptions, play_match};
use super::rating::{Pairing, Rating, bradley_terry};
use super::referee::Referee;
use super::runner::Limits;

/// Virtual drawn games added between every pair for the ratings (see [`super::rating`]): enough
/// to keep a player who won everything finite, few enough that 10 real games outweigh it.
pub const PRIOR_DRAWS: f64 = 1.0;

/// How to play a tournament.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// Games per pairing; colours alternate, so an even number gives each side both equally.
    pub games: usize,
    pub seed: u64,
    pub jobs: usize,
    pub limits: Limits,
    pub same_file: bool,
}

/// One pairing's games: bot `a` (the earlier entrant) against bot `b`.
#[derive(Clone, Debug)]
pub struct PairingGames {
    pub a: usize,
    pub b: usize,
    pub records: Vec<GameRecord>,
}

/// The seed of the pairing between entrants `a` and `b`: distinct for every pair, the same
/// whatever the order in which pairings are played.
pub fn pairing_seed(seed: u64, a: usize, b: usize) -> u64 {
    seed.wrapping_add((a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((b as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
}

/// Plays every pairing in turn (each match's games `jobs` at a time), calling `progress` with
/// each pairing as it ends.
pub fn play_round_robin(
    referee: &dyn Referee,
    bots: &[Bot],
    options: &TournamentOptions,
    progress: &(dyn Fn(&GameRecord) + Sync),
    pairing_done: &mut dyn FnMut(&PairingGames) -> Result<(), String>,
) -> Result<Vec<PairingGames>, String> {
    let mut all = Vec::new();
    for a in 0..bots.len() {
        for b in a + 1..bots.len() {
            let match_options = MatchOptions {
                games: options.games,
                seed: pairing_seed(options.seed, a, b),
                jobs: options.jobs,
                limits: options.limits.clone(),
                same_file: options.same_file,
                starts: Vec::new(),
                colours: Default::default(),
                clock: None,
                clock_range: None,
                clock_counts_system: false,
            };
            let records = play_match(referee, &bots[a], &bots[b], &match_options, progress)?;
            let pairing = PairingGames { a, b, records };
            pairing_done(&pairing)?;
            all.push(pairing);
        }
    }
    Ok(all)
}

/// The tournament's results.
#[derive(Clone, Debug)]
pub struct Standings {
    /// The entrants, in the order given.
    pub names: Vec<String>,
    /// `table[i][j]`: i's results against j.
    pub table: Vec<Vec<Pairing>>,
    /// Games each entrant lost by forfeit (a crash, a timeout, an illegal move...).
    pub forfeits: Vec<usize>,
    pub ratings: Vec<Rating>,
}

impl Standings {
    /// The standings of `names` from the pairings' games.
    pub fn new(names: Vec<String>, pairings: &[PairingGames]) -> Standings {
        let n = names.len();
        let mut table = vec![vec![Pairing::default(); n]; n];
        let mut forfeits = vec![0; n];
        for p in pairings {
            for r in &p.records {
                let (ab, ba) = match r.a_outcome() {
                    Some(true) => ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
                    Some(false) => ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0)),
                    None => ((0.0, 1.0, 0.0), (0.0, 1.0, 0.0)),
                };
                add(&mut table[p.a][p.b], ab);
                add(&mut table[p.b][p.a], ba);
                if r.a_forfeited() {
                    forfeits[p.a] += 1;
                } else if r.a_outcome() == Some(true) && is_forfeit(&r.ending) {
                    forfeits[p.b] += 1;
                }
            }
        }
        let ratings = bradley_terry(&table, PRIOR_DRAWS);
        Standings { names, table, forfeits, ratings }
    }

    /// Entrant indices, best rating first (ties by points, then by name).
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&x, &y| {
            self.ratings[y]
                .elo
                .total_cmp(&self.ratings[x].elo)
                .then_with(|| self.points(y).total_cmp(&self.points(x)))
                .then_with(|| self.names[x].cmp(&self.names[y]))
        });
        order
    }

    /// An entrant's total over all its pairings.
    pub fn total(&self, i: usize) -> Pairing {
        self.table[i].iter().fold(Pairing::default(), |t, p| Pairing {
            wins: t.wins + p.wins,
            draws: t.draws + p.draws,
            losses: t.losses + p.losses,
        })
    }

    /// An entrant's points.
    pub fn points(&self, i: usize) -> f64 {
        self.total(i).points()
    }

    /// The standings and crosstable as text.
    pub fn text(&self) -> String {
        let order = self.order();
        let width = self.names.iter().map(|n| n.chars().count()).max().unwrap_or(6).clamp(6, 40);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>6}  {:>7}  {:>5}  {:>11}  {:>8}",
            "rank", "player", "Elo", "+-95%", "points", "games", "W-D-L", "forfeits"
        );
        for (rank, &i) in order.iter().enumerate() {
            let t = self.total(i);
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>+6.0}  {:>6.0}  {:>7}  {:>5}  {:>11}  {:>8}",
                rank + 1,
                shorten(&self.names[i], width),
                self.ratings[i].elo,
                self.ratings[i].error95,
                half(t.points()),
                t.games(),
                format!("{}-{}-{}", t.wins, t.draws, t.losses),
                self.forfeits[i]
            );
        }
        let _ = writeln!(out, "\ncrosstable (points of the row's player against the column's):");
        let _ = write!(out, "{:>4}  {:<width$}", "", "");
        for rank in 1..=order.len() {
            let _ = write!(out, "  {rank:>6}");
        }
        out.push('\n');
        for (rank, &i) in order.iter().enumerate() {
            let _ = write!(out, "{:>4}  {:<width$}", rank + 1, shorten(&self.names[i], width));
            for &j in &order {
                let cell = if i == j { "-".to_string() } else { self.cell(i, j) };
                let _ = write!(out, "  {cell:>6}");
            }
            out.push('\n');
        }
        match &self.upsets()[..] {
            [] => out.push_str("\nthe ratings order agrees with every head-to-head result\n"),
            upsets => {
                for &(i, j) in upsets {
                    let _ = writeln!(
                        out,
                        "\nupset: {} is rated above {} but scored {} against it",
                        self.names[i],
                        self.names[j],
                        self.cell(i, j)
                    );
                }
            }
        }
        out
    }

    /// Pairs where the rating order and the head-to-head result disagree: the better-rated
    /// player scored less than half against the other (a cycle of results, or a pairing the
    /// other games outweigh). Each as (better rated, worse rated).
    pub fn upsets(&self) -> Vec<(usize, usize)> {
        let order = self.order();
        let mut upsets = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                let p = self.table[i][j];
                if p.games() > 0.0 && p.points() < p.games() / 2.0 {
                    upsets.push((i, j));
                }
            }
        }
        upsets
    }

    /// A crosstable cell: `3.5/6`.
    pub fn cell(&self, i: usize, j: usize) -> String {
        let p = self.table[i][j];
        format!("{}/{}", half(p.points()), p.games())
    }

    /// Everything as JSON.
    pub fn json(&self) -> Value {
        let order = self.order();
        json!({
            "prior_draws": PRIOR_DRAWS,
            "standings": order.iter().enumerate().map(|(rank, &i)| {
                let t = self.total(i);
                json!({
                    "rank": rank + 1, "player": self.names[i], "elo": self.ratings[i].elo,
                    "error95": self.ratings[i].error95, "points": t.points(), "games": t.games(),
                    "wins": t.wins, "draws": t.draws, "losses": t.losses, "forfeits": self.forfeits[i],
                })
            }).collect::<Vec<_>>(),
            "players": self.names,
            "upsets": self.upsets().iter().map(|&(i, j)| json!([self.names[i], self.names[j]])).collect::<Vec<_>>(),
            "crosstable": (0..self.names.len()).map(|i| (0..self.names.len()).map(|j| {
                if i == j { Value::Null } else {
                    let p = self.table[i][j];
                    json!({"points": p.points(), "games": p.games(), "wins": p.wins, "draws": p.draws, "losses": p.losses})
                }
            }).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    }

    /// The standings as CSV, one row per entrant with its points against each other entrant.
    pub fn csv(&self) -> Result<Vec<u8>, String> {
        let order = self.order();
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header: Vec<String> =
            ["rank", "player", "elo", "error95", "points", "games", "wins", "draws", "losses", "forfeits"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        header.extend(order.iter().map(|&j| format!("vs {}", super::gradebook::neutralise(&self.names[j]))));
        w.write_record(&header).map_err(|e| e.to_string())?;
        for (rank, &i) in order.iter().enumerate() {
            let t = self.total(i);
            let mut row = vec![
                (rank + 1).to_string(),
                super::gradebook::neutralise(&self.names[i]),
                format!("{:.1}", self.ratings[i].elo),
                format!("{:.1}", self.ratings[i].error95),
                half(t.points()),
                t.games().to_string(),
                t.wins.to_string(),
                t.draws.to_string(),
                t.losses.to_string(),
                self.forfeits[i].to_string(),
            ];
            row.extend(
                order.iter().map(|&j| if i == j { String::new() } else { half(self.table[i][j].points()) }),
            );
            w.write_record(&row).map_err(|e| e.to_string())?;
        }
        w.into_inner().map_err(|e| e.to_string())
    }
}

fn add(p: &mut Pairing, (w, d, l): (f64, f64, f64)) {
    p.wins += w;
    p.draws += d;
    p.losses += l;
}

/// Whether an ending is a forfeit (a verdict of the loser's turn, or its clock).
fn is_forfeit(ending: &str) -> bool {
    ending == "out-of-time" || super::verdict::Verdict::ALL.iter().any(|v| v.as_str() == ending)
}

/// Points written without a needless `.0`: `3`, `3.5`.
pub fn half(x: f64) -> String {
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }
}

fn shorten(name: &str, width: usize) -> String {
    if name.chars().count() <= width {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(width - 1).collect();
        s.push('~');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::matches::GameResult;

    fn record(a_is_white: bool, result: GameResult, ending: &str) -> GameRecord {
        GameRecord { a_is_white, ..GameRecord::ended(result, ending) }
    }

    #[test]
    fn the_crosstable_mirrors_and_forfeits_are_counted_against_the_loser() {
        let pairings = vec![
            PairingGames {
                a: 0,
                b: 1,
                records: vec![
                    record(true, GameResult::White, "no-legal-move"),
                    record(false, GameResult::White, "crash"),
                ],
            },
            PairingGames { a: 0, b: 2, records: vec![record(true, GameResult::Draw, "move-limit")] },
            PairingGames { a: 1, b: 2, records: vec![record(true, GameResult::Black, "no-legal-move")] },
        ];
        let s = Standings::new(vec!["x".into(), "y".into(), "z".into()], &pairings);
        assert_eq!(s.cell(0, 1), "1/2");
        assert_eq!(s.cell(1, 0), "1/2");
        assert_eq!(s.cell(0, 2), "0.5/1");
        assert_eq!(s.forfeits, vec![1, 0, 0]);
        assert_eq!(s.points(2), 1.5);
        assert!(s.text().contains("crosstable"));
        let csv = String::from_utf8(s.csv().expect("csv")).expect("utf-8");
        assert!(csv.starts_with("rank,player,elo"));
    }

    #[test]
    fn a_cycle_of_results_has_an_upset_and_an_order_has_none() {
        let wins = |a: usize, b: usize, n: usize| PairingGames {
            a,
            b,
            records: (0..n).map(|_| record(true, GameResult::White, "no-legal-move")).collect(),
        };
        let names = || vec!["a".to_string(), "b".to_string(), "c".to_string()];
        // a beats b, b beats c, and c beats a: whatever the order, one pair goes against it.
        let cycle = Standings::new(
            names(),
            &[
                wins(0, 1, 3),
                wins(1, 2, 3),
                PairingGames { a: 0, b: 2, records: vec![record(true, GameResult::Black, "no-legal-move")] },
            ],
        );
        assert!(!cycle.upsets().is_empty());
        let order = Standings::new(names(), &[wins(0, 1, 3), wins(1, 2, 3), wins(0, 2, 1)]);
        assert_eq!(order.order(), vec![0, 1, 2]);
        assert!(order.upsets().is_empty());
        assert!(order.text().contains("agrees with every head-to-head result"));
    }
}
