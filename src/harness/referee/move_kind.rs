//! What kind of move a move is, in the game's words: what groups failures into bugs and names
//! every move a report shows ("Zombie leap Zc3xc5").

/// What kind of move a move is: the acting piece, the action, and the rule edge it sits on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct MoveKind {
    /// The acting piece (`Jester`; Pente's `stone`).
    pub piece: String,
    /// The action (`swap`, `convert`, `capture`).
    pub action: String,
    /// The edge of the rules the move is on (`general-swap`), if any.
    pub edge: Option<String>,
    /// The kind in a few words, as reports put it before the move: `Zombie leap`,
    /// `Jester swap with the General`, `capturing stone`.
    pub name: String,
}

impl MoveKind {
    /// The move `notation` named with its kind: `Zombie leap Zc3xc5`.
    pub fn named(&self, notation: &str) -> String {
        format!("{} {notation}", self.name)
    }
}

/// `notation` named with its kind when it is known, else as it is.
pub fn named(notation: &str, kind: Option<&MoveKind>) -> String {
    kind.map_or_else(|| notation.to_string(), |k| k.named(notation))
}

/// A position's single expected answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SoleAnswer {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Its kind.
    pub kind: MoveKind,
    /// The verdict's sentence: "the only legal move was Jd4~e4, a swap with the General".
    pub sentence: String,
}

/// At most `shown` of `items`, with the count when there are more: `9J 9K` when there are two,
/// `any of 340 points, e.g. 9J 9K 10J ...` when there are 340. `noun` names one item in the
/// plural (`points`, `moves`).
pub fn some_of(items: &[String], shown: usize, noun: &str) -> String {
    if items.len() <= shown.max(1) {
        return items.join(" ");
    }
    let first: Vec<&str> = items.iter().take(shown.max(1)).map(String::as_str).collect();
    format!("any of {} {noun}, e.g. {} ...", items.len(), first.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_is_cut_to_a_handful_with_the_count() {
        let points: Vec<String> = (1..=340).map(|i| format!("p{i}")).collect();
        assert_eq!(some_of(&points, 3, "points"), "any of 340 points, e.g. p1 p2 p3 ...");
        assert_eq!(some_of(&points[..3], 3, "points"), "p1 p2 p3");
        assert_eq!(some_of(&[], 3, "points"), "");
    }

    #[test]
    fn moves_are_named_with_their_kind() {
        let kind = MoveKind {
            piece: "Zombie".into(),
            action: "leap".into(),
            edge: Some("zombie-leap".into()),
            name: "Zombie leap".into(),
        };
        assert_eq!(kind.named("Zc3xc5"), "Zombie leap Zc3xc5");
        assert_eq!(named("Zc3xc5", None), "Zc3xc5");
    }
}
