//! The bot under test: an outside command, or one of the game's built-in bots.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use super::host::{HostOptions, HostedBot};
use super::referee::{BuiltinBot, Protocol, Referee};
use super::runner::usage::{CpuTimes, Who};
use super::runner::{self, BotCommand, Limits, Outcome, RunReport, TimeLimit, quote};
use crate::side::Side;

/// A bot, as named on the command line: `builtin:NAME` or a command.
pub enum Bot {
    /// A program, run as its game's protocol says: `COMMAND ARGS... <side> <in> <out>` for
    /// Advance, `COMMAND ARGS...` reading `input.txt` for Pente.
    Command(BotCommand, Protocol),
    /// One of the game's bots, run inside arbiter.
    Builtin { name: String, bot: Box<dyn BuiltinBot>, game_args: Vec<String> },
    /// Classes or a module driven by calls, or a program speaking the host protocol, for a game
    /// whose bots are hosted ([`Protocol::Hosted`]).
    Hosted(Box<HostedBot>),
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
    /// CPU time (user + system) of the bot's whole process tree, when the runner could measure
    /// it.
    pub cpu: Option<Duration>,
    /// The user part of `cpu`, where it could be told apart.
    pub user: Option<Duration>,
    /// Which limit ended a run that timed out: its CPU time or its idle time.
    pub time_limit: Option<TimeLimit>,
    /// The time none of the bot's tasks was running or waiting for a processor, where it was
    /// measured (a program bot).
    pub idle: Option<Duration>,
}

impl Played {
    /// A run that could not start, and why.
    fn not_started(why: String) -> Played {
        Played {
            outcome: Outcome::FailedToStart(why.clone()),
            // A reason that already says so is not said twice ("could not start: could not start").
            description: format!(
                "could not start: {}",
                why.strip_prefix("could not start: ").unwrap_or(&why)
            ),
            stderr_tail: String::new(),
            stdout_head: String::new(),
            elapsed: std::time::Duration::ZERO,
            cpu: None,
            user: None,
            time_limit: None,
            idle: None,
        }
    }

    /// CPU time (user + system) of the whole process tree where known, else wall time.
    pub fn cpu_seconds(&self) -> f64 {
        self.cpu.unwrap_or(self.elapsed).as_secs_f64()
    }

    /// The user part of [`Played::cpu_seconds`], where it could be told apart.
    pub fn user_seconds(&self) -> Option<f64> {
        self.user.map(|u| u.as_secs_f64())
    }

    /// The seconds a game clock is charged for this move: the user CPU time of the whole
    /// process tree (what the Pente graders' `time` counts, leaving out the time the operating
    /// system spent), or user + system when `counts_system` (or when user time could not be
    /// told apart); wall time when no CPU time was measured.
    pub fn clock_seconds(&self, counts_system: bool) -> f64 {
        match self.user {
            Some(user) if !counts_system && self.cpu.is_some() => user.as_secs_f64(),
            _ => self.cpu_seconds(),
        }
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
            user: report.user_time,
            time_limit: report.time_limit,
            idle: report.idle,
        }
    }
}

impl Bot {
    /// Reads a bot specification as [`Bot::parse`] does; for a game whose bots are hosted, a
    /// submission (a folder of Java sources, a Python module) is made ready under `limits`
    /// (compiled in the sandbox) and loaded once, so that one that cannot load is refused here.
    pub fn open(
        spec: &str,
        referee: &dyn Referee,
        limits: &Limits,
        host: &HostOptions,
    ) -> Result<Bot, String> {
        match referee.protocol() {
            Protocol::Hosted(hosts) if !spec.starts_with("builtin:") => {
                Ok(Bot::Hosted(Box::new(HostedBot::prepare(spec, &hosts, host, limits)?)))
            }
            _ => Bot::parse(spec, referee),
        }
    }

    /// Whether `spec` names a submission that must be made ready with [`Bot::open`] (a hosted
    /// game's submission, as opposed to a built-in bot or a program given files).
    pub fn needs_open(spec: &str, referee: &dyn Referee) -> bool {
        matches!(referee.protocol(), Protocol::Hosted(_)) && !spec.starts_with("builtin:")
    }

