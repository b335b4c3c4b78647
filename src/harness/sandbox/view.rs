//! What a bot may see: the system's folders, its own folder alone, and the installation of
//! every interpreter it can reach, worked out once per bot command.
//!
//! A submission is a folder with a `run` file (or a command such as `python3 bot.py`). Its
//! folder is bound into the bot's new root by itself, never its parent, whatever it is named;
//! a program that is a symbolic link out of its own folder is refused. An interpreter is
//! followed to its installation prefix, so that it finds its standard library: the `#!` line of
//! the program, `env NAME`, and the interpreters the program's script names (python, java,
//! node, dotnet, mono, ruby, ...), through symbolic links, version-manager shims (pyenv), and
//! virtual environments (`pyvenv.cfg`'s `home`).
//!
//! Every hop of a chain of links is located for real: its folder is canonicalised by the kernel
//! (links and `..` resolved as `open` would resolve them), never normalised by hand, so that a
//! link such as `python3 -> d/../../source/bin/python3`, `d` itself a link, names the folder it
//! really reaches. The installations found are kept apart from the bot's own folders
//! ([`View`]): the sandbox refuses an installation that holds the submission or any of the
//! grader's folders. Files read here (scripts, `pyvenv.cfg`) are opened without following a
//! link at their last step.
//!
//! Also here: the bot's environment (an exact allow-list), and reading a failed bot's stderr for
//! paths the sandbox kept from it.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::PassEnv;
use crate::harness::runner::command::BotCommand;

/// The system folders every bot reads (when they exist): programs, libraries, configuration.
pub(crate) const SYSTEM: [&str; 9] =
    ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/nix/store"];

/// Commands taken for interpreters when a bot's script names them: their installations are
/// made readable. A name matches with a version after it (`python3.12`, `pypy3`).
const INTERPRETERS: [&str; 12] =
    ["python", "pypy", "java", "javac", "node", "nodejs", "dotnet", "mono", "ruby", "perl", "php", "Rscript"];

/// Variables that name a runtime's installation: passed to the bot; a script that runs
/// `$NAME/bin/java` (say) gets that installation.
const RUNTIME_HOMES: [&str; 7] =
    ["JAVA_HOME", "DOTNET_ROOT", "PYENV_ROOT", "VIRTUAL_ENV", "CONDA_PREFIX", "GOROOT", "NVM_DIR"];

/// Variables passed to every bot by exact name (with [`RUNTIME_HOMES`] and `LC_*`).
const PASSED: [&str; 12] = [
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "USER",
    "LOGNAME",
    "PYENV_VERSION",
    "CONDA_DEFAULT_ENV",
    "DOTNET_CLI_TELEMETRY_OPTOUT",
    "JAVA_TOOL_OPTIONS",
];

/// The biggest script read for the interpreters it runs.
const MAX_SCRIPT: u64 = 256 << 10;

/// Whether `path` is under one of the [`SYSTEM`] folders.
pub(crate) fn is_system(path: &Path) -> bool {
    SYSTEM.iter().any(|s| path.starts_with(s))
}

/// A bot command as a key: its program and arguments.
type CommandKey = (OsString, Vec<OsString>);

/// What each bot command may read, as worked out.
type Views = HashMap<CommandKey, Result<View, String>>;

/// What a bot may read besides the system folders, canonical paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct View {
    /// Its own folders: its program's folder, and the folders of files its command names.
    pub own: Vec<PathBuf>,
    /// Its interpreters' installations: (the installation, the interpreter that brought it).
    pub installs: Vec<(PathBuf, PathBuf)>,
}

impl View {
    /// Every folder, own folders first.
    pub(crate) fn all(&self) -> Vec<PathBuf> {
        let mut all = self.own.clone();
        for (install, _) in &self.installs {
            if !all.contains(install) {
                all.push(install.clone());
            }
        }
        all
    }
}

/// What `bot` may read besides the system folders: its own folder(s) and its interpreters'
/// installations, canonical paths. Worked out once per command and remembered.
pub(crate) fn readable(bot: &BotCommand) -> Result<View, String> {
    static CACHE: OnceLock<Mutex<Views>> = OnceLock::new();
    let key = (bot.program().to_os_string(), bot.args().to_vec());
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    let found = work_out(bot);
    cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, found.clone());
    found
}

