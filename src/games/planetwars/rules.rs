//! Rule options (`--game planetwars --rule KEY=VALUE`): where the course's own engine (the
//! public `planetwars.core` of CSCI 1933, `PlanetWars.java` and `Planet.java`) reads the seed
//! differently from arbiter, its reading can be chosen. By default every rule is the seed's
//! text as the rules page restates it; `engine=course` chooses every course reading at once.
//!
//! - `growth=exact` (default) or `growth=course`: growth `c*g` rounded down, uncapped, and the
//!   decay of an overpopulated planet before the landings; or the course's
//!   `min(size, ceil(c*g))` in doubles, no growth above the size, and the decay
//!   `ceil((c-m)*0.1)` in doubles after the landings.
//! - `battle=exact` (default) or `battle=course`: 1.1·old compared exactly; or the course's
//!   `(long) (1.1 * old)` in doubles, truncated, compared with the attack.
//! - `emptied=kept` (default) or `emptied=neutral`: a planet whose owner sends every person
//!   stays the owner's with 0; or it becomes neutral at once.
//! - `end=arbiter` (default) or `end=course`: both players out at once is a draw, and 1000
//!   plies are decided on people; or Player 1 wins a double wipe-out (the course checks Player
//!   1's win first) and a game still going after 10000 plies (the course's ranker's limit)
//!   has no winner.
//! - `view=arbiter` (default) or `view=course`: a player sees its own shuttles wherever they
//!   fly; or only the shuttles bound for planets it sees, its own too.
//! - `thrown=forfeit` (default) or `thrown=skip`: a hosted strategy whose `takeTurn` throws
//!   loses the game; or, as the course's engine does, the turn gives no orders and the game
//!   goes on (the exception is kept in the game record's notes).
//! - `order=arbiter` (default) or `order=course`: a hosted strategy gets the planets in id
//!   order and each planet's edges by neighbour; or in the course engine's order (visible
//!   planets first, each list and each edge set in the order the engine's `HashMap`s and
//!   `HashSet`s iterate), so that a game replays move for move in the engine.
//! - `maps=arbiter` (default) or `maps=course`: random maps are arbiter's (mirror halves, 100
//!   people at home); or in the course's ranges ([`super::generate::course_map`]), 1 person at
//!   home and the engine's unit of time before Player 1's first move.

use crate::harness::rule_option;

/// How populations grow and decay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Growth {
    /// The seed's formulas computed exactly and rounded down; decay before landings.
    #[default]
    Exact,
    /// The course engine's: rounded up in doubles, capped at the size; decay after landings.
    Course,
}

/// How 1.1 times the defenders is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Battle {
    /// Exactly (11·old against 10·attack).
    #[default]
    Exact,
    /// The course engine's `(long) (1.1 * old)`.
    Course,
}

/// What becomes of a planet its owner empties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emptied {
    /// It stays the owner's, with 0 people.
    #[default]
    Kept,
    /// It becomes neutral at once (the course engine).
    Neutral,
}

/// When a game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum End {
    /// Both out at once: a draw; 1000 plies, decided on people.
    #[default]
    Arbiter,
    /// Both out at once: Player 1 wins; 10000 plies, no winner.
    Course,
}

/// Which shuttles a player sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewRule {
    /// Those bound for planets it sees, and its own anywhere.
    #[default]
    Arbiter,
    /// Only those bound for planets it sees (the course engine).
    Course,
}

/// What a turn that throws does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Thrown {
    /// The strategy forfeits the game.
    #[default]
    Forfeit,
    /// The turn gives no orders (the course engine).
    Skip,
}

/// The order a hosted strategy gets planets and edges in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ListOrder {
    /// Planets by id, each planet's edges by neighbour.
    #[default]
    Arbiter,
    /// The course engine's: visible planets first, collections iterated as its hash tables do.
    Course,
}

/// Which random maps a game without a start file is played on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Maps {
    /// arbiter's mirror-symmetric maps, 100 people at home.
    #[default]
    Arbiter,
    /// Maps in the course's ranges, 1 person at home grown by one unit of time.
    Course,
}

/// The rules a game is played by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Growth and decay.
    pub growth: Growth,
    /// The battle's 1.1.
    pub battle: Battle,
    /// Emptied planets.
    pub emptied: Emptied,
    /// The end of a game.
    pub end: End,
    /// Which shuttles a player sees.
    pub view: ViewRule,
    /// A turn that throws.
    pub thrown: Thrown,
    /// The order of a hosted strategy's planets and edges.
    pub order: ListOrder,
    /// The random maps.
    pub maps: Maps,
}

/// The plies after which the course's ranker stops a game (`runToCompletion(10000)`): no winner.
pub const COURSE_TURN_LIMIT: u32 = 10_000;

