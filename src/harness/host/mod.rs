//! Bots that are classes or functions, not programs: a **host** process loads the submission
//! (Java classes, a Python module) and answers arbiter's requests one line at a time, over a
//! protocol any language can speak (`docs/PROTOCOL.md`).
//!
//! - [`spec`]: what a game says about its submissions (the course's API, its adapter);
//! - [`java`], [`python`]: getting a submission ready (compiled in the sandbox, support files
//!   placed) and the command that hosts it;
//! - [`hosted`]: a ready submission, its sessions, and one case's script of calls;
//! - [`session`]: one conversation, each call limited in CPU time;
//! - [`channel`], [`sandboxed`]: the pipes to the host process, run by the sandbox;
//! - `prebuilt`: the host's classes compiled at build time, when the build had javac;
//! - [`clock`]: the CPU time a bot is charged, read from outside the host;
//! - [`bench`](mod@bench): what hosting costs beyond the bot's own CPU time (`arbiter bench --hosted`).

pub mod bench;
mod build_folder;
pub mod case;
pub mod channel;
pub mod clock;
pub mod hosted;
pub mod java;
pub mod options;
mod prebuilt;
pub mod protocol;
pub mod python;
pub mod sandboxed;
pub mod session;
pub mod spec;
pub mod tools;

pub use hosted::{HostCall, HostedBot, Language, ScriptRun};
pub use options::HostOptions;
pub use protocol::HostError;
pub use session::{CallLimits, CallOutcome, CallRecord, IDLE_CPU_ALLOWED, Session, UseEnd};
pub use spec::{HostSpec, JavaEntry, JavaSpec, PythonSpec};
