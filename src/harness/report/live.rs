//! Result files kept up to date while a run goes on.
//!
//! A grader can be killed at any moment: a Gradescope time limit, a cancelled CI job, Ctrl-C.
//! So the result files are written before the first case runs (with no case yet), rewritten as
//! cases finish (at most once every [`THROTTLE`], as each write flushes to disk), and written a
//! last time, complete, by the caller. Every write replaces the files atomically, so whenever
//! the run dies the files on disk are whole and valid: marked incomplete, listing the cases
//! finished, and scoring the cases not run as failed.
//!
//! The writes happen on a thread of their own ([`LiveFiles::keep_writing`]): no case waits for
//! a disk.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::RunInfo;
use super::files::ReportFiles;
use crate::harness::verify::CaseResult;

/// The shortest time between two rewrites while the run goes on.
pub const THROTTLE: Duration = Duration::from_millis(200);

/// The report files of a run in progress.
pub struct LiveFiles<'a> {
    info: &'a RunInfo<'a>,
    files: &'a ReportFiles,
    /// How many of the cases are scored; those after them are twins.
    originals: usize,
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    /// Each case's result once it has finished, by the case's position in the run.
    results: Vec<Option<CaseResult>>,
    /// A case finished since the last write.
    dirty: bool,
    /// The run is over: the writer thread stops.
    finished: bool,
    /// The first write that failed, if any.
    error: Option<String>,
}

impl<'a> LiveFiles<'a> {
    /// The files for a run of `total` cases, the first `originals` scored and the rest twins.
    pub fn new(info: &'a RunInfo<'a>, files: &'a ReportFiles, originals: usize, total: usize) -> Self {
        LiveFiles {
            info,
            files,
            originals,
            state: Mutex::new(State {
                results: vec![None; total],
                dirty: false,
                finished: false,
                error: None,
            }),
            wake: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the files as they stand, marked incomplete. Called once before any case runs, it
    /// also finds a path that cannot be written before any time is spent on the run.
    pub fn write_now(&self) -> Result<(), String> {
        let rendered = {
            let mut state = self.lock();
            state.dirty = false;
            let done = |range: &[Option<CaseResult>]| -> Vec<CaseResult> {
                range.iter().flatten().cloned().collect()
            };
            let (cases, variants) =
                (done(&state.results[..self.originals]), done(&state.results[self.originals..]));
            self.files.render(&self.info.report(&cases, &variants, false))
        };
        rendered.write()
    }

    /// Records that case `index` finished with `result`.
    pub fn record(&self, index: usize, result: &CaseResult) {
        let mut state = self.lock();
        if let Some(slot) = state.results.get_mut(index) {
            *slot = Some(result.clone());
            state.dirty = true;
            self.wake.notify_all();
        }
    }

    /// Rewrites the files whenever a case has finished, at most once per [`THROTTLE`], until
    /// [`LiveFiles::finish`]. Meant for a thread of its own.
    pub fn keep_writing(&self) {
        let mut state = self.lock();
        loop {
            state = self
                .wake
                .wait_while(state, |s| !s.dirty && !s.finished)
                .unwrap_or_else(PoisonError::into_inner);
            if state.finished {
                return;
            }
            drop(state);
            let written = self.write_now();
            state = self.lock();
            if let Err(e) = written {
                state.error.get_or_insert(e);
            }
            state = self
                .wake
                .wait_timeout_while(state, THROTTLE, |s| !s.finished)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Stops [`LiveFiles::keep_writing`]; returns the first rewrite that failed, if any. The
    /// caller then writes the complete files.
    pub fn finish(&self) -> Option<String> {
        let mut state = self.lock();
        state.finished = true;
        self.wake.notify_all();
        state.error.take()
    }
}
