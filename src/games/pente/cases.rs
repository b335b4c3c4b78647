//! Pente's test cases: a case's position judged by the oracle for its category folder, the
//! golden answer, and what a bot's output.txt is worth.

use super::Board;
use super::Color;
use super::fuzzing;
use super::move_text::parse_move;
use super::oracle::{Category, Oracle, category_problem};
use super::point::{Point, SHOWN_POINTS, list, list_some};
use super::position::Position;
use super::referee::{GAME_SECONDS, PenteReferee, read};
use super::text::Strictness;
use crate::harness::referee::{
    CaseSpec, Cases, CategoryCheck, GeneratedCase, MoveKind, Prepared, PreparedCase, RobustnessBoards,
    golden_expected, golden_problem, golden_text, judge_legal,
};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

impl Cases for PenteReferee {
    fn check_args(&self, case: &CaseSpec) -> String {
        format!("--game pente --side {} --category {}", case.side, case.category)
    }

    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared {
        let origin = case.origin();
        let position = read(input, &origin)?;
        case.check_side(position.to_move.side(), &position.to_move)?;
        let category: Category = case.category.parse().map_err(|e: String| format!("{origin}: {e}"))?;
        let oracle = Oracle::new(&position, &self.rules);
        let expected = oracle.expected(category);
        if expected.is_empty() {
            let why =
                oracle.no_moves_reason().unwrap_or_else(|| format!("no move answers `{category}` here"));
            return Err(format!("{origin}: a `{category}` case, but {why}"));
        }
        let golden_used =
            golden.is_some_and(|g| golden_expected(g).as_deref() == Some(&list_strings(&expected)));
        Ok(Box::new(PenteCase { oracle, category, expected, golden_used }))
    }

    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String> {
        let position = read(input, &case.origin())?;
        let category: Category = case.category.parse()?;
        let oracle = Oracle::new(&position, &self.rules);
        let expected = oracle.expected(category);
        let json = serde_json::json!({
            "category": category.name(),
            "to_move": position.to_move.to_string(),
            "legal": oracle.legal.len(),
            "expected": list_strings(&expected),
            "why": expected.first().map(|&p| oracle.explain(p)),
        });
        Ok(golden_text(&json))
    }

    fn generate(&self, count: usize, seed: u64) -> Option<Vec<GeneratedCase>> {
        Some(super::corpus::generate(&self.rules, count, seed))
    }

    fn check_category(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> CategoryCheck {
        let position = read(input, &case.origin()).map_err(|e| vec![e])?;
        let category: Category = case.category.parse().map_err(|e: String| vec![e])?;
        let oracle = Oracle::new(&position, &self.rules);
        let mut problems: Vec<String> = category_problem(&oracle, category).into_iter().collect();
        if let Some(golden) = golden {
            let expected = list_strings(&oracle.expected(category));
            problems.extend(golden_problem(golden, &expected, category.name(), "points"));
        }
        if problems.is_empty() { Ok(()) } else { Err(problems) }
    }

    fn robustness_boards(&self) -> Option<RobustnessBoards> {
        let start = Position::start().to_input_text();
        let invalid = start.replacen("...................", "........x..........", 1);
        let short: String = start.lines().take(12).map(|l| format!("{l}\n")).collect();
        // Five white stones in a row: the game is over, Black has no move.
        let mut over = Position::new(
            Color::Black,
            Board::from_points("10A 10B 10C 10D 10E", "1A 1B 1C 1D").expect("points"),
        );
        over.seconds_left = GAME_SECONDS;
        Some(RobustnessBoards {
            valid: (start.into_bytes(), Side::White),
            invalid_chars: invalid.into_bytes(),
            wrong_size: short.into_bytes(),
            no_moves: (over.to_input_text().into_bytes(), Side::Black),
        })
    }
}

fn list_strings(points: &[Point]) -> Vec<String> {
    points.iter().map(Point::to_string).collect()
}

/// One Pente test case with its answers.
struct PenteCase {
    oracle: Oracle,
    category: Category,
    expected: Vec<Point>,
    golden_used: bool,
}

impl PreparedCase for PenteCase {
    fn judge(&self, output: &[u8], origin: &str, strict: bool) -> Judgement {
        let strictness = if strict { Strictness::Strict } else { Strictness::Lenient };
        let mut j = Judgement { expected: list_strings(&self.expected), ..Judgement::default() };
        let point = match parse_move(output, origin, strictness) {
            Ok(p) => p,
            Err(e) => {
                j.verdict = Some(Verdict::MalformedOutput);
                j.location = Some((e.line, e.column));
                j.reason = format!("the output is not a point like `9N`: {e}");
                j.cause = super::analyst::columns_with_i(output, None, &[], &[]);
                return j;
            }
        };
        j.played = Some(point.to_string());
        let why = self.oracle.explain(point);
        if !self.oracle.legal.contains(&point) {
            j.verdict = Some(Verdict::IllegalMove);
            j.rule = Some(
                if self.oracle.position.board.get(point).is_some() { "occupied" } else { "opening" }.into(),
            );
            // The oracle's explanation already begins "<point> is not a legal move".
            j.reason = why;
        } else {
            judge_legal(&mut j, &point, &self.expected, why, |why| {
                format!(
                    "{point} is legal, but the {} case expects {}: {why}",
                    self.category,
                    list_some(&self.expected)
                )
            });
        }
        if j.verdict != Some(Verdict::Pass) {
            j.cause = super::analyst::columns_with_i(output, Some(point), &self.oracle.legal, &self.expected);
        }
        j
    }

