//! Tic-tac-toe as an arbiter game: the sixth game, written outside the crate through the same
//! traits the five bundled games implement (docs/NEW_GAME.md walks through it).
//!
//! The board file is three lines of three cells, `X`, `O` or `.`, each line ending in `\n`.
//! X is white and moves first, so the side to move follows from the counts. A move is named by
//! its cell, column `a`..`c` and row `1`..`3` from the bottom (`b2` is the centre). A bot reads
//! the board and writes the board after its move.
//!
//! Two categories of cases: `legal` (any legal move) and `best` (a move that keeps the best
//! result perfect play can reach).

use arbiter::Side;
use arbiter::harness::analyst::{Analyst, ExpectRequest, MoveLine, PositionInput};
use arbiter::harness::perft::perft_divide;
use arbiter::harness::referee::{
    BuiltinBot, Builtins, CaseSpec, Cases, Drawing, Fuzzing, GameInfo, GameState, Games, Grid, GridStyle,
    Prepared, PreparedCase, Referee, RobustnessBoards, Stone, golden_expected, golden_text,
};
use arbiter::harness::verdict::{Judgement, Verdict};

/// The marking profile: half a point per case passed.
const PROFILE: &str = r#"{
  "name": "tictactoe",
  "description": "the example game's cases: legal moves, then best moves",
  "stages": [
    { "grade": "legal", "tests": 4, "per_pass": 0.5 },
    { "grade": "best", "tests": 4, "per_pass": 0.5 }
  ]
}"#;

/// The eight lines of three.
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A position: nine cells from the top left, row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board([Option<Side>; 9]);

impl Board {
    /// Reads a board file; the error names `origin`, the line and the column.
    pub fn parse(bytes: &[u8], origin: &str) -> Result<Board, (String, Option<(usize, usize)>)> {
        let text = std::str::from_utf8(bytes).map_err(|_| (format!("{origin}: not text"), None))?;
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() != 3 {
            return Err((format!("{origin}: {} lines, a board has 3", lines.len()), None));
        }
        let mut cells = [None; 9];
        for (row, line) in lines.iter().enumerate() {
            if line.chars().count() != 3 {
                let at = Some((row + 1, line.chars().count().min(3) + 1));
                return Err((format!("{origin}:{}: a row has 3 cells", row + 1), at));
            }
            for (column, c) in line.chars().enumerate() {
                cells[row * 3 + column] = match c {
                    'X' => Some(Side::White),
                    'O' => Some(Side::Black),
                    '.' => None,
                    other => {
                        let at = (row + 1, column + 1);
                        return Err((
                            format!("{origin}:{}:{}: `{other}` is not X, O or .", at.0, at.1),
                            Some(at),
                        ));
                    }
                };
            }
        }
        let board = Board(cells);
        let (x, o) = (board.count(Side::White), board.count(Side::Black));
        if x != o && x != o + 1 {
            return Err((format!("{origin}: {x} X and {o} O cannot come from play"), None));
        }
        Ok(board)
    }

