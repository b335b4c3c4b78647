//! The game viewer: a game record as a page to step through, move by move, with buttons, the
//! arrow keys or a click on the move list. Every position's board is drawn here, in Rust; the
//! page's script only shows one and hides the others, so the page needs nothing at view time.
//! `#N` in the address opens it at ply N.

use std::fmt::Write as _;

use super::{escape, page, plot};
use crate::harness::referee::{MarkStyle, Referee, Scene};
use crate::side::Side;

/// A game as the viewer needs it: from a record being written (`match`) or read (`replay`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewedGame {
    /// `game 3`, or the record's file name.
    pub title: String,
    pub white: String,
    pub black: String,
    /// `white wins`, `black wins`, `draw`.
    pub result: String,
    /// The side that won; `None` for a draw.
    pub winner: Option<Side>,
    /// The ending's short name (`no-legal-move`, `five`, `crash`).
    pub ending: String,
    /// The ending in a sentence, when known.
    pub detail: String,
    /// The start board file.
    pub start_board: String,
    /// Every move in notation.
    pub moves: Vec<String>,
}

/// The grid viewer's script, before [`CONTROLS`]: `draw` shows the position of one ply.
const SHOW_POSITIONS: &str = r#"
(function () {
  var positions = document.querySelectorAll('.position');
  var items = document.querySelectorAll('.moves .mv');
  var last = positions.length - 1;
  function draw(ply) {
    for (var i = 0; i < positions.length; i++) { positions[i].hidden = (i !== ply); }
  }
"#;

/// The end of either viewer's script, inside the function that defines `draw`, `last` and
/// `items`: `show` moves to a ply (drawn by the viewer's own `draw`), marks its move in the list
/// and sets the counter and the slider; the slider, the buttons, the move list and the arrow
/// keys call `show`, and the address's `#N` opens ply N.
const CONTROLS: &str = r#"
  var ply = 0;
  function show(n) {
    ply = Math.max(0, Math.min(last, n));
    draw(ply);
    follow(ply);
    document.getElementById('ply').textContent = ply;
    document.getElementById('slider').value = ply;
  }
  // Marks ply n's move in the list and scrolls the list (only the list) to it.
  function follow(n) {
    var list = document.querySelector('.moves');
    for (var j = 0; j < items.length; j++) { items[j].className = (j + 1 === n) ? 'mv current' : 'mv'; }
    var item = items[n - 1];
    if (list && item) {
      list.scrollTop = Math.max(0, item.offsetTop - list.clientHeight / 2);
      list.setAttribute('data-scroll-top', list.scrollTop);
    } else if (list) {
      list.scrollTop = 0;
    }
  }
  document.getElementById('slider').oninput = function () { show(parseInt(this.value, 10)); };
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(ply - 1); };
  document.getElementById('next').onclick = function () { show(ply + 1); };
  document.getElementById('last').onclick = function () { show(last); };
  for (var k = 0; k < items.length; k++) {
    items[k].onclick = (function (n) { return function () { show(n); }; })(k + 1);
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(ply - 1); }
    else if (e.key === 'ArrowRight') { show(ply + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(last); }
  });
  var wanted = parseInt((location.hash || '#0').slice(1), 10);
  show(isNaN(wanted) ? 0 : wanted);
})();
"#;

