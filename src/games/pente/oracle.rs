//! The right answers for a position: which moves are legal, which win at once, which stop the
//! opponent's win, which capture the most, and the category a position's expected answer falls
//! in. Every set is listed `1A` first; each answer comes with an explanation in words.

use super::color::Color;
use super::point::{Point, list, list_some};
use super::position::Position;
use super::rules::{
    CAPTURES_TO_WIN, Effect, OpeningMove, Rules, Status, WinReason, capture_count, effect, five_on_board,
    legal_moves, opening_move, play, status, wins_at,
};
use crate::harness::referee::Threats;

/// The legal moves of the player to move that win at once.
pub fn win_moves(pos: &Position, rules: &Rules) -> Vec<Point> {
    legal_moves(pos, rules).into_iter().filter(|&p| wins_at(pos, p)).collect()
}

/// The first legal move (from `1A`) that wins at once for the player to move, if any.
pub fn first_winning_move(pos: &Position, rules: &Rules) -> Option<Point> {
    if status(pos) != Status::Ongoing {
        return None;
    }
    let opening = opening_move(pos);
    pos.board.empty_points().find(|&p| rules.allows_on(opening, p) && wins_at(pos, p))
}

/// The same position with the other player to move: what the opponent could do "were it their
/// turn now".
pub fn with_turn_passed(pos: &Position) -> Position {
    Position { to_move: pos.to_move.opponent(), ..pos.clone() }
}

/// The opponent's threats: the moves that would win at once for the opponent were it their turn
/// now.
pub fn threats(pos: &Position, rules: &Rules) -> Vec<Point> {
    win_moves(&with_turn_passed(pos), rules)
}

/// The block set: `None` unless the player to move cannot win at once and the opponent
/// threatens to; then the legal moves after which the opponent has no winning move (empty when
/// nothing stops it: the game is lost).
///
/// Only a move that takes a threatened point or captures can block: any other move leaves the
/// opponent's stones, the opponent's count and every threatened point as they were, and adds
/// only a stone of the mover's, which can give the opponent more to capture but never less. So
/// only those moves are tried; [`block_moves_brute_force`] tries them all, and a property test
/// checks that both agree.
pub fn block_moves(pos: &Position, rules: &Rules) -> Option<Vec<Point>> {
    let legal = legal_moves(pos, rules);
    let can_win = legal.iter().any(|&p| wins_at(pos, p));
    Threats::find(can_win, || threats(pos, rules), |threats| blocks_among(pos, rules, &legal, threats)).block
}

/// The moves of `legal` after which the opponent, whose winning moves are now `threats`, has
/// none. Only moves that take a threatened point or capture are tried (see [`block_moves`]).
fn blocks_among(pos: &Position, rules: &Rules, legal: &[Point], threats: &[Point]) -> Vec<Point> {
    let may_block = |m: Point| threats.contains(&m) || capture_count(&pos.board, m, pos.to_move) > 0;
    legal
        .iter()
        .copied()
        .filter(|&m| may_block(m) && first_winning_move(&play(pos, m), rules).is_none())
        .collect()
}

/// [`block_moves`] by its definition alone: every legal move is played and the opponent's
/// replies are all tried. Slow; for tests.
pub fn block_moves_brute_force(pos: &Position, rules: &Rules) -> Option<Vec<Point>> {
    let legal = legal_moves(pos, rules);
    let can_win = legal.iter().any(|&p| wins_at(pos, p));
    let stops_all = |&m: &Point| first_winning_move(&play(pos, m), rules).is_none();
    Threats::find(can_win, || threats(pos, rules), |_| legal.iter().copied().filter(stops_all).collect())
        .block
}

/// The legal moves that capture the most pairs, when at least one captures; else empty.
pub fn capture_moves(pos: &Position, rules: &Rules) -> Vec<Point> {
    let counted: Vec<(Point, usize)> =
        legal_moves(pos, rules).into_iter().map(|p| (p, capture_count(&pos.board, p, pos.to_move))).collect();
    let most = counted.iter().map(|&(_, n)| n).max().unwrap_or(0);
    if most == 0 {
        return Vec::new();
    }
    counted.into_iter().filter(|&(_, n)| n == most).map(|(p, _)| p).collect()
}

crate::named_enum! {
    /// What a position's expected answer is about; a position belongs to the first that applies,
    /// in this order.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Category {
        /// White's first or second move: any move the opening rule allows.
        Opening => "opening",
        /// A move wins at once: one of those.
        Win => "win",
        /// The opponent threatens to win at once: a move that stops every threat (any move, when
        /// none does).
        Block => "block",
        /// A move captures: one that captures the most pairs.
        Capture => "capture",
        /// None of the above: any legal move.
        Legal => "legal",
    }
}

