//! `arbiter golden`: check or rewrite the golden answer of every case.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use similar::TextDiff;

use super::{CommandResult, Outcome};
use crate::harness::corpus::find_cases;
use crate::harness::files;

#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct Mode {
    /// Recompute every golden answer and fail on any difference (a missing file, a stale one),
    /// or on a case that is not what its category claims (a lost position, a `win` case
    /// without a winning move, a golden answer outside its category's set).
    #[arg(long)]
    check: bool,

    /// Rewrite every golden answer.
    #[arg(long)]
    update: bool,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    mode: Mode,

    /// Corpus folders (default: `corpus` and `corpus/examples`). Golden files mirror each case:
    /// `corpus/CATEGORY/white/01.txt` -> `golden/CATEGORY/white/01.json`.
    #[arg(value_name = "CORPUS")]
    corpora: Vec<PathBuf>,

    /// Keep the golden files in DIR, mirroring each case's path inside its corpus folder
    /// (`DIR/CATEGORY/white/01.json`), instead of a `golden` folder beside a folder named
    /// `corpus`: any folder of cases can have golden answers.
    #[arg(long, value_name = "DIR")]
    golden_dir: Option<PathBuf>,
}

/// The golden file of `case` (found in `corpus`) inside `dir`: the case's path within the
/// corpus, with `.json` for `.txt`.
pub fn golden_in(dir: &Path, corpus: &Path, case: &Path) -> Option<PathBuf> {
    let inside = case.strip_prefix(corpus).ok()?;
    Some(dir.join(inside).with_extension("json"))
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    let corpora = if args.corpora.is_empty() {
        vec![PathBuf::from("corpus"), PathBuf::from("corpus/examples")]
    } else {
        args.corpora
    };
    let mut cases = Vec::new();
    for corpus in &corpora {
        let mut found = find_cases(corpus, referee.categories())
            .with_context(|| format!("cannot read the corpus {}", corpus.display()))?;
        if let Some(dir) = &args.golden_dir {
            for case in &mut found {
                case.golden = golden_in(dir, corpus, &case.path);
            }
        }
        cases.extend(found);
    }
    if cases.is_empty() {
        bail!(
            "no test cases under {}",
            corpora.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    let cases_judge = referee.require_cases().map_err(anyhow::Error::msg)?;
    let mut problems = Vec::new();
    let mut category_problems = Vec::new();
    let mut wrong_cases = 0;
    let mut written = 0;
    for case in &cases {
        let golden = case.golden.as_ref().with_context(|| {
            format!(
                "{}: a golden file mirrors a case under a folder named `corpus`; --golden-dir DIR keeps \
                 them elsewhere",
                case.path.display()
            )
        })?;
        let input = files::read_capped(&case.path, files::BOARD)?;
        let expected = cases_judge.golden(case, &input).map_err(anyhow::Error::msg)?;
        // A missing golden file is reported (or written); one that cannot be read is an error.
        let current = match files::read_capped_text(golden, files::GOLDEN) {
            Ok(text) => Some(text),
            Err(e) if e.is_not_found() => None,
            Err(e) => return Err(e.into()),
        };
        // The case must be what its category claims, and the golden answer (as it will be
        // after `--update`, as it is for `--check`) within its category's set.
        let judged = if args.mode.update { Some(expected.as_str()) } else { current.as_deref() };
        if let Err(wrong) = cases_judge.check_category(case, &input, judged.map(str::as_bytes)) {
            wrong_cases += 1;
            for w in wrong {
                category_problems.push(format!("{}: {w}", case.path.display()));
            }
        }
        if current.as_deref() == Some(expected.as_str()) {
            continue;
        }
        if args.mode.update {
            if let Some(folder) = golden.parent() {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("cannot create {}", folder.display()))?;
            }
            files::write_atomic(golden, expected.as_bytes())
                .with_context(|| format!("cannot write {}", golden.display()))?;
            written += 1;
        } else {
            match current {
                None => {
                    problems.push(format!("{}: missing (run `arbiter golden --update`)", golden.display()))
                }
                Some(old) => {
                    let diff = TextDiff::from_lines(&old, &expected)
                        .unified_diff()
                        .context_radius(1)
                        .header("golden file", "recomputed")
                        .to_string();
                    let shown: Vec<&str> = diff.lines().take(24).collect();
                    problems.push(format!(
                        "{}: differs from the oracle's answer\n{}",
                        golden.display(),
                        shown.join("\n")
                    ));
                }
            }
        }
    }
    for p in &category_problems {
        println!("{p}");
    }
    if args.mode.update {
        println!("{} golden file(s) written, {} already up to date", written, cases.len() - written);
        if !category_problems.is_empty() {
            println!("{wrong_cases} case(s) are not what their category claims");
            return Ok(Outcome::Failure);
        }
        return Ok(Outcome::Success);
    }
    if problems.is_empty() && category_problems.is_empty() {
        println!("all {} golden answers match the oracle", cases.len());
        Ok(Outcome::Success)
    } else {
        for p in &problems {
            println!("{p}");
        }
        if !problems.is_empty() {
            println!("{} of {} golden answers differ from the oracle", problems.len(), cases.len());
        }
        if !category_problems.is_empty() {
            println!("{wrong_cases} case(s) are not what their category claims");
        }
        Ok(Outcome::Failure)
    }
}