    fn asks(&self) -> Option<String> {
        Some(super::analyst::asks(self.category).to_string())
    }

    fn expect_args(&self) -> Option<String> {
        Some(format!("--game pente --category {}", self.category))
    }

    fn golden_used(&self) -> bool {
        self.golden_used
    }

    fn time_limit(&self) -> Option<std::time::Duration> {
        let seconds = self.oracle.position.seconds_left;
        (seconds.is_finite() && seconds > 0.0).then(|| std::time::Duration::from_secs_f64(seconds.min(1e9)))
    }

    fn expected(&self) -> Vec<String> {
        list_strings(&self.expected)
    }

    fn move_kind(&self, notation: &str) -> Option<MoveKind> {
        let point = parse_move(notation.as_bytes(), "move", Strictness::Lenient).ok()?;
        Some(fuzzing::move_kind(&self.oracle.position, point))
    }

    fn picture(&self, played: Option<&str>) -> Option<String> {
        let pos = &self.oracle.position;
        let played = played.and_then(|m| parse_move(m.as_bytes(), "move", Strictness::Lenient).ok());
        // Few expected points are marked; many (a quiet position's every empty point) would
        // hide the board.
        let few = self.expected.len() <= SHOWN_POINTS;
        let mut marks: Vec<(Point, char)> =
            if few { self.expected.iter().map(|&p| (p, '+')).collect() } else { Vec::new() };
        marks.extend(played.map(|p| (p, '*')));
        let mut out = super::analyst::draw_marked(pos, &marks);
        out.push_str(&format!(
            "{} to move; captured pieces: White {}, Black {}\n",
            pos.to_move,
            pos.captured_by(Color::White),
            pos.captured_by(Color::Black)
        ));
        if let Some(p) = played {
            let on = match pos.board.get(p) {
                Some(stone) => format!(", on a {} stone", stone.to_string().to_lowercase()),
                None => String::new(),
            };
            out.push_str(&format!("* {p}: the bot's move{on}\n"));
        }
        if few && !self.expected.is_empty() {
            out.push_str(&format!("+ expected: {}\n", list(&self.expected)));
        }
        Some(out)
    }

    fn check_answer(&self, answer: &[u8]) -> Option<String> {
        match parse_move(answer, "answer", Strictness::Lenient) {
            Ok(p) if self.expected == [p] => None,
            Ok(p) => {
                Some(format!("the answer {p} is not the single expected move ({})", list(&self.expected)))
            }
            Err(e) => Some(e.to_string()),
        }
    }
}
