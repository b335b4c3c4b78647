//! The command line that starts a bot, as the user typed it and as it is actually run.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Why a user's bot command could not be understood.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The command was empty or only whitespace.
    #[error("the bot command is empty")]
    Empty,
    /// The command could not be split into words, e.g. an unclosed quote.
    #[error("cannot split the bot command {command:?} into words: {source}")]
    BadQuoting {
        /// The command as given.
        command: String,
        /// What shell-words found wrong with it.
        source: shell_words::ParseError,
    },
    /// The directory arbiter was started from could not be found, so relative paths cannot be
    /// resolved.
    #[error("cannot read the current directory to resolve the bot command: {0}")]
    CurrentDir(#[source] io::Error),
}

/// A bot's command line, e.g. `python3 bot.py --fast`, ready to be run from any directory.
///
/// The user writes the command relative to the directory they start arbiter from, but the bot
/// runs in a scratch directory of its own, so relative paths are made absolute when the
/// command is parsed:
///
/// - the program, if it contains a `/` (`./bot`, `build/bot`); a bare name such as `python3`
///   is left for the `PATH` lookup;
/// - any argument that names an existing file or directory relative to that directory
///   (`bot.py`, `data/`), except arguments starting with `-`, which are options even if a file
///   of that name happens to exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCommand {
    original: String,
    program: OsString,
    args: Vec<OsString>,
    /// Files placed in the bot's folder before each of its runs (Pente's `calibration.txt`).
    files: Vec<(String, Vec<u8>)>,
}

impl BotCommand {
    /// Parses a command with shell quoting rules, resolving relative paths against the current
    /// directory of this process.
    pub fn parse(command: &str) -> Result<BotCommand, CommandError> {
        let base = std::env::current_dir().map_err(CommandError::CurrentDir)?;
        BotCommand::parse_in(command, &base)
    }

    /// Parses a command with shell quoting rules, resolving relative paths against `base`
    /// instead of the current directory.
    pub fn parse_in(command: &str, base: &Path) -> Result<BotCommand, CommandError> {
        let words = shell_words::split(command)
            .map_err(|source| CommandError::BadQuoting { command: command.to_owned(), source })?;
        let mut words = words.into_iter();
        let program = words.next().ok_or(CommandError::Empty)?;
        if program.is_empty() {
            // `""` splits into one empty word, which no exec can run; treating it as empty
            // gives a clearer message than "No such file or directory" later.
            return Err(CommandError::Empty);
        }
        let program = if program.contains('/') {
            absolute(base, Path::new(&program)).into_os_string()
        } else {
            OsString::from(program)
        };
        let args = words.map(|arg| resolve_arg(base, arg)).collect();
        Ok(BotCommand { original: command.to_owned(), program, args, files: Vec::new() })
    }

    /// The command with `name` placed in its folder, holding `bytes`, before each run.
    pub fn with_file(mut self, name: &str, bytes: Vec<u8>) -> BotCommand {
        self.files.retain(|(n, _)| n != name);
        self.files.push((name.to_string(), bytes));
        self
    }

    /// The files placed in the bot's folder before each run.
    pub fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// The command exactly as the user gave it, for display.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// The program to run: an absolute path, or a bare name looked up in `PATH`.
    pub fn program(&self) -> &OsStr {
        &self.program
    }

    /// The command's own arguments, with relative paths resolved; the runner appends the
    /// per-run arguments (side, board files) after these.
    pub fn args(&self) -> &[OsString] {
        &self.args
    }

    /// A one-line shell command that reproduces a run of this command with `extra_args` in
    /// `cwd`, for pasting into a terminal: `cd DIR && PROGRAM ARGS... </dev/null`.
    ///
    /// Every word is quoted for POSIX shells. Stdin is redirected from `/dev/null` because that
    /// is what the bot got. Words that are not valid UTF-8 are shown with replacement
    /// characters, so such a line is only an approximation.
    pub fn reproduce(&self, extra_args: &[OsString], cwd: &Path) -> String {
        format!("cd {} && {} </dev/null", quote(cwd.as_os_str()), self.command_line(extra_args))
    }

    /// The program and its arguments, then `extra_args`, each quoted for a POSIX shell.
    pub fn command_line(&self, extra_args: &[OsString]) -> String {
        let words: Vec<String> = std::iter::once(&self.program)
            .chain(self.args.iter())
            .chain(extra_args)
            .map(|w| quote(w))
            .collect();
        words.join(" ")
    }
}

impl fmt::Display for BotCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.original)
    }
}

/// Makes `arg` absolute if it names something that exists relative to `base`.
fn resolve_arg(base: &Path, arg: String) -> OsString {
    // An empty word would join to `base` itself and so "exist"; an option is never a path.
    if arg.is_empty() || arg.starts_with('-') {
        return OsString::from(arg);
    }
    let path = Path::new(&arg);
    if path.is_absolute() {
        return OsString::from(arg);
    }
    let candidate = absolute(base, path);
    if candidate.exists() { candidate.into_os_string() } else { OsString::from(arg) }
}

/// `base` joined with `path`, without the `.` components (`./bot` becomes `BASE/bot`).
///
/// `..` is kept: removing it lexically would be wrong when `base` contains symbolic links.
fn absolute(base: &Path, path: &Path) -> PathBuf {
    base.join(path).components().filter(|c| !matches!(c, Component::CurDir)).collect()
}

/// Quotes one word for a POSIX shell.
pub fn quote(word: &OsStr) -> String {
    shell_words::quote(&word.to_string_lossy()).into_owned()
}
