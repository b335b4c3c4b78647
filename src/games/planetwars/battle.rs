//! Landings: what happens when shuttles due on a planet arrive. "All friendly shuttles which
//! are scheduled to arrive on a turn are landed, and their population is added to the planet's
//! population. Following this, the attacks of all hostile shuttles scheduled to arrive are
//! coalesced into one larger attack."

use super::planet::Player;
use super::rules::Battle;

/// What a landing did to a planet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Friendly population landed (or nothing hostile arrived).
    Reinforced,
    /// The defender held: "If 1.1 * oldPlanetPop > attackingPop".
    Held,
    /// The attacker took the planet: "If 1.1 * oldPlanetPop < attackingPop".
    Taken,
    /// "If 1.1 * oldPlanetPop = attackingPop ... Neither player now owns the planet".
    Neutralised,
    /// A neutral planet taken "without loss".
    Settled,
}

/// The outcome of the shuttles due on one planet: its owner and population after, what
/// happened, and the people lost in battle (defenders and attackers together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The owner after the landing.
    pub owner: Option<Player>,
    /// The population after the landing.
    pub population: i64,
    /// What happened.
    pub landing: Landing,
    /// People lost: population before plus all that landed, minus population after.
    pub lost: i64,
}

/// The battle of "oldPlanetPop" defenders against an attack of `attack` people (both whole):
/// the defenders' owner keeps the planet with `min(old, 1.1*old - attack)` when 1.1*old is
/// larger, the attackers take it with `attack - 1.1*old` when the attack is larger, and an
/// exact tie leaves it neutral and empty. Compared exactly (11*old against 10*attack, so that
/// 1.1 has no rounding error) and rounded down.
pub fn battle(old: i64, attack: i64) -> (Landing, i64) {
    let defence = 11 * old;
    let force = 10 * attack;
    match defence.cmp(&force) {
        std::cmp::Ordering::Greater => (Landing::Held, old.min((defence - force) / 10)),
        std::cmp::Ordering::Less => (Landing::Taken, (force - defence) / 10),
        std::cmp::Ordering::Equal => (Landing::Neutralised, 0),
    }
}

/// The course engine's battle (rule option `battle=course`): the defence is `(long) (1.1 *
/// old)`, 1.1 times the defenders in doubles truncated, compared with the attack as whole
/// numbers: larger holds with `min(old, defence - attack)`, smaller loses the planet to
/// `attack - defence`, equal leaves it neutral. So 5 defenders against 5 attackers (5.5
/// truncated to 5) tie, where the exact rule holds with 0.
pub fn battle_course(old: i64, attack: i64) -> (Landing, i64) {
    let defence = (1.1 * old as f64) as i64;
    match defence.cmp(&attack) {
        std::cmp::Ordering::Greater => (Landing::Held, old.min(defence - attack)),
        std::cmp::Ordering::Less => (Landing::Taken, attack - defence),
        std::cmp::Ordering::Equal => (Landing::Neutralised, 0),
    }
}

/// Lands on a planet owned by `owner` with `population` the people of each player due there
/// now (`arriving[0]` Player 1's, `arriving[1]` Player 2's; at least one is positive).
///
/// - Owned planet: the owner's people land first, then the other player's are one attack.
/// - Neutral planet reached by one player: taken without loss.
/// - Neutral planet reached by both at once (arbiter's reading; the seed does not say): the
///   two forces fight without a defender's advantage, the larger takes the planet with the
///   difference, equal forces leave it neutral and empty.
pub fn land(owner: Option<Player>, population: i64, arriving: [i64; 2]) -> Outcome {
    land_with(owner, population, arriving, Battle::Exact)
}

/// [`land`] with the battle computed as `rule` says.
pub fn land_with(owner: Option<Player>, population: i64, arriving: [i64; 2], rule: Battle) -> Outcome {
    let fight = match rule {
        Battle::Exact => battle,
        Battle::Course => battle_course,
    };
    let before = population + arriving[0] + arriving[1];
    let (owner, population, landing) = match owner {
        Some(o) => {
            let defenders = population + arriving[o.index()];
            let attack = arriving[o.opponent().index()];
            if attack == 0 {
                (Some(o), defenders, Landing::Reinforced)
            } else {
                match fight(defenders, attack) {
                    (Landing::Held, left) => (Some(o), left, Landing::Held),
                    (Landing::Taken, left) => (Some(o.opponent()), left, Landing::Taken),
                    (_, _) => (None, 0, Landing::Neutralised),
                }
            }
        }
        None => {
            let [one, two] = arriving;
            match one.cmp(&two) {
                _ if one == 0 => (Some(Player::Two), population + two, Landing::Settled),
                _ if two == 0 => (Some(Player::One), population + one, Landing::Settled),
                std::cmp::Ordering::Greater => (Some(Player::One), one - two, Landing::Taken),
                std::cmp::Ordering::Less => (Some(Player::Two), two - one, Landing::Taken),
                std::cmp::Ordering::Equal => (None, 0, Landing::Neutralised),
            }
        }
    };
    Outcome { owner, population, landing, lost: before - population }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_outcomes_of_a_battle() {
        // 100 defenders: 1.1 * 100 = 110.
        assert_eq!(battle(100, 50), (Landing::Held, 60));
        assert_eq!(battle(100, 5), (Landing::Held, 100), "small attacks have no effect");
        assert_eq!(battle(100, 110), (Landing::Neutralised, 0));
        assert_eq!(battle(100, 150), (Landing::Taken, 40));
        // The same number of attackers as defenders does not succeed.
        assert_eq!(battle(100, 100), (Landing::Held, 10));
        // 1.1 * 7 = 7.7: 8 attackers take the planet with 0.3, rounded down to 0.
        assert_eq!(battle(7, 8), (Landing::Taken, 0));
    }

    #[test]
    fn the_course_engine_truncates_1_1_times_the_defenders() {
        assert_eq!(battle_course(5, 5), (Landing::Neutralised, 0), "5.5 truncated to 5 ties");
        assert_eq!(battle(5, 5), (Landing::Held, 0));
        assert_eq!(battle_course(100, 110), (Landing::Neutralised, 0));
        assert_eq!(battle_course(100, 50), (Landing::Held, 60));
        assert_eq!(battle_course(7, 8), (Landing::Taken, 1), "7.7 truncated to 7");
        let o = land_with(Some(Player::One), 3, [2, 5], Battle::Course);
        assert_eq!((o.owner, o.population), (None, 0), "(long) (1.1 * 5) = 5 against 5");
    }

    #[test]
    fn friendly_shuttles_land_before_the_attack() {
        // 100 + 50 defenders against 150: 165 > 150, held with min(150, 15) = 15.
        let o = land(Some(Player::One), 100, [50, 150]);
        assert_eq!((o.owner, o.population, o.landing), (Some(Player::One), 15, Landing::Held));
        assert_eq!(o.lost, 300 - 15);
    }

    #[test]
    fn a_neutral_planet_is_settled_without_loss() {
        let o = land(None, 0, [0, 40]);
        assert_eq!((o.owner, o.population, o.lost), (Some(Player::Two), 40, 0));
    }

    #[test]
    fn both_players_reaching_a_neutral_planet_fight_evenly() {
        let o = land(None, 0, [30, 40]);
        assert_eq!((o.owner, o.population, o.lost), (Some(Player::Two), 10, 60));
        let o = land(None, 0, [30, 30]);
        assert_eq!((o.owner, o.population, o.landing), (None, 0, Landing::Neutralised));
    }
}