fn work_out(bot: &BotCommand) -> Result<View, String> {
    let mut found = Found::default();
    let program = Path::new(bot.program());
    if !program.as_os_str().as_bytes().contains(&b'/') {
        // A bare name, looked up in PATH: an interpreter (`python3 bot.py`).
        if let Some(path) = which(program.as_os_str()) {
            found.runtime(&path, 0);
        }
    } else if is_system(program) || is_interpreter(program) {
        found.runtime(program, 0);
    } else {
        found.own_program(program)?;
    }
    for arg in bot.args() {
        let path = Path::new(arg);
        if !path.is_absolute() || is_system(path) {
            continue;
        }
        match path.canonicalize() {
            Ok(real) if real.is_dir() => found.add_own(real),
            Ok(real) => {
                if let Some(dir) = real.parent() {
                    found.add_own(dir.to_path_buf());
                }
            }
            Err(_) => {}
        }
    }
    Ok(found.view)
}

/// The folders found so far.
#[derive(Default)]
struct Found {
    view: View,
}

impl Found {
    /// Whether `path` is worth adding: not a system folder, the root, a home folder, or in
    /// already.
    fn wanted(&self, path: &Path) -> bool {
        path.parent().is_some()
            && !is_system(path)
            && !is_home(path)
            && !self.view.own.iter().any(|p| p == path)
            && !self.view.installs.iter().any(|(p, _)| p == path)
    }

    /// Adds one of the bot's own folders.
    fn add_own(&mut self, path: PathBuf) {
        if self.wanted(&path) {
            self.view.own.push(path);
        }
    }

    /// Adds the installation `path` of the interpreter `by`.
    fn add_install(&mut self, path: PathBuf, by: &Path) {
        if self.wanted(&path) {
            self.view.installs.push((path, by.to_path_buf()));
        }
    }

    /// The bot's own program: its folder alone, then whatever its `#!` line and its script
    /// run.
    fn own_program(&mut self, program: &Path) -> Result<(), String> {
        let folder = program.parent().ok_or("the bot's program has no folder")?;
        let real_folder = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
        // A missing program is left for the start to report.
        if let Ok(real) = program.canonicalize() {
            if real.parent() != Some(real_folder.as_path()) && !real.starts_with(&real_folder) {
                return Err(format!(
                    "{} is a symbolic link to {}, outside its own folder: the sandbox runs only the \
                     submission's own files (copy the file into the folder instead of linking it)",
                    program.display(),
                    real.display()
                ));
            }
            self.script(&real, 0);
        }
        self.add_own(real_folder);
        Ok(())
    }

    /// An interpreter at `path`: its installation, following links, shims and virtual
    /// environments; then its own `#!` interpreter (a shim is a script).
    fn runtime(&mut self, path: &Path, depth: usize) {
        if depth > 4 {
            return;
        }
        // Each hop where it really is: a link's target is taken from the link's real folder,
        // and the folder the target names is resolved by the kernel, so that `..` after a
        // link goes where `open` would go, not where the text of the path seems to.
        let mut hop = located(path);
        for _ in 0..16 {
            let Some(at) = hop else { break };
            self.install_of(&at, path, depth);
            let Ok(target) = fs::read_link(&at) else { break };
            let Some(dir) = at.parent() else { break };
            hop = located(&dir.join(target));
        }
        if let Ok(real) = path.canonicalize() {
            self.install_of(&real, path, depth);
            self.script(&real, depth + 1);
        }
    }

    /// The installation prefix of the program at `path` (whose folder is canonical): the
    /// folder above its `bin` (or `shims`) folder, else its own folder; and a virtual
    /// environment's base interpreter. `by` is the interpreter as the bot named it.
    fn install_of(&mut self, path: &Path, by: &Path, depth: usize) {
        if is_system(path) {
            return;
        }
        let Some(dir) = path.parent() else { return };
        let prefix = match (dir.file_name().and_then(|n| n.to_str()), dir.parent()) {
            (Some("bin" | "sbin" | "shims"), Some(up)) if up.parent().is_some() && !is_home(up) => up,
            _ => dir,
        };
        let Ok(prefix) = prefix.canonicalize() else { return };
        if !self.wanted(&prefix) {
            return;
        }
        self.add_install(prefix.clone(), by);
        if let Some(cfg) = read_no_follow(&prefix.join("pyvenv.cfg"))
            && let Some(home) = String::from_utf8_lossy(&cfg).lines().find_map(|l| {
                let (key, value) = l.split_once('=')?;
                (key.trim() == "home").then(|| PathBuf::from(value.trim()))
            })
            && home.is_absolute()
        {
            let base = home.join("python3");
            self.runtime(&base, depth + 1);
            if let Some(base) = located(&base) {
                self.install_of(&base, by, depth + 1);
            }
        }
    }