    /// The board file.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for row in 0..3 {
            for column in 0..3 {
                out.push(match self.0[row * 3 + column] {
                    Some(Side::White) => 'X',
                    Some(Side::Black) => 'O',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }

    fn count(&self, side: Side) -> usize {
        self.0.iter().filter(|c| **c == Some(side)).count()
    }

    /// The side to move.
    pub fn to_move(self) -> Side {
        if self.count(Side::White) == self.count(Side::Black) { Side::White } else { Side::Black }
    }

    /// The side with three in a row, if any.
    pub fn winner(&self) -> Option<Side> {
        LINES.iter().find_map(|l| {
            (self.0[l[0]].is_some() && l.iter().all(|&i| self.0[i] == self.0[l[0]])).then_some(self.0[l[0]]?)
        })
    }

    /// The empty cells, unless the game is over.
    pub fn moves(&self) -> Vec<usize> {
        if self.winner().is_some() {
            return Vec::new();
        }
        (0..9).filter(|&i| self.0[i].is_none()).collect()
    }

    /// The board after the side to move marks `cell`.
    pub fn play(&self, cell: usize) -> Board {
        let mut next = *self;
        next.0[cell] = Some(self.to_move());
        next
    }

    /// The result for the side to move under perfect play: 1 win, 0 draw, -1 loss.
    pub fn value(&self) -> i32 {
        if self.winner().is_some() {
            return -1; // the side that just moved won
        }
        self.moves().iter().map(|&m| -self.play(m).value()).max().unwrap_or(0)
    }

    /// The moves that keep the best result.
    pub fn best_moves(&self) -> Vec<usize> {
        let best = self.value();
        self.moves().into_iter().filter(|&m| -self.play(m).value() == best).collect()
    }

    /// The one move that turns this board into `after`, if there is one.
    pub fn move_to(&self, after: &Board) -> Option<usize> {
        let changed: Vec<usize> = (0..9).filter(|&i| self.0[i] != after.0[i]).collect();
        match changed.as_slice() {
            [cell] if self.moves().contains(cell) && after.0[*cell] == Some(self.to_move()) => Some(*cell),
            _ => None,
        }
    }
}

/// A cell's name: `a3` is the top left, `c1` the bottom right.
pub fn notation(cell: usize) -> String {
    format!("{}{}", (b'a' + (cell % 3) as u8) as char, 3 - cell / 3)
}

/// The cell a name names.
pub fn cell(notation: &str) -> Option<usize> {
    let b = notation.as_bytes();
    match b {
        [c @ b'a'..=b'c', r @ b'1'..=b'3'] => Some((b'3' - r) as usize * 3 + (c - b'a') as usize),
        _ => None,
    }
}

fn read(input: &PositionInput) -> anyhow::Result<Board> {
    Board::parse(input.bytes, input.origin).map_err(|(e, _)| anyhow::anyhow!(e))
}

/// The game, as the harness sees it.
#[derive(Default)]
pub struct TicTacToe;

impl Referee for TicTacToe {
    fn info(&self) -> &'static GameInfo {
        GameInfo::of(include_str!("game.toml"))
    }
    fn analyst(&self) -> &dyn Analyst {
        self
    }
    fn marking_profiles(&self) -> Vec<&'static str> {
        vec![PROFILE]
    }
    arbiter::concerns!(cases, builtins, fuzzing, games, drawing);
}

/// A case ready to judge: its board, category and expected moves.
struct Case {
    board: Board,
    category: String,
    expected: Vec<usize>,
    golden_used: bool,
}

impl Cases for TicTacToe {
    fn check_args(&self, case: &CaseSpec) -> String {
        format!("--category {}", case.category)
    }

    fn prepare(&self, case: &CaseSpec, input: &[u8], golden: Option<&[u8]>) -> Prepared {
        let board = Board::parse(input, &case.origin()).map_err(|(e, _)| e)?;
        if board.to_move() != case.side {
            return Err(format!("{}: {} is not to move", case.name, case.side));
        }
        let from_golden = golden
            .and_then(golden_expected)
            .map(|answers| answers.iter().filter_map(|m| cell(m)).collect::<Vec<usize>>());
        let golden_used = from_golden.is_some();
        let expected = from_golden.unwrap_or_else(|| expected(&board, &case.category));
        Ok(Box::new(Case { board, category: case.category.clone(), expected, golden_used }))
    }

    fn golden(&self, case: &CaseSpec, input: &[u8]) -> Result<String, String> {
        let board = Board::parse(input, &case.origin()).map_err(|(e, _)| e)?;
        let moves: Vec<String> = expected(&board, &case.category).into_iter().map(notation).collect();
        let json = serde_json::json!({ "category": case.category, "expected": moves });
        Ok(golden_text(&json))
    }

    fn robustness_boards(&self) -> Option<RobustnessBoards> {
        Some(RobustnessBoards {
            valid: (b"X..\n.O.\n...\n".to_vec(), Side::White),
            invalid_chars: b"X.Q\n...\n...\n".to_vec(),
            wrong_size: b"X.\n...\n".to_vec(),
            no_moves: (b"XXX\nOO.\n...\n".to_vec(), Side::Black),
        })
    }
}

/// The moves a category expects.
fn expected(board: &Board, category: &str) -> Vec<usize> {
    if category == "best" { board.best_moves() } else { board.moves() }
}

/// What the bot to move on `before` wrote, judged: the move it played or why it is no move.
fn judge_output(before: &Board, output: &[u8], origin: &str) -> Result<usize, Box<Judgement>> {
    let after = Board::parse(output, origin).map_err(|(reason, location)| {
        Box::new(Judgement {
            verdict: Some(Verdict::MalformedOutput),
            reason,
            location,
            ..Judgement::default()
        })
    })?;
    if after == *before {
        return Err(Box::new(Judgement {
            verdict: Some(Verdict::Unchanged),
            reason: "the board is unchanged".into(),
            ..Judgement::default()
        }));
    }
    before.move_to(&after).ok_or_else(|| {
        Box::new(Judgement {
            verdict: Some(Verdict::IllegalMove),
            reason: "no single legal move leads to this board".into(),
            ..Judgement::default()
        })
    })
}

