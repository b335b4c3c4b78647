//! `arbiter fuzz`: bots with planted rule bugs are caught within a few hundred positions and
//! shrunk to small positions; correct bots and the two engines come out clean.

mod common;

use std::fs;

use arbiter::Side;
use arbiter::advance::explain::diagnose;
use arbiter::advance::{Board, Move};
use arbiter::games::pente::fuzzing::SOURCES;
use common::{arbiter, arbiter_json, read_json, script_bot};
use serde_json::Value;

fn fuzz(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["fuzz", "--json", "-q"];
    all.extend_from_slice(args);
    arbiter_json(&all)
}

/// `fuzz` with `args`, which must catch the bot (exit status 1): the answer, and the failures
/// it reports.
fn caught(args: &[&str]) -> (Value, Vec<Value>) {
    let (status, v) = fuzz(args);
    assert_eq!(status, 1, "{args:?} should be caught: {v}");
    let failures = v["report"]["failures"].as_array().unwrap().clone();
    (v, failures)
}

/// The failures `fuzz` finds of `builtin:<bot>` over 300 cases with seed 1, writing its files to
/// `out`; it must catch the bot.
fn caught_in_300_cases(bot: &str, out: &std::path::Path) -> Vec<Value> {
    let (bot, out) = (format!("builtin:{bot}"), out.display().to_string());
    caught(&["--bot", &bot, "--cases", "300", "--seed", "1", "--out", &out]).1
}

/// The run of the mutant whose Catapult shoots Sentinel-protected pieces, which two tests read:
/// 150 cases, seed 1.
const CATAPULT_150_CASES: [&str; 6] =
    ["--bot", "builtin:mutant-catapult-protected", "--cases", "150", "--seed", "1"];

/// Each mutant (a bot with one planted rule bug that otherwise plays grade 6) is caught within
/// 300 positions with the default options, only for its bug, and shrunk to at most 6 pieces and
/// walls; the positions that tempt it find it early.
#[test]
fn each_planted_bug_is_found_and_shrunk_to_a_small_position() {
    let dir = tempfile::tempdir().unwrap();
    let bugs = [
        ("mutant-protection", "protected-by-sentinel"),
        ("mutant-catapult-protected", "protected-by-sentinel"),
        ("mutant-dragon-protected", "protected-by-sentinel"),
        ("mutant-zombie-protected", "protected-by-sentinel"),
        ("mutant-dragon-adjacent", "dragon-adjacent-capture"),
        ("mutant-convert-general", "convert-general"),
        ("mutant-no-danger", "general-in-danger"),
        ("mutant-pinned", "general-in-danger"),
        ("mutant-general-danger", "general-in-danger"),
        ("mutant-swap-danger", "general-in-danger"),
    ];
    for (bot, rule) in bugs {
        let out = dir.path().join(bot);
        let failures = caught_in_300_cases(bot, &out);
        // One bug, though perhaps in several kinds of move (a Dragon's capture and a Zombie's
        // leap of a protected piece are kept apart): each is shrunk, and nothing else fails.
        assert!(!failures.is_empty());
        for f in &failures {
            assert_eq!(f["signature"]["verdict"], "illegal-move", "{bot}: {f}");
            assert_eq!(f["signature"]["rule"], rule, "{bot}: {f}");
            assert!(f["first_found"]["seconds"].as_f64().unwrap() >= 0.0);
        }
        let first = failures.iter().map(|f| f["first_found"]["case"].as_u64().unwrap()).min().unwrap();
        assert!(first < 30, "{bot}: first found at case {first}");
        // The mutant with every danger bug fails in many ways; the others each shrink to what
        // their bug needs.
        let f = failures.iter().min_by_key(|f| f["minimal_size"].as_u64().unwrap()).unwrap();
        let too_big: Vec<&Value> =
            failures.iter().filter(|f| f["minimal_size"].as_u64().unwrap() > 6).collect();
        assert!(bot == "mutant-no-danger" || too_big.is_empty(), "{bot}: {too_big:?}");
        assert!(f["minimal_size"].as_u64().unwrap() <= 6, "{bot}: {}", f["minimal_size"]);
        assert!(f["minimal_size"].as_u64().unwrap() <= f["original_size"].as_u64().unwrap());

        // The minimal position shows the bug: the move the bot played breaks `rule` there.
        let side: Side = f["side"].as_str().unwrap().parse().unwrap();
        let board = Board::from_text(f["minimal_board"].as_str().unwrap()).unwrap();
        let played: Move = f["result"]["move"].as_str().unwrap().parse().unwrap();
        assert_eq!(diagnose(&board, side, played).unwrap_err().rule(), rule);
        // The move is named with its kind.
        let kind = &f["result"]["played_kind"];
        assert_eq!(kind["piece"], f["signature"]["piece"], "{bot}: {f}");
        assert!(kind["name"].as_str().unwrap().starts_with(f["signature"]["piece"].as_str().unwrap()));

        // The files: a board ready for a corpus and a JSON with the bot's output and verdict.
        let slug = format!(
            "illegal-move-{rule}-{}-{}",
            f["signature"]["piece"].as_str().unwrap().to_lowercase(),
            f["signature"]["move_kind"].as_str().unwrap()
        );
        let stem = out.join(format!("{slug}-{side}"));
        let written = Board::from_text(&fs::read_to_string(stem.with_extension("txt")).unwrap()).unwrap();
        assert_eq!(written, board);
        let json: Value = read_json(stem.with_extension("json"));
        assert_eq!(json["verdict"], "illegal-move");
        assert!(json["bot_output"].as_str().unwrap().lines().count() == 9);
        assert!(json["reason"].as_str().unwrap().starts_with(&format!("{played} is not legal")));
        assert!(!json["legal_alternatives"].as_array().unwrap().is_empty());
        assert!(json["reproduce"].as_str().unwrap().contains("check case.txt out.txt"));
        assert!(json["first_found"]["case"].is_u64());
    }
}

