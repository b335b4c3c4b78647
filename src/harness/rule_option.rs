//! A game's rule options (`--rule KEY=VALUE`, a `rules` line of a record): splitting one, and
//! the errors that say what is accepted, worded alike for every game. Each game keeps its own
//! keys and values; see `Rules::with_option` in Network, Pente and PlanetWars.

/// `option` split at its first `=`, both sides trimmed (`end = course` reads as `end=course`).
/// Without an `=`, the error gives `examples` ("engine=course or growth=course").
pub fn split<'a>(option: &'a str, examples: &str) -> Result<(&'a str, &'a str), String> {
    option
        .split_once('=')
        .map(|(key, value)| (key.trim(), value.trim()))
        .ok_or_else(|| format!("expected KEY=VALUE, e.g. {examples}"))
}

/// The error for a value `key` does not take: "expected growth=exact or growth=course, found
/// `fast`".
pub fn bad_value(key: &str, values: &[&str], found: &str) -> String {
    let accepted: Vec<String> = values.iter().map(|value| format!("{key}={value}")).collect();
    format!("expected {}, found `{found}`", listed(&accepted, "or"))
}

/// The error for a key the game does not have: "Network's rule options are `engine`, `double`
/// and `lift`; found `speed`", or with one key "Pente has one rule option, `opening`; found
/// `speed`".
pub fn unknown_key(game: &str, keys: &[&str], found: &str) -> String {
    let quoted: Vec<String> = keys.iter().map(|key| format!("`{key}`")).collect();
    match quoted.as_slice() {
        [one] => format!("{game} has one rule option, {one}; found `{found}`"),
        _ => format!("{game}'s rule options are {}; found `{found}`", listed(&quoted, "and")),
    }
}

/// `a`, `a or b`, `a, b or c`: the words joined as a sentence lists them.
fn listed(words: &[String], last: &str) -> String {
    match words.split_last() {
        None => String::new(),
        Some((only, [])) => only.clone(),
        Some((final_word, rest)) => format!("{} {last} {final_word}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_splits_at_its_first_equals_sign_with_spaces_trimmed() {
        assert_eq!(split(" end = course ", "x"), Ok(("end", "course")));
        assert_eq!(split("texts=a=b", "x"), Ok(("texts", "a=b")));
        assert_eq!(split("growth", "growth=course"), Err("expected KEY=VALUE, e.g. growth=course".into()));
    }

    #[test]
    fn errors_list_what_is_accepted_as_a_sentence_does() {
        assert_eq!(
            bad_value("lift", &["final", "no-double"], "x"),
            "expected lift=final or lift=no-double, found `x`"
        );
        assert_eq!(
            bad_value("double", &["opponent", "mover", "white"], ""),
            "expected double=opponent, double=mover or double=white, found ``"
        );
        assert_eq!(
            unknown_key("Pente", &["opening"], "speed"),
            "Pente has one rule option, `opening`; found `speed`"
        );
        assert_eq!(
            unknown_key("Network", &["engine", "double", "lift"], "speed"),
            "Network's rule options are `engine`, `double` and `lift`; found `speed`"
        );
    }
}
