//! Finding test cases in a folder.
//!
//! Two layouts are recognised, relative to the folder given:
//! - arbiter's own: `grade<N>/<side>/NAME.txt` (N is 4 to 7, side is `white` or `black`), with
//!   golden answers mirrored under a `golden` folder beside the `corpus` folder:
//!   `corpus/grade6/white/x.txt` has its answer in `golden/grade6/white/x.json`;
//! - the course's: `<N>/<side>/tests/NAME.txt`, with the course's answer board in
//!   `<N>/<side>/answers/NAME.txt`.
//!
//! The folder may also be one grade (`corpus/grade6`) or one grade and side
//! (`corpus/grade6/white`). Other files are ignored. Cases are listed by grade, then side
//! (white first), then name in natural order (2 before 10).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::referee::CaseSpec;
use crate::side::Side;

/// The category named by a folder, as its index in `categories`: the name itself in arbiter's
/// layout (`grade6`, `block`); in the course's, a grade number (`6` for `grade6`).
fn category_of(name: &str, course: bool, categories: &[&str]) -> Option<usize> {
    let name = if course { format!("grade{name}") } else { name.to_string() };
    categories.iter().position(|c| *c == name)
}

fn text_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    name.strip_suffix(".txt").map(str::to_string)
}

/// The golden file mirroring a case: the nearest ancestor folder named `corpus` is swapped
/// for a `golden` folder beside it, and `.txt` for `.json`.
pub fn golden_path(case: &Path) -> Option<PathBuf> {
    let components: Vec<_> = case.components().collect();
    let at = components.iter().rposition(|c| c.as_os_str() == "corpus")?;
    let mut golden = PathBuf::new();
    for (i, c) in components.iter().enumerate() {
        golden.push(if i == at { std::ffi::OsStr::new("golden") } else { c.as_os_str() });
    }
    Some(golden.with_extension("json"))
}

/// Finds every test case under `root`. `root` may be a corpus, one grade of it, or one grade and
/// side of it, in either layout.
pub fn find_cases(root: &Path, categories: &[&str]) -> std::io::Result<Vec<CaseSpec>> {
    let meta = std::fs::metadata(root)?;
    if !meta.is_dir() {
        return Err(std::io::Error::other(format!("{} is not a folder", root.display())));
    }
    // How many folders above each file the layout starts, when `root` is inside a corpus.
    let root_name = |p: &Path| p.file_name().and_then(|n| n.to_str()).map(str::to_string);
    let root_is_side = root_name(root).and_then(|n| n.parse::<Side>().ok()).is_some();
    let root_is_grade = root_name(root).and_then(|n| category_of(&n, false, categories)).is_some();
    let mut cases = Vec::new();
    for entry in WalkDir::new(root).min_depth(1).max_depth(4).sort_by_file_name() {
        let entry = entry.map_err(std::io::Error::other)?;
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        let Some(name) = text_name(path) else { continue };
        let rel: Vec<String> = path
            .strip_prefix(root)
            .expect("walkdir stays under the root")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        // Put back the folders above `root` that the layout needs.
        let mut parts: Vec<String> = Vec::new();
        if root_is_side {
            let parent = root.parent().and_then(root_name).unwrap_or_default();
            parts.push(parent);
            parts.push(root_name(root).unwrap_or_default());
        } else if root_is_grade {
            parts.push(root_name(root).unwrap_or_default());
        }
        parts.extend(rel);
        let found = match parts.as_slice() {
            [grade, side, _] => category_of(grade, false, categories)
                .zip(side.parse::<Side>().ok())
                .map(|(g, s)| (g, s, None)),
            [grade, side, tests, _] if tests == "tests" && !root_is_grade && !root_is_side => {
                category_of(grade, true, categories).zip(side.parse::<Side>().ok()).map(|(g, s)| {
                    let answer = path
                        .parent()
                        .and_then(Path::parent)
                        .map(|d| d.join("answers").join(format!("{name}.txt")));
                    (g, s, answer)
                })
            }
            _ => None,
        };
        let Some((index, side, answer)) = found else { continue };
        let category = categories[index].to_string();
        let layout = match &answer {
            Some(_) => category.strip_prefix("grade").unwrap_or(&category).to_string(),
            None => category.clone(),
        };
        cases.push(CaseSpec {
            path: path.to_path_buf(),
            name: format!("{layout}/{side}/{name}"),
            category,
            side,
            answer: answer.filter(|a| a.is_file()),
            golden: golden_path(path),
        });
    }
    cases.sort_by(|a, b| {
        let rank = |c: &CaseSpec| categories.iter().position(|x| *x == c.category);
        (rank(a), a.side).cmp(&(rank(b), b.side)).then_with(|| natural_cmp(&a.name, &b.name))
    });
    Ok(cases)
}

/// Compares names so that embedded numbers sort by value: `2` before `10`.
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, text)) if *d == digit => text.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, ta), (db, tb)) in ca.iter().zip(&cb) {
        let ord = if *da && *db {
            let (na, nb) = (ta.trim_start_matches('0'), tb.trim_start_matches('0'));
            na.len().cmp(&nb.len()).then_with(|| na.cmp(nb))
        } else {
            ta.cmp(tb)
        };
        if ord != std::cmp::Ordering::Equal {
            return ord;
        }
    }
    ca.len().cmp(&cb.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADVANCE: &[&str] = &["grade4", "grade5", "grade6", "grade7"];
    use std::fs;

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "x").unwrap();
    }

    #[test]
    fn finds_arbiters_layout_and_skips_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus");
        touch(&corpus.join("grade6/white/b10.txt"));
        touch(&corpus.join("grade6/white/b2.txt"));
        touch(&corpus.join("grade4/black/a.txt"));
        touch(&corpus.join("grade4/white/notes.md"));
        touch(&corpus.join("examples/grade4/white/ex.txt"));
        touch(&corpus.join("grade9/white/x.txt"));
        let cases = find_cases(&corpus, ADVANCE).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["grade4/black/a", "grade6/white/b2", "grade6/white/b10"]);
        assert_eq!(
            cases[1].golden.as_deref(),
            Some(dir.path().join("golden/grade6/white/b2.json").as_path())
        );
        // One grade, or one grade and side, of the same corpus.
        assert_eq!(find_cases(&corpus.join("grade6"), ADVANCE).unwrap().len(), 2);
        assert_eq!(find_cases(&corpus.join("grade6/white"), ADVANCE).unwrap().len(), 2);
        assert_eq!(find_cases(&corpus.join("examples"), ADVANCE).unwrap().len(), 1);
    }

    #[test]
    fn finds_the_course_layout_with_its_answers() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("7/black/tests/3.txt"));
        touch(&dir.path().join("7/black/answers/3.txt"));
        touch(&dir.path().join("7/black/tests/12.txt"));
        let cases = find_cases(dir.path(), ADVANCE).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["7/black/3", "7/black/12"]);
        assert_eq!((cases[0].category.as_str(), cases[0].side), ("grade7", Side::Black));
        assert!(cases[0].answer.is_some());
        assert!(cases[1].answer.is_none(), "12 has no answer file");
    }
}
