//! Case categories: what a test case tests, named by its game (`grade4` to `grade7` for Advance;
//! `opening`, `legal`, `win`, `block`, `capture` for Pente). Corpus folders, marking-profile
//! stages, report tables and tags all use these names.
//!
//! Reports written before games had categories gave Advance's as grade numbers (`"grade": 6`,
//! `"stopped_at": 6`); a category `gradeN` is still written that way, so the tools that read
//! those reports keep working.

use serde::{Deserialize, Deserializer, Serializer};

/// The grade number of a category named `gradeN`.
pub fn grade_number(category: &str) -> Option<u8> {
    category.strip_prefix("grade")?.parse().ok()
}

/// How a category reads in a sentence or table: `grade 4` for `grade4`, else the name.
pub fn label(category: &str) -> String {
    match grade_number(category) {
        Some(n) => format!("grade {n}"),
        None => category.to_string(),
    }
}

/// Writes a category as its grade number when it has one, else as its name.
pub fn serialize<S: Serializer>(category: &str, s: S) -> Result<S::Ok, S::Error> {
    match grade_number(category) {
        Some(n) => s.serialize_u8(n),
        None => s.serialize_str(category),
    }
}

/// [`serialize`] for an optional category.
pub fn serialize_option<S: Serializer>(category: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    match category {
        Some(c) => serialize(c, s),
        None => s.serialize_none(),
    }
}

/// Reads a category given as a name or as a grade number (`6` is `grade6`).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NameOrNumber {
        Number(u64),
        Name(String),
    }
    Ok(match NameOrNumber::deserialize(d)? {
        NameOrNumber::Number(n) => format!("grade{n}"),
        NameOrNumber::Name(s) => s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_keep_their_numbers_and_other_names_stay_names() {
        assert_eq!(grade_number("grade6"), Some(6));
        assert_eq!(grade_number("block"), None);
        assert_eq!(label("grade4"), "grade 4");
        assert_eq!(label("win"), "win");
        #[derive(serde::Serialize, serde::Deserialize)]
        struct S {
            #[serde(serialize_with = "serialize", deserialize_with = "deserialize")]
            c: String,
        }
        assert_eq!(serde_json::to_string(&S { c: "grade5".into() }).unwrap(), r#"{"c":5}"#);
        assert_eq!(serde_json::to_string(&S { c: "win".into() }).unwrap(), r#"{"c":"win"}"#);
        assert_eq!(serde_json::from_str::<S>(r#"{"c":7}"#).unwrap().c, "grade7");
        assert_eq!(serde_json::from_str::<S>(r#"{"c":"capture"}"#).unwrap().c, "capture");
    }
}