    /// The interpreters a script at `path` runs: its `#!` line (`env NAME` looked up in
    /// `PATH`), and every word of it that names an interpreter, by name or by path.
    fn script(&mut self, path: &Path, depth: usize) {
        let Some(bytes) = read_no_follow(path) else { return };
        if bytes.iter().take(512).any(|&b| b == 0) {
            return;
        }
        let text = String::from_utf8_lossy(&bytes);
        let mut first = true;
        for line in text.lines() {
            let line = line.trim_end_matches('\r');
            let words: Vec<&str> = if first && line.starts_with("#!") {
                line[2..].split_whitespace().collect()
            } else if line.trim_start().starts_with('#') {
                first = false;
                continue;
            } else {
                line.split(|c: char| c.is_whitespace() || ";|&()`\"'<>=".contains(c)).collect()
            };
            // The program's own `#!` interpreter is declared, whatever its name.
            if first
                && let Some(interpreter) = words.first().map(Path::new)
                && interpreter.is_absolute()
                && !is_system(interpreter)
            {
                self.runtime(interpreter, depth + 1);
            }
            first = false;
            for word in words {
                self.word(word, depth);
            }
        }
    }

    /// One word of a script: an interpreter, by name or by path.
    fn word(&mut self, word: &str, depth: usize) {
        let expanded = expand(word);
        // Only interpreters: a script naming any program by its path would open that
        // program's folder (a classmate's, say).
        if expanded.is_absolute() {
            if is_interpreter(&expanded) && is_executable(&expanded) {
                self.runtime(&expanded, depth + 1);
            }
        } else if !word.contains('/')
            && is_interpreter(Path::new(word))
            && let Some(path) = which(word.as_ref())
        {
            self.runtime(&path, depth + 1);
        }
    }
}

/// Where `path` really is: its folder canonical, its own name kept (it may be a link, whose
/// target is the next hop); `None` if its folder does not exist.
fn located(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let dir = path.parent()?.canonicalize().ok()?;
    Some(dir.join(name))
}

