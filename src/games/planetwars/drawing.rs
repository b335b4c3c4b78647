//! A PlanetWars game as a picture: the graph drawn once (planets sized by their size, edges
//! labelled with their travel time), then each ply's owners, populations and shuttles in flight
//! shown by a small script, with each player's population plotted over time. The map has no
//! coordinates of its own, so the layout is made here: Player 1's home on the left, Player 2's
//! on the right, and every planet placed by its distance in hops from the two homes.

use std::fmt::Write as _;

use serde_json::json;

use super::planet::Player;
use super::referee::PlanetwarsReferee;
use super::state::State;
use crate::harness::html::escape;
use crate::harness::referee::{Drawing, Grid, Scene};
use crate::side::Side;

/// The picture's size in pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 420.0;
/// Room around the planets, and under them for the caption.
const MARGIN: f64 = 40.0;
const CAPTION: f64 = 24.0;

/// Fill colours: neutral, Player 1, Player 2 (the script's `COLOURS` in the same order).
const COLOURS: [&str; 3] = ["#c9c9c9", "#2f80ed", "#eb5757"];

/// Shows one frame: `o` each planet's owner (0 neutral, 1, 2), `p` its population, `s` the
/// shuttles as `[from, to, owner, population, remaining, distance]`, `c` the caption.
const DRAW: &str = r#"function (svg, f) {
  var colours = ['#c9c9c9', '#2f80ed', '#eb5757'];
  var ns = 'http://www.w3.org/2000/svg';
  for (var i = 0; i < f.o.length; i++) {
    var planet = svg.querySelector('#planet-' + i);
    planet.setAttribute('fill', colours[f.o[i]]);
    planet.parentNode.setAttribute('data-owner', f.o[i]);
    planet.parentNode.setAttribute('data-population', f.p[i]);
    svg.querySelector('#pop-' + i).textContent = f.p[i];
  }
  var layer = svg.querySelector('.shuttles');
  while (layer.firstChild) { layer.removeChild(layer.firstChild); }
  f.s.forEach(function (s) {
    var a = svg.querySelector('#planet-' + s[0]), b = svg.querySelector('#planet-' + s[1]);
    var t = (s[5] - s[4] + 1) / (s[5] + 1);
    var ax = parseFloat(a.getAttribute('cx')), ay = parseFloat(a.getAttribute('cy'));
    var x = ax + (parseFloat(b.getAttribute('cx')) - ax) * t;
    var y = ay + (parseFloat(b.getAttribute('cy')) - ay) * t;
    var dot = document.createElementNS(ns, 'circle');
    dot.setAttribute('class', 'shuttle');
    dot.setAttribute('cx', x); dot.setAttribute('cy', y); dot.setAttribute('r', 5);
    dot.setAttribute('fill', colours[s[2]]); dot.setAttribute('stroke', '#111');
    dot.setAttribute('data-population', s[3]);
    var title = document.createElementNS(ns, 'title');
    title.textContent = 'Player ' + s[2] + ': ' + s[3] + ' people from ' + s[0] + ' to ' + s[1] + ', ' + s[4] + ' turns left';
    dot.appendChild(title);
    layer.appendChild(dot);
    var label = document.createElementNS(ns, 'text');
    label.setAttribute('class', 'shuttle-label');
    label.setAttribute('x', x + 7); label.setAttribute('y', y - 6);
    label.setAttribute('font-size', 10); label.setAttribute('fill', colours[s[2]]);
    label.setAttribute('stroke', '#10172a'); label.setAttribute('stroke-width', 3);
    label.setAttribute('paint-order', 'stroke');
    label.textContent = 'P' + s[2] + ' ' + s[3] + ' (' + s[4] + ')';
    layer.appendChild(label);
  });
  svg.querySelector('#caption').textContent = f.c;
}"#;

impl Drawing for PlanetwarsReferee {
    fn grid(&self, _board: &[u8], _side: Option<Side>) -> Result<Grid, String> {
        Err("a PlanetWars map is a graph of planets, not a grid; its games are drawn as a scene".to_string())
    }

    fn scene(&self, boards: &[Vec<u8>], ended: bool) -> Option<Result<Scene, String>> {
        Some(scene(boards, ended))
    }
}

