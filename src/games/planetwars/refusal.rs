//! Why the engine refused an order, by a short stable name that reports and files use.

use std::fmt;

/// Why an order was refused. The engine refuses an illegal order, carries out the others, and
/// counts the refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Refusal {
    /// A planet id that is not on the map.
    NoSuchPlanet,
    /// The shuttle would leave a planet the player does not own.
    NotOwned,
    /// The destination is not joined to the source by an edge.
    NotANeighbour,
    /// Zero or fewer people.
    NotPositive,
    /// A fraction of a person.
    NotWhole,
    /// More people than the planet holds (after the turn's earlier orders).
    TooMany,
}

impl Refusal {
    /// Every reason, in the order reports list them.
    pub const ALL: [Refusal; 6] = [
        Refusal::NoSuchPlanet,
        Refusal::NotOwned,
        Refusal::NotANeighbour,
        Refusal::NotPositive,
        Refusal::NotWhole,
        Refusal::TooMany,
    ];

    /// A short stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::NoSuchPlanet => "no-such-planet",
            Refusal::NotOwned => "not-owned",
            Refusal::NotANeighbour => "not-a-neighbour",
            Refusal::NotPositive => "not-positive",
            Refusal::NotWhole => "not-whole",
            Refusal::TooMany => "too-many",
        }
    }

    /// The reason named `name`.
    pub fn from_name(name: &str) -> Option<Refusal> {
        Refusal::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