/// The contents of the regular file at `path`, at most [`MAX_SCRIPT`] bytes, opened without
/// following a link at its last step; `None` for anything else.
fn read_no_follow(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_SCRIPT {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// `word` with a leading `~/`, `$HOME/` or runtime variable (`$JAVA_HOME/`, `${VIRTUAL_ENV}/`)
/// replaced by its value in arbiter's environment.
fn expand(word: &str) -> PathBuf {
    let home = |name: &str| std::env::var_os(name).map(PathBuf::from);
    if let Some(rest) = word.strip_prefix("~/")
        && let Some(dir) = home("HOME")
    {
        return dir.join(rest);
    }
    for name in RUNTIME_HOMES.iter().chain(&["HOME"]) {
        for form in [format!("${name}/"), format!("${{{name}}}/")] {
            if let Some(rest) = word.strip_prefix(&form)
                && let Some(dir) = home(name)
            {
                return dir.join(rest);
            }
        }
    }
    PathBuf::from(word)
}

/// Whether the file name of `path` is an interpreter's, a version number allowed after it.
fn is_interpreter(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    INTERPRETERS.iter().any(|i| {
        name.strip_prefix(i).is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}

/// Whether `path` is a home folder itself (`/root`, `/home/NAME`, `$HOME`): never bound whole.
fn is_home(path: &Path) -> bool {
    path == Path::new("/root")
        || path == Path::new("/home")
        || path.parent() == Some(Path::new("/home"))
        || std::env::var_os("HOME").is_some_and(|h| Path::new(&h) == path)
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `name` looked up in `PATH`.
fn which(name: &std::ffi::OsStr) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| is_executable(p))
}

/// `path` without `.` and with `..` taken back lexically: only for words of a bot's stderr,
/// compared with what the bot could see (never to decide what it may see).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The bot's environment: the allow-listed variables arbiter has, `LC_*`, and `--env`.
pub(crate) fn environment(extra: &[PassEnv]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(name, _)| {
            let name = name.to_string_lossy();
            PASSED.contains(&name.as_ref())
                || RUNTIME_HOMES.contains(&name.as_ref())
                || name.starts_with("LC_")
        })
        .collect();
    for pass in extra {
        env.retain(|(n, _)| n.as_bytes() != pass.name.as_bytes());
        let value = match &pass.value {
            Some(v) => Some(OsString::from(v)),
            None => std::env::var_os(&pass.name),
        };
        if let Some(value) = value {
            env.push((OsString::from(&pass.name), value));
        }
    }
    env
}

/// Words in a bot's stderr that say a file could not be opened.
const DENIED: [&str; 7] = [
    "Permission denied",
    "EACCES",
    "No such file or directory",
    "ENOENT",
    "cannot open",
    "can't open",
    "not found",
];

/// The paths a failed bot's stderr names that exist outside the sandbox but not in its view
/// (`seen`: what it could read besides the system folders), each with the folder to allow;
/// at most three. Hidden paths (the grader's answers, arbiter itself) are never suggested: each
/// comes back with no folder to allow, so that the report can say it is the grader's.
pub(crate) fn denied_paths(
    stderr: &str,
    seen: &[PathBuf],
    hidden: &[PathBuf],
) -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut found: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mentions_denial = DENIED.iter().any(|d| stderr.contains(d));
    let python_paths = stderr.contains("Fatal Python error") || stderr.contains("sys.base_prefix");
    if !mentions_denial && !python_paths {
        return found;
    }
    for word in stderr.split(|c: char| c.is_whitespace() || "'\"`,;()[]{}<>=".contains(c)) {
        let word = word.trim_end_matches([':', '.']);
        if !word.starts_with('/') || word.len() < 2 {
            continue;
        }
        let path = normalize(Path::new(word));
        let visible = is_system(&path)
            || seen.iter().any(|s| path.starts_with(s))
            || path.starts_with("/proc")
            || path.starts_with("/dev");
        if visible || path.symlink_metadata().is_err() {
            continue;
        }
        let allow = if hidden.iter().any(|h| path.starts_with(h)) {
            None
        } else if path.is_dir() {
            Some(path.clone())
        } else {
            Some(path.parent().unwrap_or(&path).to_path_buf())
        };
        let known = found.iter().any(|(p, a)| if allow.is_some() { *a == allow } else { *p == path });
        if !known && found.len() < 3 {
            found.push((path, allow));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str, mode: u32) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// A temporary folder and its canonical path: what `work_out` returns is compared with
    /// paths below it, and the temporary folder may itself be reached through a link.
    fn temp_root() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        (dir, root)
    }

    /// What the bot whose command is the file `run` (typed in `root`) may read.
    fn work_out_run(run: &Path, root: &Path) -> Result<View, String> {
        work_out(&BotCommand::parse_in(&run.display().to_string(), root).unwrap())
    }

    #[test]
    fn a_submission_folder_named_bin_brings_only_itself() {
        let (_dir, root) = temp_root();
        write(&root.join("class/bin/run"), "#!/bin/sh\necho hi\n", 0o755);
        write(&root.join("class/bob/run"), "#!/bin/sh\n", 0o755);
        let found = work_out_run(&root.join("class/bin/run"), &root).unwrap();
        assert_eq!(found.all(), vec![root.join("class/bin")]);
    }

    #[test]
    fn a_run_linked_out_of_its_folder_is_refused() {
        let (_dir, root) = temp_root();
        write(&root.join("class/bob/run"), "#!/bin/sh\n", 0o755);
        fs::create_dir_all(root.join("class/eve")).unwrap();
        std::os::unix::fs::symlink(root.join("class/bob/run"), root.join("class/eve/run")).unwrap();
        let why = work_out_run(&root.join("class/eve/run"), &root).unwrap_err();
        assert!(why.contains("symbolic link") && why.contains("outside its own folder"), "{why}");
    }

    #[test]
    fn an_interpreter_brings_its_installation_and_a_venv_its_base() {
        let (_dir, root) = temp_root();
        let base = root.join("opt/python3.12");
        write(&base.join("bin/python3"), "", 0o755);
        let venv = root.join("work/venv");
        fs::create_dir_all(venv.join("bin")).unwrap();
        std::os::unix::fs::symlink(base.join("bin/python3"), venv.join("bin/python")).unwrap();
        fs::write(venv.join("pyvenv.cfg"), format!("home = {}\n", base.join("bin").display())).unwrap();
        let run = format!("#!/bin/sh\nexec {}/bin/python bot.py \"$@\"\n", venv.display());
        write(&root.join("sub/run"), &run, 0o755);
        let found = work_out_run(&root.join("sub/run"), &root).unwrap().all();
        for want in [root.join("sub"), venv, base] {
            assert!(found.contains(&want), "{want:?} not in {found:?}");
        }
    }

    /// Issue 30, item 2: `python3 -> d/../../source/bin/python3` with `d` a link inside the
    /// submission reads, lexically, as the grader's `source/bin/python3`; for real it is the
    /// submission's own `source/bin/python3`. Only the real one may be bound.
    #[test]
    fn a_link_chain_is_followed_for_real_not_by_its_text() {
        let (_dir, root) = temp_root();
        // The grader's course folder, which has an installation-like `bin`.
        write(&root.join("autograder/source/bin/python3"), "", 0o755);
        write(&root.join("autograder/source/golden/answers.json"), "{}", 0o644);
        let sub = root.join("autograder/submission");
        write(&sub.join("source/bin/python3"), "#!/bin/sh\n", 0o755);
        fs::create_dir_all(sub.join("x/y")).unwrap();
        std::os::unix::fs::symlink("x/y", sub.join("d")).unwrap();
        std::os::unix::fs::symlink("d/../../source/bin/python3", sub.join("python3")).unwrap();
        let run = format!("#!/bin/sh\nexec {} bot.py\n", sub.join("python3").display());
        write(&sub.join("run"), &run, 0o755);
        let found = work_out_run(&sub.join("run"), &root).unwrap();
        let all = found.all();
        assert!(!all.iter().any(|p| p.starts_with(root.join("autograder/source"))), "{found:?}");
        assert!(!all.contains(&root.join("autograder")), "{found:?}");
        assert!(all.contains(&sub.join("source")), "the real installation: {found:?}");
    }

    #[test]
    fn interpreter_names_match_with_versions() {
        assert!(is_interpreter(Path::new("python3.12")));
        assert!(is_interpreter(Path::new("/usr/bin/java")));
        assert!(!is_interpreter(Path::new("pythonic")));
        assert!(!is_interpreter(Path::new("cat")));
    }

    #[test]
    fn a_denied_path_that_exists_outside_is_named_with_its_option() {
        let (_dir, root) = temp_root();
        write(&root.join("data/table.bin"), "x", 0o644);
        let stderr = format!(
            "Traceback ...\nPermissionError: [Errno 13] Permission denied: '{}'\n",
            root.join("data/table.bin").display()
        );
        let found = denied_paths(&stderr, &[], &[]);
        assert_eq!(found, vec![(root.join("data/table.bin"), Some(root.join("data")))]);
        assert!(denied_paths(&stderr, &[root.join("data")], &[]).is_empty());
        assert_eq!(
            denied_paths(&stderr, &[], std::slice::from_ref(&root)),
            vec![(root.join("data/table.bin"), None)],
            "hidden paths are named as the grader's, never suggested"
        );
        assert!(denied_paths("all fine", &[], &[]).is_empty());
    }

    #[test]
    fn the_environment_is_an_exact_allow_list() {
        let env = environment(&[
            PassEnv { name: "ARBITER_TEST_GIVEN".into(), value: Some("1".into()) },
            PassEnv { name: "ARBITER_TEST_ABSENT".into(), value: None },
        ]);
        let names: Vec<String> = env.iter().map(|(n, _)| n.to_string_lossy().into_owned()).collect();
        assert!(names.contains(&"ARBITER_TEST_GIVEN".to_string()), "{names:?}");
        assert!(!names.contains(&"ARBITER_TEST_ABSENT".to_string()));
        for name in &names {
            let allowed = PASSED.contains(&name.as_str())
                || RUNTIME_HOMES.contains(&name.as_str())
                || name.starts_with("LC_")
                || name == "ARBITER_TEST_GIVEN";
            assert!(allowed, "{name} reached the bot");
        }
    }
}
