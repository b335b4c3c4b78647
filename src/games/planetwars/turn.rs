//! A player's turn: the orders it gives (shuttles from its planets to neighbours), which of them
//! are legal, and the unit of time that passes after them.
//!
//! "The game engine will then make all legal moves in the event queue, and allow one unit of
//! time (one full turn cycle) pass, in which population growth (or decay ...) occurs on all
//! planets \[and\] all shuttles move one step. The game play then passes to the other player."

use std::fmt;

use super::battle::{Landing, land_with};
use super::planet::{Player, grow, grow_course, shrink_course};
use super::refusal::Refusal;
use super::rules::{Emptied, Growth};
use super::shuttle::Shuttle;
use super::state::State;

/// The most orders a turn may hold; more is malformed output.
pub const MAX_ORDERS: usize = 10_000;

/// How many people an order sends, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Amount {
    /// A whole number (possibly zero or negative, which is refused).
    Whole(i64),
    /// A number with a fractional part, refused: populations are whole people.
    Fraction(String),
}

/// One order: send `amount` people from planet `from` to planet `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// The planet the shuttle leaves (as written: it may not exist).
    pub from: i64,
    /// The planet it is bound for.
    pub to: i64,
    /// The people on board.
    pub amount: Amount,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.amount {
            Amount::Whole(n) => write!(f, "{}>{}:{n}", self.from, self.to),
            Amount::Fraction(t) => write!(f, "{}>{}:{t}", self.from, self.to),
        }
    }
}

/// What one landing did, for reports and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LandingReport {
    /// The planet.
    pub planet: usize,
    /// What happened.
    pub landing: Landing,
    /// People lost in the battle.
    pub lost: i64,
}

/// What a ply did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// The orders carried out.
    pub accepted: Vec<Order>,
    /// The orders refused, each with its reason.
    pub refused: Vec<(Order, Refusal)>,
    /// The people added (or removed, when negative) by growth and decay.
    pub growth: i64,
    /// The landings of the unit of time.
    pub landings: Vec<LandingReport>,
}

impl TurnReport {
    /// The ply in notation: each order as `FROM>TO:AMOUNT`, a refused one followed by
    /// `!reason`, separated by spaces; `pass` when there were none.
    pub fn notation(&self, orders: &[Order]) -> String {
        if orders.is_empty() {
            return "pass".to_string();
        }
        let mut refused = self.refused.iter().peekable();
        let mut words = Vec::with_capacity(orders.len());
        for order in orders {
            match refused.peek() {
                Some((o, why)) if o == order => {
                    words.push(format!("{order}!{why}"));
                    refused.next();
                }
                _ => words.push(order.to_string()),
            }
        }
        words.join(" ")
    }
}

/// Reads a turn's orders: one a line, `send FROM TO AMOUNT` or `FROM TO AMOUNT`; blank lines,
/// `pass` and `#` comments are ignored. Also reads notation (`FROM>TO:AMOUNT`, `!reason`
/// suffixes ignored). Errors name the line.
pub fn parse_orders(text: &str) -> Result<Vec<Order>, String> {
    let mut orders = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.eq_ignore_ascii_case("pass") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut push = |order: Order| -> Result<(), String> {
            if orders.len() >= MAX_ORDERS {
                return Err(format!("more than {MAX_ORDERS} orders in one turn"));
            }
            orders.push(order);
            Ok(())
        };
        if words.iter().all(|w| w.contains('>')) {
            for w in words {
                push(parse_notation_word(w).map_err(|e| format!("line {}: {e}", i + 1))?)?;
            }
            continue;
        }
        let send = words.first().is_some_and(|w| w.eq_ignore_ascii_case("send"));
        let fields = match words.as_slice() {
            [_, a, b, n] if send => [*a, *b, *n],
            [a, b, n] if !send => [*a, *b, *n],
            _ => {
                return Err(format!(
                    "line {}: expected `send FROM TO AMOUNT` (three numbers), found `{line}`",
                    i + 1
                ));
            }
        };
        push(order_of(fields).map_err(|e| format!("line {}: {e}", i + 1))?)?;
    }
    Ok(orders)
}

fn parse_notation_word(word: &str) -> Result<Order, String> {
    let body = word.split('!').next().unwrap_or(word);
    let (from, rest) = body.split_once('>').ok_or_else(|| format!("`{word}` is not FROM>TO:AMOUNT"))?;
    let (to, amount) = rest.split_once(':').ok_or_else(|| format!("`{word}` is not FROM>TO:AMOUNT"))?;
    order_of([from, to, amount])
}

