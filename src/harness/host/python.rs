//! Python submissions: arbiter's host and the support files placed beside the module, and the
//! command that hosts it.

use std::path::Path;

use super::build_folder;
use super::options::HostOptions;
use super::spec::{PYTHON_HOST, PythonSpec};
use super::tools;
use crate::harness::runner::{self, BotCommand, Limits};
use crate::harness::untrusted::{self, Folder};

/// A Python submission with its host, and the command that runs it.
pub struct Prepared {
    pub command: BotCommand,
    pub build: tempfile::TempDir,
}

/// Places the host and the support files (the grader's, else arbiter's) and returns the
/// command: `python3 -I -B HOST SUBMISSION SUPPORT`.
pub fn prepare(
    folder: &Path,
    spec: &PythonSpec,
    options: &HostOptions,
    _limits: &Limits,
) -> Result<Prepared, String> {
    let python = tools::require("python3", "run a Python submission")?;
    let (build, root) = build_folder::make("arbiter-python-")?;
    let support = root.join("support");
    std::fs::create_dir_all(&support).map_err(|e| e.to_string())?;
    for (name, text) in spec.support {
        std::fs::write(support.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    for given in &options.support {
        // The grader's own file (`--support`), not the submission's.
        let name = given.file_name().ok_or_else(|| format!("--support {}: not a file", given.display()))?;
        std::fs::copy(given, support.join(name))
            .map_err(|e| format!("--support {}: {e}", given.display()))?;
    }
    // The submission's Python files are copied beside the host, so that the host reads them in
    // the folder the sandbox opens to it (`grade` hides every submission folder, the student's
    // own included, from the bots). Copied by the rule for a submission's files: a link is
    // followed only inside the submission's folder, and one leading out refuses the submission
    // (`untrusted`), so the copy never holds a file the student could not give.
    let copy = root.join("submission");
    let submission = Folder::open(folder).map_err(|e| e.to_string())?;
    let is_python = |p: &Path| p.extension().is_some_and(|e| e == "py");
    untrusted::copy_files(&submission, &copy, 1, &is_python, &untrusted::SOURCES)
        .map_err(|e| e.to_string())?;
    let folder = copy;
    let host = root.join("host").join("arbiter_host.py");
    std::fs::create_dir_all(root.join("host")).map_err(|e| e.to_string())?;
    std::fs::write(&host, PYTHON_HOST).map_err(|e| format!("cannot write the Python host: {e}"))?;
    build_folder::open_to_bots(&root)?;
    let line = format!(
        "{} -I -B {} {} {}",
        runner::quote(python.as_os_str()),
        runner::quote(host.as_os_str()),
        runner::quote(folder.as_os_str()),
        runner::quote(support.as_os_str()),
    );
    let command = BotCommand::parse_in(&line, &root).map_err(|e| e.to_string())?;
    Ok(Prepared { command, build })
}
