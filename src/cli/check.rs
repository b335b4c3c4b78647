//! `arbiter check`: which legal move turns IN into OUT and which grades it satisfies, or what
//! exactly is wrong with OUT.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Value as Json, json};

use super::input::{EngineChoice, PositionArgs, read_source, with_engine};
use super::{CommandResult, Outcome};
use crate::advance::grades::{Aggregation, grade_report};
use crate::advance::judge::{Answers, Finding, board_diff, closest, judge};
use crate::advance::{Engine, Strictness};
use crate::harness::escape::escape_controls;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,

    /// The board the bot wrote (`-` reads standard input).
    #[arg(value_name = "OUT")]
    output: PathBuf,

    /// Also demand that the move is in grade N's expected set (4, 5, 6 or 7).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=7))]
    grade: Option<u8>,

    /// The case's category (one of the game's categories, as `verify --help` lists them); the
    /// move must be in its expected set.
    #[arg(long, value_name = "NAME")]
    category: Option<String>,

    /// How the highest grade combines values over the opponent's tied replies.
    #[arg(long, value_enum, default_value = "min")]
    agg: Aggregation,

    /// Demand exactly 9 lines each ending in `\n` (by default `\r\n` and a missing final line end
    /// are accepted).
    #[arg(long)]
    strict: bool,

    /// Print one JSON object: "legal", "move", "grades", "reason", "verdict", and details.
    #[arg(long)]
    json: bool,
}

/// `check` for any game, through its referee: the case file, the category, the bot's output.
pub fn run_for_game(args: Args, referee: &dyn crate::harness::referee::Referee) -> CommandResult {
    let Some(category) = args.category.clone() else {
        anyhow::bail!(
            "--category is required for --game {}: one of {}",
            referee.game(),
            referee.categories().join(", ")
        );
    };
    if !referee.categories().contains(&category.as_str()) {
        anyhow::bail!("--category {category}: expected one of {}", referee.categories().join(", "));
    }
    let loaded = args.position.read()?;
    let side = referee.analyst().side_to_move(&loaded.view())?;
    let (input, origin) = (loaded.bytes, loaded.origin);
    let (output, output_origin) = read_source(&args.output)?;
    let spec = crate::harness::referee::CaseSpec {
        path: PathBuf::from(&origin),
        name: origin.clone(),
        category,
        side,
        answer: None,
        golden: None,
    };
    let case = referee
        .require_cases()
        .map_err(anyhow::Error::msg)?
        .prepare(&spec, &input, None)
        .map_err(anyhow::Error::msg)?;
    let j = case.judge(&output, &output_origin, args.strict);
    let verdict = j.verdict.map_or("malformed-output", |v| v.as_str());
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json!({"verdict": verdict, "judgement": j}))?);
    } else {
        let mut out = format!("{verdict}: {}\n", j.reason);
        if !j.expected.is_empty() {
            let _ = writeln!(out, "expected: {}", j.expected.join(" "));
        }
        print!("{}", escape_controls(&out));
    }
    Ok(if verdict == "pass" { Outcome::Success } else { Outcome::Failure })
}

pub fn run(args: Args, engine: EngineChoice) -> CommandResult {
    with_engine!(engine, |engine| run_with(engine, &args))
}

