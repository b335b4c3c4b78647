//! Finding and opening submissions: the folders and commands named on the command line, each
//! submission's bot (or why it is refused before any case runs), its answer to `BOT name`, and
//! its own options (`arbiter.toml`, `--overrides`) laid over the class's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::harness::bot::{Bot, check_submission_program};
use crate::harness::referee::{Protocol, Referee};
use crate::harness::runner::{self, BotCommand, Outcome};
use crate::harness::submission_options::SubmissionOptions;
use crate::harness::verify::VerifyOptions;

use super::setup::Setup;

/// The file in a submission folder that is run as its bot.
pub const RUN_FILE: &str = "run";
/// Longest wait for a bot's answer to `BOT name`.
pub const NAME_TIMEOUT: Duration = Duration::from_secs(2);

/// One submission of a class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The name of its row and of its report folder: the folder's name, or the command made
    /// safe as a file name.
    pub name: String,
    /// What was given on the command line.
    pub given: String,
    /// The folder holding `run`, when the submission is a folder.
    pub folder: Option<PathBuf>,
}

/// A name safe as a folder name and a spreadsheet cell: letters, digits, `.`, `_` and `-`,
/// anything else `_`, never starting with `.` or `-`, at most 80 characters.
pub fn safe_name(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .take(80)
        .collect();
    if name.starts_with(['.', '-']) || name.is_empty() {
        name.insert(0, '_');
    }
    name
}

/// The submissions named on the command line, sorted by name, and a note for each name that
/// is skipped. A folder (an existing directory) is a submission named after it; an existing
/// file is a submission (a bot program given directly) only if it is executable, and otherwise
/// a stray file among the submissions (a README, a spreadsheet, an archive) that is skipped
/// with a note rather than graded as a bot; anything else is a bot command. Two submissions
/// with the same name are an error naming both.
pub fn submissions(given: &[String]) -> Result<(Vec<Submission>, Vec<String>), String> {
    let mut list: Vec<Submission> = Vec::new();
    let mut skipped = Vec::new();
    for g in given {
        let path = Path::new(g);
        let submission = if path.is_dir() {
            // `.` or `../x/` have a name only once made absolute.
            let absolute =
                std::fs::canonicalize(path).map_err(|e| format!("cannot read the folder {g}: {e}"))?;
            let base = absolute.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Submission { name: safe_name(&base), given: g.clone(), folder: Some(absolute) }
        } else if path.symlink_metadata().is_ok() && !crate::harness::bot::is_executable(path) {
            skipped.push(format!(
                "{g} is a file, not a submission: a submission is a folder with a `{RUN_FILE}` file, an executable program, or a bot command"
            ));
            continue;
        } else {
            Submission { name: safe_name(g), given: g.clone(), folder: None }
        };
        if let Some(other) = list.iter().find(|s| s.name == submission.name) {
            return Err(format!(
                "two submissions would share the name `{}`: `{}` and `{}` (rename a folder)",
                submission.name, other.given, submission.given
            ));
        }
        list.push(submission);
    }
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((list, skipped))
}

/// The submission's bot, and why it is refused if it cannot be started (see
/// [`crate::harness::bot::check_command`]: a missing program or script, no execute bit, a `#!` line
/// naming no interpreter or ending in a carriage return). The bot is made even when refused, so
/// that its reports can show the command a student would run.
pub fn open_bot(
    submission: &Submission,
    referee: &dyn Referee,
    limits: &runner::Limits,
    host: &crate::harness::host::HostOptions,
) -> Result<(Bot, Option<String>), String> {
    if Bot::needs_open(&submission.given, referee) {
        // A hosted game's submission is the folder itself (Java sources, a Python module):
        // compiled and loaded here, refused with the compiler's or the import's words.
        let given = submission.folder.as_ref().map_or(submission.given.clone(), |f| f.display().to_string());
        return match Bot::open(&given, referee, limits, host) {
            Ok(bot) => Ok((bot, None)),
            Err(why) => {
                let placeholder = BotCommand::parse(&runner::quote(given.as_ref()))
                    .map_err(|e| format!("cannot name the submission {given}: {e}"))?;
                Ok((Bot::Command(placeholder, referee.protocol()), Some(why)))
            }
        };
    }
    let Some(folder) = &submission.folder else {
        // A command: `builtin:NAME` or a program, checked as `verify` checks it.
        return match Bot::parse(&submission.given, referee) {
            Ok(Bot::Command(command, protocol)) => {
                let refusal = crate::harness::sandbox::refusal(&command, limits);
                Ok((Bot::Command(command, protocol), refusal))
            }
            Ok(bot) => Ok((bot, None)),
            Err(why) => match BotCommand::parse(&submission.given) {
                Ok(command) => Ok((Bot::Command(command, referee.protocol()), Some(why))),
                Err(_) => Err(why),
            },
        };
    };
    let run = folder.join(RUN_FILE);
    // Typed as a student types it in their folder, so that reproduce lines say `./run`.
    let command = BotCommand::parse_in(&format!("./{RUN_FILE}"), folder)
        .map_err(|e| format!("cannot make a command of {}: {e}", run.display()))?;
    // The submission's own file: found without following a link out of its folder; then
    // whether the sandbox will run it at all.
    let refusal = check_submission_program(folder, RUN_FILE)
        .err()
        .or_else(|| crate::harness::sandbox::refusal(&command, limits));
    Ok((Bot::Command(command, referee.protocol()), refusal))
}

