//! The bundled corpus: `count` cases of each category (`legal`, `accept`, `win`, `block`), and
//! `count` `reject` cases spread over the rules a move can break (but the game being over), each a [`CaseFile`] in the
//! folder of its category and of the side to move.

use rayon::prelude::*;

use super::case_file::CaseFile;
use super::generate::{CaseKind, generate_case};
use super::rules::Rules;
use crate::harness::referee::GeneratedCase;

/// Every case of a corpus made from `seed`, in a fixed order (the same seed gives the same files
/// whatever the number of threads). A kind the generator cannot find in its attempts (rare
/// rules) gets fewer cases.
pub fn generate(rules: &Rules, count: usize, seed: u64) -> Vec<GeneratedCase> {
    // No `reject` case offers a move after the game has ended: the assignment's forceMove
    // tests are about the move rules, and it never says a finished game refuses moves
    // (RULES.md, resolved ambiguity 16).
    let kinds: Vec<CaseKind> = CaseKind::all(rules)
        .into_iter()
        .filter(|&k| k != CaseKind::Reject(super::rules::Illegal::GameOver))
        .collect();
    let rejects = kinds.iter().filter(|k| matches!(k, CaseKind::Reject(_))).count().max(1);
    let per_reject = count.div_ceil(rejects);
    let mut wanted: Vec<(CaseKind, usize)> = Vec::new();
    for kind in kinds {
        let n = if matches!(kind, CaseKind::Reject(_)) { per_reject } else { count };
        wanted.extend((0..n).map(|i| (kind, i)));
    }
    wanted
        .par_iter()
        .filter_map(|&(kind, i)| {
            // Each case its own seed, from the corpus seed, the kind and the index.
            let case_seed = GeneratedCase::seed(seed, &kind.name(), i);
            let case = generate_case(kind, rules, case_seed)?;
            let file = CaseFile {
                position: case.game.position,
                game: case.game.moves.clone(),
                offer: case.probe,
                opponent: false,
            };
            let (category, name) = match kind {
                CaseKind::Reject(rule) => ("reject".to_string(), format!("{:03}-{}", i + 1, rule.name())),
                other => (other.name(), format!("{:03}", i + 1)),
            };
            Some(GeneratedCase { category, side: file.position.to_move.side(), name, text: file.render() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_corpus_and_every_case_reads_back() {
        let rules = Rules::default();
        let a = generate(&rules, 2, 5);
        assert_eq!(a, generate(&rules, 2, 5));
        assert!(a.iter().any(|c| c.category == "block") && a.iter().any(|c| c.category == "reject"));
        for case in &a {
            let file = CaseFile::parse(case.text.as_bytes(), &case.name, &rules).unwrap();
            assert_eq!(file.position.to_move.side(), case.side);
            assert_eq!(file.offer.is_some(), matches!(case.category.as_str(), "accept" | "reject"));
        }
    }
}
