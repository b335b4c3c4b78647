//! The rules of Network, written to be read next to `docs/games/network/RULES.md`: which moves
//! are legal ([`check`], [`legal_moves`]), what a move does ([`play`]) and when the game is over
//! ([`status`]). Where the course's referee (the `Network.class` kit handed to students) reads
//! the text differently, its reading is a [`Rules`] option; the defaults follow the text, and
//! `engine=course` takes every reading of the referee at once ([`Rules::COURSE`]).

use std::fmt;

use crate::harness::rule_option;

use super::board::Board;
use super::color::Color;
use super::connection::has_network;
use super::moves::Move;
use super::position::{CHIPS_PER_PLAYER, Position};
use super::square::{Square, allowed_mask};

/// Who wins when one move completes networks for both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DoubleNetwork {
    /// The text: "If a player makes a move that results in both players completing a network,
    /// the other player wins."
    #[default]
    Opponent,
    /// The player who made the move wins (a reading of the text's "the other player" as the
    /// other of the two networks' owners; no referee is known to read it so).
    Mover,
    /// White wins, whoever moved: the course's referee looks for Black's network, then for
    /// White's, and the last one found names the winner.
    White,
}

/// What lifting the chip of a step move may do before it is put down again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lift {
    /// The text: only the board after the chip is put down counts ("if the network is still
    /// intact when the chip has been placed back on the board").
    #[default]
    Final,
    /// The course referee's reading: a step is illegal when the board with its chip lifted has
    /// a network for both players.
    NoDouble,
}

/// The choices the rules leave open; everything else is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    /// Who wins a double network.
    pub double: DoubleNetwork,
    /// Whether a step's lifted board is looked at.
    pub lift: Lift,
}

impl Rules {
    /// Every reading of the course's referee (`engine=course`): a double network is White's
    /// (`double=white`) and a step whose lifted board has both networks is illegal
    /// (`lift=no-double`). Its other behaviours are not rules of the game (RULES.md, "The
    /// course's referee").
    pub const COURSE: Rules = Rules { double: DoubleNetwork::White, lift: Lift::NoDouble };

    /// These rules with one option changed, given as `KEY=VALUE`: `double=opponent` (the text),
    /// `double=mover` or `double=white`; `lift=final` (the text) or `lift=no-double`;
    /// `engine=course` (every reading of the course's referee) or `engine=seed` (the text's
    /// rules). An error says what is accepted.
    pub fn with_option(self, option: &str) -> Result<Rules, String> {
        let (key, value) = rule_option::split(option, "engine=course, double=white or lift=no-double")?;
        match (key, value) {
            ("engine", "course") => Ok(Rules::COURSE),
            ("engine", "seed") => Ok(Rules::default()),
            ("engine", other) => Err(rule_option::bad_value(key, &["seed", "course"], other)),
            ("double", "opponent") => Ok(Rules { double: DoubleNetwork::Opponent, ..self }),
            ("double", "mover") => Ok(Rules { double: DoubleNetwork::Mover, ..self }),
            ("double", "white") => Ok(Rules { double: DoubleNetwork::White, ..self }),
            ("double", other) => Err(rule_option::bad_value(key, &["opponent", "mover", "white"], other)),
            ("lift", "final") => Ok(Rules { lift: Lift::Final, ..self }),
            ("lift", "no-double") => Ok(Rules { lift: Lift::NoDouble, ..self }),
            ("lift", other) => Err(rule_option::bad_value(key, &["final", "no-double"], other)),
            (other, _) => Err(rule_option::unknown_key("Network", &["engine", "double", "lift"], other)),
        }
    }

    /// The options that differ from the text, as `KEY=VALUE` words (empty for the text's rules).
    pub fn describe(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        match self.double {
            DoubleNetwork::Opponent => {}
            DoubleNetwork::Mover => out.push("double=mover"),
            DoubleNetwork::White => out.push("double=white"),
        }
        if self.lift == Lift::NoDouble {
            out.push("lift=no-double");
        }
        out
    }
}

/// Why a move is not legal: the first rule it breaks, in the order [`check`] tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Illegal {
    /// `quit` gives the game up; it is not a move on the board.
    Quit,
    /// Somebody already has a network: the game is over.
    GameOver,
    /// An add when the mover has put all ten chips down: only step moves remain.
    MustStep,
    /// A step while the mover still has chips to add.
    MustAdd,
    /// A step from a square to itself.
    StepInPlace,
    /// A step from an empty square.
    StepFromEmpty,
    /// A step from a square holding the opponent's chip.
    StepFromOpponent,
    /// To one of the four dead corners.
    Corner,
    /// To a square of the opponent's goal areas.
    OpponentGoal,
    /// To a square that holds a chip.
    Occupied,
    /// Under `lift=no-double`: lifting the step's chip leaves both players a network.
    LiftDouble,
    /// The chip would be in a group of three or more of its colour.
    Cluster,
}