/// The scene of a game whose plies' state files are `boards`; `ended`: the game is over after
/// the last.
fn scene(boards: &[Vec<u8>], ended: bool) -> Result<Scene, String> {
    let states = boards
        .iter()
        .enumerate()
        .map(|(ply, b)| State::parse(&String::from_utf8_lossy(b), &format!("the state after ply {ply}")))
        .collect::<Result<Vec<State>, String>>()?;
    let first = states.first().ok_or("a game has at least its start")?;
    let at = layout(first);
    let last = states.len() - 1;
    let frames = states.iter().enumerate().map(|(i, s)| frame(s, ended && i == last)).collect();
    let series = Player::BOTH
        .into_iter()
        .map(|p| {
            let values = states.iter().map(|s| s.total_population(p) as f64).collect();
            (format!("Player {}", p.number()), COLOURS[usize::from(p.number())], values)
        })
        .collect();
    Ok(Scene {
        svg: svg(first, &at, ended && last == 0),
        frames,
        script: DRAW,
        measure: "people (on planets and in flight)",
        series,
    })
}

/// Each planet's place: by hops from the two homes, left to right, spread top to bottom among
/// the planets at the same place from left to right. Without two homes (a start file with one
/// player already gone), on a circle.
fn layout(state: &State) -> Vec<(f64, f64)> {
    let n = state.map.len();
    let homes = Player::BOTH.map(|p| state.planets_of(p).next());
    let (Some(h1), Some(h2)) = (homes[0], homes[1]) else {
        return (0..n)
            .map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / n.max(1) as f64;
                let r = (HEIGHT - CAPTION) / 2.0 - MARGIN;
                (WIDTH / 2.0 + r * angle.cos(), (HEIGHT - CAPTION) / 2.0 + r * angle.sin())
            })
            .collect();
    };
    let (d1, d2) = (state.map.hops_from(h1), state.map.hops_from(h2));
    // A planet's column: its share of the way from home 1 to home 2, in tenths.
    let column = |i: usize| {
        let (a, b) = (d1[i].min(n) as f64, d2[i].min(n) as f64);
        if a + b == 0.0 { 0 } else { (10.0 * a / (a + b)).round() as usize }
    };
    let mut by_column: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for i in 0..n {
        by_column.entry(column(i)).or_default().push(i);
    }
    let mut at = vec![(0.0, 0.0); n];
    let usable = HEIGHT - CAPTION - 2.0 * MARGIN;
    for (c, planets) in &mut by_column {
        planets.sort_by_key(|&i| (d1[i], d2[i], i));
        let x = MARGIN + (WIDTH - 2.0 * MARGIN) * *c as f64 / 10.0;
        for (k, &i) in planets.iter().enumerate() {
            // Columns of one planet in the middle; others spread, odd columns shifted a little
            // so that an edge along a column does not run through a planet.
            let y = MARGIN
                + usable * (k as f64 + 0.5) / planets.len() as f64
                + if c % 2 == 1 { 8.0 } else { 0.0 };
            at[i] = (x, y);
        }
    }
    at
}

/// A planet's radius: its size (maximum population) as area.
fn radius(size: i64) -> f64 {
    8.0 + 14.0 * (size.max(0) as f64 / 1000.0).sqrt().min(1.5)
}

fn owner_index(owner: Option<Player>) -> usize {
    owner.map_or(0, |p| usize::from(p.number()))
}

