//! The HTML pages (`--html`) as a browser shows them: each kind of page is loaded in headless
//! Chromium and what it shows is read back from the DOM the browser built (boards drawn, the
//! piece on a square, the position the viewer's script shows, a crosstable cell). Without a
//! browser those checks print SKIPPED; the checks of the files themselves always run.

mod common;

use std::path::Path;
use std::process::Command;

use common::arbiter;

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
    let bot = dir.path().join("evil.sh");
    std::fs::write(
        &bot,
        "#!/bin/sh\necho '<script>alert(1)</script><img src=x onerror=alert(2)>' >&2\n\
         printf '<script>alert(3)</script>\\n' > \"$3\"\nexit 3\n",
    )
    .unwrap();
    let html = dir.path().join("html");
    let bot_cmd = format!("sh {}", bot.display());
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
    let out = run_ok(&[
        "--game",
        "planetwars",
        "match",
        "--bot",
        "builtin:greedy",
        "--bot",
        "builtin:random",
        "--games",
        "1",
        "--seed",
        "4",
        "--json",
        "--html",
        viewer.to_str().unwrap(),
    ]);
    let result: serde_json::Value = serde_json::from_str(&out).unwrap();
    let game = &result["games"][0];
    assert_eq!(
        (game["ending"].as_str(), game["result"].as_str()),
        (Some("conquest"), Some("white")),
        "{game}"
    );
    let plies = game["moves"].as_array().unwrap().len();
    let page = std::fs::read_to_string(viewer.join("game-001.html")).unwrap();
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
    assert!(end.iter().any(|p| p.0 == 1 && p.1 > 100), "{end:?}");
    // Back at ply 0 (the address asks for it), the start again.
    let dom = dump_dom(browser, &format!("{url}#0"), &profile);
    assert_eq!(planets(&dom), start);
}
