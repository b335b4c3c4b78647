//! Running a bot over test cases and judging each answer.
//!
//! Each case runs in a fresh temporary folder holding a copy of the board: the bot never sees
//! the corpus, so whatever it does to its files the corpus stays as it was. The verdict:
//! - `timeout` when the bot ran out of time;
//! - `crash` when it did not exit normally with status 0 and left no board that can be judged
//!   (no output, a malformed one, or the input unchanged);
//! - `no-output` when it exited normally but wrote nothing;
//! - otherwise what the game's referee says of the board it wrote: `pass`, `wrong-move`,
//!   `illegal-move`, `malformed-output` or `unchanged`. A bot that writes a board and then exits
//!   with an error is judged on its board; the exit is noted.
//!
//! A timeout is not counted at once ([`run_case_settled`]): the case is run again, fresh, and
//! only a second timeout counts. A machine shared with other jobs can hold a bot back once; a
//! bot that is too slow is too slow twice.

use std::sync::Mutex;

use rayon::prelude::*;

use super::bot::{Bot, Played};
use super::files;
pub(crate) use super::output_file::read_output;
use super::referee::{CaseSpec, MoveKind, PreparedCase, Protocol, Referee};
use super::runner::{Limits, Outcome, quote};
use super::verdict::{Judgement, Verdict};

pub use super::case_run::{CaseResult, FirstRun, ReadyCase, VerifyOptions};

/// The names of the board file in the bot's folder and of the file the bot writes: the
/// protocol's own where it fixes them (Pente's input.txt and output.txt), else names of no game
/// (`in.txt`, `out.txt`) given to the bot as arguments, so that no report speaks another game's
/// file names.
fn file_names(bot: &Bot) -> (&'static str, &'static str) {
    match bot {
        Bot::Command(_, Protocol::FixedFiles { input, output, .. }) => (input, output),
        _ => ("in.txt", "out.txt"),
    }
}

/// A stable 64-bit mix of a seed and a name (FNV-1a, then a SplitMix64 finish), so every case
/// has its own seed whatever order cases run in.
pub fn case_seed(seed: u64, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// Reads every case's input (and golden answer) and prepares it. Errors (a bad board in the
/// corpus) are collected so they can all be shown before any bot runs.
pub fn prepare_cases(
    referee: &dyn Referee,
    specs: Vec<CaseSpec>,
    jobs: usize,
) -> (Vec<ReadyCase>, Vec<String>) {
    // No cases to prepare (a profile of games alone): a game without cases is no error.
    if specs.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let cases = match referee.require_cases() {
        Ok(cases) => cases,
        Err(e) => return (Vec::new(), vec![e]),
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.max(1)).build().expect("a thread pool");
    let results: Vec<Result<ReadyCase, String>> = pool.install(|| {
        specs
            .into_par_iter()
            .map(|spec| {
                let input = files::read_capped(&spec.path, files::BOARD).map_err(|e| e.to_string())?;
                // A case without a golden file has its answers computed; any other trouble
                // with the file (too large, unreadable) is the corpus's to fix.
                let golden = match spec.golden.as_ref().map(|g| files::read_capped(g, files::GOLDEN)) {
                    None => None,
                    Some(Err(e)) if e.is_not_found() => None,
                    Some(result) => Some(result.map_err(|e| e.to_string())?),
                };
                let prepared = cases.prepare(&spec, &input, golden.as_deref())?;
                Ok(ReadyCase { check_args: cases.check_args(&spec), spec, input, prepared })
            })
            .collect()
    });
    let mut ready = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(c) => ready.push(c),
            Err(e) => errors.push(e),
        }
    }
    (ready, errors)
}