/// A bot that captures the enemy General (a Sentinel beside it keeps it out of danger, so the
/// position is well-formed) with a Dragon, a Catapult's shot or a Zombie's leap: no random
/// position puts a General in such a line, the `tempt/general-*` sources do, and each capture
/// shrinks to the four pieces it needs (both Generals, the Sentinel and the capturing piece).
#[test]
fn every_capture_of_a_general_is_tempted_found_and_shrunk_to_four_pieces() {
    let bugs = [
        ("mutant-dragon-general", "Dragon", "tempt/general-dragon"),
        ("mutant-catapult-general", "Catapult", "tempt/general-shot"),
        ("mutant-zombie-general", "Zombie", "tempt/general-leap"),
    ];
    for (bot, piece, source) in bugs {
        let (_, failures) =
            caught(&["--bot", &format!("builtin:{bot}"), "--cases", "40", "--seed", "1", "--source", source]);
        assert_eq!(failures.len(), 1, "{bot}: {failures:?}");
        let f = &failures[0];
        assert_eq!(f["signature"]["rule"], "general-captured", "{bot}: {f}");
        assert_eq!(f["signature"]["piece"], piece, "{bot}: {f}");
        assert!(f["minimal_size"].as_u64().unwrap() <= 4, "{bot}: {}", f["minimal_board"]);
        let side: Side = f["side"].as_str().unwrap().parse().unwrap();
        let board = Board::from_text(f["minimal_board"].as_str().unwrap()).unwrap();
        let played: Move = f["result"]["move"].as_str().unwrap().parse().unwrap();
        assert_eq!(diagnose(&board, side, played).unwrap_err().rule(), "general-captured");
    }
    // Any piece: the Dragon's, the Catapult's, the Zombie's and the other captures are kinds
    // of their own.
    let (_, v) = fuzz(&[
        "--bot",
        "builtin:mutant-captures-general",
        "--cases",
        "80",
        "--seed",
        "1",
        "--source",
        "tempt/general-",
    ]);
    let pieces: Vec<&str> = v["report"]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["signature"]["piece"].as_str().unwrap())
        .collect();
    for piece in ["Dragon", "Catapult", "Zombie"] {
        assert!(pieces.contains(&piece), "{pieces:?}");
    }
}

