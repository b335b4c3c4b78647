//! What the sandbox is asked to do: how strongly ([`Mode`]), what it hides and allows
//! ([`Policy`]), and which environment variables bots get ([`PassEnv`]). Plain settings, kept
//! apart so that the runner's limits can hold them without reaching the sandbox itself.

use std::path::PathBuf;

/// How strongly bots are confined. The command line defaults to `auto`; the library's
/// [`Policy::default`] is `off`, because the sandbox re-executes the running program as its
/// helper, and only the `arbiter` binary is one (a library user sets [`Policy::helper`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// No sandbox: a session of its own, resource limits, the process group killed at the end.
    #[default]
    Off,
    /// The strongest sandbox this kernel allows; the report says what that was.
    Auto,
    /// Refuse to run bots without namespaces, a new root, Landlock and a cgroup.
    Strict,
}

/// An environment variable passed to bots (`--env NAME` or `--env NAME=VALUE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassEnv {
    /// The variable's name.
    pub name: String,
    /// Its value; `None` passes arbiter's own value (if it has one).
    pub value: Option<String>,
}

/// Written into `grade.json`'s settings as `NAME` or `NAME=(set)`: a value given on the
/// command line may be a secret, and the settings file is kept beside the reports.
impl serde::Serialize for PassEnv {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Some(_) => serializer.serialize_str(&format!("{}=(set)", self.name)),
            None => serializer.serialize_str(&self.name),
        }
    }
}

impl std::str::FromStr for PassEnv {
    type Err = String;

    fn from_str(text: &str) -> Result<PassEnv, String> {
        let (name, value) = match text.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (text, None),
        };
        let valid = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(format!(
                "`{name}` is not a variable name (letters, digits and _, not starting with a digit)"
            ));
        }
        Ok(PassEnv { name: name.to_string(), value })
    }
}

/// What the sandbox needs to know besides the per-process limits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    pub mode: Mode,
    /// Paths no bot may see even where a folder it may read holds them: the corpus, golden
    /// answers, reports. arbiter's own executable is always added.
    pub hidden: Vec<PathBuf>,
    /// The executable to run as the helper (arbiter itself); `None` means this process's own.
    pub helper: Option<PathBuf>,
    /// Folders (or files) every bot may also read (`--allow-read`).
    pub allow_read: Vec<PathBuf>,
    /// Environment variables passed to every bot besides the allow-listed ones (`--env`).
    pub env: Vec<PassEnv>,
}