/// Every set the oracle knows for one position, with what is needed to explain them.
#[derive(Clone, Debug)]
pub struct Oracle {
    /// The position looked at.
    pub position: Position,
    /// The rules applied.
    pub rules: Rules,
    /// Whether the game is already over.
    pub status: Status,
    /// Which of White's restricted opening moves is next, if any.
    pub opening: Option<OpeningMove>,
    /// Every legal move.
    pub legal: Vec<Point>,
    /// The legal moves that win at once.
    pub win: Vec<Point>,
    /// When `win` is empty: the opponent's threats and the block set.
    pub threats: Threats<Point>,
    /// The legal moves capturing the most pairs (empty when none captures).
    pub capture: Vec<Point>,
    /// How many pairs the moves of `capture` capture.
    pub most_pairs: usize,
}

impl Oracle {
    /// Works out every set for the player to move in `pos`.
    pub fn new(pos: &Position, rules: &Rules) -> Oracle {
        let legal = legal_moves(pos, rules);
        let win: Vec<Point> = legal.iter().copied().filter(|&p| wins_at(pos, p)).collect();
        let threats = Threats::find(
            !win.is_empty(),
            || threats(pos, rules),
            |threats| blocks_among(pos, rules, &legal, threats),
        );
        let capture = capture_moves(pos, rules);
        let most_pairs = capture.first().map_or(0, |&p| capture_count(&pos.board, p, pos.to_move));
        Oracle {
            position: pos.clone(),
            rules: *rules,
            status: status(pos),
            opening: opening_move(pos),
            legal,
            win,
            threats,
            capture,
            most_pairs,
        }
    }

    /// The category the expected answer belongs to: the first of opening, win, block, capture,
    /// legal that applies. `None` when there is no legal move (see [`Oracle::no_moves_reason`]).
    pub fn category(&self) -> Option<Category> {
        if self.legal.is_empty() {
            None
        } else if self.opening.is_some() {
            Some(Category::Opening)
        } else if !self.win.is_empty() {
            Some(Category::Win)
        } else if self.threats.applies() {
            Some(Category::Block)
        } else if !self.capture.is_empty() {
            Some(Category::Capture)
        } else {
            Some(Category::Legal)
        }
    }

    /// The set of right answers for `category`: the legal moves for `opening` and `legal`, the
    /// win set, the block set (every legal move when the game is lost), the capture set. Empty
    /// when the category does not apply.
    pub fn expected(&self, category: Category) -> Vec<Point> {
        match category {
            Category::Opening if self.opening.is_some() => self.legal.clone(),
            Category::Opening => Vec::new(),
            Category::Win => self.win.clone(),
            Category::Block => self.threats.answers(&self.legal),
            Category::Capture => self.capture.clone(),
            Category::Legal => self.legal.clone(),
        }
    }

    /// The category and its expected set, when there is a legal move.
    pub fn expected_answers(&self) -> Option<(Category, Vec<Point>)> {
        self.category().map(|c| (c, self.expected(c)))
    }

    /// Why there is no legal move, when there is none: the game is over, or (in a position
    /// that cannot come from a game) the opening rule allows no empty point.
    pub fn no_moves_reason(&self) -> Option<String> {
        if !self.legal.is_empty() {
            return None;
        }
        Some(match explain_status(&self.position) {
            Some(over) => format!("no legal moves: the game is over: {over}"),
            None => {
                let rule = self.rules.describe_opening(&self.position).unwrap_or_default();
                format!("no legal moves: {rule}, and no such point is empty")
            }
        })
    }