/// Shrinking shares its time among the kinds of failure: a bot that fails in many ways gets
/// every kind shrunk a little within a short --shrink-time, each report saying whether it is
/// minimal; with no runs allowed each says it was not shrunk. The first find names a case that
/// failed that way.
#[test]
fn every_kind_gets_a_share_of_the_shrink_budget_and_says_how_it_ended() {
    let (_, v) = fuzz(&[
        "--bot",
        "builtin:mutant-no-danger",
        "--cases",
        "200",
        "--seed",
        "1",
        "-j",
        "1",
        "--shrink-time",
        "3s",
    ]);
    let failures = v["report"]["failures"].as_array().unwrap();
    assert!(failures.len() >= 5, "{}", failures.len());
    for f in failures {
        let runs = f["shrink_runs"].as_u64().unwrap();
        assert!(runs > 0 || f["shrink_end"] == "minimal", "a kind left without a shrink run: {f}");
        let end = f["shrink_end"].as_str().unwrap();
        assert!(["minimal", "budget-spent"].contains(&end), "{end}");
        let cases: Vec<u64> =
            f["cases"].as_array().unwrap().iter().map(|c| c["case"].as_u64().unwrap()).collect();
        assert!(cases.contains(&f["first_found"]["case"].as_u64().unwrap()), "{f}");
    }
    // Shrunk somewhere: at least one kind ends smaller than it started.
    assert!(failures.iter().any(|f| f["minimal_size"].as_u64() < f["original_size"].as_u64()));
    let run = arbiter(
        &[
            "fuzz",
            "--bot",
            "builtin:mutant-no-danger",
            "--cases",
            "30",
            "--seed",
            "1",
            "--max-shrink-runs",
            "0",
            "-q",
        ],
        "",
    );
    assert!(run.stdout.contains("not shrunk: budget spent"), "{}", run.stdout);
    assert!(!run.stdout.contains("in 0 bot runs;"), "{}", run.stdout);
}

/// A bot whose Catapult shoots Sentinel-protected pieces passed 150 positions before fuzzing had
/// sources that tempt it; now a Catapult in range of a protected piece is planted, and the shot
/// is found and shrunk to the five pieces it needs.
#[test]
fn a_catapult_that_shoots_protected_pieces_is_caught_within_150_positions() {
    for grade in ["auto", "4"] {
        let (_, failures) = caught(&[&CATAPULT_150_CASES[..], &["--grade", grade]].concat());
        let f = &failures[0];
        assert_eq!(f["signature"]["verdict"], "illegal-move");
        assert_eq!(f["signature"]["piece"], "Catapult");
        assert_eq!(f["signature"]["move_kind"], "shot");
        assert!(f["source"].as_str().unwrap().starts_with("tempt/"), "{f}");
        assert!(f["minimal_size"].as_u64().unwrap() <= 5, "{f}");
        let reason = f["result"]["reason"].as_str().unwrap();
        assert!(reason.contains("is protected by the Sentinel"), "{reason}");
    }
}

