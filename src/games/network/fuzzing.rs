//! Network positions for `fuzz`: random games of random length, each a case file (the game's
//! moves and the position after them) asking for a legal move (a win or a block where there is
//! one); and the accept/reject questions, a legal or an illegal move of each kind offered to
//! `forceMove` (`offer/accept`, `offer/reject/cluster`, ...) or to `opponentMove` of a player of
//! the other side (`opponent/accept`, `opponent/reject/step-from-opponent`, ...), each in a
//! random game's position. Shrinking drops moves two at a time, one of each player (so the same
//! side is to move): the game cut short (the shortest first), or a pair anywhere in it, while the
//! rest is still a legal game and an offered move still breaks the same rule (or is still legal).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Move;
use super::case_file::{CaseFile, replay};
use super::generate::{CaseKind, Game, generate_case, random_game};
use super::oracle::Oracle;
use super::referee::NetworkReferee;
use super::rules::{Illegal, Status, check, status};
use crate::harness::referee::Fuzzing;
use crate::side::Side;

/// The longest random game a fuzzed position comes from: past all 20 add moves, into steps.
const MAX_PLIES: usize = 48;

/// Where an offered move goes: `forceMove` of the side to move, or `opponentMove` of the other.
const OFFER_PREFIXES: [(&str, bool); 2] = [("offer/", false), ("opponent/", true)];

/// The case file of `game`, asking for a legal move.
fn case_of(game: &Game) -> (Vec<u8>, Side) {
    let file = CaseFile { position: game.position, game: game.moves.clone(), offer: None, opponent: false };
    (file.render().into_bytes(), game.position.to_move.side())
}

impl NetworkReferee {
    /// The kinds of offer fuzzing makes: a legal move and a move breaking each rule (but the
    /// game being over, which no question of the assignment's is about: RULES.md, ambiguity 16).
    fn offer_kinds(&self) -> Vec<CaseKind> {
        CaseKind::all(&self.rules)
            .into_iter()
            .filter(|k| matches!(k, CaseKind::Accept | CaseKind::Reject(_)))
            .filter(|&k| k != CaseKind::Reject(Illegal::GameOver))
            .collect()
    }
}

