//! Random games and grading cases, seeded and reproducible.
//!
//! A case is a position reached by a random game (its moves are kept, so a player driven by
//! calls can be set up by replaying them), and what a player must do there:
//! - `accept`: a legal move, which `forceMove`/`opponentMove` must accept;
//! - `reject/<rule>`: a move that breaks that rule ([`Illegal`]), which they must refuse;
//! - `legal`: nobody can win or threatens to, so any legal move is right;
//! - `win`: a move wins at once; the right answers are the win set;
//! - `block`: no move wins, the opponent threatens to, and some move stops it; the right
//!   answers are the block set.
//!
//! Every expected set comes from the [`Oracle`].

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::moves::Move;
use super::oracle::{Category, Oracle, explain_illegal};
use super::position::{CHIPS_PER_PLAYER, Position};
use super::rules::{Illegal, Rules, Status, check, legal_moves, play, status};
use super::square::Square;

/// A game: the moves played from the start, White's first, and the position they lead to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The moves in order.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: Position,
}

impl Game {
    /// The empty game: the start position.
    pub fn start() -> Game {
        Game { moves: Vec::new(), position: Position::start() }
    }

    /// The game with `mv` played (legality is the caller's business).
    pub fn push(&mut self, mv: Move) {
        self.position = play(&self.position, mv);
        self.moves.push(mv);
    }
}

/// The game after up to `plies` moves, each uniformly random among the legal moves that do not
/// end the game. Stops early when every legal move would end it, so the game is never over.
/// The first 20 plies are adds; from the 21st on, steps.
pub fn random_game<R: Rng + ?Sized>(rng: &mut R, rules: &Rules, plies: usize) -> Game {
    let mut game = Game::start();
    for _ in 0..plies {
        let moves: Vec<Move> = legal_moves(&game.position, rules)
            .into_iter()
            .filter(|&m| status(&play(&game.position, m), rules) == Status::Ongoing)
            .collect();
        let Some(&mv) = moves.choose(rng) else { break };
        game.push(mv);
    }
    game
}

/// Every game along a random game of up to `plies` moves: the start, then after each move. The
/// last one may be over when `finish` is set (a game-ending move is then played whenever one
/// comes up at random); otherwise no game is over.
pub fn random_walk<R: Rng + ?Sized>(rng: &mut R, rules: &Rules, plies: usize, finish: bool) -> Vec<Game> {
    let mut game = Game::start();
    let mut out = vec![game.clone()];
    for _ in 0..plies {
        let legal = legal_moves(&game.position, rules);
        let moves: Vec<Move> = if finish {
            legal
        } else {
            legal
                .into_iter()
                .filter(|&m| status(&play(&game.position, m), rules) == Status::Ongoing)
                .collect()
        };
        let Some(&mv) = moves.choose(rng) else { break };
        game.push(mv);
        out.push(game.clone());
        if status(&game.position, rules) != Status::Ongoing {
            break;
        }
    }
    out
}

/// What a case asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CaseKind {
    /// A legal move to accept.
    Accept,
    /// A move breaking this rule, to refuse.
    Reject(Illegal),
    /// Any legal move is right.
    Legal,
    /// A winning move is expected.
    Win,
    /// A blocking move is expected.
    Block,
}

impl CaseKind {
    /// The kinds the generator can make: accept, a reject per rule (all but `quit`, which is no
    /// rule, and `lift-double`, which only `lift=no-double` has), legal, win, block.
    pub fn all(rules: &Rules) -> Vec<CaseKind> {
        let mut out = vec![CaseKind::Accept];
        out.extend(
            Illegal::ALL
                .into_iter()
                .filter(|&k| {
                    k != Illegal::Quit
                        && (k != Illegal::LiftDouble || rules.lift == super::rules::Lift::NoDouble)
                })
                .map(CaseKind::Reject),
        );
        out.extend([CaseKind::Legal, CaseKind::Win, CaseKind::Block]);
        out
    }

    /// The kind's folder name: `accept`, `reject/cluster`, `legal`, `win`, `block`.
    pub fn name(self) -> String {
        match self {
            CaseKind::Accept => "accept".to_string(),
            CaseKind::Reject(k) => format!("reject/{}", k.name()),
            CaseKind::Legal => "legal".to_string(),
            CaseKind::Win => "win".to_string(),
            CaseKind::Block => "block".to_string(),
        }
    }

    /// The kind called `name` (as [`CaseKind::name`] writes it).
    pub fn from_name(name: &str) -> Option<CaseKind> {
        match name {
            "accept" => Some(CaseKind::Accept),
            "legal" => Some(CaseKind::Legal),
            "win" => Some(CaseKind::Win),
            "block" => Some(CaseKind::Block),
            _ => name.strip_prefix("reject/").and_then(Illegal::from_name).map(CaseKind::Reject),
        }
    }
}

/// One grading case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// What is asked.
    pub kind: CaseKind,
    /// The seed it was made from.
    pub seed: u64,
    /// The game leading to the position.
    pub game: Game,
    /// For `accept` and `reject`: the move offered to the player.
    pub probe: Option<Move>,
    /// The right answers: the probe for `accept`; nothing for `reject`; the legal, win or block
    /// set for the others.
    pub expected: Vec<Move>,
    /// Why, in words.
    pub explanation: String,
}

/// How many random games a case may try before the generator gives up.
pub const ATTEMPTS: usize = 200;