/// A bot that writes nothing whenever it sees no move is caught by two blind spots in one run:
/// the no-output failures split by the move it could not see, each shrunk to its own position.
#[test]
fn no_output_failures_split_by_the_move_missed() {
    let dir = tempfile::tempdir().unwrap();
    // Plays as blind-general-swap does, and writes nothing when that bot or blind-protected-
    // convert sees no legal move (the student's bot has both blind spots).
    let bot = script_bot(
        dir.path(),
        r#""$engine" bot --builtin blind-general-swap "$1" "$2" "$3" 2>/dev/null || { rm -f "$3"; exit 0; }
"$engine" bot --builtin blind-protected-convert "$1" "$2" "$3.b" 2>/dev/null || { rm -f "$3"; exit 0; }
rm -f "$3.b""#,
    );
    let (v, failures) = caught(&[
        "--bot",
        &bot,
        "--cases",
        "8",
        "--seed",
        "1",
        "--source",
        "general-swap/only",
        "--source",
        "protected-convert/only",
    ]);
    let rules: Vec<&str> = failures.iter().map(|f| f["signature"]["rule"].as_str().unwrap()).collect();
    assert_eq!(failures.len(), 2, "{rules:?}");
    for f in &failures {
        assert_eq!(f["signature"]["verdict"], "no-output", "{f}");
        // Each shrinks to a position whose only move is the one the bot could not see.
        let missed = f["missed"]["kind"]["edge"].as_str().unwrap();
        assert_eq!(f["signature"]["rule"], format!("missed-{missed}"));
        let side: Side = f["side"].as_str().unwrap().parse().unwrap();
        let board = Board::from_text(f["minimal_board"].as_str().unwrap()).unwrap();
        let only = arbiter::advance::reference::legal_moves(&board, side);
        assert_eq!(only.len(), 1, "{board:?}");
        assert_eq!(only[0].to_string(), f["missed"]["move"].as_str().unwrap());
        assert!(f["first_found"]["case"].as_u64().unwrap() < 8);
    }
    assert!(
        rules.contains(&"missed-general-swap") && rules.contains(&"missed-protected-convert"),
        "{rules:?}"
    );
    assert_eq!(v["report"]["sources"].as_object().unwrap().len(), 2, "{}", v["report"]["sources"]);
}

/// Illegal moves come first in the report, then wrong answers (here grade 7's, which the
/// mutant's grade-6 play misses), each kind in the order it was first found.
#[test]
fn failures_come_in_the_order_to_fix_them() {
    let (_, failures) = caught(&[
        "--bot",
        "builtin:mutant-catapult-protected",
        "--cases",
        "24",
        "--seed",
        "2",
        "--grade",
        "7",
        "--source",
        "random",
        "--source",
        "tempt/protected-shot",
        "--max-shrink-runs",
        "5",
    ]);
    assert!(failures.len() >= 2, "{failures:?}");
    assert_eq!(failures[0]["signature"]["verdict"], "illegal-move");
    assert!(failures[1..].iter().all(|f| f["signature"]["verdict"] == "wrong-move"), "{failures:?}");
    // Among wrong moves, the kind found first comes first.
    let found: Vec<u64> = failures[1..].iter().map(|f| f["first_found"]["case"].as_u64().unwrap()).collect();
    assert!(found.windows(2).all(|w| w[0] <= w[1]), "{found:?}");
}

