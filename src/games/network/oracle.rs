//! The right answers for a position: the legal moves, each side's network, the moves that win
//! at once, and the moves that stop the opponent winning on its next move; with explanations
//! in words. Every set is listed in notation order.

use super::color::Color;
use super::connection::find_network;
use super::moves::{Move, list};
use super::position::Position;
use super::rules::{Illegal, Rules, Status, WinReason, check, legal_moves, outcome, play, status};
use super::square::{self, Square};
use crate::harness::referee::Threats;

/// The legal moves of the player to move that win at once.
pub fn win_moves(pos: &Position, rules: &Rules) -> Vec<Move> {
    let mover = pos.to_move;
    legal_moves(pos, rules).into_iter().filter(|&m| winner_after(pos, rules, m) == Some(mover)).collect()
}

/// Who has won after `mv`, if anybody.
fn winner_after(pos: &Position, rules: &Rules, mv: Move) -> Option<Color> {
    match outcome(pos, rules, mv) {
        Status::Won { winner, .. } => Some(winner),
        Status::Ongoing => None,
    }
}

/// A legal move that wins at once for the player to move, if there is one. The moves of `hints`
/// are tried first (when legal), then every legal move in order: a caller that knows likely
/// winners saves the full scan.
pub fn first_winning_move(pos: &Position, rules: &Rules, hints: &[Move]) -> Option<Move> {
    if status(pos, rules) != Status::Ongoing {
        return None;
    }
    let mover = pos.to_move;
    // A network needs six chips: with five or fewer after its move, the mover cannot win.
    if pos.board.count(mover) + u32::from(pos.adds()) < super::connection::MIN_CHIPS as u32 {
        return None;
    }
    let wins = |m: Move| winner_after(pos, rules, m) == Some(mover);
    hints
        .iter()
        .copied()
        .find(|&m| check(pos, rules, m).is_ok() && wins(m))
        .or_else(|| super::rules::legal_moves_unchecked(pos, rules).into_iter().find(|&m| wins(m)))
}

/// The same position with the other player to move: what the opponent could do "were it their
/// turn now".
pub fn with_turn_passed(pos: &Position) -> Position {
    Position { to_move: pos.to_move.opponent(), ..*pos }
}

/// The opponent's threats: the moves that would win at once for the opponent were it its turn.
pub fn threats(pos: &Position, rules: &Rules) -> Vec<Move> {
    win_moves(&with_turn_passed(pos), rules)
}

/// The block set: `None` unless the player to move cannot win at once and the opponent
/// threatens to; then the legal moves after which the game goes on and the opponent has no
/// winning move (empty when no move does that: the game is lost).
pub fn block_moves(pos: &Position, rules: &Rules) -> Option<Vec<Move>> {
    let legal = legal_moves(pos, rules);
    let mover = pos.to_move;
    let can_win = legal.iter().any(|&m| winner_after(pos, rules, m) == Some(mover));
    Threats::find(can_win, || threats(pos, rules), |threats| blocks_among(pos, rules, &legal, threats)).block
}

/// The moves of `legal` after which the game goes on and the opponent has no winning move. The
/// opponent's current `threats` are tried first after each move: most moves leave one of them
/// standing, so only the true blocks cost a full scan of the opponent's replies.
fn blocks_among(pos: &Position, rules: &Rules, legal: &[Move], threats: &[Move]) -> Vec<Move> {
    legal
        .iter()
        .copied()
        .filter(|&m| {
            let after = play(pos, m);
            status(&after, rules) == Status::Ongoing && first_winning_move(&after, rules, threats).is_none()
        })
        .collect()
}

/// [`block_moves`] by its definition alone, with no shortcut: for tests.
pub fn block_moves_brute_force(pos: &Position, rules: &Rules) -> Option<Vec<Move>> {
    let legal = legal_moves(pos, rules);
    let mover = pos.to_move;
    let can_win = legal.iter().any(|&m| winner_after(pos, rules, m) == Some(mover));
    let opponent = mover.opponent();
    let stops_all = |&m: &Move| {
        let after = play(pos, m);
        status(&after, rules) == Status::Ongoing
            && legal_moves(&after, rules)
                .into_iter()
                .all(|r| winner_after(&after, rules, r) != Some(opponent))
    };
    Threats::find(can_win, || threats(pos, rules), |_| legal.iter().copied().filter(stops_all).collect())
        .block
}