impl Fuzzing for NetworkReferee {
    fn random_position(&self, seed: u64) -> (Vec<u8>, Side) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let plies = rng.gen_range(0..=MAX_PLIES);
        case_of(&random_game(&mut rng, &self.rules, plies))
    }

    fn edge_sources(&self) -> Vec<String> {
        OFFER_PREFIXES
            .iter()
            .flat_map(|(prefix, _)| {
                self.offer_kinds().into_iter().map(move |k| format!("{prefix}{}", k.name()))
            })
            .collect()
    }

    fn edge_position(&self, source: &str, seed: u64) -> Option<(Vec<u8>, Side)> {
        let (rest, opponent) = OFFER_PREFIXES
            .iter()
            .find_map(|&(prefix, opponent)| Some((source.strip_prefix(prefix)?, opponent)))?;
        let kind = CaseKind::from_name(rest).filter(|k| self.offer_kinds().contains(k))?;
        let case = generate_case(kind, &self.rules, seed)?;
        let file = CaseFile {
            position: case.game.position,
            game: case.game.moves.clone(),
            offer: case.probe,
            opponent,
        };
        Some((file.render().into_bytes(), file.position.to_move.side()))
    }

    fn shrink_steps(&self, input: &[u8], _side: Side) -> Vec<Vec<u8>> {
        let Ok(file) = CaseFile::parse(input, "fuzzed case", &self.rules) else { return Vec::new() };
        let rules = &self.rules;
        let wanted = file.offer.map(|offer| check(&file.position, rules, offer));
        // The case of a shorter game, if it is still a legal game that asks the same: the offer
        // breaking the same rule (or still legal), or a game not yet over.
        let case = |game: &[Move]| -> Option<Vec<u8>> {
            let position = replay(game, rules).ok()?;
            match file.offer {
                Some(offer) if Some(check(&position, rules, offer)) != wanted => return None,
                None if status(&position, rules) != Status::Ongoing => return None,
                _ => {}
            }
            let shorter =
                CaseFile { position, game: game.to_vec(), offer: file.offer, opponent: file.opponent };
            Some(shorter.render().into_bytes())
        };
        let moves = &file.game;
        let n = moves.len();
        let mut games: Vec<Vec<Move>> = Vec::new();
        // The game cut short (keeping the side to move), shortest first: the filter below keeps
        // only the lengths that still ask the same (a step offered needs the step phase).
        games.extend((n % 2..n).step_by(2).map(|k| moves[..k].to_vec()));
        // A move of each player dropped: neighbours first (a move and the reply to it), from
        // the end, then any two.
        for k in (0..n.saturating_sub(1)).rev() {
            games.push(
                moves.iter().enumerate().filter(|&(i, _)| i != k && i != k + 1).map(|(_, &m)| m).collect(),
            );
        }
        for a in (0..n).step_by(2) {
            for b in (1..n).step_by(2) {
                if a.abs_diff(b) > 1 {
                    games.push(
                        moves
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != a && i != b)
                            .map(|(_, &m)| m)
                            .collect(),
                    );
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        games.into_iter().filter(|g| seen.insert(g.clone())).filter_map(|g| case(&g)).collect()
    }

    fn size(&self, input: &[u8]) -> usize {
        CaseFile::parse(input, "fuzzed case", &self.rules).map_or(0, |f| f.game.len())
    }

    fn size_unit(&self) -> &'static str {
        "moves"
    }

    fn auto_category(&self, input: &[u8], _side: Side) -> Option<String> {
        let file = CaseFile::parse(input, "fuzzed case", &self.rules).ok()?;
        // An offered move is to be accepted or refused as the rules say.
        if let Some(offer) = file.offer {
            let legal = check(&file.position, &self.rules, offer).is_ok();
            return Some(if legal { "accept" } else { "reject" }.to_string());
        }
        // A position where a move wins, or where the opponent threatens to, asks for that move.
        Oracle::new(&file.position, &self.rules).category().map(|c| c.name().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::network::Rules;

    #[test]
    fn fuzzed_positions_are_reproducible_and_shrink_to_shorter_games_with_the_same_side_to_move() {
        let referee = NetworkReferee::new(Rules::default());
        for seed in 0..20 {
            let (a, side) = referee.random_position(seed);
            assert_eq!((a.clone(), side), referee.random_position(seed));
            let size = referee.size(&a);
            for smaller in referee.shrink_steps(&a, side) {
                let file = CaseFile::parse(&smaller, "shrunk", &Rules::default()).unwrap();
                assert!(file.game.len() < size);
                assert_eq!(file.position.to_move.side(), side);
            }
        }
    }

    #[test]
    fn every_offer_source_offers_a_move_of_its_kind_and_shrinks_keeping_it() {
        let rules = Rules::default();
        let referee = NetworkReferee::new(rules);
        let sources = referee.edge_sources();
        assert!(sources.contains(&"offer/reject/step-from-opponent".to_string()));
        assert!(sources.contains(&"opponent/reject/cluster".to_string()));
        assert!(sources.contains(&"offer/reject/must-add".to_string()));
        assert!(!sources.iter().any(|s| s.contains("game-over")));
        for source in &sources {
            let (input, side) = referee.edge_position(source, 3).unwrap_or_else(|| panic!("{source}"));
            let file = CaseFile::parse(&input, source, &rules).unwrap();
            assert_eq!(file.opponent, source.starts_with("opponent/"), "{source}");
            let offer = file.offer.unwrap();
            let found = check(&file.position, &rules, offer);
            let kind = source.split_once('/').unwrap().1;
            assert_eq!(
                referee.auto_category(&input, side).as_deref(),
                Some(if kind == "accept" { "accept" } else { "reject" })
            );
            match CaseKind::from_name(kind).unwrap() {
                CaseKind::Accept => assert_eq!(found, Ok(())),
                CaseKind::Reject(rule) => assert_eq!(found, Err(rule), "{source}"),
                _ => unreachable!(),
            }
            for smaller in referee.shrink_steps(&input, side) {
                let shorter = CaseFile::parse(&smaller, "shrunk", &rules).unwrap();
                assert!(shorter.game.len() + 2 <= file.game.len());
                assert_eq!(shorter.game.len() % 2, file.game.len() % 2);
                assert_eq!(check(&shorter.position, &rules, offer), found, "{source}");
                assert_eq!(shorter.opponent, file.opponent);
            }
        }
    }
}
