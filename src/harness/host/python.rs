//! Python submissions: arbiter's host and the support files placed beside the module, and the
//! command that hosts it.

use std::path::Path;

use super::hosted::HostOptions;
use super::spec::{PYTHON_HOST, PythonSpec};
use super::tools;
use crate::harness::runner::{self, BotCommand, Limits};

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
    let folder = folder.canonicalize().map_err(|e| format!("{}: {e}", folder.display()))?;
    let build = tempfile::Builder::new()
        .prefix("arbiter-python-")
        .tempdir()
        .map_err(|e| format!("arbiter could not make a temporary folder: {e}"))?;
    let root = build.path().canonicalize().map_err(|e| e.to_string())?;
    let support = root.join("support");
    std::fs::create_dir_all(&support).map_err(|e| e.to_string())?;
    for (name, text) in spec.support {
        std::fs::write(support.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    for given in &options.support {
        let name = given.file_name().ok_or_else(|| format!("--support {}: not a file", given.display()))?;
        std::fs::copy(given, support.join(name))
            .map_err(|e| format!("--support {}: {e}", given.display()))?;
    }
    // The submission's Python files are copied beside the host, so that the host reads them in
    // the folder the sandbox opens to it (`grade` hides every submission folder, the student's
    // own included, from the bots).
    let copy = root.join("submission");
    std::fs::create_dir_all(&copy).map_err(|e| e.to_string())?;
    let entries = std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&path, copy.join(entry.file_name()))
                .map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    let folder = copy;
    let host = root.join("host").join("arbiter_host.py");
    std::fs::create_dir_all(root.join("host")).map_err(|e| e.to_string())?;
    std::fs::write(&host, PYTHON_HOST).map_err(|e| format!("cannot write the Python host: {e}"))?;
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