fn order_of([from, to, amount]: [&str; 3]) -> Result<Order, String> {
    let id = |w: &str| w.parse::<i64>().map_err(|_| format!("`{w}` is not a planet id (a whole number)"));
    let amount = match amount.parse::<i64>() {
        Ok(n) => Amount::Whole(n),
        Err(_) => match amount.parse::<f64>() {
            Ok(x) if x.is_finite() => Amount::Fraction(amount.to_string()),
            _ => return Err(format!("`{amount}` is not a number of people")),
        },
    };
    Ok(Order { from: id(from)?, to: id(to)?, amount })
}

impl State {
    /// Why `order` by `player` is refused now, if it is.
    pub fn check(&self, player: Player, order: &Order) -> Result<(usize, usize, i64), Refusal> {
        let n = self.map.len() as i64;
        if !(0..n).contains(&order.from) || !(0..n).contains(&order.to) {
            return Err(Refusal::NoSuchPlanet);
        }
        let (from, to) = (order.from as usize, order.to as usize);
        if self.owner[from] != Some(player) {
            return Err(Refusal::NotOwned);
        }
        if self.map.distance(from, to).is_none() {
            return Err(Refusal::NotANeighbour);
        }
        let amount = match order.amount {
            Amount::Whole(n) => n,
            Amount::Fraction(_) => return Err(Refusal::NotWhole),
        };
        if amount <= 0 {
            return Err(Refusal::NotPositive);
        }
        if amount > self.population[from] {
            return Err(Refusal::TooMany);
        }
        Ok((from, to, amount))
    }

    /// Plays a ply for the player to move: carries out the legal orders in the order given
    /// (each checked against the planets as the earlier ones left them), counts the refused
    /// ones, lets one unit of time pass, and hands the turn to the other player.
    pub fn play(&mut self, orders: &[Order]) -> TurnReport {
        let player = self.to_move;
        let mut report = TurnReport::default();
        for order in orders {
            match self.check(player, order) {
                Ok((from, to, amount)) => {
                    self.population[from] -= amount;
                    if self.population[from] == 0 && self.rules.emptied == Emptied::Neutral {
                        self.owner[from] = None;
                    }
                    let remaining = self.map.distance(from, to).expect("checked");
                    self.shuttles.push(super::Shuttle {
                        owner: player,
                        from,
                        to,
                        population: amount,
                        remaining,
                    });
                    report.accepted.push(order.clone());
                }
                Err(why) => {
                    self.refused[player.index()]
                        [Refusal::ALL.iter().position(|r| *r == why).expect("listed")] += 1;
                    report.refused.push((order.clone(), why));
                }
            }
        }
        self.pass_time(&mut report);
        self.ply += 1;
        self.to_move = player.opponent();
        report
    }

    /// One unit of time: growth (or decay) on every planet, then every shuttle moves one step,
    /// and those due land (friendly first, then one coalesced attack). With `growth=course`
    /// the decay comes after the landings.
    fn pass_time(&mut self, report: &mut TurnReport) {
        let course = self.rules.growth == Growth::Course;
        for (i, info) in self.map.planets.iter().enumerate() {
            let before = self.population[i];
            self.population[i] = if course {
                grow_course(before, info.size, info.habitability)
            } else {
                grow(before, info.size, info.habitability)
            };
            report.growth += self.population[i] - before;
        }
        let mut due: Vec<Shuttle> = Vec::new();
        self.shuttles.retain_mut(|s| {
            s.remaining -= 1;
            if s.remaining == 0 {
                due.push(*s);
                false
            } else {
                true
            }
        });
        due.sort_by_key(|s| s.to);
        let mut i = 0;
        while i < due.len() {
            let planet = due[i].to;
            let mut arriving = [0i64; 2];
            while i < due.len() && due[i].to == planet {
                arriving[due[i].owner.index()] += due[i].population;
                i += 1;
            }
            let outcome = land_with(self.owner[planet], self.population[planet], arriving, self.rules.battle);
            self.owner[planet] = outcome.owner;
            self.population[planet] = outcome.population;
            report.landings.push(LandingReport { planet, landing: outcome.landing, lost: outcome.lost });
        }
        if course {
            for (i, info) in self.map.planets.iter().enumerate() {
                let before = self.population[i];
                self.population[i] = shrink_course(before, info.size);
                report.growth += self.population[i] - before;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_read_in_both_forms() {
        let orders = parse_orders("send 0 1 30\n# note\n2 3 4\npass\n0>1:5!too-many 1>2:2.5\n").unwrap();
        assert_eq!(orders.len(), 4);
        assert_eq!(orders[0], Order { from: 0, to: 1, amount: Amount::Whole(30) });
        assert_eq!(orders[3].amount, Amount::Fraction("2.5".into()));
        assert!(parse_orders("send 0 1").is_err());
        assert!(parse_orders("send a 1 2").is_err());
        assert!(parse_orders("0 1 many").is_err());
        assert_eq!(parse_orders("").unwrap(), vec![]);
    }
}