impl Illegal {
    /// Every kind, in the order [`check`] tries them.
    pub const ALL: [Illegal; 12] = [
        Illegal::Quit,
        Illegal::GameOver,
        Illegal::MustStep,
        Illegal::MustAdd,
        Illegal::StepInPlace,
        Illegal::StepFromEmpty,
        Illegal::StepFromOpponent,
        Illegal::Corner,
        Illegal::OpponentGoal,
        Illegal::Occupied,
        Illegal::LiftDouble,
        Illegal::Cluster,
    ];

    /// A short name for the rule: `corner`, `opponent-goal`, `occupied`, `cluster`, ...
    pub fn name(self) -> &'static str {
        match self {
            Illegal::Quit => "quit",
            Illegal::GameOver => "game-over",
            Illegal::MustStep => "must-step",
            Illegal::MustAdd => "must-add",
            Illegal::StepInPlace => "step-in-place",
            Illegal::StepFromEmpty => "step-from-empty",
            Illegal::StepFromOpponent => "step-from-opponent",
            Illegal::Corner => "corner",
            Illegal::OpponentGoal => "opponent-goal",
            Illegal::Occupied => "occupied",
            Illegal::LiftDouble => "lift-double",
            Illegal::Cluster => "cluster",
        }
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<Illegal> {
        Illegal::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The assignment's sentence the rule rests on.
    pub fn seed_sentence(self) -> &'static str {
        match self {
            Illegal::Quit | Illegal::GameOver => {
                "Each player tries to complete a \"network\" joining its two goal areas."
            }
            Illegal::MustStep | Illegal::MustAdd => {
                "Each player has ten chips, and only add moves are permitted until those chips are exhausted."
            }
            Illegal::StepInPlace => {
                "A player is not permitted to decline to move a piece (nor to \"move from square ij to square ij\")."
            }
            Illegal::StepFromEmpty | Illegal::StepFromOpponent => {
                "In a step move, a player moves a chip to a different square, subject to the same restrictions."
            }
            Illegal::Corner => "No chip may be placed in any of the four corners.",
            Illegal::OpponentGoal => "No chip may be placed in a goal of the opposite color.",
            Illegal::Occupied => "No chip may be placed in a square that is already occupied.",
            Illegal::LiftDouble => "(rule option lift=no-double, the course referee's reading)",
            Illegal::Cluster => {
                "A player may not have more than two chips in a connected group, whether connected orthogonally or diagonally."
            }
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// The winner's move completed a network (and not one for the opponent).
    Network,
    /// The loser's step left the winner a network ("the player taking the step move loses").
    GaveNetwork,
    /// The last move completed networks for both players; [`DoubleNetwork`] says who wins.
    DoubleNetwork,
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Nobody has a network: the player to move moves.
    Ongoing,
    /// The game is over and `winner` has won.
    Won {
        /// Who won.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
}

/// Whether the game is over in `pos`, judged as after a move by the player not to move: a
/// network for that player alone wins for it; one for the player to move alone wins for the
/// player to move (the last move, a step, left it one); networks for both are decided by
/// [`Rules::double`].
pub fn status(pos: &Position, rules: &Rules) -> Status {
    let last = pos.to_move.opponent();
    match (has_network(&pos.board, last), has_network(&pos.board, pos.to_move)) {
        (false, false) => Status::Ongoing,
        (true, false) => Status::Won { winner: last, reason: WinReason::Network },
        (false, true) => Status::Won { winner: pos.to_move, reason: WinReason::GaveNetwork },
        (true, true) => Status::Won {
            winner: match rules.double {
                DoubleNetwork::Opponent => pos.to_move,
                DoubleNetwork::Mover => last,
                DoubleNetwork::White => Color::White,
            },
            reason: WinReason::DoubleNetwork,
        },
    }
}

/// The board with the chip on `from` lifted.
fn lifted(board: &Board, from: Square) -> Board {
    let mut b = *board;
    b.set(from, None);
    b
}

/// Whether the player to move may make `mv`, or the first rule it breaks, trying them in the
/// order of [`Illegal::ALL`]. For a step, the chip is lifted before its new square is judged:
/// the new square may touch the old one's neighbours without making a group through it.
pub fn check(pos: &Position, rules: &Rules, mv: Move) -> Result<(), Illegal> {
    let mover = pos.to_move;
    let (to, board) = match mv {
        Move::Quit => return Err(Illegal::Quit),
        _ if status(pos, rules) != Status::Ongoing => return Err(Illegal::GameOver),
        Move::Add { to } => {
            if !pos.adds() {
                return Err(Illegal::MustStep);
            }
            (to, pos.board)
        }
        Move::Step { to, from } => {
            if pos.adds() {
                return Err(Illegal::MustAdd);
            }
            if to == from {
                return Err(Illegal::StepInPlace);
            }
            match pos.board.get(from) {
                None => return Err(Illegal::StepFromEmpty),
                Some(c) if c != mover => return Err(Illegal::StepFromOpponent),
                Some(_) => {}
            }
            (to, lifted(&pos.board, from))
        }
    };
    if to.is_corner() {
        return Err(Illegal::Corner);
    }
    if allowed_mask(mover) & to.bit() == 0 {
        return Err(Illegal::OpponentGoal);
    }
    if board.get(to).is_some() {
        return Err(Illegal::Occupied);
    }
    if matches!(mv, Move::Step { .. }) && rules.lift == Lift::NoDouble && lift_leaves_double(&board) {
        return Err(Illegal::LiftDouble);
    }
    if board.would_cluster(mover, to) {
        return Err(Illegal::Cluster);
    }
    Ok(())
}

/// Whether `lifted` (a board with a step's chip in the air) has networks for both players.
fn lift_leaves_double(lifted: &Board) -> bool {
    Color::BOTH.into_iter().all(|c| has_network(lifted, c))
}

/// Whether the player to move may make `mv`.
pub fn is_legal(pos: &Position, rules: &Rules, mv: Move) -> bool {
    check(pos, rules, mv).is_ok()
}

/// Every legal move of the player to move, in listing order (adds by square; steps by new
/// square, then old square: the order of their notation). None once the game is over.
pub fn legal_moves(pos: &Position, rules: &Rules) -> Vec<Move> {
    if status(pos, rules) != Status::Ongoing {
        return Vec::new();
    }
    legal_moves_unchecked(pos, rules)
}

/// [`legal_moves`] without asking whether the game is over: for callers that know it is not.
pub fn legal_moves_unchecked(pos: &Position, rules: &Rules) -> Vec<Move> {
    let mover = pos.to_move;
    let targets = allowed_mask(mover) & !pos.board.occupied();
    if pos.adds() {
        return Square::in_bits(targets)
            .filter(|&to| !pos.board.would_cluster(mover, to))
            .map(|to| Move::Add { to })
            .collect();
    }
    let mut moves = Vec::new();
    for from in pos.board.squares(mover) {
        let board = lifted(&pos.board, from);
        if rules.lift == Lift::NoDouble && lift_leaves_double(&board) {
            continue;
        }
        moves.extend(
            Square::in_bits(targets)
                .filter(|&to| !board.would_cluster(mover, to))
                .map(|to| Move::Step { to, from }),
        );
    }
    moves.sort_unstable();
    moves
}

/// The position after the player to move makes `mv`, with the other player to move. Legality
/// is the caller's business ([`check`]); a `quit` leaves the position as it is.
pub fn play(pos: &Position, mv: Move) -> Position {
    let mut board = pos.board;
    match mv {
        Move::Add { to } => board.set(to, Some(pos.to_move)),
        Move::Step { to, from } => {
            board.set(from, None);
            board.set(to, Some(pos.to_move));
        }
        Move::Quit => return *pos,
    }
    Position { board, to_move: pos.to_move.opponent() }
}

/// Perft: the number of sequences of `depth` legal moves from `pos` (1 for depth 0), sequences
/// stopping where the game is over. For pinning the rules with numbers and cross-checking other
/// implementations.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    crate::harness::perft::perft(pos, depth, &|p: &Position| legal_moves(p, rules), &play)
}

/// What `mv` (legal) does: the game's status after it.
pub fn outcome(pos: &Position, rules: &Rules, mv: Move) -> Status {
    status(&play(pos, mv), rules)
}

/// Whether the legal move `mv` wins at once for the player making it.
pub fn wins(pos: &Position, rules: &Rules, mv: Move) -> bool {
    matches!(outcome(pos, rules, mv), Status::Won { winner, .. } if winner == pos.to_move)
}

/// The squares a player must add to or step to: every legal move's new square, for showing.
pub fn targets(moves: &[Move]) -> Vec<Square> {
    let mut out: Vec<Square> = moves.iter().filter_map(|m| m.to()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How many chips each player still holds, for messages: "White 3, Black 4 to add".
pub fn in_hand_words(pos: &Position) -> String {
    let (w, b) = (pos.in_hand(Color::White), pos.in_hand(Color::Black));
    if w == 0 && b == 0 {
        format!("all {} chips are down: step moves only", 2 * CHIPS_PER_PLAYER)
    } else {
        format!("chips to add: White {w}, Black {b}")
    }
}