/// The longest game the generator plays: all 20 adds and 60 steps.
pub const MAX_PLIES: usize = 2 * CHIPS_PER_PLAYER as usize + 60;

/// Every move a player could be offered in `pos`: an add to each square and a step between each
/// two squares (64 + 64 * 64), legal or not.
fn every_move() -> impl Iterator<Item = Move> {
    let adds = Square::all().map(|to| Move::Add { to });
    let steps = Square::all().flat_map(|from| Square::all().map(move |to| Move::Step { to, from }));
    adds.chain(steps)
}

/// A case of `kind` made from `seed`, or `None` when [`ATTEMPTS`] random games found none (rare
/// kinds under some rules, such as `lift-double`).
pub fn generate_case(kind: CaseKind, rules: &Rules, seed: u64) -> Option<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..ATTEMPTS {
        let plies = rng.gen_range(0..=MAX_PLIES);
        let finish = kind == CaseKind::Reject(Illegal::GameOver);
        let walk = random_walk(&mut rng, rules, plies, finish);
        if let Some(case) = pick(kind, rules, seed, &walk, &mut rng) {
            return Some(case);
        }
    }
    None
}

/// A case of `kind` from the games of `walk`, if one qualifies.
fn pick(kind: CaseKind, rules: &Rules, seed: u64, walk: &[Game], rng: &mut ChaCha8Rng) -> Option<Case> {
    let case = |game: &Game, probe: Option<Move>, expected: Vec<Move>, explanation: String| Case {
        kind,
        seed,
        game: game.clone(),
        probe,
        expected,
        explanation,
    };
    match kind {
        CaseKind::Accept | CaseKind::Reject(_) => {
            let game = walk.last()?;
            let pos = &game.position;
            if kind == CaseKind::Reject(Illegal::GameOver) && status(pos, rules) == Status::Ongoing {
                return None;
            }
            let wanted = match kind {
                CaseKind::Reject(k) => Err(k),
                _ => Ok(()),
            };
            let probes: Vec<Move> = every_move().filter(|&m| check(pos, rules, m) == wanted).collect();
            let &probe = probes.choose(rng)?;
            Some(match wanted {
                Ok(()) => {
                    let what = super::oracle::describe_outcome(pos, rules, probe);
                    case(game, Some(probe), vec![probe], format!("{probe} is legal; {what}"))
                }
                Err(k) => case(game, Some(probe), Vec::new(), explain_illegal(pos, rules, probe, k)),
            })
        }
        CaseKind::Legal | CaseKind::Win | CaseKind::Block => {
            let wanted = match kind {
                CaseKind::Win => Category::Win,
                CaseKind::Block => Category::Block,
                _ => Category::Legal,
            };
            // Later positions first for win and block (they are rarer early on); the last for
            // legal, so game lengths spread.
            let qualifying: Vec<(usize, Oracle)> = walk
                .iter()
                .enumerate()
                .rev()
                .take(if wanted == Category::Legal { 1 } else { walk.len() })
                .map(|(i, g)| (i, Oracle::new(&g.position, rules)))
                .filter(|(_, o)| o.category() == Some(wanted) && !o.threats.lost())
                .collect();
            let (i, oracle) = qualifying.choose(rng)?;
            let expected = oracle.expected(wanted);
            let explanation = expected.first().map(|&m| oracle.explain(m)).unwrap_or_default();
            Some(case(&walk[*i], None, expected, explanation))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::rules::Lift;

    #[test]
    fn every_kind_is_made_and_answers_as_the_oracle_does() {
        for rules in [Rules::default(), Rules { lift: Lift::NoDouble, ..Rules::default() }] {
            for kind in CaseKind::all(&rules) {
                if kind == CaseKind::Reject(Illegal::LiftDouble) {
                    continue; // Too rare in random games to insist on.
                }
                let case =
                    generate_case(kind, &rules, 1).unwrap_or_else(|| panic!("no {} case", kind.name()));
                assert_eq!(CaseKind::from_name(&kind.name()), Some(kind));
                let pos = &case.game.position;
                let oracle = Oracle::new(pos, &rules);
                match kind {
                    CaseKind::Accept => assert!(oracle.legal.contains(&case.probe.unwrap())),
                    CaseKind::Reject(k) => assert_eq!(check(pos, &rules, case.probe.unwrap()), Err(k)),
                    CaseKind::Legal => assert_eq!(case.expected, oracle.legal),
                    CaseKind::Win => assert_eq!(case.expected, oracle.win),
                    CaseKind::Block => {
                        assert_eq!(oracle.category(), Some(Category::Block));
                        assert_eq!(Some(case.expected.clone()), oracle.threats.block);
                        assert!(!case.expected.is_empty());
                    }
                }
                assert!(!case.explanation.is_empty());
            }
        }
    }

    #[test]
    fn random_games_are_reproducible_and_never_over() {
        let rules = Rules::default();
        let a = random_game(&mut ChaCha8Rng::seed_from_u64(9), &rules, 70);
        assert_eq!(a, random_game(&mut ChaCha8Rng::seed_from_u64(9), &rules, 70));
        assert_eq!(status(&a.position, &rules), Status::Ongoing);
        assert!(a.moves.iter().skip(20).all(|m| matches!(m, Move::Step { .. })));
        assert!(a.moves.iter().take(20).all(|m| matches!(m, Move::Add { .. })));
    }
}