crate::named_enum! {
    /// What a position's expected answer is about; a position belongs to the first that applies.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Category {
        /// A move wins at once: one of those ("If a winning move exists, chooseMove selects one").
        Win => "win",
        /// The opponent threatens to win on its next move: a move that stops it ("If you cannot win
        /// in this step, but can prevent your opponent from winning during its next move").
        Block => "block",
        /// Neither: any legal move ("chooseMove returns only legal moves").
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
    /// One network of each colour (indexed by [`Color::index`]), from its first goal area.
    pub networks: [Option<Vec<Square>>; 2],
    /// Every legal move.
    pub legal: Vec<Move>,
    /// The legal moves that win at once.
    pub win: Vec<Move>,
    /// The legal moves after which the opponent has won at once (a step that leaves it a
    /// network, or completes networks for both).
    pub losing: Vec<Move>,
    /// When `win` is empty (and a move is legal): the opponent's threats and the block set.
    pub threats: Threats<Move>,
}

impl Oracle {
    /// Works out every set for the player to move in `pos`.
    pub fn new(pos: &Position, rules: &Rules) -> Oracle {
        let legal = legal_moves(pos, rules);
        let mover = pos.to_move;
        let mut win = Vec::new();
        let mut losing = Vec::new();
        for &m in &legal {
            match winner_after(pos, rules, m) {
                Some(w) if w == mover => win.push(m),
                Some(_) => losing.push(m),
                None => {}
            }
        }
        // A player with no move has nothing to block with: no block set.
        let settled = !win.is_empty() || legal.is_empty();
        let threats = Threats::find(
            settled,
            || threats(pos, rules),
            |threats| blocks_among(pos, rules, &legal, threats),
        );
        let networks = [find_network(&pos.board, Color::Black), find_network(&pos.board, Color::White)];
        Oracle {
            position: *pos,
            rules: *rules,
            status: status(pos, rules),
            networks,
            legal,
            win,
            losing,
            threats,
        }
    }

    /// The category of the expected answer: the first of win, block, legal that applies; `None`
    /// when there is no legal move (the game is over, or the player is walled in).
    pub fn category(&self) -> Option<Category> {
        if self.legal.is_empty() {
            None
        } else if !self.win.is_empty() {
            Some(Category::Win)
        } else if self.threats.applies() {
            Some(Category::Block)
        } else {
            Some(Category::Legal)
        }
    }

    /// The right answers for `category`: the win set; the block set (every legal move when the
    /// game is lost); the legal moves. Empty when the category does not apply.
    pub fn expected(&self, category: Category) -> Vec<Move> {
        match category {
            Category::Win => self.win.clone(),
            Category::Block => self.threats.answers(&self.legal),
            Category::Legal => self.legal.clone(),
        }
    }

    /// One network of `color`, if it has one.
    pub fn network(&self, color: Color) -> Option<&[Square]> {
        self.networks[color.index()].as_deref()
    }

    /// Why there is no legal move, when there is none.
    pub fn no_moves_reason(&self) -> Option<String> {
        if !self.legal.is_empty() {
            return None;
        }
        Some(match explain_status(&self.position, &self.rules) {
            Some(over) => format!("no legal moves: the game is over: {over}"),
            None => {
                format!("no legal moves: every square {} could go to breaks a rule", self.position.to_move)
            }
        })
    }

    /// Why `mv` is or is not a right answer for the position, in a sentence or two.
    pub fn explain(&self, mv: Move) -> String {
        let pos = &self.position;
        if let Err(why) = check(pos, &self.rules, mv) {
            return explain_illegal(pos, &self.rules, mv, why);
        }
        let what = describe_outcome(pos, &self.rules, mv);
        let Some(category) = self.category() else { return what };
        let opponent = pos.to_move.opponent();
        match category {
            Category::Win if self.win.contains(&mv) => what,
            Category::Win => format!("{what}, but a move wins at once: {}", list(&self.win)),
            Category::Block => {
                let threatened = format!("{opponent} threatened to win with {}", list(&self.threats.moves));
                let after = play(pos, mv);
                if status(&after, &self.rules) != Status::Ongoing {
                    return format!("{what} ({threatened})");
                }
                match first_winning_move(&after, &self.rules, &self.threats.moves) {
                    None => format!("{what}; after it {opponent} has no winning move ({threatened})"),
                    Some(reply) => {
                        let reply_text = describe_outcome(&after, &self.rules, reply);
                        if self.threats.lost() {
                            format!("{what}; the game is lost whatever is played: after it {reply_text}")
                        } else {
                            format!(
                                "{what}; after it {reply_text}. Moves that stop every threat: {}",
                                list(self.threats.blocks())
                            )
                        }
                    }
                }
            }
            Category::Legal => {
                format!("{what}; no move wins and {opponent} threatens no win, so every legal move is right")
            }
        }
    }
}

