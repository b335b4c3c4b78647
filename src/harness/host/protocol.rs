//! The messages of the host protocol (`docs/PROTOCOL.md`): one JSON object per line, requests
//! from arbiter to the host, responses back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version arbiter speaks.
pub const VERSION: u64 = 1;

/// A request: an operation with its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// Increasing within a session; the response carries it back.
    pub id: u64,
    /// The operation (`load`, `reset`, `force`, `call`, ...).
    pub op: String,
    /// The operation's arguments (an object).
    pub args: Value,
}

/// A request as it is written, borrowing its arguments (the same JSON as [`Request`]).
#[derive(Debug, Serialize)]
pub struct RequestRef<'a> {
    /// As [`Request::id`].
    pub id: u64,
    /// As [`Request::op`].
    pub op: &'a str,
    /// As [`Request::args`].
    pub args: &'a Value,
}

/// What went wrong in a call, as the host reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostError {
    /// `exception` (the submission's code threw), `load` (the submission could not be loaded)
    /// or `protocol` (the request was not understood).
    pub kind: String,
    /// The exception's type (`java.lang.NullPointerException`, `ValueError`).
    #[serde(default, rename = "type")]
    pub type_name: String,
    /// Its message.
    #[serde(default)]
    pub message: String,
    /// Stack frames, innermost first.
    #[serde(default)]
    pub trace: Vec<String>,
    /// What the submission had done before it threw, when the host says (PlanetWars: the
    /// orders queued before `takeTurn` threw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<serde_json::Value>,
}

impl HostError {
    /// One line: "java.lang.NullPointerException: name is null".
    pub fn headline(&self) -> String {
        match (self.type_name.is_empty(), self.message.is_empty()) {
            (true, true) => format!("{} error", self.kind),
            (true, false) => self.message.clone(),
            (false, true) => self.type_name.clone(),
            (false, false) => format!("{}: {}", self.type_name, self.message),
        }
    }
}

/// A response as it arrives: exactly one of `ok` and `error` is expected. A field left out
/// reads as `None`, as serde reads a missing `Option`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub(crate) struct RawResponse {
    pub id: Option<u64>,
    pub ok: Option<Value>,
    pub error: Option<HostError>,
    pub stdout: Option<String>,
    /// The CPU time the host measured for the call itself (the Java host: the calling
    /// thread's CPU time). Reported only: arbiter charges and limits by its own reading.
    pub cpu_ns: Option<u64>,
    /// Set on the first line a host writes.
    pub hello: Option<String>,
    pub protocol: Option<u64>,
    pub host: Option<String>,
    /// Operations beyond the basic ones the host knows (`end`), from its hello.
    pub features: Option<Value>,
}

impl RawResponse {
    /// Reads one line; `Err` says what is wrong with it, quoting its start.
    pub fn parse(line: &[u8]) -> Result<RawResponse, String> {
        serde_json::from_slice(line).map_err(|e| {
            let text = String::from_utf8_lossy(&line[..line.len().min(120)]).into_owned();
            format!("the host wrote a line that is not a protocol message ({e}): {text:?}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_with_an_error_reads_with_its_trace() {
        let line = br#"{"id":3,"error":{"kind":"exception","type":"E","message":"m","trace":["a","b"]},"stdout":"x\n"}"#;
        let r = RawResponse::parse(line).unwrap();
        assert_eq!(r.id, Some(3));
        let e = r.error.unwrap();
        assert_eq!(e.headline(), "E: m");
        assert_eq!(e.trace, ["a", "b"]);
        assert_eq!(r.stdout.as_deref(), Some("x\n"));
    }

    #[test]
    fn a_line_that_is_not_json_is_quoted_in_the_error() {
        let err = RawResponse::parse(b"hello world").unwrap_err();
        assert!(err.contains("\"hello world\""), "{err}");
    }
}