/// The symmetric twins of every case, ready to run: named `NAME@mirror`, `NAME@swap`, with
/// answers computed for the twin board (no golden file). A game without symmetries refuses.
pub fn twin_cases(referee: &dyn Referee, cases: &[ReadyCase]) -> Result<Vec<ReadyCase>, String> {
    let symmetry = referee
        .symmetry()
        .ok_or_else(|| format!("{} has no symmetries to check with --variants", referee.game()))?;
    let judge = referee.require_cases()?;
    let mut twins = Vec::new();
    for case in cases {
        for (label, input, side) in symmetry.twins(&case.input, case.spec.side) {
            let spec = CaseSpec {
                name: format!("{}@{label}", case.spec.name),
                side,
                golden: None,
                answer: None,
                ..case.spec.clone()
            };
            let prepared = judge
                .prepare(&spec, &input, None)
                .map_err(|e| format!("{} ({label} twin): {e}", spec.name))?;
            twins.push(ReadyCase { check_args: judge.check_args(&spec), spec, input, prepared });
        }
    }
    Ok(twins)
}

/// Runs the bot on every case, `jobs` at a time, calling `progress` with the case's position in
/// `cases` and its result as each finishes. Results come back in the order of `cases` whatever
/// the job count.
pub fn run_cases(
    cases: &[&ReadyCase],
    bot: &Bot,
    options: &VerifyOptions,
    progress: &(dyn Fn(usize, &CaseResult) + Sync),
) -> Vec<CaseResult> {
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(options.jobs.max(1)).build().expect("a thread pool");
    // Progress callbacks come from several threads; one at a time keeps their output whole.
    let lock = Mutex::new(());
    pool.install(|| {
        cases
            .par_iter()
            .enumerate()
            .map(|(index, case)| {
                let result = run_case_settled(case, bot, options);
                let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                progress(index, &result);
                result
            })
            .collect()
    })
}

/// The result of a case that was not run (see [`Verdict::NotRun`]), saying why.
pub fn not_run(case: &ReadyCase, bot: &Bot, options: &VerifyOptions, reason: String) -> CaseResult {
    blank_result(case, bot, options, Verdict::NotRun, reason)
}

/// A case's result before the bot has played: the verdict and reason, and what is known of the
/// case (its name, reproduce line, seed).
fn blank_result(
    case: &ReadyCase,
    bot: &Bot,
    options: &VerifyOptions,
    verdict: Verdict,
    reason: String,
) -> CaseResult {
    let seed = case_seed(options.seed, &case.spec.name);
    let (input_name, output_name) = file_names(bot);
    let output_name = if options.same_file { input_name } else { output_name };
    let expected = case.prepared.expected();
    let picture = (verdict != Verdict::Pass).then(|| case.prepared.picture(None)).flatten();
    CaseResult {
        expected_kind: kind_of_all(case.prepared.as_ref(), &expected),
        expected: if verdict == Verdict::NotRun { Vec::new() } else { expected },
        // No bot ran (yet): no CPU time used.
        cpu_ms: Some(0),
        // A hosted case replays by its own script; a file bot's by a shell line.
        reproduce: case.prepared.reproduce().unwrap_or_else(|| reproduce_line(case, bot, output_name, seed)),
        check: check_line(case, output_name, options),
        golden: case.prepared.golden_used(),
        seed,
        picture,
        asks: case.prepared.asks(),
        ..CaseResult::bare(
            case.spec.path.display().to_string(),
            case.spec.name.clone(),
            case.spec.category.clone(),
            case.spec.side,
            verdict,
            reason,
        )
    }
}

/// The `arbiter expect` line that explains a failure: why the bot's legal move is not the
/// answer (for a wrong move), else why the expected move is; `None` for a pass, a case not run,
/// or a game whose `expect` does not read case files.
pub fn explain_line(
    prepared: &dyn PreparedCase,
    verdict: Verdict,
    played: Option<&str>,
    expected: &[String],
) -> Option<String> {
    if matches!(verdict, Verdict::Pass | Verdict::NotRun) {
        return None;
    }
    let args = prepared.expect_args()?;
    let mv = match (verdict, played) {
        (Verdict::WrongMove, Some(mv)) => mv,
        _ => expected.first()?.as_str(),
    };
    Some(format!("arbiter expect case.txt {args} --why {}", quote(mv.as_ref())))
}