/// The scene viewer's script, before [`CONTROLS`]: `draw` shows a frame with the game's own
/// function (`DRAW`), its heading, and the cursor on the plot.
const SHOW_FRAMES: &str = r#"
(function () {
  var svg = document.querySelector('svg.scene');
  var items = document.querySelectorAll('.moves .mv');
  var cursor = document.getElementById('cursor');
  var last = FRAMES.length - 1;
  function draw(ply) {
    DRAW(svg, FRAMES[ply]);
    svg.setAttribute('data-ply', ply);
    document.getElementById('heading').textContent = HEADINGS[ply];
    if (cursor) {
      var x = parseFloat(cursor.getAttribute('data-x0')) + ply * parseFloat(cursor.getAttribute('data-step'));
      cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
    }
  }
"#;

/// The viewer page. Moves are replayed through the game's rules to draw each position; a move
/// that cannot be replayed ends the drawn positions there, with the reason on the page.
pub fn game_page(referee: &dyn Referee, game: &ViewedGame) -> Result<String, String> {
    let drawing = referee.drawing().ok_or_else(|| format!("{} draws no boards", referee.game()))?;
    let mut state =
        referee.require_games()?.new_game(Some(("the record's start board", game.start_board.as_bytes())))?;
    let mut boards: Vec<(Vec<u8>, Side)> = vec![(state.record_file(), state.to_move())];
    let mut names: Vec<String> = Vec::new();
    let mut broken = None;
    for (i, mv) in game.moves.iter().enumerate() {
        let (before, side) = boards[boards.len() - 1].clone();
        names.push(drawing.name_move(&before, side, mv));
        if let Err(e) = state.play_notation(mv) {
            broken = Some(format!("move {} ({mv}) cannot be replayed: {e}", i + 1));
            break;
        }
        boards.push((state.record_file(), state.to_move()));
    }
    let last = boards.len() - 1;
    let files: Vec<Vec<u8>> = boards.iter().map(|(b, _)| b.clone()).collect();
    if let Some(scene) = drawing.scene(&files, broken.is_none()) {
        return Ok(scene_page(game, referee.words().sides, &names, broken.as_deref(), &scene?));
    }
    let mut body = header(game, referee.words().sides, broken.as_deref(), last);
    body.push_str("<div class=\"pair\"><div>");
    let mut previous = None;
    for (ply, (board, side)) in boards.iter().enumerate() {
        // The end: nobody is to move; the caption says how the game ended instead.
        let ended = ply == last && broken.is_none() && last > 0;
        let mut grid = drawing.grid(board, if ended { None } else { Some(*side) })?;
        let mut marks = previous.as_ref().map_or_else(Vec::new, |p| grid.differences(p, MarkStyle::Moved));
        if ended {
            grid.caption = format!("Game over: {}; {}", outcome(game), grid.caption);
            if let Some(winner) = game.winner {
                let cells = drawing.winning_cells(&boards[ply - 1].0, board, winner);
                marks.extend(grid.marks(&cells, MarkStyle::Wins));
            }
        }
        let heading = match ply {
            0 => "Start".to_string(),
            n => format!("After {n}. {}", names[n - 1]),
        };
        let _ = write!(
            body,
            "<div class=\"position\" data-ply=\"{ply}\"{}><h3>{}</h3>{}</div>",
            if ply == 0 { "" } else { " hidden" },
            escape(&heading),
            grid.svg(&marks)
        );
        previous = Some(grid);
    }
    body.push_str("</div>");
    move_list(&mut body, &names);
    let _ = write!(body, "</div><script>{SHOW_POSITIONS}{CONTROLS}</script>");
    Ok(page(&format!("arbiter: {}", game.title), &body))
}

/// The result and how it came, in a few words (`builtin:grade7 wins by five`).
fn outcome(game: &ViewedGame) -> String {
    let by = if game.ending.is_empty() { String::new() } else { format!(" by {}", game.ending) };
    match game.winner {
        Some(Side::White) => format!("{} wins{by}", game.white),
        Some(Side::Black) => format!("{} wins{by}", game.black),
        None => format!("{}{by}", game.result),
    }
}

/// `word` with its first letter capitalised (`player 1` -> `Player 1`).
fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The title, players (in the game's words for its sides), result and the controls (buttons, slider) of a viewer page.
fn header(game: &ViewedGame, sides: [&str; 2], broken: Option<&str>, last: usize) -> String {
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{}</h1><p>{}: <b>{}</b><br>{}: <b>{}</b></p>",
        escape(&game.title),
        escape(&capital(sides[0])),
        escape(&game.white),
        escape(&capital(sides[1])),
        escape(&game.black)
    );
    let _ = write!(
        body,
        "<p id=\"result\"><b>Result:</b> {}{}</p>",
        escape(&outcome(game)),
        if game.detail.is_empty() { String::new() } else { format!(": {}", escape(&game.detail)) }
    );
    if let Some(why) = broken {
        let _ = write!(body, "<p class=\"fail\">{}</p>", escape(why));
    }
    body.push_str(
        "<p><button id=\"first\">&laquo; start</button><button id=\"prev\">&#x25C0; back</button>\
         <button id=\"next\">forward &#x25B6;</button><button id=\"last\">end &raquo;</button> \
         ply <span id=\"ply\">0</span> of ",
    );
    let _ = write!(
        body,
        "{last} (arrow keys step)<input type=\"range\" id=\"slider\" min=\"0\" max=\"{last}\" value=\"0\" \
         aria-label=\"ply\"></p>"
    );
    body
}

/// The list of moves in pairs, one numbered item per pair (`1. a b`), each move a `.mv` that
/// shows the position after it when clicked.
fn move_list(body: &mut String, names: &[String]) {
    body.push_str("<div><h3>Moves</h3><ol class=\"moves\">");
    for (pair, moves) in names.chunks(2).enumerate() {
        body.push_str("<li>");
        for (k, name) in moves.iter().enumerate() {
            let ply = 2 * pair + k + 1;
            let _ = write!(body, "<span class=\"mv\" data-ply=\"{ply}\">{}</span> ", escape(name));
        }
        body.push_str("</li>");
    }
    body.push_str("</ol></div>");
}

/// JSON inside a `<script>` element: `</` written `<\/` so that no value can end the element.
fn script_json(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string()).replace("</", "<\\/")
}

/// The viewer page of a game drawn as one scene that the game's script changes ply by ply.
fn scene_page(
    game: &ViewedGame,
    sides: [&str; 2],
    names: &[String],
    broken: Option<&str>,
    scene: &Scene,
) -> String {
    let last = scene.frames.len().saturating_sub(1);
    let mut body = header(game, sides, broken, last);
    let headings: Vec<String> = (0..=last)
        .map(|n| match n {
            0 => "Start".to_string(),
            n => format!("After {n}. {}", names.get(n - 1).map_or("", String::as_str)),
        })
        .collect();
    let _ = write!(
        body,
        "<div class=\"pair\"><div><h3 id=\"heading\">Start</h3>{}{}</div>",
        scene.svg,
        plot::over_plies(scene.measure, &scene.series)
    );
    move_list(&mut body, names);
    let _ = write!(
        body,
        "</div><script>var FRAMES = {}; var HEADINGS = {}; var DRAW = {};</script><script>{SHOW_FRAMES}{CONTROLS}</script>",
        script_json(&serde_json::Value::from(scene.frames.clone())),
        script_json(&serde_json::json!(headings)),
        scene.script
    );
    page(&format!("arbiter: {}", game.title), &body)
}

/// A match's index page: each bot's games, wins and win rate with its 95% Wilson interval, then
/// every game with its players, winner (by name) and a link to its viewer.
pub fn match_index(title: &str, games: &[(String, &ViewedGame)]) -> String {
    let mut body = format!("<h1>{}</h1>", escape(title));
    // Each bot in the order it first appears, with its games, wins and draws.
    let mut bots: Vec<(String, usize, usize, usize)> = Vec::new();
    for (_, g) in games {
        for (name, side) in [(&g.white, Side::White), (&g.black, Side::Black)] {
            let at = match bots.iter().position(|b| &b.0 == name) {
                Some(at) => at,
                None => {
                    bots.push((name.clone(), 0, 0, 0));
                    bots.len() - 1
                }
            };
            bots[at].1 += 1;
            match g.winner {
                Some(w) if w == side => bots[at].2 += 1,
                None => bots[at].3 += 1,
                _ => {}
            }
        }
    }
    body.push_str(
        "<table id=\"bots\"><tr><th>bot</th><th class=\"num\">games</th><th class=\"num\">wins</th>\
         <th class=\"num\">draws</th><th class=\"num\">win rate</th><th>95% interval (Wilson)</th></tr>",
    );
    for (name, played, won, drawn) in &bots {
        let (lo, hi) = crate::harness::wilson::wilson_interval(*won, *played);
        let rate = if *played == 0 { 0.0 } else { *won as f64 / *played as f64 };
        let bar = format!(
            r##"<svg width="200" height="14" xmlns="http://www.w3.org/2000/svg"><rect x="0" y="2" width="200" height="10" fill="#eee"/><line x1="{:.1}" y1="7" x2="{:.1}" y2="7" stroke="#4a7ab5" stroke-width="3"/><circle cx="{:.1}" cy="7" r="4" fill="#222"/></svg>"##,
            4.0 + 192.0 * lo,
            4.0 + 192.0 * hi,
            4.0 + 192.0 * rate
        );
        let _ = write!(
            body,
            "<tr data-bot=\"{}\"><td>{}</td><td class=\"num\">{played}</td><td class=\"num\">{won}</td><td class=\"num\">{drawn}</td><td class=\"num rate\">{:.0}%</td><td>{:.0}% to {:.0}% {bar}</td></tr>",
            escape(name),
            escape(name),
            100.0 * rate,
            100.0 * lo,
            100.0 * hi
        );
    }
    body.push_str(
        "</table><table id=\"games\"><tr><th>game</th><th>first to move</th><th>second</th><th>winner</th><th>ending</th><th class=\"num\">moves</th></tr>",
    );
    for (link, g) in games {
        let winner = match g.winner {
            Some(Side::White) => escape(&g.white),
            Some(Side::Black) => escape(&g.black),
            None => format!("({})", escape(&g.result)),
        };
        let _ = write!(
            body,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td class=\"winner\">{winner}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            escape(link),
            escape(&g.title),
            escape(&g.white),
            escape(&g.black),
            escape(&g.ending),
            g.moves.len()
        );
    }
    body.push_str("</table>");
    page(title, &body)
}

/// A game record of `match` as the viewer shows it.
pub fn from_record(r: &crate::harness::matches::GameRecord) -> ViewedGame {
    ViewedGame {
        title: format!("game {}", r.number),
        white: r.white.clone(),
        black: r.black.clone(),
        result: result_words(r.result),
        winner: winner(r.result),
        ending: r.ending.clone(),
        detail: r.detail.clone(),
        start_board: r.start_board.clone(),
        moves: r.moves.clone(),
    }
}

/// A record read back by `replay` as the viewer shows it.
pub fn from_parsed(title: &str, r: &crate::harness::records::ParsedRecord) -> ViewedGame {
    ViewedGame {
        title: format!("{title} (game {})", r.game),
        white: r.white.clone(),
        black: r.black.clone(),
        result: result_words(r.result),
        winner: winner(r.result),
        ending: r.ending.clone(),
        detail: String::new(),
        start_board: r.start_board.clone(),
        moves: r.moves.clone(),
    }
}

fn winner(result: crate::harness::matches::GameResult) -> Option<Side> {
    use crate::harness::matches::GameResult;
    match result {
        GameResult::White => Some(Side::White),
        GameResult::Black => Some(Side::Black),
        GameResult::Draw => None,
    }
}

fn result_words(result: crate::harness::matches::GameResult) -> String {
    use crate::harness::matches::GameResult;
    match result {
        GameResult::White => "white wins",
        GameResult::Black => "black wins",
        GameResult::Draw => "draw",
    }
    .to_string()
}