/// The picture at the start: edges with their travel times, planets with their populations.
fn svg(state: &State, at: &[(f64, f64)], over: bool) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg class="scene planetwars" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" data-ply="0">"#
    );
    let _ = write!(out, r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#10172a"/>"##);
    for e in &state.map.edges {
        let ((x1, y1), (x2, y2)) = (at[e.a], at[e.b]);
        let _ = write!(
            out,
            r##"<line class="edge" data-edge="{} {}" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#56607a" stroke-width="1.5"/><text x="{:.1}" y="{:.1}" font-size="10" fill="#9aa3b8" text-anchor="middle">{}</text>"##,
            e.a,
            e.b,
            (x1 + x2) / 2.0,
            (y1 + y2) / 2.0 - 3.0,
            e.distance
        );
    }
    for (i, p) in state.map.planets.iter().enumerate() {
        let (x, y) = at[i];
        let r = radius(p.size);
        let owner = owner_index(state.owner[i]);
        let _ = write!(
            out,
            r##"<g class="planet" data-planet="{i}" data-owner="{owner}" data-population="{pop}"><title>planet {i}: size {}, habitability {}</title><circle id="planet-{i}" cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{}" stroke="#e0e0e0"/><text x="{x:.1}" y="{:.1}" font-size="9" fill="#9aa3b8" text-anchor="middle">{i}</text><text id="pop-{i}" x="{x:.1}" y="{:.1}" font-size="11" font-weight="bold" fill="#111" text-anchor="middle">{pop}</text></g>"##,
            p.size,
            p.habitability,
            COLOURS[owner],
            y - r - 3.0,
            y + 4.0,
            pop = state.population[i]
        );
    }
    // Shuttles over the planets, so that a label near its destination is not hidden.
    out.push_str(r#"<g class="shuttles"></g>"#);
    // What a shuttle's label says.
    let _ = write!(
        out,
        r##"<text class="legend" x="{:.1}" y="14" font-size="10" fill="#9aa3b8" text-anchor="end">shuttles: P(layer) people (turns left)</text>"##,
        WIDTH - 8.0
    );
    let _ = write!(
        out,
        r##"<text id="caption" x="{MARGIN}" y="{:.1}" font-size="12" fill="#e0e0e0">{}</text></svg>"##,
        HEIGHT - 8.0,
        escape(&caption(state, over))
    );
    out
}

/// A line under the picture: the ply, who moves (or that the game is `over`), each player's
/// people and planets.
fn caption(state: &State, over: bool) -> String {
    let mut out = if over {
        format!("ply {}, the game is over", state.ply)
    } else {
        format!("ply {}, Player {} to move", state.ply, state.to_move.number())
    };
    for p in Player::BOTH {
        let _ = write!(
            out,
            "; Player {}: {} people, {} planets",
            p.number(),
            state.total_population(p),
            state.planets_of(p).count()
        );
    }
    out
}

/// What the script needs to show a state (`over`: the last of a game that ended).
fn frame(state: &State, over: bool) -> serde_json::Value {
    let shuttles: Vec<serde_json::Value> = state
        .shuttles
        .iter()
        .map(|s| {
            let distance = state.map.distance(s.from, s.to).unwrap_or(s.remaining).max(s.remaining);
            json!([s.from, s.to, s.owner.number(), s.population, s.remaining, distance])
        })
        .collect();
    json!({
        "o": state.owner.iter().map(|&o| owner_index(o)).collect::<Vec<_>>(),
        "p": state.population,
        "s": shuttles,
        "c": caption(state, over),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::planetwars::generate::random_map;

    #[test]
    fn the_homes_stand_at_the_two_sides_and_every_planet_is_drawn() {
        let start = random_map(7).start();
        let at = layout(&start);
        let h1 = start.planets_of(Player::One).next().unwrap();
        let h2 = start.planets_of(Player::Two).next().unwrap();
        assert_eq!(at[h1].0, MARGIN);
        assert_eq!(at[h2].0, WIDTH - MARGIN);
        let scene = scene(&[start.to_text().into_bytes()], false).unwrap();
        assert_eq!(scene.svg.matches("class=\"planet\"").count(), start.map.len());
        assert_eq!(scene.svg.matches("class=\"edge\"").count(), start.map.edges.len());
        assert_eq!(scene.frames.len(), 1);
        assert_eq!(scene.frames[0]["p"][h1], 100);
        assert_eq!(scene.series[0].2, vec![100.0]);
    }

    #[test]
    fn a_frame_holds_owners_populations_and_shuttles() {
        let mut state = random_map(3).start();
        let home = state.planets_of(Player::One).next().unwrap();
        let (to, distance) = state.map.neighbours(home)[0];
        state.play(&crate::games::planetwars::turn::parse_orders(&format!("send {home} {to} 40")).unwrap());
        let f = frame(&state, false);
        assert_eq!(f["o"][home], 1);
        let s = &f["s"][0];
        assert_eq!(
            (s[0].as_u64(), s[1].as_u64(), s[2].as_u64()),
            (Some(home as u64), Some(to as u64), Some(1))
        );
        assert_eq!(s[5].as_u64(), Some(u64::from(distance)));
    }
}
