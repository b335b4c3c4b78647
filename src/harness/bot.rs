//! The bot under test: an outside command, or one of the game's built-in bots.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use super::referee::{BuiltinBot, Protocol, Referee};
use super::runner::{self, BotCommand, Limits, Outcome, RunReport, quote};
use crate::side::Side;

/// A bot, as named on the command line: `builtin:NAME` or a command.
pub enum Bot {
    /// A program, run as its game's protocol says: `COMMAND ARGS... <side> <in> <out>` for
    /// Advance, `COMMAND ARGS...` reading `input.txt` for Pente.
    Command(BotCommand, Protocol),
    /// One of the game's bots, run inside arbiter.
    Builtin { name: String, bot: Box<dyn BuiltinBot>, game_args: Vec<String> },
}

/// How one move by a bot went, as far as running it is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// How the process ended (a built-in bot "exits" 0, or 1 with its error on stderr).
    pub outcome: Outcome,
    /// One line: "exited with status 0", "timed out after 10 s", ...
    pub description: String,
    /// The last lines the bot wrote to stderr.
    pub stderr_tail: String,
    /// The start of what it wrote to stdout.
    pub stdout_head: String,
    pub elapsed: Duration,
    /// CPU time of the bot's whole process tree, when the runner could measure it.
    pub cpu: Option<Duration>,
}

impl Played {
    /// The seconds a clock is charged for this move: CPU time of the whole process tree where
    /// known (as the Pente graders measure), else wall time.
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu.unwrap_or(self.elapsed).as_secs_f64()
    }

    /// The bot ended in a way that is not a normal exit with status 0.
    pub fn failed(&self) -> bool {
        self.outcome != Outcome::Exited(0)
    }

    fn from_report(report: &RunReport) -> Played {
        let stdout = String::from_utf8_lossy(&report.stdout);
        Played {
            outcome: report.outcome.clone(),
            description: report.describe(),
            stderr_tail: report.stderr_tail(8),
            stdout_head: stdout.lines().take(8).collect::<Vec<_>>().join("\n"),
            elapsed: report.elapsed,
            cpu: report.cpu_time,
        }
    }
}

impl Bot {
    /// Reads a bot specification. `builtin:NAME` names one of `referee`'s bots; anything else is
    /// a command, whose program must exist.
    pub fn parse(spec: &str, referee: &dyn Referee) -> Result<Bot, String> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            return match referee.builtin(name) {
                Some(bot) => Ok(Bot::Builtin { name: name.to_string(), bot, game_args: referee.game_args() }),
                None => Err(format!(
                    "there is no built-in bot `{name}`; the built-in bots are {}",
                    referee
                        .builtin_names()
                        .iter()
                        .map(|n| format!("builtin:{n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
        }
        let command =
            BotCommand::parse(spec).map_err(|e| format!("cannot read the bot command `{spec}`: {e}"))?;
        check_program(command.program())?;
        Ok(Bot::Command(command, referee.protocol()))
    }

    /// How reports name the bot.
    pub fn label(&self) -> String {
        match self {
            Bot::Command(c, _) => c.original().to_string(),
            Bot::Builtin { name, .. } => format!("builtin:{name}"),
        }
    }

    /// Plays one move: runs the bot in `dir` with the assignment's arguments (`side`, `input`,
    /// `output`, relative to `dir`). Built-in bots read and write the same files, in-process.
    pub fn play(
        &self,
        side: Side,
        dir: &Path,
        input: &str,
        output: &str,
        limits: &Limits,
        seed: u64,
    ) -> Played {
        match self {
            Bot::Command(command, protocol) => {
                let args = arguments(protocol, side, input, output);
                Played::from_report(&runner::run(command, &args, dir, limits))
            }
            Bot::Builtin { bot, .. } => {
                let start = Instant::now();
                let result = std::fs::read(dir.join(input))
                    .map_err(|e| format!("cannot read {input}: {e}"))
                    .and_then(|bytes| bot.play(&bytes, input, side, seed))
                    .and_then(|board| {
                        std::fs::write(dir.join(output), board)
                            .map_err(|e| format!("cannot write {output}: {e}"))
                    });
                let (outcome, stderr) = match result {
                    Ok(()) => (Outcome::Exited(0), String::new()),
                    Err(e) => (Outcome::Exited(1), e),
                };
                let description = match outcome {
                    Outcome::Exited(0) => "exited with status 0".to_string(),
                    _ => "exited with status 1".to_string(),
                };
                Played {
                    outcome,
                    description,
                    stderr_tail: stderr,
                    stdout_head: String::new(),
                    elapsed: start.elapsed(),
                    cpu: None,
                }
            }
        }
    }

    /// A shell command that plays the same move as [`Bot::play`] from the current folder.
    pub fn command_line(&self, side: Side, input: &str, output: &str, seed: u64) -> String {
        let protocol = match self {
            Bot::Command(_, protocol) => protocol.clone(),
            Bot::Builtin { .. } => Protocol::SideInOut,
        };
        self.as_command(seed).command_line(&arguments(&protocol, side, input, output))
    }

    /// The bot as a command with the assignment's interface: itself, or for a built-in bot
    /// `arbiter bot --builtin NAME --seed S`.
    pub fn as_command(&self, seed: u64) -> BotCommand {
        match self {
            Bot::Command(command, _) => command.clone(),
            Bot::Builtin { name, game_args, .. } => {
                let exe =
                    std::env::current_exe().map(|p| p.into_os_string()).unwrap_or_else(|_| "arbiter".into());
                let game: String = game_args.iter().map(|a| format!(" {a}")).collect();
                let line = format!("{}{game} bot --builtin {name} --seed {seed}", quote(&exe));
                BotCommand::parse(&line).expect("a quoted path and plain words always parse")
            }
        }
    }
}

/// The arguments a bot gets after its own: the side and the files for Advance's protocol,
/// nothing for a game whose bots find their files by name.
fn arguments(protocol: &Protocol, side: Side, input: &str, output: &str) -> Vec<OsString> {
    match protocol {
        Protocol::SideInOut => [side.name(), input, output].iter().map(OsString::from).collect(),
        Protocol::FixedFiles { .. } => Vec::new(),
    }
}

/// Fails early, with a clear message, when the bot's program cannot be found: otherwise every
/// case would end in the same "could not start" verdict.
fn check_program(program: &std::ffi::OsStr) -> Result<(), String> {
    let path = Path::new(program);
    let found = if program.to_string_lossy().contains('/') {
        path.is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(path).is_file()))
    };
    if found { Ok(()) } else { Err(format!("cannot find the bot's program `{}`", path.display())) }
}