/// Pente's own sources: the opening moves, captures at the edges, fours that only a capture
/// breaks, fives open to a capture, captures of the tenth piece. An agent that plays its first stone on the centre
/// whatever its colour (as Black, on White's stone) is found under both readings of the
/// second-stone rule, and the report counts the positions of each source.
#[test]
fn pente_fuzzing_finds_a_black_first_stone_on_the_centre() {
    for rule in ["opening=seed", "opening=tournament"] {
        let (v, failures) = caught(&[
            "--game",
            "pente",
            "--rule",
            rule,
            "--bot",
            "builtin:mutant-black-centre",
            "--cases",
            "40",
            "--seed",
            "1",
        ]);
        assert_eq!(failures.len(), 1, "{rule}: {failures:?}");
        let f = &failures[0];
        assert_eq!(f["signature"]["verdict"], "illegal-move");
        assert_eq!(f["signature"]["rule"], "occupied");
        assert_eq!(f["result"]["move"], "10K");
        assert_eq!(f["result"]["played_kind"]["edge"], "centre");
        assert_eq!(f["source"], "opening/black-first");
        assert_eq!(f["minimal_size"], 1, "White's stone on the centre is all it takes");
        let sources = v["report"]["sources"].as_object().unwrap();
        // Every source Pente's fuzzing names, and the random positions beside them.
        for source in SOURCES.into_iter().chain(["random"]) {
            assert!(sources.get(source).and_then(Value::as_u64).unwrap_or(0) >= 3, "{source}: {sources:?}");
        }
    }
    // The text report draws the board with the bot's move marked, and names the sources.
    let run = arbiter(
        &[
            "--game",
            "pente",
            "fuzz",
            "-q",
            "--bot",
            "builtin:mutant-black-centre",
            "--cases",
            "20",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stdout.contains("* 10K: the bot's move, on a white stone"), "{}", run.stdout);
    // One stone, already minimal: the report says so rather than "shrunk from 1 to 1".
    assert!(run.stdout.contains("1 stones: already minimal"), "{}", run.stdout);
    assert!(run.stdout.contains("positions by source: block/capture-breaks-four"), "{}", run.stdout);
}

#[test]
fn a_correct_bot_has_no_failures() {
    let (status, v) = fuzz(&["--bot", "builtin:random", "--cases", "150", "--seed", "4", "--grade", "4"]);
    assert_eq!(status, 0);
    assert_eq!(v["report"]["passed"], 150);
    assert!(v["report"]["failures"].as_array().unwrap().is_empty());
    let (status, v) = fuzz(&["--bot", "builtin:grade7", "--cases", "40", "--grade", "7", "--seed", "4"]);
    assert_eq!(status, 0, "{v}");
    // The default demands the single grade-4 to 6 answer wherever there is one: a grade-6 bot
    // meets it on every source.
    let (status, v) = fuzz(&["--bot", "builtin:grade6", "--cases", "120", "--seed", "4"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["grade"], "auto");
}

#[test]
fn a_crashing_process_bot_is_shrunk_to_what_makes_it_crash() {
    let dir = tempfile::tempdir().unwrap();
    // Crashes whenever a black Catapult is on the board; otherwise plays a random legal move.
    let bot = script_bot(
        dir.path(),
        "if grep -q c \"$2\"; then echo 'catapults confuse me' >&2; exit 4; fi\nexec \"$engine\" bot --grade 4 \"$@\"",
    );
    let (_, failures) = caught(&["--bot", &bot, "--cases", "60", "--seed", "5", "--grade", "4"]);
    assert!(failures.iter().all(|f| f["signature"]["verdict"] == "crash"), "{failures:?}");
    // Where a position had one legal move the crash is kept apart by that move; the crash
    // without one shrinks furthest.
    let f = failures.iter().min_by_key(|f| f["minimal_size"].as_u64().unwrap()).unwrap();
    assert_eq!(f["result"]["stderr_tail"], "catapults confuse me");
    let minimal = f["minimal_board"].as_str().unwrap();
    // Both Generals and the black Catapult remain, and little else.
    assert!(minimal.contains('c'), "{minimal}");
    assert!(f["minimal_size"].as_u64().unwrap() <= 4, "{minimal}");
}

#[test]
fn the_engines_agree_on_random_positions() {
    let (status, v) = fuzz(&["--engines", "--cases", "300", "--seed", "6"]);
    assert_eq!(status, 0);
    assert_eq!(v["disagreements"], 0);
}

/// Each blind spot (a kind of legal move a bot never considers) is found within 300 positions
/// and shrunk to at most 6 pieces and walls, and the verdict names the missed move. The minimal
/// position is checked with the reference engine, not with what the fuzzer says of it.
#[test]
fn each_missed_move_is_found_named_and_shrunk() {
    use arbiter::advance::edges::EdgeKind;
    use arbiter::advance::grades::{Aggregation, grade_report};
    use arbiter::advance::{Engine, Reference};
    let dir = tempfile::tempdir().unwrap();
    for (bot, edge) in [
        ("blind-general-swap", "general-swap"),
        ("blind-protected-convert", "protected-convert"),
        ("blind-sentinel-rescue", "sentinel-rescue"),
    ] {
        let out = dir.path().join(bot);
        let failures = caught_in_300_cases(bot, &out);
        let rule = format!("missed-{edge}");
        // Every failure is this bug (as a crash where the move was the only one, as a wrong move
        // where it was the only best one): nothing else is reported.
        assert!(failures.iter().all(|f| f["signature"]["rule"] == rule.as_str()), "{bot}: {failures:?}");
        let smallest = failures.iter().min_by_key(|f| f["minimal_size"].as_u64().unwrap()).unwrap();
        assert!(smallest["minimal_size"].as_u64().unwrap() <= 6, "{bot}: {smallest}");
        assert!(!smallest["reproduction"]["failed"].is_null());
        assert_eq!(
            smallest["reproduction"]["failed"], smallest["reproduction"]["runs"],
            "{bot} is deterministic"
        );

        // The minimal board: its single expected answer is of the missed kind.
        let side: Side = smallest["side"].as_str().unwrap().parse().unwrap();
        let board = Board::from_text(smallest["minimal_board"].as_str().unwrap()).unwrap();
        let report = grade_report(&Reference, &Reference.load(&board, side));
        let grade = smallest["grade"].as_u64().unwrap() as u8;
        let expected = report.expected(grade, Aggregation::Min);
        assert_eq!(expected.len(), 1, "{bot}: {board:?}");
        assert_eq!(EdgeKind::of(&board, side, expected[0]).map(|k| k.name()), Some(edge));
        let sentence = smallest["missed"]["sentence"].as_str().unwrap();
        assert!(sentence.contains(&expected[0].to_string()), "{sentence}");
        if grade == 4 {
            assert!(sentence.starts_with("the only legal move was"), "{sentence}");
        }
        // Every failing case is kept, each with the bot's stdout head and the expected moves.
        let count = smallest["count"].as_u64().unwrap() as usize;
        let cases = smallest["cases"].as_array().unwrap();
        assert_eq!(cases.len(), count);
        assert!(
            cases
                .iter()
                .all(|c| c.get("stdout_head").is_some() && !c["expected"].as_array().unwrap().is_empty())
        );
        let report: Value = read_json(out.join("fuzz-report.json"));
        assert_eq!(report["report"]["failures"].as_array().unwrap().len(), failures.len());
    }
}

#[test]
fn each_edge_source_gets_its_share_and_the_mix_follows_the_seed() {
    let run = || fuzz(&["--bot", "builtin:grade6", "--cases", "87", "--seed", "9"]).1;
    let v = run();
    let sources = v["report"]["sources"].as_object().unwrap();
    // 29 sources in the rotation (13 rule-edge sources, 9 that tempt, and 7 turns of random
    // positions): with 87 cases each edge source is planned 3 times, and falls back to random
    // positions only if it finds nothing.
    assert!(sources.len() >= 20, "{sources:?}");
    assert!(sources.keys().filter(|k| k.starts_with("tempt/")).count() >= 8, "{sources:?}");
    assert!(
        sources.iter().filter(|(k, _)| *k != "random").all(|(_, n)| n.as_u64().unwrap() <= 3),
        "{sources:?}"
    );
    assert!(sources["random"].as_u64().unwrap() >= 21, "{sources:?}");
    assert_eq!(run()["report"]["sources"], v["report"]["sources"]);
    let (_, plain) = fuzz(&["--bot", "builtin:grade6", "--cases", "20", "--seed", "9", "--no-edges"]);
    assert_eq!(plain["report"]["sources"]["random"], 20);
    let (_, tempting) =
        fuzz(&["--bot", "builtin:grade6", "--cases", "18", "--seed", "9", "--source", "tempt/"]);
    let kept = tempting["report"]["sources"].as_object().unwrap();
    assert!(kept.keys().all(|k| k.starts_with("tempt/")), "{kept:?}");
    // A prefix that names no source is refused with the list of sources.
    let run = arbiter(&["fuzz", "--bot", "builtin:grade6", "--source", "nonesuch"], "");
    run.assert_refused("tempt/pinned");
}

#[test]
fn a_failure_that_does_not_come_back_is_intermittent_and_not_shrunk() {
    let dir = tempfile::tempdir().unwrap();
    // Fails (writes nothing, exits 1) on every second run, counted in a file of its own.
    let count = dir.path().join("count");
    let bot = script_bot(
        dir.path(),
        &format!(
            "n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}\nif [ $((n % 2)) = 1 ]; then echo flaky >&2; exit 1; fi\nexec \"$engine\" bot --grade 6 \"$@\"",
            c = count.display(),
        ),
    );
    let (_, failures) = caught(&[
        "--bot",
        &bot,
        "--cases",
        "6",
        "--seed",
        "2",
        "-j",
        "1",
        "--reruns",
        "3",
        "--sandbox",
        "off",
    ]);
    let f = &failures[0];
    assert_eq!(f["signature"]["verdict"], "crash");
    assert_eq!(f["reproduction"]["runs"], 4);
    assert!(f["reproduction"]["failed"].as_u64().unwrap() < 4, "{f}");
    assert_eq!(f["shrink_runs"], 0);
    assert_eq!(f["minimal_board"], f["original_board"]);
}

#[test]
fn ctrl_c_stops_the_run_and_reports_what_was_found() {
    let dir = tempfile::tempdir().unwrap();
    // The first run crashes and interrupts arbiter (its parent, without a sandbox) as a user's
    // Ctrl-C would; later runs would pass.
    let mark = dir.path().join("mark");
    let out = dir.path().join("out");
    let bot = script_bot(
        dir.path(),
        &format!(
            "if [ ! -e {m} ]; then touch {m}; echo broken >&2; exit 3; fi\nif [ ! -e {m}2 ]; then touch {m}2; kill -INT $PPID; sleep 5; fi\nexec \"$engine\" bot --grade 6 \"$@\"",
            m = mark.display(),
        ),
    );
    let run = arbiter(
        &[
            "fuzz",
            "--json",
            "-q",
            "--bot",
            &bot,
            "--cases",
            "50",
            "-j",
            "1",
            "--reruns",
            "0",
            "--sandbox",
            "off",
            "--out",
            &out.display().to_string(),
        ],
        "",
    );
    assert_eq!(run.status, 130, "{}{}", run.stdout, run.stderr);
    let v: Value = run.json();
    assert_eq!(v["report"]["stopped"], "interrupted");
    assert!(v["report"]["cases"].as_u64().unwrap() < 50);
    assert_eq!(v["report"]["failures"][0]["signature"]["verdict"], "crash");
    assert_eq!(v["report"]["failures"][0]["result"]["stderr_tail"], "broken");
    let written: Value = read_json(out.join("fuzz-report.json"));
    assert_eq!(written["report"]["stopped"], "interrupted");
}

#[test]
fn same_file_and_a_created_output_file_reach_the_bot() {
    let dir = tempfile::tempdir().unwrap();
    // Refuses to run unless its output path already exists and is its input path's twin.
    let bot = script_bot(dir.path(), "[ -e \"$3\" ] || exit 5\nexec \"$engine\" bot --grade 6 \"$@\"");
    let args = |extra: &'static str| {
        let mut a =
            vec!["--bot".to_string(), bot.clone(), "--cases".into(), "8".into(), "--seed".into(), "3".into()];
        if !extra.is_empty() {
            a.push(extra.to_string());
        }
        a
    };
    for (extra, ok) in [("", false), ("--create-output", true), ("--same-file", true)] {
        let a = args(extra);
        let (status, v) = fuzz(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(status == 0, ok, "{extra}: {v}");
    }
}

/// `--html` draws each kind of failure: its minimal position as the bot's board beside the
/// nearest expected one, with the reason, in the order the text report gives them.
#[test]
fn the_fuzz_page_draws_each_minimal_failure() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("page");
    let (_, failures) = caught(&[&CATAPULT_150_CASES[..], &["--html", html.to_str().unwrap()]].concat());
    let page = fs::read_to_string(html.join("index.html")).unwrap();
    assert_eq!(page.matches("data-failure=").count(), failures.len(), "{page}");
    assert_eq!(page.matches("<svg").count(), 2 * failures.len(), "two boards per failure: {page}");
    assert!(page.contains("is protected by the Sentinel"), "{page}");
    let minimal = fs::read_to_string(html.join("boards/1.txt")).unwrap();
    assert_eq!(minimal, failures[0]["minimal_board"].as_str().unwrap());
}