    /// Reads a bot specification. `builtin:NAME` names one of `referee`'s bots; anything else is
    /// a command, whose program must exist. A hosted game's submissions need [`Bot::open`].
    pub fn parse(spec: &str, referee: &dyn Referee) -> Result<Bot, String> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            let bot = referee.require_builtin(name)?;
            return Ok(Bot::Builtin { name: name.to_string(), bot, game_args: referee.game_args() });
        }
        let command =
            BotCommand::parse(spec).map_err(|e| format!("cannot read the bot command `{spec}`: {e}"))?;
        check_command(&command)?;
        Ok(Bot::Command(command, referee.protocol()))
    }

    /// How reports name the bot.
    pub fn label(&self) -> String {
        match self {
            Bot::Command(c, _) => c.original().to_string(),
            Bot::Builtin { name, .. } => format!("builtin:{name}"),
            Bot::Hosted(hosted) => hosted.label.clone(),
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
                for (name, bytes) in command.files() {
                    if let Err(e) = std::fs::write(dir.join(name), bytes) {
                        return Played::not_started(format!("cannot place {name} in the bot's folder: {e}"));
                    }
                }
                let args = arguments(protocol, side, input, output);
                Played::from_report(&runner::run(command, &args, dir, limits))
            }
            Bot::Hosted(_) => Played::not_started("a hosted bot is called, not given files".to_string()),
            Bot::Builtin { bot, .. } => {
                let start = Instant::now();
                let cpu_start = thread_cpu_time();
                let user_start = thread_user_time();
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
                let cpu = thread_cpu_time().zip(cpu_start).map(|(end, begin)| end.saturating_sub(begin));
                // Two clocks of different resolutions: user time is never shown above the total.
                let user = thread_user_time()
                    .zip(user_start)
                    .map(|(end, begin)| end.saturating_sub(begin).min(cpu.unwrap_or(Duration::MAX)));
                Played {
                    outcome,
                    description,
                    stderr_tail: stderr,
                    stdout_head: String::new(),
                    elapsed: start.elapsed(),
                    cpu,
                    user,
                    time_limit: None,
                    idle: None,
                }
            }
        }
    }

    /// A shell command that plays the same move as [`Bot::play`] from the current folder.
    pub fn command_line(&self, side: Side, input: &str, output: &str, seed: u64) -> String {
        let protocol = match self {
            Bot::Command(_, protocol) => protocol.clone(),
            Bot::Builtin { .. } | Bot::Hosted(_) => Protocol::SideInOut,
        };
        self.as_command(seed).command_line(&arguments(&protocol, side, input, output))
    }

    /// The bot as a command with the assignment's interface: itself, or for a built-in bot
    /// `arbiter bot --builtin NAME --seed S`.
    pub fn as_command(&self, seed: u64) -> BotCommand {
        match self {
            Bot::Command(command, _) => command.clone(),
            Bot::Hosted(hosted) => hosted.command().clone(),
            Bot::Builtin { name, game_args, .. } => {
                let exe = crate::harness::program::installed_path()
                    .map_or_else(|| "arbiter".into(), |p| p.into_os_string());
                let game: String = game_args.iter().map(|a| format!(" {a}")).collect();
                let line = format!("{}{game} bot --builtin {name} --seed {seed}", quote(&exe));
                BotCommand::parse(&line).expect("a quoted path and plain words always parse")
            }
        }
    }
}

/// CPU time used so far by the calling thread, where a built-in bot plays its move.
fn thread_cpu_time() -> Option<Duration> {
    use nix::time::{ClockId, clock_gettime};
    let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
    let nanos = u64::try_from(t.tv_nsec()).ok()?;
    Some(Duration::from_secs(u64::try_from(t.tv_sec()).ok()?) + Duration::from_nanos(nanos))
}

/// User CPU time used so far by the calling thread.
fn thread_user_time() -> Option<Duration> {
    CpuTimes::now(Who::RUSAGE_THREAD).map(|t| t.user)
}

/// The arguments a bot gets after its own: the side and the files for Advance's protocol,
/// nothing for a game whose bots find their files by name.
fn arguments(protocol: &Protocol, side: Side, input: &str, output: &str) -> Vec<OsString> {
    match protocol {
        Protocol::SideInOut => [side.name(), input, output].iter().map(OsString::from).collect(),
        Protocol::FixedFiles { .. } | Protocol::Hosted(_) => Vec::new(),
    }
}

