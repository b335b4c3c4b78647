//! `expect` for Advance: the expected-answer set of every grade, explained.

use std::fmt::Write as _;

use anyhow::{Context, bail};
use serde_json::{Value as Json, json};

use crate::advance::answers_json;
use crate::advance::explain::diagnose;
use crate::advance::grades::{Aggregation, GradeReport, grade_report};
use crate::advance::{Engine, Move, Position};
use crate::harness::analyst::ExpectRequest;
use crate::harness::category::grade_number;

/// The report `expect` prints for `position`: JSON, one move explained (`why`), or every grade.
pub fn run<E: Engine>(engine: &E, position: &Position, request: &ExpectRequest) -> anyhow::Result<String> {
    let agg = match request.aggregation.as_deref() {
        None => Aggregation::Min,
        Some(name) => Aggregation::ALL
            .into_iter()
            .find(|a| a.name() == name)
            .with_context(|| format!("--agg {name}: expected min, max or mean"))?,
    };
    let grade = match request.category.as_deref() {
        None => None,
        Some(category) => {
            Some(grade_number(category).filter(|g| (4..=7).contains(g)).with_context(|| {
                format!("{category}: expected grade4, grade5, grade6 or grade7 (or --grade 4..7)")
            })?)
        }
    };
    let pos = engine.load(&position.board, position.turn);
    let report = grade_report(engine, &pos);
    if request.json {
        let json = report_json(engine, &pos, &report, agg, grade);
        return Ok(serde_json::to_string_pretty(&json)? + "\n");
    }
    if let Some(text) = &request.why {
        let mv: Move = text.parse().context("cannot read the move given to --why")?;
        return explain_move(position, &report, mv, agg);
    }
    Ok(summary(&report, agg, grade))
}

/// The machine-readable report: the oracle's answers, the grade-7 candidates, and the grade asked for.
fn report_json<E: Engine>(
    engine: &E,
    pos: &E::Pos,
    report: &GradeReport,
    agg: Aggregation,
    grade: Option<u8>,
) -> Json {
    let mut out = answers_json::report_json(engine, pos, report, agg);
    out["grade7_candidates"] = answers_json::candidates_json(report);
    if let Some(g) = grade {
        out["grade"] = json!(g);
        out["expected"] = answers_json::moves_json(engine, pos, report.expected(g, agg));
    }
    out
}

fn list(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.join(" ")
}