impl PreparedCase for Case {
    fn judge(&self, output: &[u8], origin: &str, _strict: bool) -> Judgement {
        let expected = self.expected();
        let played = match judge_output(&self.board, output, origin) {
            Ok(played) => played,
            Err(judgement) => return Judgement { expected, ..*judgement },
        };
        let pass = self.expected.contains(&played);
        Judgement {
            verdict: Some(if pass { Verdict::Pass } else { Verdict::WrongMove }),
            played: Some(notation(played)),
            reason: if pass {
                format!("{} is a {} move", notation(played), self.category)
            } else {
                format!("{} is legal but not a {} move", notation(played), self.category)
            },
            expected,
            ..Judgement::default()
        }
    }
    fn golden_used(&self) -> bool {
        self.golden_used
    }
    fn expected(&self) -> Vec<String> {
        self.expected.iter().copied().map(notation).collect()
    }
    fn check_answer(&self, answer: &[u8]) -> Option<String> {
        match Board::parse(answer, "answer").ok().and_then(|a| self.board.move_to(&a)) {
            Some(m) if self.expected == [m] => None,
            _ => Some("the answer is not the single expected board".to_string()),
        }
    }
}

/// A built-in player.
#[derive(Clone, Copy)]
pub enum Player {
    /// A random legal move.
    Random,
    /// The first empty cell: legal, seldom best.
    First,
    /// A best move, the first in cell order.
    Perfect,
}

impl Player {
    fn choose(self, board: &Board, seed: u64) -> Option<usize> {
        let moves = match self {
            Player::Perfect => board.best_moves(),
            _ => board.moves(),
        };
        match self {
            Player::Random if !moves.is_empty() => Some(moves[(mix(seed) % moves.len() as u64) as usize]),
            _ => moves.first().copied(),
        }
    }
}

/// A 64-bit mix of a seed (splitmix64's finaliser).
fn mix(seed: u64) -> u64 {
    let mut h = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

impl BuiltinBot for Player {
    fn name(&self) -> String {
        match self {
            Player::Random => "random",
            Player::First => "first",
            Player::Perfect => "perfect",
        }
        .to_string()
    }
    fn play(&self, input: &[u8], origin: &str, _side: Side, seed: u64) -> Result<Vec<u8>, String> {
        let board = Board::parse(input, origin).map_err(|(e, _)| e)?;
        let cell = self.choose(&board, seed).ok_or_else(|| format!("{origin}: no legal move"))?;
        Ok(board.play(cell).text().into_bytes())
    }
}

impl Builtins for TicTacToe {
    fn builtin(&self, name: &str) -> Option<Box<dyn BuiltinBot>> {
        let player = match name {
            "random" => Player::Random,
            "first" => Player::First,
            "perfect" => Player::Perfect,
            _ => return None,
        };
        Some(Box::new(player))
    }
    fn builtin_names(&self) -> Vec<&'static str> {
        vec!["random", "first", "perfect"]
    }
}

impl Fuzzing for TicTacToe {
    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        // Random moves from the empty board, stopping at a drawn length while moves remain.
        let mut board = Board([None; 9]);
        let length = mix(seed) % 8;
        for ply in 0..length {
            let moves = board.moves();
            let next = board.play(moves[(mix(seed ^ (ply + 1)) % moves.len() as u64) as usize]);
            if next.moves().is_empty() {
                break;
            }
            board = next;
        }
        (board.text().into_bytes(), board.to_move())
    }
    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        // One mark of the side that moved last taken away keeps the counts possible.
        let Ok(board) = Board::parse(input, "shrink") else { return Vec::new() };
        let last = board.to_move().opponent();
        (0..9)
            .filter(|&i| board.0[i] == Some(last))
            .map(|i| {
                let mut smaller = board;
                smaller.0[i] = None;
                smaller
            })
            .filter(|b| !b.moves().is_empty())
            .map(|b| b.text().into_bytes())
            .collect()
    }
    fn size(&self, input: &[u8]) -> usize {
        input.iter().filter(|&&c| c == b'X' || c == b'O').count()
    }
    fn size_unit(&self) -> &'static str {
        "marks"
    }
    fn side_of(&self, input: &[u8]) -> Option<Side> {
        Board::parse(input, "fuzz").ok().map(|b| b.to_move())
    }
}

