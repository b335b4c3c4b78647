//! A test case for a hosted bot: its script of calls run in a fresh state, and the result
//! judged, as `verify` judges a program's output file.

use std::fmt::Write as _;

use super::hosted::{HostCall, HostedBot};
use super::session::{CallOutcome, CallRecord};
use crate::harness::case_run::{CaseResult, ReadyCase, VerifyOptions};
use crate::harness::verdict::Verdict;

/// Most bytes of the call transcript kept in a result's `output`.
const TRANSCRIPT_BYTES: usize = 4096;

/// Runs `case`'s calls with `bot` and fills in `result` (which holds what is known of the case
/// before it ran).
pub fn run_case(
    case: &ReadyCase,
    bot: &HostedBot,
    options: &VerifyOptions,
    mut result: CaseResult,
) -> CaseResult {
    let Some(script) = case.prepared.script() else {
        result.verdict = Verdict::NotRun;
        result.reason =
            "this case gives a file to a program; a hosted bot is judged on cases of calls".to_string();
        return result;
    };
    result.reproduce = case.prepared.reproduce().unwrap_or_else(|| describe_script(&script));
    let run = bot.run_script(&script, &options.limits);
    result.stderr_tail = run.stderr_tail.clone();
    result.cpu_ms = Some(millis(run.cpu()));
    result.elapsed_ms = millis(run.wall());
    if let Some(why) = run.start_error {
        result.verdict = Verdict::Crash;
        result.process = "could not start".to_string();
        result.reason = why;
        return result;
    }
    if let Some(setup) = run.setup_failure() {
        // Loading the submission afresh is part of the case: an import that takes longer than
        // the case's limit, or raises, fails it.
        let (verdict, why) = first_failure(std::slice::from_ref(setup))
            .unwrap_or((Verdict::Crash, "the submission could not be loaded".to_string()));
        result.verdict = verdict;
        result.process = format!("0 of {} calls made", script.len());
        result.reason = format!("loading the submission for this case: {why}");
        return result;
    }
    result.process = format!("{} of {} calls made", run.calls.len(), script.len());
    result.stdout_head = run
        .calls
        .iter()
        .map(|c| c.stdout.as_str())
        .collect::<String>()
        .lines()
        .take(8)
        .collect::<Vec<_>>()
        .join("\n");
    result.output = Some(transcript(&run.calls));
    let judgement = case.prepared.judge_calls(&run.calls);
    match (judgement.verdict, first_failure(&run.calls)) {
        (Some(verdict), _) => {
            result.verdict = verdict;
            result.reason = judgement.reason.clone();
        }
        (None, Some((verdict, why))) => {
            result.verdict = verdict;
            result.reason = why;
        }
        (None, None) => {
            result.verdict = Verdict::Crash;
            result.reason = format!("the game could not judge the calls: {}", judgement.reason);
        }
    }
    // Code of the submission's that kept running after its calls returned is a verdict of
    // its own, whatever the calls returned.
    if let (Some(fault), None) = (&run.ended.fault, first_failure(&run.calls)) {
        result.verdict = Verdict::Crash;
        result.reason = fault.clone();
    }
    result.take_judgement(judgement);
    result
}

/// The verdict and reason of the first call that did not return (a timeout, a death, an
/// exception with its trace), if any.
pub fn first_failure(calls: &[CallRecord]) -> Option<(Verdict, String)> {
    let call = calls.iter().find(|c| c.value().is_none())?;
    let why = call.failure().unwrap_or_default();
    let verdict = match &call.outcome {
        CallOutcome::TimedOut(_) => Verdict::Timeout,
        _ => Verdict::Crash,
    };
    let trace = match &call.outcome {
        CallOutcome::Error(e) if !e.trace.is_empty() => {
            format!("\n  at {}", e.trace.iter().take(5).cloned().collect::<Vec<_>>().join("\n  at "))
        }
        _ => String::new(),
    };
    Some((verdict, format!("{why}{trace}")))
}

/// The calls as a person reads them: `op {args}` one per line.
pub fn describe_script(script: &[HostCall]) -> String {
    script.iter().map(|c| format!("{} {}", c.op, c.args)).collect::<Vec<_>>().join("; ")
}

/// What each call gave, one line each, cut at [`TRANSCRIPT_BYTES`].
fn transcript(calls: &[CallRecord]) -> String {
    let mut out = String::new();
    for c in calls {
        let got = match &c.outcome {
            CallOutcome::Value(v) => v.to_string(),
            other => format!("{other:?}"),
        };
        let _ = writeln!(out, "{} {} -> {got}", c.op, c.args);
        if out.len() > TRANSCRIPT_BYTES {
            let mut cut = TRANSCRIPT_BYTES;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str("\n[...]");
            break;
        }
    }
    out
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