impl Rules {
    /// Every one of the course engine's readings (`engine=course`).
    pub const COURSE: Rules = Rules {
        growth: Growth::Course,
        battle: Battle::Course,
        emptied: Emptied::Neutral,
        end: End::Course,
        view: ViewRule::Course,
        thrown: Thrown::Skip,
        order: ListOrder::Course,
        maps: Maps::Course,
    };

    /// These rules with one option changed, given as `KEY=VALUE`. An error says what is accepted.
    pub fn with_option(self, option: &str) -> Result<Rules, String> {
        let (key, value) = rule_option::split(option, "engine=course or growth=course")?;
        let two_way = |values: [&str; 2]| Err(rule_option::bad_value(key, &values, value));
        match (key, value) {
            ("engine", "course") => Ok(Rules::COURSE),
            ("engine", "seed") => Ok(Rules::default()),
            ("engine", _) => two_way(["seed", "course"]),
            ("growth", "exact") => Ok(Rules { growth: Growth::Exact, ..self }),
            ("growth", "course") => Ok(Rules { growth: Growth::Course, ..self }),
            ("growth", _) => two_way(["exact", "course"]),
            ("battle", "exact") => Ok(Rules { battle: Battle::Exact, ..self }),
            ("battle", "course") => Ok(Rules { battle: Battle::Course, ..self }),
            ("battle", _) => two_way(["exact", "course"]),
            ("emptied", "kept") => Ok(Rules { emptied: Emptied::Kept, ..self }),
            ("emptied", "neutral") => Ok(Rules { emptied: Emptied::Neutral, ..self }),
            ("emptied", _) => two_way(["kept", "neutral"]),
            ("end", "arbiter") => Ok(Rules { end: End::Arbiter, ..self }),
            ("end", "course") => Ok(Rules { end: End::Course, ..self }),
            ("end", _) => two_way(["arbiter", "course"]),
            ("view", "arbiter") => Ok(Rules { view: ViewRule::Arbiter, ..self }),
            ("view", "course") => Ok(Rules { view: ViewRule::Course, ..self }),
            ("view", _) => two_way(["arbiter", "course"]),
            ("thrown", "forfeit") => Ok(Rules { thrown: Thrown::Forfeit, ..self }),
            ("thrown", "skip") => Ok(Rules { thrown: Thrown::Skip, ..self }),
            ("thrown", _) => two_way(["forfeit", "skip"]),
            ("order", "arbiter") => Ok(Rules { order: ListOrder::Arbiter, ..self }),
            ("order", "course") => Ok(Rules { order: ListOrder::Course, ..self }),
            ("order", _) => two_way(["arbiter", "course"]),
            ("maps", "arbiter") => Ok(Rules { maps: Maps::Arbiter, ..self }),
            ("maps", "course") => Ok(Rules { maps: Maps::Course, ..self }),
            ("maps", _) => two_way(["arbiter", "course"]),
            (other, _) => Err(rule_option::unknown_key(
                "PlanetWars",
                &["engine", "growth", "battle", "emptied", "end", "view", "thrown", "order", "maps"],
                other,
            )),
        }
    }

    /// The options that differ from the defaults, as `KEY=VALUE` words (empty by default).
    pub fn describe(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.growth == Growth::Course {
            out.push("growth=course");
        }
        if self.battle == Battle::Course {
            out.push("battle=course");
        }
        if self.emptied == Emptied::Neutral {
            out.push("emptied=neutral");
        }
        if self.end == End::Course {
            out.push("end=course");
        }
        if self.view == ViewRule::Course {
            out.push("view=course");
        }
        if self.thrown == Thrown::Skip {
            out.push("thrown=skip");
        }
        if self.order == ListOrder::Course {
            out.push("order=course");
        }
        if self.maps == Maps::Course {
            out.push("maps=course");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_described() {
        let r = Rules::default().with_option("growth=course").unwrap().with_option("end = course").unwrap();
        assert_eq!(r.describe(), vec!["growth=course", "end=course"]);
        assert_eq!(Rules::default().with_option("engine=course").unwrap(), Rules::COURSE);
        assert_eq!(Rules::COURSE.with_option("engine=seed").unwrap(), Rules::default());
        let mut again = Rules::default();
        for o in Rules::COURSE.describe() {
            again = again.with_option(o).unwrap();
        }
        assert_eq!(again, Rules::COURSE);
        assert!(Rules::default().with_option("growth=fast").unwrap_err().contains("growth=exact"));
        assert!(Rules::default().with_option("speed=1").unwrap_err().contains("`speed`"));
        assert!(Rules::default().with_option("growth").is_err());
    }
}