    /// Why `p` is or is not a right answer for the position's category, in one sentence or two.
    pub fn explain(&self, p: Point) -> String {
        let pos = &self.position;
        if !self.legal.contains(&p) {
            return match (self.no_moves_reason(), pos.board.get(p)) {
                (Some(reason), _) => reason,
                (None, Some(stone)) => {
                    format!("{p} is not a legal move: it holds a {} stone", stone_word(stone))
                }
                (None, None) => format!(
                    "{p} is not a legal move: {}",
                    self.rules.describe_opening(pos).unwrap_or_else(|| "it is not allowed".into())
                ),
            };
        }
        let Some(category) = self.category() else { unreachable!("p is legal") };
        let is_expected = self.expected(category).contains(&p);
        let what = describe_effect(pos, &effect(pos, p));
        match category {
            Category::Opening => {
                format!(
                    "{what}; {}, and {p} is such a point",
                    self.rules.describe_opening(pos).unwrap_or_default()
                )
            }
            Category::Win if is_expected => what,
            Category::Win => format!("{what}, but a move wins at once: {}", list_some(&self.win)),
            Category::Block => self.explain_block(p, &what),
            Category::Capture if is_expected => {
                format!("{what}: no move wins, none is needed to stop a win, and no move captures more")
            }
            Category::Capture => format!(
                "{what}, but {} capture {} pair{} ({})",
                if self.capture.len() == 1 { "this move would" } else { "these moves would" },
                self.most_pairs,
                if self.most_pairs == 1 { "" } else { "s" },
                list_some(&self.capture)
            ),
            Category::Legal => {
                format!("{what}; no move wins, blocks or captures, so every legal move is right")
            }
        }
    }

    fn explain_block(&self, p: Point, what: &str) -> String {
        let pos = &self.position;
        let opponent = pos.to_move.opponent();
        let passed = with_turn_passed(pos);
        let threats: Vec<String> =
            self.threats.moves.iter().map(|&q| describe_effect(&passed, &effect(&passed, q))).collect();
        let threatened = format!("{opponent} threatened: {}", threats.join("; "));
        let after = play(pos, p);
        match first_winning_move(&after, &self.rules) {
            None => format!("{what}; after it {opponent} has no winning move ({threatened})"),
            Some(q) => {
                let reply = describe_effect(&after, &effect(&after, q));
                if self.threats.lost() {
                    format!(
                        "{what}; the game is lost whatever is played: after it {opponent} wins with {reply}"
                    )
                } else {
                    format!(
                        "{what}; after it {opponent} still wins: {reply}. Moves that stop every threat: {}",
                        list_some(self.threats.blocks())
                    )
                }
            }
        }
    }
}

/// `White`'s stones are "white" stones.
fn stone_word(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A move's effect in words: "9N completes five: 9J 9K 9L 9M 9N", "9N captures 10N 11N",
/// "9N captures 10N 11N and 8M 7L, bringing White's captured pieces to 10",
/// "9N neither captures nor makes five".
pub fn describe_effect(pos: &Position, e: &Effect) -> String {
    let mover = pos.to_move;
    let mut parts = Vec::new();
    if let Some(row) = &e.five {
        let shape = if row.len() == 5 { "five".to_string() } else { format!("{} in a row", row.len()) };
        parts.push(format!("completes {shape}: {}", list(row)));
    }
    if !e.captures.is_empty() {
        let pairs: Vec<String> = e.captures.iter().map(|pair| list(pair)).collect();
        let mut text = format!("captures {}", pairs.join(" and "));
        if e.captured_after >= CAPTURES_TO_WIN {
            text.push_str(&format!(", bringing {mover}'s captured pieces to {}", e.captured_after));
        }
        parts.push(text);
    }
    if parts.is_empty() {
        parts.push("neither captures nor makes five".to_string());
    }
    format!("{} {}", e.point, parts.join(" and "))
}

/// Why the game is over in `pos`, or `None` when it goes on: "White has five in a row: 10F 10G
/// 10H 10J 10K", "Black has captured 10 pieces", "the board is full: the game is drawn".
pub fn explain_status(pos: &Position) -> Option<String> {
    match status(pos) {
        Status::Ongoing => None,
        Status::Won(color, WinReason::FiveInARow) => {
            let row = five_on_board(&pos.board, color).expect("status found a row");
            let shape = if row.len() == 5 { "five".to_string() } else { row.len().to_string() };
            Some(format!("{color} has {shape} in a row: {}", list(&row)))
        }
        Status::Won(color, WinReason::Captures) => {
            Some(format!("{color} has captured {} pieces", pos.captured_by(color)))
        }
        Status::Drawn => Some("the board is full: the game is drawn".to_string()),
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
    if oracle.threats.lost() {
        let mover = oracle.position.to_move;
        return Some(format!(
            "a lost position: {} threatens {} and no move of {mover}'s stops it, so every move would be \
             right",
            mover.opponent(),
            list_some(&oracle.threats.moves)
        ));
    }
    if own != category {
        let why = oracle.expected(own).first().map(|&p| oracle.explain(p)).unwrap_or_default();
        return Some(format!("a `{own}` position in a `{category}` folder: {why}"));
    }
    oracle.expected(category).is_empty().then(|| format!("no move answers `{category}` here"))
}
