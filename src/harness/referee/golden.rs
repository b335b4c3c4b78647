//! Golden files as the games write and read them: a pretty JSON object whose `expected` list
//! holds the case's right answers in the game's notation.

use serde_json::Value;

/// The text of a golden file: `json`, pretty-printed, ending in a line end.
pub fn golden_text(json: &Value) -> String {
    serde_json::to_string_pretty(json).expect("JSON values serialise") + "\n"
}

/// The `expected` list a golden file holds, if it is JSON with such a list of strings.
pub fn golden_expected(bytes: &[u8]) -> Option<Vec<String>> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    value["expected"].as_array()?.iter().map(|v| v.as_str().map(str::to_string)).collect()
}

/// What is wrong with a golden file's answer for a case of `category` whose right answers are
/// `expected`: no `expected` list (of `unit`, "moves" or "points"), an empty one, or answers
/// outside the set. `None` when nothing is.
pub fn golden_problem(golden: &[u8], expected: &[String], category: &str, unit: &str) -> Option<String> {
    match golden_expected(golden) {
        None => Some(format!("the golden file has no `expected` list of {unit}")),
        Some(answers) if answers.is_empty() => Some("the golden answer is empty".to_string()),
        Some(answers) => {
            let outside: Vec<String> = answers.into_iter().filter(|a| !expected.contains(a)).collect();
            (!outside.is_empty()).then(|| {
                format!("the golden answer holds {} outside the `{category}` set", outside.join(" "))
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_golden_answer_must_list_answers_within_the_set() {
        let set = ["34".to_string(), "45".to_string()];
        assert_eq!(golden_problem(br#"{"expected":["34"]}"#, &set, "win", "moves"), None);
        assert_eq!(
            golden_problem(br#"{"expected":["34","56"]}"#, &set, "win", "moves").unwrap(),
            "the golden answer holds 56 outside the `win` set"
        );
        assert_eq!(
            golden_problem(br#"{"expected":[]}"#, &set, "win", "moves").unwrap(),
            "the golden answer is empty"
        );
        assert_eq!(
            golden_problem(b"{}", &set, "win", "points").unwrap(),
            "the golden file has no `expected` list of points"
        );
        assert_eq!(golden_text(&serde_json::json!({"a": 1})), "{\n  \"a\": 1\n}\n");
    }
}