/// The endings of the arguments taken for a source or program file that the command needs
/// (`python3 bot.py`, `java -jar bot.jar`, `dotnet Bot.dll`, `mono Bot.exe`): when no such file
/// exists the command cannot work, whatever the case.
const SCRIPT_ENDINGS: [&str; 7] = ["py", "js", "rb", "jar", "dll", "class", "exe"];

/// [`check_program`] for a whole command, and its script: an argument ending in one of
/// [`SCRIPT_ENDINGS`] must name an existing file. Such an argument was made absolute when the
/// command was parsed if the file existed, so one still relative names a file that is not there.
pub fn check_command(command: &BotCommand) -> Result<(), String> {
    check_program(command.program())?;
    for arg in command.args() {
        let path = Path::new(arg);
        let script =
            path.extension().is_some_and(|e| SCRIPT_ENDINGS.iter().any(|s| e.eq_ignore_ascii_case(s)));
        if !script || arg.to_string_lossy().starts_with('-') || path.exists() {
            continue;
        }
        let folder = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
        return Err(format!(
            "the bot command `{}` names `{}`, but there is no such file{} (a relative path in the command is relative to the folder arbiter is started from)",
            command.original(),
            path.display(),
            if path.is_absolute() || folder.is_empty() { String::new() } else { format!(" in {folder}") }
        ));
    }
    Ok(())
}

/// Fails early, with a clear message, when the bot's program cannot be started: otherwise every
/// case would end in the same "could not start" verdict. The program must exist, carry an
/// execute bit, and, when it is a script, name an interpreter that exists (`#!/usr/bin/python9`,
/// or `#!/usr/bin/env python9` with no `python9` on `PATH`, fail here) on a `#!` line that does
/// not end in a carriage return (a file saved with Windows line endings).
pub fn check_program(program: &std::ffi::OsStr) -> Result<(), String> {
    let path = Path::new(program);
    let found = if program.to_string_lossy().contains('/') {
        path.is_file().then(|| path.to_path_buf())
    } else {
        // The shell takes the first executable file of that name on PATH; a file without the
        // execute bit is passed over, so it is named only if nothing better is found.
        let candidates = on_path(path);
        candidates.iter().find(|c| is_executable(c)).or(candidates.first()).cloned()
    };
    let Some(file) = found else {
        // `--bot bot.py` with bot.py right here: the shell, like arbiter, looks for a bare name
        // on PATH only; say how to name the file instead.
        let hint = if path.is_file() { here_hint(path) } else { String::new() };
        return Err(format!("cannot find the bot's program `{}`{hint}", path.display()));
    };
    if !is_executable(&file) {
        return Err(format!(
            "the bot's program `{}` is not executable (it lacks the execute bit: `chmod +x {}`){}",
            file.display(),
            runner::quote(file.as_os_str()),
            interpreter_hint(&file)
                .map(|i| format!(", or run it with `{i} {}`", runner::quote(file.as_os_str())))
                .unwrap_or_default()
        ));
    }
    check_interpreter(&file)
}

/// The interpreter a script's ending names (`python3` for `.py`), if one does.
fn interpreter_hint(file: &Path) -> Option<&'static str> {
    let ending = file.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ending.as_str() {
        "py" => "python3",
        "sh" => "sh",
        "js" => "node",
        "rb" => "ruby",
        "pl" => "perl",
        _ => return None,
    })
}

/// For a bare name that is a file in the current folder (not on PATH): how to name it.
fn here_hint(name: &Path) -> String {
    let here = format!("./{}", name.display());
    let mut ways = vec![format!("`{here}`")];
    if let Some(interpreter) = interpreter_hint(name) {
        ways.push(format!("`{interpreter} {}`", name.display()));
    }
    format!(" on PATH; a file in this folder is named with its path: {}", ways.join(" or "))
}

/// Every regular file named `name` in a folder of `PATH`, in `PATH` order.
fn on_path(name: &Path) -> Vec<std::path::PathBuf> {
    std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths).map(|dir| dir.join(name)).filter(|p| p.is_file()).collect()
        })
        .unwrap_or_default()
}