/// Runs one case as [`run_case`] does, and once more, fresh, if it timed out: only a second
/// timeout counts. The result is the second run's, noting the first in `timeout_rerun`.
pub fn run_case_settled(case: &ReadyCase, bot: &Bot, options: &VerifyOptions) -> CaseResult {
    let first = run_case(case, bot, options);
    if first.verdict != Verdict::Timeout {
        return first;
    }
    let mut second = run_case(case, bot, options);
    second.timeout_rerun =
        Some(FirstRun { process: first.process, elapsed_ms: first.elapsed_ms, cpu_ms: first.cpu_ms });
    second
}

/// Expected sets longer than this are not looked at for a common kind: a case that accepts many
/// moves has no single answer to miss.
const KIND_OF_AT_MOST: usize = 4;

/// The kind every move of `moves` shares, if there are few and they share one.
fn kind_of_all(prepared: &dyn PreparedCase, moves: &[String]) -> Option<MoveKind> {
    if moves.is_empty() || moves.len() > KIND_OF_AT_MOST {
        return None;
    }
    let first = prepared.move_kind(&moves[0])?;
    moves[1..].iter().all(|m| prepared.move_kind(m).as_ref() == Some(&first)).then_some(first)
}

/// Runs one case in a fresh temporary folder and judges the answer.
/// The limits of one case: the grader's, with the CPU time cut to what the case's input gives
/// the bot where that is less (Pente's play time in input.txt).
pub fn case_limits(case: &dyn PreparedCase, limits: &Limits) -> Limits {
    let mut limits = limits.clone();
    if let Some(given) = case.time_limit() {
        limits.timeout = limits.timeout.min(given);
    }
    limits
}

pub fn run_case(case: &ReadyCase, bot: &Bot, options: &VerifyOptions) -> CaseResult {
    let create_output = options.create_output;
    let seed = case_seed(options.seed, &case.spec.name);
    let (input_name, output_name) = file_names(bot);
    let output_name = if options.same_file { input_name } else { output_name };
    let base = |verdict: Verdict, reason: String| blank_result(case, bot, options, verdict, reason);
    if let Bot::Hosted(hosted) = bot {
        return super::host::case::run_case(case, hosted, options, base(Verdict::NotRun, String::new()));
    }
    let dir = match tempfile::Builder::new().prefix("arbiter-case-").tempdir() {
        Ok(d) => d,
        Err(e) => return base(Verdict::Crash, format!("arbiter could not make a temporary folder: {e}")),
    };
    if let Err(e) = std::fs::write(dir.path().join(input_name), &case.input) {
        return base(Verdict::Crash, format!("arbiter could not write the input board: {e}"));
    }
    if create_output
        && output_name != input_name
        && let Err(e) = std::fs::write(dir.path().join(output_name), b"")
    {
        return base(Verdict::Crash, format!("arbiter could not create the output file: {e}"));
    }
    let limits = case_limits(case.prepared.as_ref(), &options.limits);
    let started = std::time::Instant::now();
    let played = bot.play(case.spec.side, dir.path(), input_name, output_name, &limits, seed);
    let mut output = read_output(&dir.path().join(output_name), started + limits.timeout);
    if create_output && output_name != input_name && output.as_ref().is_ok_and(|b| b.is_empty()) {
        output = Err("the bot wrote nothing to the output file arbiter created".to_string());
    }
    let judgement = output.as_ref().ok().map(|bytes| case.prepared.judge(bytes, output_name, options.strict));
    let (verdict, mut reason) = decide(&played, &output, judgement.as_ref());
    if verdict == Verdict::Timeout && limits.timeout < options.limits.timeout {
        reason.push_str(" (the play time the case's input gives, less than --timeout)");
    }
    if matches!(verdict, Verdict::NoOutput | Verdict::Crash) && output.is_err() {
        reason.push_str(&printed_instead(&played.stdout_head, bot, output_name));
    }
    if verdict == Verdict::Crash {
        reason.push_str(shell_ran_python(&played.stderr_tail));
    }
    let mut result = base(verdict, reason);
    if let Some(j) = judgement {
        result.take_judgement(j);
        result.played_kind = result.played.as_deref().and_then(|m| case.prepared.move_kind(m));
    }
    result.explain =
        explain_line(case.prepared.as_ref(), verdict, result.played.as_deref(), &result.expected);
    // A bot that writes its answer into its input file leaves it changed (unless the answer
    // is the board itself, which `unchanged` tells).
    result.input_changed = output_name != input_name
        && std::fs::read(dir.path().join(input_name)).is_ok_and(|now| now != case.input);
    result.output = output
        .as_ref()
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned());
    // The case's scratch folder is gone when the report is read, and names the grader's
    // machine: what the bot said about it is shown relative to it.
    let scratch = dir.path().display().to_string();
    let local = |text: &str| text.replace(&format!("{scratch}/"), "").replace(&scratch, ".");
    result.reason = local(&result.reason);
    result.process = local(&played.description);
    result.stderr_tail = local(&played.stderr_tail);
    result.stdout_head = local(&played.stdout_head);
    result.elapsed_ms = millis(played.elapsed);
    result.cpu_ms = played.cpu.map(millis);
    result.picture =
        (verdict != Verdict::Pass).then(|| case.prepared.picture(result.played.as_deref())).flatten();
    result
}

