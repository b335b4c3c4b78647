//! Pente as the harness sees it: test cases judged by the oracle, the graders' bots, games for
//! the match runner. Bots follow CSCI561's protocol: a program without arguments that reads
//! `input.txt` in its folder and writes one point to `output.txt`, keeping `playdata.txt`
//! between its turns of a game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bots;
use super::fuzzing;
use super::oracle::{Category, Oracle};
use super::point::{Point, SHOWN_POINTS, list, list_some};
use super::position::Position;
use super::rules::{Rules, Status, WinReason, is_legal, play, status};
use super::text::{Strictness, parse_move};
use super::{Board, Color};
use crate::harness::referee::{
    BuiltinBot, Builtins, Calibration, CaseSpec, Cases, Fuzzing, GameState, Games, GeneratedCase, MoveKind,
    PreparedCase, Protocol, Referee, RobustnessBoards, SoleAnswer, golden_expected, golden_problem,
    golden_text,
};
use crate::harness::verdict::{Judgement, Verdict};
use crate::side::Side;

/// Pente's case categories, in the order a marking profile's stages take them.
pub const CATEGORIES: &[&str] = &["opening", "legal", "win", "block", "capture"];

/// The seconds a game starts with for each player, as the graders give (5 minutes).
pub const GAME_SECONDS: f64 = 300.0;

/// The harness's view of Pente under one set of rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct PenteReferee {
    /// The rules applied (the opening rule's variant).
    pub rules: Rules,
}

fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn read(input: &[u8], origin: &str) -> Result<Position, String> {
    Position::parse(input, origin, Strictness::Lenient).map_err(|e| e.render())
}

impl Referee for PenteReferee {
    fn game(&self) -> &'static str {
        "pente"
    }

    fn game_args(&self) -> Vec<String> {
        let mut args = vec!["--game".to_string(), "pente".to_string()];
        if self.rules.opening != super::rules::Opening::Seed {
            args.extend(["--rule".to_string(), "opening=tournament".to_string()]);
        }
        args
    }

    fn analyst(&self) -> &dyn crate::harness::analyst::Analyst {
        self
    }

    fn protocol(&self) -> Protocol {
        Protocol::FixedFiles { input: "input.txt", output: "output.txt", persist: &["playdata.txt"] }
    }

    fn categories(&self) -> &'static [&'static str] {
        CATEGORIES
    }

    fn marking_profile(&self) -> &'static str {
        include_str!("../../../corpus/pente/marking-profile.json")
    }

    fn calibration(&self) -> Option<Calibration> {
        // "Please aim for no more than 5 minutes to run your calibrate program."
        Some(Calibration { program: "calibrate", file: "calibration.txt", seconds: 300.0 })
    }

    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![self.marking_profile(), include_str!("../../../corpus/pente/csci561.json")]
    }

    crate::concerns!(cases, builtins, fuzzing, games, drawing);
}

impl Cases for PenteReferee {
    fn check_args(&self, case: &CaseSpec) -> String {
        format!("--game pente --side {} --category {}", case.side, case.category)
    }

    fn prepare(
        &self,
        case: &CaseSpec,
        input: &[u8],
        golden: Option<&[u8]>,
    ) -> Result<Box<dyn PreparedCase>, String> {
        let origin = case.path.display().to_string();
        let position = read(input, &origin)?;
        if side_of(position.to_move) != case.side {
            return Err(format!(
                "{origin}: the file gives {} to move, but the case is in a `{}` folder",
                position.to_move, case.side
            ));
        }
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
        let position = read(input, &case.path.display().to_string())?;
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

    fn check_category(
        &self,
        case: &CaseSpec,
        input: &[u8],
        golden: Option<&[u8]>,
    ) -> Result<(), Vec<String>> {
        let position = read(input, &case.path.display().to_string()).map_err(|e| vec![e])?;
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

impl Builtins for PenteReferee {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        bots::by_name(name).map(|_| Box::new(PenteBuiltin { name: name.to_string(), rules: self.rules }) as _)
    }

    fn builtin_names(&self) -> Vec<&'static str> {
        bots::NAMES.to_vec()
    }
}

impl Fuzzing for PenteReferee {
    fn any_move_category(&self) -> &'static str {
        "legal"
    }

    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let stones = 4 + (seed % 60) as usize;
        let position = super::random_position(&mut rng, &self.rules, stones);
        (position.to_input_text().into_bytes(), side_of(position.to_move))
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        let Ok(position) = read(input, "input") else { return Vec::new() };
        fuzzing::shrink_steps(&position).into_iter().map(|p| p.to_input_text().into_bytes()).collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        read(input, "input").map_or(0, |p| p.board.stone_count())
    }

    fn size_unit(&self) -> &'static str {
        "stones"
    }

    fn edge_sources(&self) -> Vec<String> {
        fuzzing::SOURCES.iter().map(|s| s.to_string()).collect()
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        let position = fuzzing::edge_position(&self.rules, source, seed)?;
        Some((position.to_input_text().into_bytes(), side_of(position.to_move)))
    }

    fn auto_category(&self, input: &[u8], _side: Side) -> Option<String> {
        let position = read(input, "input").ok()?;
        Oracle::new(&position, &self.rules).category().map(|c| c.name().to_string())
    }

    fn sole_answer(&self, input: &[u8], _side: Side, category: &str) -> Option<SoleAnswer> {
        let position = read(input, "input").ok()?;
        fuzzing::sole_answer(&position, &self.rules, category.parse().ok()?)
    }
}

