//! The oracle's answers as JSON: what `expect --json` prints and what golden files hold, and
//! reading a golden file back into [`Answers`].

use serde_json::{Map, Value as Json, json};

use super::board::Board;
use super::engine::Engine;
use super::grades::{Aggregation, GradeReport};
use super::judge::{Answer, Answers};
use super::notation::Move;
use crate::side::Side;

/// Bumped whenever the rules or the oracle change what they compute: golden files written under
/// another version are recomputed rather than trusted.
pub const ORACLE_VERSION: u32 = 1;

/// `[{"notation", "board"}]` for a list of moves.
pub fn moves_json<E: Engine>(engine: &E, pos: &E::Pos, moves: &[Move]) -> Json {
    Json::Array(
        moves
            .iter()
            .map(
                |&m| json!({"notation": m.to_string(), "board": engine.board(&engine.play(pos, m)).joined()}),
            )
            .collect(),
    )
}

/// The full report: legal and winning moves, every grade's set (grade 7 under `agg`), grade 7
/// under each aggregation, the values and gains behind them, and sensitivity.
pub fn report_json<E: Engine>(engine: &E, pos: &E::Pos, report: &GradeReport, agg: Aggregation) -> Json {
    let grades: Map<String, Json> =
        (4..=7).map(|g| (g.to_string(), moves_json(engine, pos, report.expected(g, agg)))).collect();
    let by_agg: Map<String, Json> = Aggregation::ALL
        .iter()
        .map(|&a| (a.name().to_string(), moves_json(engine, pos, report.expected(7, a))))
        .collect();
    let values: Map<String, Json> =
        report.candidates.iter().map(|c| (c.mv.to_string(), json!(c.value(agg).as_f64()))).collect();
    let gains: Map<String, Json> =
        report.legal.iter().map(|&m| (m.to_string(), json!(report.gain(m)))).collect();
    json!({
        "side": report.side,
        "aggregation": agg.name(),
        "legal": moves_json(engine, pos, &report.legal),
        "winning": moves_json(engine, pos, &report.winning),
        "grades": grades,
        "grade7_by_agg": by_agg,
        "grade7_values": values,
        "gains": gains,
        "sensitive": report.sensitive(),
    })
}

/// Each grade-7 candidate with its values and the predicted replies behind them.
pub fn candidates_json(report: &GradeReport) -> Json {
    Json::Array(
        report
            .candidates
            .iter()
            .map(|c| {
                json!({
                    "notation": c.mv.to_string(),
                    "values": {"min": c.value(Aggregation::Min).as_f64(), "max": c.value(Aggregation::Max).as_f64(),
                               "mean": c.value(Aggregation::Mean).as_f64()},
                    "opponent_win": c.opponent_win.map(|m| m.to_string()),
                    "replies": c.replies.iter().map(|r| json!({
                        "notation": r.reply.to_string(),
                        "value": r.value,
                        "our_win": r.our_win.map(|m| m.to_string()),
                        "our_best": r.our_best.map(|m| m.to_string()),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

/// A golden file: the report (grade 7 under min) with the input board, side, grade and the
/// oracle version it was computed under.
pub fn golden_json<E: Engine>(engine: &E, pos: &E::Pos, report: &GradeReport, grade: u8) -> Json {
    let mut out = report_json(engine, pos, report, Aggregation::Min);
    out["version"] = json!(ORACLE_VERSION);
    out["grade"] = json!(grade);
    out["input"] = json!(engine.board(pos).joined());
    out["expected"] = moves_json(engine, pos, report.expected(grade, Aggregation::Min));
    out
}

/// Reads the answers from a golden file, if it was written for this board and side under the
/// current oracle version. `None` means "recompute".
pub fn answers_from_golden(golden: &[u8], board: &Board, side: Side) -> Option<Answers> {
    let v: Json = serde_json::from_slice(golden).ok()?;
    if v["version"].as_u64() != Some(u64::from(ORACLE_VERSION))
        || v["input"].as_str() != Some(board.joined().as_str())
        || v["side"].as_str() != Some(side.name())
    {
        return None;
    }
    let legal: Vec<Answer> = v["legal"]
        .as_array()?
        .iter()
        .map(|m| {
            let mv: Move = m["notation"].as_str()?.parse().ok()?;
            let board = Board::from_text(m["board"].as_str()?).ok()?;
            Some(Answer { mv, board })
        })
        .collect::<Option<_>>()?;
    let index = |grade: u8| -> Option<Vec<usize>> {
        v["grades"][grade.to_string()]
            .as_array()?
            .iter()
            .map(|m| legal.iter().position(|a| Some(a.mv.to_string().as_str()) == m["notation"].as_str()))
            .collect()
    };
    let grades = [index(4)?, index(5)?, index(6)?, index(7)?];
    Some(Answers { side, legal, grades })
}
