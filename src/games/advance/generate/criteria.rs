//! What makes a position a good test case for each grade: its answer must be unique and robust.

use crate::advance::engine::Engine;
use crate::advance::grades::{Aggregation, GradeReport, grade6_set};

/// Checks the criteria of `grade`'s test cases; `Err` says which one fails.
/// - grade 4: exactly one legal move;
/// - grade 5: at least two legal moves and exactly one winning move;
/// - grade 6: no winning move, at least two legal moves, exactly one move of greatest material
///   gain, and that gain positive;
/// - grade 7: no winning move, at least two moves tied for the greatest gain, exactly one
///   grade-7 answer under every aggregation (so not interpretation-sensitive).
pub fn meets(report: &GradeReport, grade: u8) -> Result<(), String> {
    let legal = report.legal.len();
    let winning = report.winning.len();
    match grade {
        4 if legal == 1 => Ok(()),
        4 => Err(format!("{legal} legal moves, not 1")),
        5 if legal < 2 => Err(format!("{legal} legal moves, not at least 2")),
        5 if winning != 1 => Err(format!("{winning} winning moves, not 1")),
        5 => Ok(()),
        _ if winning > 0 => Err(format!("{winning} winning moves, not 0")),
        _ if legal < 2 => Err(format!("{legal} legal moves, not at least 2")),
        6 => {
            let best = report.grade6.len();
            let gain = report.grade6.first().and_then(|&m| report.gain(m)).unwrap_or(0);
            if best != 1 {
                Err(format!("{best} moves share the greatest gain, not 1"))
            } else if gain <= 0 {
                Err(format!("the greatest gain is {gain}, not positive"))
            } else {
                Ok(())
            }
        }
        7 => {
            let tied = report.grade6.len();
            if tied < 2 {
                return Err(format!("{tied} moves share the greatest gain, not at least 2"));
            }
            for agg in Aggregation::ALL {
                let answers = report.expected(7, agg).len();
                if answers != 1 {
                    return Err(format!("{answers} grade-7 answers under {}, not 1", agg.name()));
                }
            }
            if report.sensitive() {
                return Err("interpretation-sensitive".to_string());
            }
            Ok(())
        }
        _ => Err(format!("no criteria for grade {grade}")),
    }
}

/// A quick screen before the full grade report: false when the position cannot meet `grade`'s
/// criteria, judged from the legal moves and (for grades 5 and up) the winning moves alone.
pub fn may_meet<E: Engine>(engine: &E, pos: &E::Pos, grade: u8) -> bool {
    let legal = engine.moves(pos);
    if grade == 4 {
        return legal.len() == 1;
    }
    if legal.len() < 2 {
        return false;
    }
    let winning = legal.iter().filter(|&&m| !engine.has_legal_move(&engine.play(pos, m))).count();
    match grade {
        5 => winning == 1,
        6 => winning == 0 && grade6_set(engine, pos).len() == 1,
        _ => winning == 0 && grade6_set(engine, pos).len() >= 2,
    }
}