impl Games for PenteReferee {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        // A start file's time line is both sides' starting clock (`match --clock` overrides it).
        let (position, start) = match start {
            Some((origin, bytes)) => {
                let position = read(bytes, origin)?;
                let seconds = position.seconds_left;
                (position, seconds)
            }
            None => (Position::start(), GAME_SECONDS),
        };
        Ok(Box::new(PenteGame { position, rules: self.rules, seconds: [start; 2], start }))
    }
}

/// What is wrong with a `category` case in the oracle's position, if anything: it has no legal
/// move, it belongs to another category (the first of opening, win, block, capture, legal that
/// applies), or it is lost (every move loses, so every move would be a right answer: RULES.md
/// item 14).
pub fn category_problem(oracle: &Oracle, category: Category) -> Option<String> {
    let Some(own) = oracle.category() else {
        return Some(oracle.no_moves_reason().unwrap_or_else(|| "no legal move".to_string()));
    };
    if oracle.lost() {
        let mover = oracle.position.to_move;
        return Some(format!(
            "a lost position: {} threatens {} and no move of {mover}'s stops it, so every move would be \
             right",
            mover.opponent(),
            list_some(&oracle.threats)
        ));
    }
    if own != category {
        let why = oracle.expected(own).first().map(|&p| oracle.explain(p)).unwrap_or_default();
        return Some(format!("a `{own}` position in a `{category}` folder: {why}"));
    }
    oracle.expected(category).is_empty().then(|| format!("no move answers `{category}` here"))
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
        } else if self.expected.contains(&point) {
            j.verdict = Some(Verdict::Pass);
            j.reason = why;
        } else {
            j.verdict = Some(Verdict::WrongMove);
            j.reason = format!(
                "{point} is legal, but the {} case expects {}: {why}",
                self.category,
                list_some(&self.expected)
            );
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

/// One of the graders' bots, run inside arbiter.
struct PenteBuiltin {
    name: String,
    rules: Rules,
}

impl BuiltinBot for PenteBuiltin {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let position = read(input, origin)?;
        let bot = bots::by_name(&self.name).ok_or_else(|| format!("no Pente bot `{}`", self.name))?;
        let point = bot
            .choose(&position, &self.rules, seed)
            .ok_or_else(|| "no legal move: the game is over".to_string())?;
        Ok(format!("{point}\n").into_bytes())
    }
}

/// A Pente game in progress, with each player's clock.
struct PenteGame {
    position: Position,
    rules: Rules,
    /// Seconds left for White and Black.
    seconds: [f64; 2],
    /// Seconds each side started with, which records show on their boards' time line.
    start: f64,
}

/// The time line of the input.txt a bot is given: seconds left with two decimals, rounded
/// down (never more than is left), and at least 0.01 (the assignment's time is always above
/// zero).
pub fn clock_line(seconds: f64) -> String {
    format!("{:.2}", ((seconds * 100.0).floor().max(1.0)) / 100.0)
}

/// Seconds as game details give them: to the hundredth.
fn seconds_text(seconds: f64) -> String {
    format!("{:.2} s", seconds)
}

impl GameState for PenteGame {
    fn to_move(&self) -> Side {
        side_of(self.position.to_move)
    }

    fn board_file(&self) -> Vec<u8> {
        let text = self.position.to_input_text();
        let (side, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let rest = rest.split_once('\n').map_or("", |(_, rest)| rest);
        let clock = clock_line(self.seconds[self.position.to_move.index()]);
        format!("{side}\n{clock}\n{rest}").into_bytes()
    }

    fn record_file(&self) -> Vec<u8> {
        let mut position = self.position.clone();
        position.seconds_left = self.start;
        position.to_input_text().into_bytes()
    }

    fn has_legal_move(&self) -> bool {
        !super::legal_moves(&self.position, &self.rules).is_empty()
    }

    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let point = parse_move(output, "output.txt", Strictness::Lenient).map_err(|e| {
            Box::new(Judgement {
                verdict: Some(Verdict::MalformedOutput),
                location: Some((e.line, e.column)),
                reason: format!("the output is not a point like `9N`: {e}"),
                ..Judgement::default()
            })
        })?;
        self.play_notation(&point.to_string()).map_err(|why| {
            Box::new(Judgement {
                verdict: Some(Verdict::IllegalMove),
                played: Some(point.to_string()),
                reason: why,
                ..Judgement::default()
            })
        })?;
        Ok(point.to_string())
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), String> {
        let point: Point = notation.trim().parse()?;
        if !is_legal(&self.position, &self.rules, point) {
            let oracle = Oracle::new(&self.position, &self.rules);
            return Err(oracle.explain(point));
        }
        self.position = play(&self.position, point);
        Ok(())
    }