fn run_with<E: Engine>(engine: &E, args: &Args) -> CommandResult {
    let position = args.position.load()?;
    let (bytes, origin) = read_source(&args.output)?;
    let pos = engine.load(&position.board, position.turn);
    let report = grade_report(engine, &pos);
    let answers = Answers::from_report(engine, &pos, &report, args.agg);
    let strictness = if args.strict { Strictness::Strict } else { Strictness::Lenient };
    let finding = judge(&position.board, &answers, &bytes, &origin, strictness);
    let verdict = finding.verdict(args.grade).as_str();
    let side = position.turn;

    // For a legal move outside the demanded grade: the nearest expected board and its diff.
    let mut expected_note = None;
    if let (Finding::Legal { board, .. }, Some(g)) = (&finding, args.grade)
        && verdict == "wrong-move"
    {
        let near = closest(answers.expected(g), board);
        if let Some(&(mv, _)) = near.first() {
            let answer = answers.legal.iter().find(|a| a.mv == mv).expect("expected moves are legal");
            let expected: Vec<String> = answers.expected(g).map(|a| a.mv.to_string()).collect();
            expected_note =
                Some((expected, board_diff(&answer.board, board, &format!("expected ({mv})"), "output")));
        }
    }

    if args.json {
        let mut out = json!({
            "legal": matches!(finding, Finding::Legal { .. }),
            "move": match &finding { Finding::Legal { mv, .. } => Some(mv.to_string()), _ => None },
            "grades": match &finding { Finding::Legal { grades, .. } => grades.clone(), _ => Vec::new() },
            "reason": finding.reason(side),
            "verdict": verdict,
            "rule": finding.rule(),
        });
        match &finding {
            Finding::Malformed(e) => {
                out["line"] = json!(e.line);
                out["column"] = json!(e.column);
            }
            Finding::Illegal(ill) => {
                out["attempt"] = json!(ill.attempt.as_ref().map(|(m, _)| m.to_string()));
                out["changes"] = json!(ill.changes.iter().map(|c| c.to_string()).collect::<Vec<_>>());
                out["closest"] = Json::Array(
                    ill.closest
                        .iter()
                        .map(|(m, d)| json!({"notation": m.to_string(), "differing_squares": d}))
                        .collect(),
                );
                out["diff"] = json!(board_diff(&position.board, &ill.board, "input", "output"));
            }
            _ => {}
        }
        if let Some((expected, diff)) = &expected_note {
            out["expected"] = json!(expected);
            out["diff"] = json!(diff);
        }
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        // OUT is usually a bot's output, and a malformed line is quoted: escape what a terminal obeys.
        let text = human(&finding, &position.board, &answers, args.grade, verdict, expected_note, side);
        print!("{}", escape_controls(&text));
    }
    Ok(if verdict == "pass" { Outcome::Success } else { Outcome::Failure })
}

fn human(
    finding: &Finding,
    before: &crate::advance::Board,
    answers: &Answers,
    grade: Option<u8>,
    verdict: &str,
    expected_note: Option<(Vec<String>, String)>,
    side: crate::side::Side,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", verdict.to_uppercase());
    match finding {
        Finding::Malformed(e) => {
            let _ = writeln!(out, "the output is not a board file:\n{}", e.render());
        }
        Finding::Unchanged => {
            let _ = writeln!(out, "{}", finding.reason(side));
        }
        Finding::Legal { mv, grades, .. } => {
            let list: Vec<String> = grades.iter().map(u8::to_string).collect();
            let sets = if list.is_empty() { "none".to_string() } else { list.join(", ") };
            let _ =
                writeln!(out, "{mv} is a legal move for {side}; it is in the expected set of grades: {sets}");
            if let (Some(g), Some((expected, diff))) = (grade, expected_note) {
                let _ = writeln!(out, "grade {g} expects: {}", expected.join(" "));
                let _ = writeln!(out, "run `arbiter expect IN --side {side} --why {mv}` to see why\n{diff}");
            }
        }
        Finding::Illegal(ill) => {
            let _ = writeln!(out, "{}", finding.reason(side));
            let list: Vec<String> = ill.changes.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(out, "changed squares: {}", list.join(", "));
            let _ = write!(out, "{}", board_diff(before, &ill.board, "input", "output"));
            if let Some((mv, d)) = ill.closest.first() {
                let answer = answers.legal.iter().find(|a| a.mv == *mv).expect("closest moves are legal");
                let others: Vec<String> =
                    ill.closest.iter().skip(1).take(8).map(|(m, _)| m.to_string()).collect();
                let also = if others.is_empty() {
                    String::new()
                } else {
                    format!("; as close: {}", others.join(" "))
                };
                let _ = writeln!(
                    out,
                    "closest legal move: {mv} (its board differs from the output in {d} squares{also})"
                );
                let _ = write!(
                    out,
                    "{}",
                    board_diff(&answer.board, &ill.board, &format!("after {mv}"), "output")
                );
            }
        }
    }
    out
}