/// Why the legal-looking `mv` breaks `why`, naming the rule and the squares.
pub fn explain_illegal(pos: &Position, rules: &Rules, mv: Move, why: Illegal) -> String {
    let mover = pos.to_move;
    let to = mv.to().map(|s| s.to_string()).unwrap_or_default();
    let reason = match why {
        Illegal::Quit => {
            return format!(
                "quit gives the game up: {} wins; it is not a move on the board",
                mover.opponent()
            );
        }
        Illegal::GameOver => {
            format!("the game is over: {}", explain_status(pos, rules).unwrap_or_default())
        }
        Illegal::MustStep => format!("{mover} has put all ten chips down, so only step moves remain"),
        Illegal::MustAdd => format!(
            "{mover} still has {} chips to add; step moves begin once all are down",
            pos.in_hand(mover)
        ),
        Illegal::StepInPlace => "a step must move its chip to a different square".to_string(),
        Illegal::StepFromEmpty => match mv {
            Move::Step { from, .. } => format!("{from} is empty: there is no chip to step"),
            _ => String::new(),
        },
        Illegal::StepFromOpponent => match mv {
            Move::Step { from, .. } => format!("{from} holds {}'s chip, not {mover}'s", mover.opponent()),
            _ => String::new(),
        },
        Illegal::Corner => format!("{to} is a dead corner"),
        Illegal::OpponentGoal => format!("{to} is in {}'s goal area", mover.opponent()),
        Illegal::Occupied => format!("{to} already holds a chip"),
        Illegal::LiftDouble => {
            "lifting the chip leaves both players a network (rule lift=no-double)".to_string()
        }
        Illegal::Cluster => {
            let mut board = pos.board;
            if let Move::Step { from, .. } = mv {
                board.set(from, None);
            }
            let near: Vec<Square> = mv
                .to()
                .map(|t| Square::in_bits(board.chips(mover) & super::lines::NEIGHBOURS[t.index()]).collect())
                .unwrap_or_default();
            format!("{mover}'s chip on {to} would join {} in a group of three or more", square::list(&near))
        }
    };
    format!("{mv} is not a legal move ({}): {reason}", why.name())
}

/// What the legal move `mv` does, in words: "add 34 completes a network for White: 04 ...",
/// "step 34 56 leaves Black a network: ...; White loses", "add 34: nobody has a network".
pub fn describe_outcome(pos: &Position, rules: &Rules, mv: Move) -> String {
    let after = play(pos, mv);
    let mover = pos.to_move;
    let net = |c: Color| find_network(&after.board, c).map(|n| square::list(&n)).unwrap_or_default();
    match status(&after, rules) {
        Status::Ongoing => format!("{mv}: nobody has a network after it"),
        Status::Won { winner, reason: WinReason::Network } => {
            format!("{mv} completes a network for {winner}: {}", net(winner))
        }
        Status::Won { winner, reason: WinReason::GaveNetwork } => {
            format!("{mv} leaves {winner} a network ({}): {mover} loses", net(winner))
        }
        Status::Won { winner, reason: WinReason::DoubleNetwork } => format!(
            "{mv} completes networks for both players (Black: {}; White: {}): {winner} wins",
            net(Color::Black),
            net(Color::White)
        ),
    }
}

/// Why the game is over in `pos`, or `None` when it goes on.
pub fn explain_status(pos: &Position, rules: &Rules) -> Option<String> {
    let net = |c: Color| find_network(&pos.board, c).map(|n| square::list(&n)).unwrap_or_default();
    match status(pos, rules) {
        Status::Ongoing => None,
        Status::Won { winner, reason: WinReason::Network } => {
            Some(format!("{winner} has a network: {}", net(winner)))
        }
        Status::Won { winner, reason: WinReason::GaveNetwork } => Some(format!(
            "{winner} has a network ({}), left by {}'s last move",
            net(winner),
            winner.opponent()
        )),
        Status::Won { winner, reason: WinReason::DoubleNetwork } => Some(format!(
            "both players have a network (Black: {}; White: {}), so {winner} wins",
            net(Color::Black),
            net(Color::White)
        )),
    }
}