fn count(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// The human report: each grade's set, the gains behind grade 6, the values behind grade 7.
fn summary(report: &GradeReport, agg: Aggregation, only: Option<u8>) -> String {
    let mut out = String::new();
    let side = report.side;
    let wins = if report.winning.is_empty() {
        "no winning move".to_string()
    } else {
        count(report.winning.len()) + " winning"
    };
    let legal = report.legal.len();
    let _ = writeln!(
        out,
        "{side} to move: {legal} legal move{}, {wins}; advantage now {:+}",
        if legal == 1 { "" } else { "s" },
        report.advantage_before
    );
    if report.legal.is_empty() {
        let _ = writeln!(out, "{side} has no legal move, so it has lost: no grade expects anything here");
        return out;
    }
    let show = |g: u8| only.is_none_or(|o| o == g);

    if show(4) {
        let _ = writeln!(out, "\ngrade 4 (any legal move): {}", count(report.legal.len()));
        let _ = writeln!(out, "  {}", list(&report.legal));
    }
    if show(5) {
        if report.winning.is_empty() {
            let _ = writeln!(
                out,
                "\ngrade 5 (a winning move, else any legal move): no winning move, so any of the {}",
                count(report.legal.len())
            );
        } else {
            let _ = writeln!(out, "\ngrade 5 (a winning move): {}", list(&report.winning));
        }
    }
    if show(6) {
        let _ = writeln!(out, "\ngrade 6 (a winning move, else the greatest material gain):");
        if !report.winning.is_empty() {
            let _ = writeln!(out, "  a winning move exists: {}", list(&report.winning));
        } else {
            // Group moves by gain, best first, so the student sees where their move stands.
            let mut gains: Vec<i32> = report.legal.iter().filter_map(|&m| report.gain(m)).collect();
            gains.sort_unstable_by(|a, b| b.cmp(a));
            gains.dedup();
            for (i, g) in gains.iter().enumerate() {
                let moves: Vec<Move> =
                    report.legal.iter().copied().filter(|&m| report.gain(m) == Some(*g)).collect();
                let mark = if i == 0 { "expected" } else { "        " };
                let _ = writeln!(out, "  {mark} gain {g:+3}: {}", list(&moves));
            }
        }
    }
    if show(7) {
        let _ = writeln!(
            out,
            "\ngrade 7 (the grade-6 move with the best value after the opponent's predicted reply):"
        );
        if !report.winning.is_empty() {
            let _ = writeln!(out, "  a winning move exists: {}", list(&report.winning));
        } else if report.candidates.is_empty() {
            let _ = writeln!(out, "  only one grade-6 move, so it is the answer: {}", list(&report.grade6));
        } else {
            let opponent = side.opponent();
            let _ = writeln!(
                out,
                "  {} tie at grade 6; each is valued by {opponent}'s grade-6 replies and {side}'s best answer to each",
                count(report.candidates.len())
            );
            let _ = writeln!(
                out,
                "  (value = {} over the replies; the other aggregations for comparison)\n",
                agg.name()
            );
            let _ = writeln!(
                out,
                "  {:<8} {:>7} {:>7} {:>7} {:>7}  deciding reply -> our answer",
                "move", "min", "max", "mean", "replies"
            );
            let mut ranked: Vec<_> = report.candidates.iter().collect();
            ranked.sort_by(|a, b| b.value(agg).cmp(&a.value(agg)).then(a.mv.cmp(&b.mv)));
            for c in ranked {
                let story = match (&c.opponent_win, c.deciding_reply(agg)) {
                    (Some(w), _) => format!("{w} wins for {opponent}"),
                    (None, Some(r)) => match (r.our_win, r.our_best) {
                        (Some(w), _) => format!("{} -> {w} wins", r.reply),
                        (None, Some(b)) => format!("{} -> {b} (advantage {:+})", r.reply, r.value),
                        (None, None) => r.reply.to_string(),
                    },
                    (None, None) => String::new(),
                };
                let _ = writeln!(
                    out,
                    "  {:<8} {:>7} {:>7} {:>7} {:>7}  {story}",
                    c.mv.to_string(),
                    c.value(Aggregation::Min).to_string(),
                    c.value(Aggregation::Max).to_string(),
                    c.value(Aggregation::Mean).to_string(),
                    c.replies.len()
                );
            }
            let _ = writeln!(out, "\n  use --why MOVE to see every reply to one move");
        }
        let names: Vec<String> = Aggregation::ALL
            .iter()
            .map(|&a| format!("{}: {}", a.name(), list(report.expected(7, a))))
            .collect();
        let _ = writeln!(out, "  answer under {}", names.join("; "));
        if report.sensitive() {
            let _ = writeln!(
                out,
                "  INTERPRETATION-SENSITIVE: the aggregations disagree, so this position should not be a test case"
            );
        } else {
            let _ = writeln!(out, "  not interpretation-sensitive: all three aggregations agree");
        }
    }
    if let Some(g) = only {
        let _ = writeln!(out, "\nexpected for grade {g}: {}", list(report.expected(g, agg)));
    }
    out
}

/// Everything about one move: legality, gain, and its grade-7 valuation.
fn explain_move(
    position: &Position,
    report: &GradeReport,
    mv: Move,
    agg: Aggregation,
) -> anyhow::Result<String> {
    let mut out = String::new();
    if let Err(violation) = diagnose(&position.board, position.turn, mv) {
        bail!("{mv} is not a legal move for {}: {violation}", position.turn);
    }
    let gain = report.gain(mv).expect("legal moves have a gain");
    let grades: Vec<String> =
        (4..=7).filter(|&g| report.expected(g, agg).contains(&mv)).map(|g| g.to_string()).collect();
    let _ = writeln!(
        out,
        "{mv}: legal, gains {gain:+}; in the expected set of grade {}",
        if grades.is_empty() { "none".to_string() } else { grades.join(", ") }
    );
    if report.winning.contains(&mv) {
        let _ = writeln!(out, "it wins: {} has no legal move afterwards", position.turn.opponent());
        return Ok(out);
    }
    if !report.winning.is_empty() {
        let _ = writeln!(out, "grades 5-7 expect a winning move instead: {}", list(&report.winning));
        return Ok(out);
    }
    if !report.grade6.contains(&mv) {
        let best = report.grade6.first().and_then(|&m| report.gain(m)).unwrap_or(0);
        let _ = writeln!(out, "not a grade-6 move: the best gain is {best:+}, by {}", list(&report.grade6));
        return Ok(out);
    }
    let Some(c) = report.candidate(mv) else {
        let _ = writeln!(out, "it is the only grade-6 move, so it is also the grade-7 answer");
        return Ok(out);
    };
    let opponent = position.turn.opponent();
    if let Some(w) = c.opponent_win {
        let _ = writeln!(out, "after it {opponent} wins at once with {w}: value -1000");
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "value: min {}, max {}, mean {}",
        c.value(Aggregation::Min),
        c.value(Aggregation::Max),
        c.value(Aggregation::Mean)
    );
    let _ = writeln!(
        out,
        "{opponent}'s grade-6 replies ({}) and {}'s best answer to each:",
        c.replies.len(),
        position.turn
    );
    for r in &c.replies {
        let answer = match (r.our_win, r.our_best) {
            (Some(w), _) => format!("{w} wins (+1000)"),
            (None, Some(b)) => format!("{b} leaves advantage {:+}", r.value),
            (None, None) => format!("advantage {:+}", r.value),
        };
        let _ = writeln!(out, "  {:<8} -> {answer}", r.reply.to_string());
    }
    let best = report.expected(7, agg);
    if best.contains(&mv) {
        let _ = writeln!(out, "it is a grade-7 answer under {}", agg.name());
    } else if let Some(b) = best.first().and_then(|&m| report.candidate(m)) {
        let _ = writeln!(
            out,
            "not the grade-7 answer under {}: {} is worth {}, this move {}",
            agg.name(),
            b.mv,
            b.value(agg),
            c.value(agg)
        );
    }
    Ok(out)
}
