//! `arbiter golden`: check or rewrite the golden answer of every case.

use std::path::PathBuf;

use anyhow::{Context, bail};
use similar::TextDiff;

use super::{CommandResult, Outcome};
use crate::harness::corpus::find_cases;
use crate::harness::files;

#[derive(clap::Args, Debug)]
#[group(required = true, multiple = false)]
pub struct Mode {
    /// Recompute every golden answer and fail on any difference (a missing file, a stale one).
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
    /// `corpus/grade6/white/01.txt` -> `golden/grade6/white/01.json`.
    #[arg(value_name = "CORPUS")]
    corpora: Vec<PathBuf>,
}

pub fn run(args: Args, referee: Box<dyn crate::harness::referee::Referee>) -> CommandResult {
    let corpora = if args.corpora.is_empty() {
        vec![PathBuf::from("corpus"), PathBuf::from("corpus/examples")]
    } else {
        args.corpora
    };
    let mut cases = Vec::new();
    for corpus in &corpora {
        cases.extend(
            find_cases(corpus, referee.categories())
                .with_context(|| format!("cannot read the corpus {}", corpus.display()))?,
        );
    }
    if cases.is_empty() {
        bail!(
            "no test cases under {}",
            corpora.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    let mut problems = Vec::new();
    let mut written = 0;
    for case in &cases {
        let golden = case.golden.as_ref().with_context(|| {
            format!("{}: a golden file mirrors a case under a folder named `corpus`", case.path.display())
        })?;
        let input = files::read_capped(&case.path, files::BOARD)?;
        let expected = referee.golden(case, &input).map_err(anyhow::Error::msg)?;
        // A missing golden file is reported (or written); one that cannot be read is an error.
        let current = match files::read_capped_text(golden, files::GOLDEN) {
            Ok(text) => Some(text),
            Err(e) if e.is_not_found() => None,
            Err(e) => return Err(e.into()),
        };
        if current.as_deref() == Some(expected.as_str()) {
            continue;
        }
        if args.mode.update {
            std::fs::create_dir_all(golden.parent().expect("a golden file has a folder"))?;
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
    if args.mode.update {
        println!("{} golden file(s) written, {} already up to date", written, cases.len() - written);
        return Ok(Outcome::Success);
    }
    if problems.is_empty() {
        println!("all {} golden answers match the oracle", cases.len());
        Ok(Outcome::Success)
    } else {
        for p in &problems {
            println!("{p}");
        }
        println!("{} of {} golden answers differ from the oracle", problems.len(), cases.len());
        Ok(Outcome::Failure)
    }
}