/// What a bot that wrote no answer printed, and where the answer belongs: the commonest first
/// mistake is `print("10K")`. Empty when it printed nothing.
fn printed_instead(stdout: &str, bot: &Bot, output: &str) -> String {
    let printed: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(first) = printed.first() else {
        return String::new();
    };
    const SHOWN: usize = 60;
    let mut shown: String = first.chars().take(SHOWN).collect();
    if first.chars().count() > SHOWN {
        shown.push_str("...");
    }
    let more = match printed.len() {
        1 => String::new(),
        n => format!(" and {} more line{}", n - 1, if n == 2 { "" } else { "s" }),
    };
    let place = match bot {
        Bot::Command(_, super::referee::Protocol::FixedFiles { output, .. }) => {
            format!("in {output}, in the folder it runs in")
        }
        Bot::Command(_, super::referee::Protocol::SideInOut) => {
            format!("in the file its last argument names ({output} here)")
        }
        _ => format!("in {output}"),
    };
    format!("; it printed `{shown}`{more} on stdout: the answer belongs {place}, not on stdout")
}

/// A hint for a Python file the shell ran because it has no `#!` line: `sh` reads `import x`
/// as a command and says `import: not found`. Empty when the bot's stderr shows nothing of it.
fn shell_ran_python(stderr: &str) -> &'static str {
    let shell_said = |word: &str| {
        stderr.lines().any(|l| {
            l.contains(&format!("{word}: not found")) || l.contains(&format!("{word}: command not found"))
        })
    };
    if ["import", "from", "def"].iter().any(|w| shell_said(w)) || stderr.contains("can't read /var/mail") {
        "; the shell ran a Python file as a shell script: make `#!/usr/bin/env python3` its first \
         line, or run it as `python3 bot.py`"
    } else {
        ""
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The verdict and its reason, from how the bot ended and what it wrote.
pub(crate) fn decide(
    played: &Played,
    output: &Result<Vec<u8>, String>,
    judgement: Option<&Judgement>,
) -> (Verdict, String) {
    if let Outcome::GraderError(why) = &played.outcome {
        return (Verdict::GraderError, grader_error(why));
    }
    if played.outcome == Outcome::TimedOut {
        return (Verdict::Timeout, format!("the bot {}", played.description));
    }
    let unusable = match judgement.and_then(|j| j.verdict) {
        None => true,
        Some(v) => matches!(v, Verdict::MalformedOutput | Verdict::Unchanged),
    };
    if played.failed() && unusable {
        let what = match (output, judgement) {
            (Err(why), _) => why.clone(),
            (Ok(_), Some(j)) => j.reason.clone(),
            (Ok(_), None) => String::new(),
        };
        return (Verdict::Crash, format!("the bot {} ({what})", played.description));
    }
    match (output, judgement) {
        (Err(why), _) => (Verdict::NoOutput, why.clone()),
        (Ok(_), Some(j)) => {
            let verdict = j.verdict.unwrap_or(Verdict::MalformedOutput);
            let note = if played.failed() {
                format!(" (and then the bot {})", played.description)
            } else {
                String::new()
            };
            (verdict, format!("{}{note}", j.reason))
        }
        (Ok(_), None) => (Verdict::MalformedOutput, "the output could not be judged".to_string()),
    }
}

/// The reason of a [`Verdict::GraderError`]: what failed, and that the bot is not to blame.
pub fn grader_error(why: &str) -> String {
    format!("not run: the grader failed, not the bot ({why}); grade this submission again")
}

/// One shell line that replays a case by hand: it writes the case's board to `case.txt` and a
/// copy to the bot's input, runs the bot as its command was typed, then shows what it wrote.
/// The board is written out rather than copied from the corpus, so the line works for a student
/// who has neither the corpus nor the grader's folders, nor arbiter, in the folder the bot
/// command was typed in (a submission's own folder, where its `run` is `./run`).
fn reproduce_line(case: &ReadyCase, bot: &Bot, output: &str, seed: u64) -> String {
    let text = String::from_utf8_lossy(&case.input);
    let lines: Vec<String> = text.lines().map(|l| quote(l.as_ref())).collect();
    let (input, _) = file_names(bot);
    format!(
        "printf '%s\\n' {} > case.txt && cp case.txt {input} && {} ; cat {output}",
        lines.join(" "),
        typed_command(bot, case.spec.side, output, seed),
    )
}

/// The `arbiter check` line that judges the output a [`reproduce_line`] left, against the
/// board it wrote to `case.txt`.
fn check_line(case: &ReadyCase, output: &str, options: &VerifyOptions) -> String {
    let strict = if options.strict { " --strict" } else { "" };
    format!("arbiter check case.txt {output} {}{strict}", case.check_args)
}

/// The bot's command line for one case as the user typed it (relative paths kept relative),
/// with the case's arguments; a built-in bot's as `arbiter bot --builtin NAME ...`.
fn typed_command(bot: &Bot, side: crate::side::Side, output: &str, seed: u64) -> String {
    let resolved = bot.command_line(side, file_names(bot).0, output, seed);
    let exe = crate::harness::program::installed_path().map(|p| quote(p.as_os_str())).unwrap_or_default();
    match bot {
        Bot::Command(command, _) => {
            // The case's arguments are what the full line adds to the bare command.
            let bare = bot.as_command(seed).command_line(&[]);
            match resolved.strip_prefix(&bare) {
                Some(arguments) => format!("{}{arguments}", command.original()),
                None => resolved,
            }
        }
        Bot::Builtin { .. } if !exe.is_empty() => resolved.replacen(&exe, "arbiter", 1),
        Bot::Builtin { .. } => resolved,
        Bot::Hosted(hosted) => hosted.label.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::shell_ran_python;

    #[test]
    fn a_python_file_without_a_shebang_is_told_to_add_one() {
        let dash = "/tmp/x/bot.py: 1: import: not found\n/tmp/x/bot.py: 3: Syntax error: \"(\" unexpected";
        assert!(shell_ran_python(dash).contains("#!/usr/bin/env python3"));
        let bash = "./bot.py: line 1: import: command not found";
        assert!(shell_ran_python(bash).contains("python3 bot.py"));
        assert!(shell_ran_python("from: can't read /var/mail/random").contains("#!"));
        assert_eq!(shell_ran_python("Traceback (most recent call last):\nImportError: x"), "");
    }
}
