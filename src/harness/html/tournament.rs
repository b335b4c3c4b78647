//! The tournament page: standings with ratings and error bars drawn to scale, and the
//! crosstable, each cell carrying its players in `data-row` and `data-col`.

use std::fmt::Write as _;

use super::{escape, page};
use crate::harness::tournament::{Standings, half};

/// The page of a tournament of `game`.
pub fn tournament_page(game: &str, s: &Standings) -> String {
    let order = s.order();
    let mut body = format!("<h1>{} tournament: {} players</h1>", escape(game), s.names.len());
    body.push_str("<table id=\"standings\"><tr><th class=\"num\">rank</th><th>player</th><th class=\"num\">Elo</th><th class=\"num\">&plusmn; 95%</th><th>interval</th><th class=\"num\">points</th><th class=\"num\">games</th><th class=\"num\">W-D-L</th><th class=\"num\">win rate</th><th>95% interval (Wilson)</th><th class=\"num\">forfeits</th></tr>");
    // The interval bars share one scale across the table.
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo =
        order.iter().map(|&i| s.ratings[i].elo - finite(s.ratings[i].error95)).fold(f64::INFINITY, f64::min);
    let hi = order
        .iter()
        .map(|&i| s.ratings[i].elo + finite(s.ratings[i].error95))
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(1.0);
    let x = |elo: f64| 4.0 + 192.0 * (elo - lo) / span;
    for (rank, &i) in order.iter().enumerate() {
        let r = s.ratings[i];
        let t = s.total(i);
        let e = finite(r.error95);
        // Whole games here (a pairing's counts are whole numbers held as floats).
        let (won, played) = (t.wins.round() as usize, t.games().round() as usize);
        let (lo, hi) = crate::harness::wilson::wilson_interval(won, played);
        let rate = if played == 0 { 0.0 } else { won as f64 / played as f64 };
        let bar = format!(
            r##"<svg width="200" height="14" xmlns="http://www.w3.org/2000/svg"><line x1="{:.1}" y1="7" x2="{:.1}" y2="7" stroke="#4a7ab5" stroke-width="3"/><circle cx="{:.1}" cy="7" r="4" fill="#222"/></svg>"##,
            x(r.elo - e),
            x(r.elo + e),
            x(r.elo)
        );
        let _ = write!(
            body,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{:+.0}</td><td class=\"num\">{:.0}</td><td>{bar}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}-{}-{}</td><td class=\"num rate\">{:.0}%</td><td>{:.0}% to {:.0}%</td><td class=\"num\">{}</td></tr>",
            rank + 1,
            escape(&s.names[i]),
            r.elo,
            r.error95,
            half(t.points()),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            s.forfeits[i]
        );
    }
    body.push_str("</table><h2>Crosstable</h2><p>Points of the row's player against the column's.</p><table id=\"crosstable\"><tr><th></th>");
    for rank in 1..=order.len() {
        let _ = write!(body, "<th class=\"num\">{rank}</th>");
    }
    body.push_str("</tr>");
    for (rank, &i) in order.iter().enumerate() {
        let _ = write!(body, "<tr><th>{} {}</th>", rank + 1, escape(&s.names[i]));
        for &j in &order {
            let cell = if i == j { "&ndash;".to_string() } else { escape(&s.cell(i, j)) };
            let _ = write!(
                body,
                "<td class=\"num\" data-row=\"{}\" data-col=\"{}\">{cell}</td>",
                escape(&s.names[i]),
                escape(&s.names[j])
            );
        }
        body.push_str("</tr>");
    }
    let _ = write!(
        body,
        "</table><p>Ratings: Bradley-Terry maximum likelihood (draws half a win, {} virtual draw(s) per pairing as a prior), averaging 0; error bars 95%.</p>",
        crate::harness::tournament::PRIOR_DRAWS
    );
    page(&format!("arbiter: {game} tournament"), &body)
}