    fn material(&self) -> [i32; 2] {
        [Color::White, Color::Black].map(|c| self.position.captured_by(c) as i32)
    }

    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        match status(&self.position) {
            Status::Ongoing => None,
            Status::Won(color, reason) => {
                let (name, detail) = match reason {
                    WinReason::FiveInARow => ("five", format!("{color} has five in a row")),
                    WinReason::Captures => ("captures", format!("{color} captured 10 stones")),
                };
                Some((Some(side_of(color)), name.to_string(), detail))
            }
            // "In case of a draw, the agent with more remaining play time wins."
            Status::Drawn => {
                let [white, black] = self.seconds;
                let clocks = format!("White has {} left, Black {}", seconds_text(white), seconds_text(black));
                let (winner, detail) = match white.partial_cmp(&black) {
                    Some(std::cmp::Ordering::Greater) => {
                        (Some(Side::White), format!("the board is full; {clocks}: White wins on time"))
                    }
                    Some(std::cmp::Ordering::Less) => {
                        (Some(Side::Black), format!("the board is full; {clocks}: Black wins on time"))
                    }
                    _ => (None, format!("the board is full; {clocks}: a draw")),
                };
                Some((winner, "full-board".to_string(), detail))
            }
        }
    }

    fn move_limit(&self) -> Option<usize> {
        None
    }

    fn clock(&self, side: Side) -> Option<f64> {
        Some(self.seconds[if side == Side::White { 0 } else { 1 }])
    }

    fn set_clock(&mut self, seconds: f64) {
        self.seconds = [seconds; 2];
        self.start = seconds;
    }

    fn set_clock_left(&mut self, side: Side, seconds: f64) {
        self.seconds[if side == Side::White { 0 } else { 1 }] = seconds;
    }

    fn spend(&mut self, side: Side, seconds: f64) -> bool {
        let i = if side == Side::White { 0 } else { 1 };
        // Kept to the microsecond (CPU time is measured in them), so that records write the
        // clock exactly and short.
        self.seconds[i] = ((self.seconds[i] - seconds) * 1e6).round() / 1e6;
        self.seconds[i] > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full board without five in a row: rows of `wwbb`, each shifted by two from the last.
    fn full_board_game() -> PenteGame {
        let rows: String = (0..19)
            .map(|r| (0..19).map(|c| if (c + 2 * r) % 4 < 2 { 'w' } else { 'b' }).collect::<String>() + "\n")
            .collect();
        let board = Board::parse(rows.as_bytes(), "test", Strictness::Lenient).unwrap();
        let position = Position::new(Color::White, board);
        PenteGame { position, rules: Rules::default(), seconds: [GAME_SECONDS; 2], start: GAME_SECONDS }
    }

    #[test]
    fn a_full_board_goes_to_the_side_with_more_time_left() {
        let mut game = full_board_game();
        let (winner, name, detail) = game.ending().unwrap();
        assert_eq!((winner, name.as_str()), (None, "full-board"), "{detail}");
        assert!(detail.contains("White has 300.00 s left, Black 300.00 s: a draw"), "{detail}");
        assert!(game.spend(Side::White, 1.5));
        let (winner, name, detail) = game.ending().unwrap();
        assert_eq!((winner, name.as_str()), (Some(Side::Black), "full-board"));
        assert!(detail.contains("White has 298.50 s left, Black 300.00 s: Black wins on time"), "{detail}");
        game.set_clock_left(Side::Black, 10.0);
        assert_eq!(game.ending().unwrap().0, Some(Side::White));
    }

    #[test]
    fn the_board_file_gives_the_time_with_two_decimals() {
        let mut game = PenteReferee::default().new_game(None).unwrap();
        assert!(game.spend(Side::White, 0.116_636));
        assert_eq!(game.clock(Side::White), Some(299.883_364));
        let text = String::from_utf8(game.board_file()).unwrap();
        assert_eq!(text.lines().nth(1), Some("299.88"), "{text}");
        assert_eq!(clock_line(0.004), "0.01");
        assert_eq!(clock_line(300.0), "300.00");
        assert_eq!(clock_line(5.209), "5.20");
        // Records show the starting clock, whatever is left.
        assert_eq!(String::from_utf8(game.record_file()).unwrap().lines().nth(1), Some("300.0"));
        game.set_clock(3.0);
        assert_eq!(game.clock(Side::Black), Some(3.0));
        assert_eq!(String::from_utf8(game.record_file()).unwrap().lines().nth(1), Some("3.0"));
    }

    #[test]
    fn a_start_file_gives_the_starting_clock() {
        let mut position = Position::start();
        position.seconds_left = 3.0;
        let text = position.to_input_text();
        let game = PenteReferee::default().new_game(Some(("start.txt", text.as_bytes()))).unwrap();
        assert_eq!((game.clock(Side::White), game.clock(Side::Black)), (Some(3.0), Some(3.0)));
        assert_eq!(String::from_utf8(game.board_file()).unwrap().lines().nth(1), Some("3.00"));
    }
}