/// Whether anyone may execute the file. Root too needs one execute bit on a regular file.
pub(crate) fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// For a script (a file starting `#!`), checks that its interpreter exists: the kernel would
/// refuse to start it with the same "No such file or directory" as a missing program, which
/// reads as if the script itself were missing.
fn check_interpreter(file: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut head = Vec::new();
    // The kernel reads at most 256 bytes of the #! line; an unreadable file is left for the
    // run to report.
    let Ok(f) = std::fs::File::open(file) else { return Ok(()) };
    if f.take(SHEBANG_BYTES).read_to_end(&mut head).is_err() {
        return Ok(());
    }
    check_shebang(file, &head)
}

/// The most of a program the kernel reads for its `#!` line.
const SHEBANG_BYTES: u64 = 256;

/// [`check_program`] for a submission's own program `name` (`run`) in its `folder`, found by
/// the rule for a submission's files ([`super::untrusted`]): a link is followed only inside
/// the folder, so nothing outside it is opened or quoted; one leading out refuses the
/// submission with its name and target.
pub fn check_submission_program(folder: &Path, name: &str) -> Result<(), String> {
    use super::untrusted::{Folder, Refused};
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let opened = Folder::open(folder).and_then(|f| f.open_file(Path::new(name)));
    let (file, _) = match opened {
        Ok(opened) => opened,
        Err(Refused::Missing { .. } | Refused::NotAFile { what: "a folder", .. }) => {
            return Err(format!("the folder {} has no `{name}` file to run", folder.display()));
        }
        Err(why) => return Err(why.to_string()),
    };
    let shown = folder.join(name);
    let mode = file.metadata().map(|m| m.permissions().mode()).unwrap_or(0);
    if mode & 0o111 == 0 {
        return Err(format!(
            "the bot's program `{}` is not executable (it lacks the execute bit: `chmod +x {}`)",
            shown.display(),
            runner::quote(shown.as_os_str())
        ));
    }
    let mut head = Vec::new();
    if file.take(SHEBANG_BYTES).read_to_end(&mut head).is_err() {
        return Ok(());
    }
    check_shebang(&shown, &head)
}

/// The checks of [`check_interpreter`] on the program's first bytes, `head`.
fn check_shebang(file: &Path, head: &[u8]) -> Result<(), String> {
    if !head.starts_with(b"#!") {
        return Ok(());
    }
    let line = head[2..].split(|&b| b == b'\n').next().unwrap_or_default();
    if line.ends_with(b"\r") {
        // The kernel takes the carriage return as part of the interpreter's name, then says
        // "No such file or directory" as if the script itself were missing.
        let name = runner::quote(file.file_name().unwrap_or(file.as_os_str()));
        return Err(format!(
            "the bot's program `{}` has Windows line endings: its #! line ends in a carriage return (CRLF), so the system looks for an interpreter whose name ends in `\\r`; convert the file with `dos2unix {name}` or `sed -i 's/\\r$//' {name}`",
            file.display()
        ));
    }
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let Some(interpreter) = words.next() else {
        return Err(format!(
            "the bot's program `{}` has a #! line that names no interpreter",
            file.display()
        ));
    };
    let shebang = format!("#!{}", line.trim());
    let interpreter = Path::new(interpreter);
    if !is_executable(interpreter) {
        return Err(format!(
            "the bot's program `{}` starts with `{shebang}`, but `{}` does not exist or is not executable",
            file.display(),
            interpreter.display()
        ));
    }
    // `#!/usr/bin/env NAME`: env looks NAME up on PATH (skipping env's own options, as in
    // `env -S python3 -u`).
    if interpreter.file_name().is_some_and(|n| n == "env")
        && let Some(name) = words.find(|w| !w.starts_with('-') && !w.contains('='))
        && !name.contains('/')
        && !on_path(Path::new(name)).iter().any(|p| is_executable(p))
    {
        return Err(format!(
            "the bot's program `{}` starts with `{shebang}`, but there is no `{name}` on PATH",
            file.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_or_unexecutable_script_gets_a_hint_how_to_run_it() {
        let hint = here_hint(Path::new("bot.py"));
        assert!(hint.contains("`./bot.py`") && hint.contains("`python3 bot.py`"), "{hint}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.py");
        std::fs::write(&file, "print('a1')\n").unwrap();
        let err = check_program(file.as_os_str()).unwrap_err();
        assert!(err.contains("chmod +x") && err.contains("python3 "), "{err}");
    }
}
