//! Running one bot process safely: limits, a time limit, captured output, and no survivors.
//!
//! A bot is an untrusted program. It may crash, hang, start children that hang, flood its
//! output, write huge files or allocate without end. [`run`] starts it with resource limits
//! ([`Limits`]), inside the sandbox unless that is off ([`crate::harness::sandbox`]), drains its
//! stdout and stderr on threads so it never blocks on a full pipe, and ends it when it has used
//! its CPU time ([`Limits::timeout`]) or has sat idle for too long ([`Limits::idle_limit`]),
//! whichever comes first. Then everything it started is killed, whether it timed out or exited normally.
//! [`Interactive`] runs a bot the same way but keeps it alive, talking to it over its stdin and
//! stdout a line at a time.
//!
//! The time limit is CPU time, read while the bot runs ([`cpu`]), and the backstop for a bot
//! that sleeps is idle time, the time none of its tasks was running or waiting for a processor
//! ([`idle`]): a neighbour that loads the machine slows a bot down but changes neither.
//!
//! Without the sandbox (`--sandbox off`) the bot runs in a session of its own and its process
//! group is killed at the end, and, where arbiter can make one, in a cgroup of its own, which
//! also finds, charges and kills a process that moved itself into another session; where none
//! can be made, such a process escapes (the runner still returns on time, and the report's
//! header says so). The sandbox closes that gap everywhere.
//!
//! This module knows nothing about the game: it runs a command and reports what happened.
//!
//! The work is split by concern: [`spawn`] starts a run (the bot, or the sandbox's helper),
//! [`supervise`] watches it until it ends or reaches a limit and concludes it, [`report`] says
//! how it went; [`cpu`] and [`idle`] measure the time it used and the time it sat idle,
//! [`limits`] holds what it may use. The sandbox's files import these files directly, never
//! this one, and this one imports no file of the sandbox: no circle runs through it.

pub(crate) mod affinity;
mod capture;
pub(crate) mod command;
pub(crate) mod cpu;
pub(crate) mod idle;
mod interactive;
pub(crate) mod limits;
pub(crate) mod process;
pub(crate) mod report;
pub mod slots;
pub(crate) mod spawn;
mod supervise;
pub(crate) mod tasks;
pub(crate) mod usage;

pub use command::{BotCommand, CommandError, quote};
pub(crate) use cpu::{CgroupClock, parse_cgroup};
pub use idle::{IdleMeter, IdleMethod, Tasks, idle_method};
pub use interactive::{Interactive, MAX_LINE, Recv, grader_failed};
pub use limits::{AppliedLimits, IdleCap, Limits};
pub use process::kill_all_running;
pub use report::{Outcome, RunReport, TimeLimit};
pub(crate) use report::{format_duration, os_message};
pub use spawn::run;
pub(crate) use spawn::{SETUP_PAUSE, SETUP_TRIES, SETUP_WAIT, start};
pub(crate) use supervise::{DRAIN_GRACE, Started};
