//! The HTML pages (`--html`) as a browser shows them: each kind of page is loaded in headless
//! Chromium and what it shows is read back from the DOM the browser built (boards drawn, the
//! piece on a square, the position the viewer's script shows, a crosstable cell). Without a
//! browser those checks print SKIPPED; the checks of the files themselves always run.

mod common;

use std::path::Path;
use std::process::Command;

use common::{arbiter, sh_bot};

/// The browser's binary, if one is installed.
fn browser() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().map(|o| o.status.success()).unwrap_or(false))
}

/// The DOM of `url` after its scripts ran, as the browser serialises it.
fn dump_dom(browser: &str, url: &str, profile: &Path) -> String {
    let out = Command::new("timeout")
        .args(["120", browser, "--headless", "--disable-gpu", "--no-sandbox", "--virtual-time-budget=3000"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", url])
        .output()
        .expect("the browser starts");
    assert!(out.status.success(), "{browser} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn run_ok(args: &[&str]) -> String {
    let run = arbiter(args, "");
    assert!(run.status == 0 || run.status == 1, "{args:?}: {}", run.stderr);
    run.stdout
}

/// One game of `game` between bots `a` and `b` with `seed`, drawn into `viewer`: the match's
/// JSON result and the game's page.
fn one_game_page(game: &str, a: &str, b: &str, seed: &str, viewer: &Path) -> (serde_json::Value, String) {
    let html = viewer.to_str().unwrap();
    let args = [
        "--game", game, "match", "--bot", a, "--bot", b, "--games", "1", "--seed", seed, "--json", "--html",
        html,
    ];
    let result = serde_json::from_str(&run_ok(&args)).unwrap();
    (result, std::fs::read_to_string(viewer.join("game-001.html")).unwrap())
}

/// The viewer's positions not hidden, each from its `data-ply` on.
fn shown_positions(dom: &str) -> Vec<&str> {
    dom.split("<div class=\"position\"")
        .skip(1)
        .filter(|p| !p.split('>').next().unwrap_or("").contains("hidden"))
        .collect()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The value of the first attribute `name` in the page.
fn text_of_attr<'a>(dom: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=\"");
    let at = dom.find(&key).unwrap_or_else(|| panic!("no attribute {name}")) + key.len();
    &dom[at..at + dom[at..].find('"').expect("the value's end")]
}

/// The text of the first element carrying `attrs` (`id="mean"`).
fn text_of<'a>(dom: &'a str, attrs: &str) -> &'a str {
    let at = dom.find(attrs).unwrap_or_else(|| panic!("no element with {attrs}"));
    let start = at + dom[at..].find('>').expect("a tag's end") + 1;
    let end = start + dom[start..].find('<').expect("text's end");
    &dom[start..end]
}

#[test]
fn a_bots_words_and_names_never_become_markup() {
    let dir = tempfile::tempdir().unwrap();
    let bot_cmd = sh_bot(
        dir.path(),
        "evil.sh",
        "echo '<script>alert(1)</script><img src=x onerror=alert(2)>' >&2\n\
         printf '<script>alert(3)</script>\\n' > \"$3\"\nexit 3",
    );
    let html = dir.path().join("html");
    run_ok(&["verify", "corpus/grade4", "--bot", &bot_cmd, "-q", "--html", html.to_str().unwrap()]);
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(page.contains("&lt;script&gt;alert(1)"), "the bot's words are shown, escaped");
    assert!(!page.contains("<script>alert") && !page.contains("<img"), "nothing the bot wrote is markup");
}

#[test]
fn pages_as_a_browser_shows_them() {
    let Some(browser) = browser() else {
        println!("SKIPPED: no headless browser (chromium) is installed; .ci/run installs it");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let profile = d.join("profile");
    let url = |p: &Path| format!("file://{}", p.display());

    // A submission's page: every failing case drawn twice, the bot's and the expected.
    let verify = d.join("verify");
    run_ok(&["verify", "corpus/grade6", "--bot", "builtin:grade5", "-q", "--html", verify.to_str().unwrap()]);
    let dom = dump_dom(browser, &url(&verify.join("index.html")), &profile);
    let boards = count(&dom, "<svg class=\"board\"");
    assert!(boards >= 2, "boards drawn: {boards}");
    assert_eq!(count(&dom, "<figure class=\"bot\""), count(&dom, "<figure class=\"expected\""));
    assert_eq!(boards, 2 * count(&dom, "<figure class=\"bot\""));
    assert!(count(&dom, "class=\"cell differs\"") >= 1, "the bot's board marks where it differs");

    // The game viewer: opened at ply 0 it shows the start, White's General on e1; at #5 the
    // script shows the fifth position and hides every other.
    let records = d.join("records");
    let viewer = d.join("viewer");
    run_ok(&[
        "match",
        "--bot",
        "builtin:grade7",
        "--bot",
        "builtin:random",
        "--games",
        "1",
        "-q",
        "--records",
        records.to_str().unwrap(),
        "--html",
        viewer.to_str().unwrap(),
    ]);
    let game = viewer.join("game-001.html");
    let dom = dump_dom(browser, &url(&game), &profile);
    let shown = shown_positions(&dom);
    assert_eq!(shown.len(), 1, "one position shown");
    assert!(shown[0].starts_with(" data-ply=\"0\""), "{}", &shown[0][..40]);
    assert!(shown[0].contains("data-square=\"e1\" data-piece=\"G\""), "White's General on e1");
    let dom = dump_dom(browser, &format!("{}#5", url(&game)), &profile);
    let shown = shown_positions(&dom);
    assert_eq!(shown.len(), 1, "one position shown");
    assert!(shown[0].starts_with(" data-ply=\"5\""), "{}", &shown[0][..40]);
    assert_eq!(text_of(&dom, "id=\"ply\""), "5");
    // Moves in pairs: one numbered item per pair, each move a `.mv`; the fifth is marked.
    let plies = count(&dom, "<span class=\"mv");
    assert!(plies > 5, "{plies} moves");
    let list = &dom[dom.find("<ol class=\"moves\"").unwrap()..];
    let list = &list[..list.find("</ol>").unwrap()];
    assert_eq!(count(list, "<li>"), plies.div_ceil(2), "a numbered item per pair of moves");
    assert!(dom.contains("<span class=\"mv current\" data-ply=\"5\">"), "the fifth move is marked");
    // At the end: no side to move, the result said, and how it was won marked (the loser's
    // General: captured, or left without a move).
    let dom = dump_dom(browser, &format!("{}#{plies}", url(&game)), &profile);
    let shown = shown_positions(&dom);
    assert!(shown[0].starts_with(&format!(" data-ply=\"{plies}\"")), "{}", &shown[0][..40]);
    assert!(shown[0].contains("Game over: builtin:grade7 wins"), "the end says who won");
    assert!(!shown[0].contains("to move"), "nobody is to move after the end");
    assert!(shown[0].contains("class=\"cell wins\" data-square="), "the General's square is marked");
    // Opened at a late ply, the move list is scrolled to that move.
    if plies > 40 {
        let dom = dump_dom(browser, &format!("{}#40", url(&game)), &profile);
        let top: f64 = text_of_attr(&dom, "data-scroll-top").parse().unwrap();
        assert!(top > 0.0, "the move list scrolled to move 40: {top}");
    }
    // The match's index names the bots, gives each its win rate and Wilson interval, and
    // the winner of each game by name.
    let index = dump_dom(browser, &url(&viewer.join("index.html")), &profile);
    assert!(
        index.contains("<tr data-bot=\"builtin:grade7\">")
            && index.contains("<tr data-bot=\"builtin:random\">")
    );
    assert!(index.contains("<td class=\"winner\">builtin:grade7</td>"), "the winner named");
    assert!(!index.contains("white wins"));
    assert!(index.contains("95% interval (Wilson)"));
    // replay --html draws the same game from its record.
    let one = d.join("one.html");
    run_ok(&["replay", records.join("game-001.txt").to_str().unwrap(), "--html", one.to_str().unwrap()]);
    let dom = dump_dom(browser, &url(&one), &profile);
    assert!(dom.contains("data-ply=\"0\""));

    // The tournament page: the crosstable's cells are the JSON's points.
    let page = d.join("tournament.html");
    let out = run_ok(&[
        "tournament",
        "--bot",
        "builtin:grade7",
        "--bot",
        "builtin:random",
        "--games",
        "2",
        "--json",
        "-q",
        "--html",
        page.to_str().unwrap(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let points = json["crosstable"][0][1]["points"].as_f64().unwrap();
    let dom = dump_dom(browser, &url(&page), &profile);
    let cell = text_of(&dom, "data-row=\"builtin:grade7\" data-col=\"builtin:random\"");
    let shown: f64 = cell.split('/').next().unwrap().parse().unwrap();
    assert_eq!(shown, points, "{cell}");
    assert!(dom.contains("95% interval (Wilson)") && dom.contains("class=\"num rate\""), "win rates");

    // The class page: mean as the gradebook's scores give it, a link to each student's page.
    let html = d.join("class");
    let reports = d.join("reports");
    run_ok(&[
        "grade",
        "builtin:grade5",
        "builtin:random",
        "--corpus",
        "corpus",
        "-q",
        "--reports",
        reports.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    let dom = dump_dom(browser, &url(&html.join("index.html")), &profile);
    let csv = std::fs::read_to_string(reports.join("gradebook.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "score").unwrap();
    let scores: Vec<f64> = lines.map(|l| l.split(',').nth(col).unwrap().parse().unwrap()).collect();
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    assert_eq!(text_of(&dom, "id=\"mean\""), format!("{mean:.2}%"));
    assert!(
        dom.contains("<td><a href=\"builtin_grade5.html\">builtin_grade5</a></td>"),
        "a row links to the page"
    );
    assert!(html.join("builtin_grade5.html").is_file() && html.join("builtin_random.html").is_file());
    assert!(count(&dom, "class=\"bar\"") == 11);
    // A random bot fails the first stage of the ladder: the later stages are not reached, not
    // green, and not "0 of 0".
    let page = dump_dom(browser, &url(&html.join("builtin_random.html")), &profile);
    let stages = &page[page.find("<table class=\"stages\"").unwrap()..];
    let stages = &stages[..stages.find("</table>").unwrap()];
    assert!(stages.contains("<tr class=\"unreached\">"), "{stages}");
    for row in stages.split("<tr class=\"unreached\">").skip(1) {
        assert!(row.contains("not reached") && !row.contains(">0</td>"), "{row}");
    }
    assert!(
        !stages.contains("<tr class=\"pass\"><td>grade 5")
            && !stages.contains("<tr class=\"pass\"><td>grade 7")
    );
}

/// The planets drawn in a PlanetWars page's DOM, each as (owner, population).
fn planets(dom: &str) -> Vec<(u32, i64)> {
    dom.split("<g class=\"planet\"")
        .skip(1)
        .map(|g| {
            let attr = |name: &str| {
                let at =
                    g.find(&format!("{name}=\"")).unwrap_or_else(|| panic!("no {name}")) + name.len() + 2;
                g[at..at + g[at..].find('"').unwrap()].to_string()
            };
            (attr("data-owner").parse().unwrap(), attr("data-population").parse().unwrap())
        })
        .collect()
}

#[test]
fn a_planetwars_game_is_drawn_as_one_scene_with_its_populations_plotted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let viewer = d.join("viewer");
    let (result, page) = one_game_page("planetwars", "builtin:greedy", "builtin:random", "4", &viewer);
    let game = &result["games"][0];
    assert_eq!(
        (game["ending"].as_str(), game["result"].as_str()),
        (Some("conquest"), Some("white")),
        "{game}"
    );
    let plies = game["moves"].as_array().unwrap().len();
    // One picture and one plot, not a drawing per ply; a frame per ply for the script.
    assert_eq!(count(&page, "<svg class=\"scene planetwars\""), 1);
    assert_eq!(count(&page, "<svg class=\"plot\""), 1);
    assert_eq!(count(&page, "class=\"series\""), 2, "a line per player");
    assert_eq!(count(&page, "\"c\":\"ply "), plies + 1, "a frame per ply");
    // Drawn without the script, the page shows the start: each home with its 100 people.
    let start = planets(&page);
    assert_eq!(start.iter().filter(|p| **p == (1, 100)).count(), 1, "{start:?}");
    assert_eq!(start.iter().filter(|p| **p == (2, 100)).count(), 1, "{start:?}");

    let Some(browser) = browser() else {
        println!("SKIPPED: no headless browser (chromium) is installed; .ci/run installs it");
        return;
    };
    let url = format!("file://{}", viewer.join("game-001.html").display());
    let profile = d.join("profile");
    // At its last ply the script shows the conquest: Player 2 owns nothing.
    let dom = dump_dom(browser, &format!("{url}#{plies}"), &profile);
    assert_eq!(text_of(&dom, "id=\"ply\""), plies.to_string());
    assert!(dom.contains(&format!("data-ply=\"{plies}\"")));
    let end = planets(&dom);
    assert!(end.iter().all(|p| p.0 != 2), "{end:?}");
    assert!(
        dom.contains("the game is over") && !dom.contains(&format!("ply {plies}, Player")),
        "no side to move"
    );
    assert!(end.iter().any(|p| p.0 == 1 && p.1 > 100), "{end:?}");
    // Shuttles in flight are labelled with their player, people and turns left.
    let frames = &page[page.find("var FRAMES = ").unwrap() + 13..];
    let frames: serde_json::Value =
        serde_json::from_str(&frames[..frames.find("; var HEADINGS").unwrap()]).unwrap();
    let flying = frames
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["s"].as_array().is_some_and(|s| !s.is_empty()))
        .expect("a shuttle in flight");
    let with_shuttles = dump_dom(browser, &format!("{url}#{flying}"), &profile);
    assert!(with_shuttles.contains("class=\"shuttle\""));
    assert_eq!(
        count(&with_shuttles, "class=\"shuttle\""),
        count(&with_shuttles, "class=\"shuttle-label\""),
        "a label per shuttle"
    );
    let label = text_of(&with_shuttles, "class=\"shuttle-label\"");
    assert!(label.starts_with('P') && label.ends_with(')'), "{label}");
    // Back at ply 0 (the address asks for it), the start again.
    let dom = dump_dom(browser, &format!("{url}#0"), &profile);
    assert_eq!(planets(&dom), start);
}

#[test]
fn a_chess_a1_failure_draws_its_board_and_its_transcript_diff_line_by_line() {
    if !common::have_tools(&["python3"], "a buggy a1.py") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("html");
    run_ok(&[
        "--game",
        "chess-a1",
        "verify",
        "corpus/chess-a1",
        "--bot",
        "tests/data/chess-a1/buggy/a1.py",
        "-q",
        "--html",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    // Every drawn case has its board: the one the function is given, or main()'s position.
    let cases = count(&page, "<div class=\"case\"");
    assert!(cases > 5, "{cases} cases drawn");
    assert_eq!(count(&page, "<figure class=\"bot\""), cases, "a board for every case");
    assert!(page.contains("the board given to is_move_valid()"), "where the board comes from");
    assert!(page.contains("the position after the script&#39;s"), "main()'s position");
    // process_move's wrong answer: the squares the bot named are red, the expected ones yellow.
    let case = &page[page.find("data-case=\"interaction/").unwrap()..];
    let case = &case[..case.find("<p><b>Why:").unwrap()];
    assert!(case.contains("class=\"cell differs\""), "the bot's squares");
    assert!(case.contains("<figure class=\"expected\"") && case.contains("class=\"cell moved\""));
    // The transcript diff one line of the page per line, expected and actual apart.
    let diff = &page[page.find("<pre class=\"diff\">").expect("a diff")..];
    let diff = &diff[..diff.find("</pre>").unwrap()];
    assert_eq!(count(diff, "<span class=\"expected\">"), 1, "{diff}");
    assert_eq!(count(diff, "<span class=\"actual\">"), 1, "{diff}");
    assert!(count(diff, "\n") >= 4, "line by line: {diff}");
}

#[test]
fn a_pente_page_marks_the_bots_point_and_the_viewer_the_winning_five() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A bot that always plays the centre: on a board where 10K is taken that is illegal.
    let bot_cmd = sh_bot(d, "centre.sh", "echo 10K > output.txt");
    let html = d.join("html");
    run_ok(&[
        "--game",
        "pente",
        "verify",
        "corpus/pente/opening",
        "--bot",
        &bot_cmd,
        "-q",
        "--html",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    let illegal = page
        .split("<div class=\"case\"")
        .skip(1)
        .find(|c| c.contains("illegal-move") && c.contains("data-square=\"K10\" data-piece=\"w\""))
        .expect("a case where 10K is taken by a white stone");
    let bot_board = &illegal[illegal.find("<figure class=\"bot\"").unwrap()..];
    let bot_board = &bot_board[..bot_board.find("</figure>").unwrap()];
    assert!(bot_board.contains("(marked red)"), "the caption says where");
    assert!(bot_board.contains("class=\"cell differs\" data-square=\"K10\""), "the taken point is red");
    assert_eq!(count(bot_board, "class=\"cell differs\""), 1, "and only it");

    // A game won by five: its last position marks the five and says who won.
    let viewer = d.join("viewer");
    let (result, page) = one_game_page("pente", "builtin:minimax", "builtin:random-adjacent", "3", &viewer);
    assert_eq!(result["games"][0]["ending"].as_str(), Some("five"), "{result}");
    let last = page.split("<div class=\"position\"").last().unwrap();
    assert_eq!(count(last, "class=\"cell wins\""), 5, "the five");
    assert!(last.contains("Game over: builtin:minimax wins by five") && !last.contains("to move"));
}

#[test]
fn a_network_game_is_drawn_and_its_winning_network_marked() {
    let dir = tempfile::tempdir().unwrap();
    let viewer = dir.path().join("viewer");
    let (result, page) = one_game_page("network", "builtin:alphabeta", "builtin:random", "2", &viewer);
    assert_eq!(result["games"][0]["ending"].as_str(), Some("network"), "{result}");
    let plies = result["games"][0]["moves"].as_array().unwrap().len();
    assert_eq!(count(&page, "<div class=\"position\""), plies + 1, "every position drawn");
    let last = page.split("<div class=\"position\"").last().unwrap();
    // A network: six chips or more, from one goal area to the other, every one a chip.
    let marked: Vec<&str> =
        last.split("class=\"cell wins\" data-square=\"").skip(1).map(|c| &c[..2]).collect();
    assert!(marked.len() >= 6, "{marked:?}");
    assert!(
        last.split("class=\"cell wins\"").skip(1).all(|c| c
            .split('>')
            .next()
            .unwrap()
            .contains("data-piece=\"w\""))
    );
    assert!(
        marked.iter().any(|s| s.ends_with('0')) || marked.iter().any(|s| s.starts_with('0')),
        "{marked:?}"
    );
    assert!(last.contains("Game over: builtin:alphabeta wins by network") && !last.contains("to move"));
}