/// A game in progress.
struct Game(Board);

impl Games for TicTacToe {
    fn new_game(&self, start: Option<(&str, &[u8])>) -> Result<Box<dyn GameState>, String> {
        let board = match start {
            Some((origin, bytes)) => Board::parse(bytes, origin).map_err(|(e, _)| e)?,
            None => Board([None; 9]),
        };
        Ok(Box::new(Game(board)))
    }
}

impl GameState for Game {
    fn to_move(&self) -> Side {
        self.0.to_move()
    }
    fn board_file(&self) -> Vec<u8> {
        self.0.text().into_bytes()
    }
    fn has_legal_move(&self) -> bool {
        !self.0.moves().is_empty()
    }
    fn play_output(&mut self, output: &[u8]) -> Result<String, Box<Judgement>> {
        let played = judge_output(&self.0, output, "output")?;
        self.0 = self.0.play(played);
        Ok(notation(played))
    }
    fn play_notation(&mut self, mv: &str) -> Result<(), String> {
        match cell(mv).filter(|c| self.0.moves().contains(c)) {
            Some(c) => {
                self.0 = self.0.play(c);
                Ok(())
            }
            None => Err(format!("{mv} is not a legal move")),
        }
    }
    fn material(&self) -> [i32; 2] {
        [0, 0]
    }
    fn ending(&self) -> Option<(Option<Side>, String, String)> {
        if let Some(winner) = self.0.winner() {
            return Some((Some(winner), "three".into(), format!("{winner} has three in a row")));
        }
        self.0.moves().is_empty().then(|| (None, "full-board".into(), "the board is full".into()))
    }
    fn move_limit(&self) -> Option<usize> {
        None
    }
}

impl Drawing for TicTacToe {
    fn grid(&self, board: &[u8], _side: Option<Side>) -> Result<Grid, String> {
        let board = Board::parse(board, "board").map_err(|(e, _)| e)?;
        let cells = board
            .0
            .iter()
            .map(|c| {
                c.map(|side| Stone {
                    side: Some(side),
                    glyph: if side == Side::White { "X" } else { "O" }.to_string(),
                    title: format!("{side}"),
                })
            })
            .collect();
        Ok(Grid {
            columns: ["a", "b", "c"].map(String::from).to_vec(),
            rows: ["3", "2", "1"].map(String::from).to_vec(),
            cells,
            style: GridStyle::Squares,
            caption: format!("{} to move", board.to_move()),
        })
    }
}

impl Analyst for TicTacToe {
    fn side_to_move(&self, position: &PositionInput) -> anyhow::Result<Side> {
        let side = read(position)?.to_move();
        match position.side {
            Some(given) if given != side => {
                anyhow::bail!("{}: {side} is to move, not {given}", position.origin)
            }
            _ => Ok(side),
        }
    }
    fn moves(&self, position: &PositionInput) -> anyhow::Result<(Side, Vec<MoveLine>)> {
        let board = read(position)?;
        let lines = board
            .moves()
            .into_iter()
            .map(|m| MoveLine { notation: notation(m), board: board.play(m).text() });
        Ok((board.to_move(), lines.collect()))
    }
    fn apply(&self, position: &PositionInput, mv: &str) -> anyhow::Result<Result<String, String>> {
        let board = read(position)?;
        Ok(match cell(mv).filter(|c| board.moves().contains(c)) {
            Some(c) => Ok(board.play(c).text()),
            None => Err(format!("{mv} is not a legal move")),
        })
    }
    fn max_perft_depth(&self) -> u32 {
        9
    }
    fn perft_divide(&self, position: &PositionInput, depth: u32) -> anyhow::Result<Vec<(String, u64)>> {
        let divided = perft_divide(&read(position)?, depth, &Board::moves, &Board::play);
        Ok(divided.into_iter().map(|(m, n)| (notation(m), n)).collect())
    }
    fn show(&self, position: &PositionInput) -> anyhow::Result<String> {
        let board = read(position)?;
        Ok(format!("{}{} to move\n", board.text(), board.to_move()))
    }
    fn expect(&self, position: &PositionInput, request: &ExpectRequest) -> anyhow::Result<String> {
        let board = read(position)?;
        let mut out = String::new();
        for category in
            self.categories().iter().filter(|c| request.category.as_deref().is_none_or(|r| r == **c))
        {
            let moves: Vec<String> = expected(&board, category).into_iter().map(notation).collect();
            out.push_str(&format!("{category}: {}\n", moves.join(" ")));
        }
        Ok(out)
    }
}