/// The bot's answer to `BOT name` (games whose bots take arguments only), at most
/// [`NAME_TIMEOUT`] or the move timeout if shorter: its first line, control characters escaped,
/// at most 64 characters; empty if it gave none. A hosted bot's name is the `name` its game's
/// first calls return (a Java strategy's `getName()`), else its module's or folder's own name,
/// never the folder argument (`.`) as typed.
pub fn bot_name(bot: &Bot, referee: &dyn Referee, limits: &runner::Limits) -> String {
    let name = match bot {
        Bot::Builtin { bot, .. } => bot.name(),
        Bot::Hosted(hosted) => hosted_name(hosted, referee, limits),
        Bot::Command(_, Protocol::FixedFiles { .. } | Protocol::Hosted(_)) => return String::new(),
        Bot::Command(command, Protocol::SideInOut) => {
            let Ok(dir) = tempfile::Builder::new().prefix("arbiter-name-").tempdir() else {
                return String::new();
            };
            let mut limits = limits.clone();
            limits.timeout = limits.timeout.min(NAME_TIMEOUT);
            let report = runner::run(command, &["name".into()], dir.path(), &limits);
            if report.outcome != Outcome::Exited(0) {
                return String::new();
            }
            String::from_utf8_lossy(&report.stdout).lines().next().unwrap_or_default().trim().to_string()
        }
    };
    crate::harness::escape::escape_controls(&name).chars().take(64).collect()
}

/// A hosted bot's name: the `name` field of what the game's start calls return, or else the
/// last part of the path it was given (the folder's real name for `.`), without `.py`/`.java`.
fn hosted_name(
    hosted: &crate::harness::host::HostedBot,
    referee: &dyn Referee,
    limits: &runner::Limits,
) -> String {
    let greeted = referee.games().and_then(|games| {
        let game = games.new_game_seeded(None, 0).ok()?;
        let calls = game.host_start(crate::side::Side::White);
        if calls.is_empty() {
            return None;
        }
        // The full move limit: a fresh host may have to load the submission first.
        let run = hosted.run_script(&calls, limits);
        let name = run.calls.last()?.value()?.get("name")?.as_str()?.trim().to_string();
        (!name.is_empty()).then_some(name)
    });
    greeted.unwrap_or_else(|| path_name(&hosted.label))
}

/// The name a path gives a bot: its last part, with `.` and `..` resolved, without extension.
fn path_name(given: &str) -> String {
    let given = given.split('#').next().unwrap_or(given);
    let path = std::path::Path::new(given);
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The submission's own options (see [`crate::harness::submission_options`]), or why they cannot be
/// used: a refusal.
pub fn submission_options(submission: &Submission, setup: &Setup) -> Result<SubmissionOptions, String> {
    let from_file = match &submission.folder {
        Some(folder) => SubmissionOptions::from_folder(folder, setup.timeout_cap)?,
        None => SubmissionOptions::default(),
    };
    from_file.with_overrides(&setup.overrides, &submission.name)
}

/// Why the submission will be refused before any case runs, if it will: its program cannot
/// start, or its options cannot be read. Cheap: nothing is run.
pub fn precheck(submission: &Submission, setup: &Setup) -> Option<String> {
    if Bot::needs_open(&submission.given, setup.referee) {
        // A hosted submission is checked by compiling and loading it, which is not cheap: that
        // happens when it is graded.
        return submission_options(submission, setup).err();
    }
    let refusal = match open_bot(submission, setup.referee, &setup.options.limits, &setup.host) {
        Ok((_, refusal)) => refusal,
        Err(e) => Some(e),
    };
    refusal.or_else(|| submission_options(submission, setup).err())
}

/// `options` with a submission's own laid over them.
pub(super) fn apply(options: &VerifyOptions, own: &SubmissionOptions) -> VerifyOptions {
    let mut options = options.clone();
    if let Some(s) = &own.same_file {
        options.same_file = s.value;
        if s.value {
            options.create_output = false;
        }
    }
    if let Some(s) = &own.create_output {
        options.create_output = s.value;
        if s.value {
            options.same_file = false;
        }
    }
    if let Some(s) = &own.timeout {
        options.limits.timeout = Duration::from_secs_f64(s.value);
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_are_plain_file_names() {
        assert_eq!(safe_name("alice"), "alice");
        assert_eq!(safe_name("Alice Smith"), "Alice_Smith");
        assert_eq!(safe_name("../etc"), "_.._etc");
        assert_eq!(safe_name("-rf"), "_-rf");
        assert_eq!(safe_name("=HYPERLINK(1)"), "_HYPERLINK_1_");
        assert_eq!(safe_name(""), "_");
        assert_eq!(safe_name(&"x".repeat(200)).len(), 80);
    }

    #[test]
    fn a_hosted_bot_given_as_a_path_is_named_by_its_last_part_never_dot() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("alice_player");
        std::fs::create_dir(&folder).unwrap();
        let dotted = format!("{}/.", folder.display());
        assert_eq!(path_name(&dotted), "alice_player");
        assert_eq!(path_name("some/where/a1.py"), "a1");
        assert_eq!(path_name("AI1_obf.jar#pkg.Class"), "AI1_obf");
        assert_ne!(path_name("."), ".");
    }
}
