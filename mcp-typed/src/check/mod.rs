//! Checking MCP traffic: each message of a session decoded with the generated types of the
//! revision the session speaks, encoded again and compared, and checked for what a schema
//! cannot see (a response to no request, a request the receiver's capabilities do not allow,
//! a form asking for a password…). Used by the `validate-traffic` example; a proxy calls
//! [`Checker::check`] per message.
//!
//! Needs every revision's feature (`v2024_11_05` … `v2026_07_28`).
//!
//! ```
//! use mcp_typed::check::{Checker, Direction, Verdict};
//!
//! let mut checker = Checker::new();
//! let c2s = Some(Direction::ClientToServer);
//! let s2c = Some(Direction::ServerToClient);
//! let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
//! assert_eq!(checker.check(c2s, init).to_string(), "ok request InitializeRequest (initialize)");
//! let reply = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#;
//! assert_eq!(checker.check(s2c, reply).verdict, Verdict::Ok);
//! assert_eq!(checker.revision().map(|v| v.as_str()), Some("2025-06-18"));
//!
//! // The client did not declare `elicitation`.
//! let ask = r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}"#;
//! let report = checker.check(s2c, ask);
//! assert_eq!(report.verdict, Verdict::Error);
//! assert_eq!(report.problems[0].pointer, "/method");
//! assert_eq!(checker.summary().to_string(), "2 passed, 1 failed");
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

use crate::ProtocolVersion;

pub mod capabilities;
mod diff;
mod input;
mod message;
mod protocol;
mod revision;

pub(crate) use message::Findings;
use message::definition_report;
use protocol::Session;

pub use input::{split_values, unwrap_line};
// The sensitive field names the checker reports (`sensitive_field`) are the ones
// `#[derive(Elicit)]` refuses at compile time: one list, in `mcp-typed-rules`.
pub use mcp_typed_rules::{SENSITIVE_PAIRS, SENSITIVE_WORDS, sensitive_name};

// ---------------------------------------------------------------------------------------------
// The API

/// Which side sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// From the client to the server (`c2s`).
    #[serde(rename = "c2s")]
    ClientToServer,
    /// From the server to the client (`s2c`).
    #[serde(rename = "s2c")]
    ServerToClient,
}

impl Direction {
    /// `c2s` or `s2c`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::ClientToServer => "c2s",
            Direction::ServerToClient => "s2c",
        }
    }

    /// The other way.
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::ClientToServer => Direction::ServerToClient,
            Direction::ServerToClient => Direction::ClientToServer,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Direction {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "c2s" => Ok(Direction::ClientToServer),
            "s2c" => Ok(Direction::ServerToClient),
            other => Err(format!("unknown direction {other:?}: expected c2s or s2c")),
        }
    }
}

/// The verdict on one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Valid in its revision, and re-encodes unchanged.
    Ok,
    /// Valid, with notes: what it holds beyond its revision, errata it needed…
    Noted,
    /// At least one [`Problem`].
    Error,
}

/// What a note is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum NoteKind {
    /// A member, tag value or method the checked revision does not define (often a newer
    /// revision's), kept whole: see [`Unknowns`](crate::Unknowns).
    BeyondRevision,
    /// An extension by its name: a custom method that no revision defines, or a member named
    /// `x-…` or namespaced (`com.example/…`).
    Vendor,
    /// An erratum of `schema/errata.json` was needed to accept the value.
    Erratum {
        /// The erratum's id (`elicit-content-numbers`).
        id: &'static str,
    },
    /// The result of a method the revision does not define: not checked.
    Untyped,
    /// The revision was not learned from the traffic (no handshake yet, an unknown version
    /// string) and another was assumed.
    RevisionAssumed,
    /// A URL-mode elicitation's URL a client should warn about (text that reads differently
    /// from what opens, a non-ASCII domain, mixed scripts, an IP address, credentials): see
    /// [`UrlWarning`](crate::elicit::client::UrlWarning).
    SuspiciousUrl,
}

impl NoteKind {
    /// The kind's name, as in JSON (`beyond_revision`).
    pub fn name(&self) -> &'static str {
        match self {
            NoteKind::BeyondRevision => "beyond_revision",
            NoteKind::Vendor => "vendor",
            NoteKind::Erratum { .. } => "erratum",
            NoteKind::Untyped => "untyped",
            NoteKind::RevisionAssumed => "revision_assumed",
            NoteKind::SuspiciousUrl => "suspicious_url",
        }
    }
}

/// Something noteworthy in a valid message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Note {
    /// What it is about.
    #[serde(flatten)]
    pub kind: NoteKind,
    /// JSON Pointer into the message (`""` is the whole message).
    pub pointer: String,
    /// The note in words, as [`Report`]'s `Display` shows it (the pointer included).
    pub message: String,
}

/// What a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProblemKind {
    /// Not JSON.
    InvalidJson,
    /// Not a valid value of the revision's types: the message names the type, what it
    /// wants, the pointer and the revision (and a newer revision that takes it, if any).
    Schema,
    /// Valid, but encoding it again changes it at `pointer` (a number's form, a member).
    Lossy,
    /// A request or notification that only the other side sends.
    WrongDirection,
    /// A response or error to an `id` that no earlier request from the other side has
    /// (or that was answered already).
    UnknownId,
    /// A request or notification the declared capabilities do not allow (`tools/call` to a
    /// server without `tools`, URL-mode elicitation to a client without `elicitation.url`,
    /// `notifications/prompts/list_changed` from a server without `prompts.listChanged`…), as
    /// the revision's table in [`capabilities`] says.
    Capability,
    /// A form-mode elicitation asking for a field that looks sensitive (password, token,
    /// API key, card number…), which the spec reserves for URL mode.
    SensitiveField,
    /// A URL-mode elicitation with a plain `http` URL to a host that is not this machine, or
    /// a URL a client cannot show.
    InsecureUrl,
    /// Bytes that are not UTF-8 (JSON text is UTF-8): the message names the byte offset in
    /// the line, the bytes, and the string they are in. The rest is checked as if each
    /// invalid sequence were U+FFFD.
    InvalidUtf8,
    /// A line longer than the reader's limit: passed on (by a proxy) but not read, so not
    /// checked; the message names its length and the limit.
    SizeLimit,
    /// JSON nested deeper than the parser's limit ([`MAX_DEPTH`] arrays and objects): valid
    /// as far as it was read, but not checked.
    DepthLimit,
}

/// How deep the checker reads JSON (serde_json's recursion limit: the 128th level fails):
/// arrays and objects nested more deeply are a
/// [`ProblemKind::DepthLimit`] problem.
pub const MAX_DEPTH: usize = 127;

impl ProblemKind {
    /// The kind's name, as in JSON (`unknown_id`).
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::InvalidJson => "invalid_json",
            ProblemKind::Schema => "schema",
            ProblemKind::Lossy => "lossy",
            ProblemKind::WrongDirection => "wrong_direction",
            ProblemKind::UnknownId => "unknown_id",
            ProblemKind::Capability => "capability",
            ProblemKind::SensitiveField => "sensitive_field",
            ProblemKind::InsecureUrl => "insecure_url",
            ProblemKind::InvalidUtf8 => "invalid_utf8",
            ProblemKind::SizeLimit => "size_limit",
            ProblemKind::DepthLimit => "depth_limit",
        }
    }
}

/// What is wrong with a message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// JSON Pointer into the message (`""` is the whole message).
    pub pointer: String,
    /// The problem in words, as [`Report`]'s `Display` shows it (the pointer included).
    pub message: String,
}

/// The check of one message.
///
/// `Display` gives one line: `ok <what>` with `; note: …` for each note, `lossy <changes>`
/// when re-encoding is the only problem, else `error <what>[, answer <code>]: <problems>`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The verdict: [`Verdict::Error`] when there is a problem, [`Verdict::Noted`] when there
    /// are notes.
    pub verdict: Verdict,
    /// The revision whose types checked the message; `None` when it was not checked (not
    /// JSON).
    #[serde(serialize_with = "serialize_version")]
    pub revision: Option<ProtocolVersion>,
    /// What the message is: `request CallToolRequest (tools/call)`, `response to tools/call
    /// (CallToolResult)`, `notification Custom (vendor/x)`, `error -32601 to vendor/x`,
    /// `response` (to no known request); for a request that does not decode, `request id 4
    /// (tools/call)`. Empty when not even the JSON-RPC envelope decodes.
    pub what: String,
    /// For a request its receiver must refuse: the JSON-RPC error code it answers with
    /// (`-32602` invalid params, `-32601` method not found).
    pub answer: Option<i64>,
    /// Notes, in the order found.
    pub notes: Vec<Note>,
    /// Problems, in the order found (re-encoding changes last).
    pub problems: Vec<Problem>,
}

impl Report {
    /// The report on input that could not be read as a message: an error with one
    /// [`ProblemKind::InvalidJson`] problem saying `reason` (shown as `error <reason>`).
    /// [`Checker::unreadable`] also counts it.
    pub fn unreadable(reason: impl Into<String>) -> Report {
        Report {
            verdict: Verdict::Error,
            revision: None,
            what: String::new(),
            answer: None,
            notes: Vec::new(),
            problems: vec![Problem {
                kind: ProblemKind::InvalidJson,
                pointer: String::new(),
                message: reason.into(),
            }],
        }
    }
}

fn serialize_version<S: Serializer>(v: &Option<ProtocolVersion>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(v.as_str()),
        None => s.serialize_none(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.verdict != Verdict::Error {
            write!(f, "ok {}", self.what)?;
            for n in &self.notes {
                write!(f, "; note: {}", n.message)?;
            }
            return Ok(());
        }
        let lossy = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            const SHOWN: usize = 8;
            let changes: Vec<&Problem> = self
                .problems
                .iter()
                .filter(|p| p.kind == ProblemKind::Lossy)
                .collect();
            for (i, c) in changes.iter().take(SHOWN).enumerate() {
                if i > 0 {
                    f.write_str("; ")?;
                }
                f.write_str(&c.message)?;
            }
            if changes.len() > SHOWN {
                write!(f, "; … and {} more", changes.len() - SHOWN)?;
            }
            Ok(())
        };
        let has_lossy = self.problems.iter().any(|p| p.kind == ProblemKind::Lossy);
        let mut others = self
            .problems
            .iter()
            .filter(|p| p.kind != ProblemKind::Lossy)
            .peekable();
        if others.peek().is_none() {
            f.write_str("lossy ")?;
            return lossy(f);
        }
        f.write_str("error ")?;
        if !self.what.is_empty() {
            f.write_str(&self.what)?;
            if let Some(code) = self.answer {
                write!(f, ", answer {code}")?;
            }
            f.write_str(": ")?;
        }
        for (i, p) in others.enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&p.message)?;
        }
        if has_lossy {
            f.write_str("; lossy ")?;
            lossy(f)?;
        }
        Ok(())
    }
}

/// Messages by verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct VerdictCounts {
    /// [`Verdict::Ok`].
    pub ok: usize,
    /// [`Verdict::Noted`].
    pub noted: usize,
    /// [`Verdict::Error`].
    pub error: usize,
}

/// The counts of a [`Checker`]'s reports so far. `Display`: `N passed, M failed` (ok and
/// noted pass).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Messages checked (and input that was not JSON).
    pub messages: usize,
    /// Messages by verdict.
    pub verdicts: VerdictCounts,
    /// Messages by the revision that checked them (`none`: not checked).
    pub revisions: BTreeMap<&'static str, usize>,
    /// Notes by kind ([`NoteKind::name`]).
    pub notes: BTreeMap<&'static str, usize>,
    /// Problems by kind ([`ProblemKind::name`]); each re-encoding change counts.
    pub problems: BTreeMap<&'static str, usize>,
}

impl Summary {
    /// Messages with verdict ok or noted.
    pub fn passed(&self) -> usize {
        self.verdicts.ok + self.verdicts.noted
    }

    /// Messages with verdict error.
    pub fn failed(&self) -> usize {
        self.verdicts.error
    }

    fn add(&mut self, report: &Report) {
        self.messages += 1;
        match report.verdict {
            Verdict::Ok => self.verdicts.ok += 1,
            Verdict::Noted => self.verdicts.noted += 1,
            Verdict::Error => self.verdicts.error += 1,
        }
        *self
            .revisions
            .entry(report.revision.map_or("none", ProtocolVersion::as_str))
            .or_default() += 1;
        for n in &report.notes {
            *self.notes.entry(n.kind.name()).or_default() += 1;
        }
        for p in &report.problems {
            *self.problems.entry(p.kind.name()).or_default() += 1;
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed(), self.failed())
    }
}

/// Checks the messages of one session (or file), in order: what it learned from earlier
/// messages (the revision, the requests waiting for a response, the capabilities each side
/// declared) applies to later ones.
#[derive(Debug, Default)]
pub struct Checker {
    fixed: Option<ProtocolVersion>,
    session: Session,
    summary: Summary,
}

impl Checker {
    /// Learns the revision from the traffic: an `initialize` request and its response (the
    /// negotiated revision is the response's `protocolVersion`; before the response, the
    /// requested one), or a 2026-07-28 request's `_meta["io.modelcontextprotocol/
    /// protocolVersion"]` (stateless: that request and its response; the session's until an
    /// `initialize` negotiates one). Before any, messages are checked against
    /// [`ProtocolVersion::latest`] with a [`NoteKind::RevisionAssumed`] note.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Checks every message against `version` (capabilities are still learned from the
    /// traffic).
    pub fn with_revision(version: ProtocolVersion) -> Checker {
        Checker {
            fixed: Some(version),
            ..Checker::default()
        }
    }

    /// The revision messages are checked against now: the fixed one, or the one learned
    /// from the traffic so far.
    pub fn revision(&self) -> Option<ProtocolVersion> {
        self.fixed.or(self.session.revision)
    }

    /// Checks one message: the JSON text of one JSON-RPC message (or a batch). `dir` is
    /// which side sent it; `None` when unknown (both sides' types are tried, and a response
    /// answers a request of either side).
    pub fn check(&mut self, dir: Option<Direction>, message: &str) -> Report {
        let report = self.check_message(dir, message);
        self.summary.add(&report);
        report
    }

    /// Checks one line of a capture: a JSON-RPC message, or `{"dir":"c2s"|"s2c","msg":{…}}`
    /// saying which side sent it (see [`unwrap_line`]).
    pub fn check_line(&mut self, line: &str) -> Report {
        match unwrap_line(line) {
            Ok((dir, message)) => self.check(dir, message),
            Err(e) => self.unreadable(e),
        }
    }

    /// [`Checker::check`] of a message as the bytes that came: bytes that are not UTF-8 are
    /// a [`ProblemKind::InvalidUtf8`] problem each (byte offset, and the string they are
    /// in), and the message is checked on with each invalid sequence read as U+FFFD, so that
    /// the session still learns from it.
    pub fn check_bytes(&mut self, dir: Option<Direction>, message: &[u8]) -> Report {
        match std::str::from_utf8(message) {
            Ok(text) => self.check(dir, text),
            Err(_) => {
                let mut problems = input::utf8_problems(message, "");
                let text = String::from_utf8_lossy(message);
                let report = self.check_message(dir, &text);
                let report = with_problems_first(report, &mut problems);
                self.summary.add(&report);
                report
            }
        }
    }

    /// [`Checker::check_line`] of a line as the bytes that came, as [`Checker::check_bytes`]
    /// does (byte offsets count from the start of the line; pointers are into the message,
    /// not the wrapper). `dir` is the direction of a line that does not say; the direction
    /// the message was checked with is returned beside the report.
    pub fn check_line_bytes(
        &mut self,
        line: &[u8],
        dir: Option<Direction>,
    ) -> (Option<Direction>, Report) {
        let lossy = String::from_utf8_lossy(line);
        let (own, message) = match unwrap_line(&lossy) {
            Ok(unwrapped) => unwrapped,
            Err(e) => return (dir, self.unreadable(e)),
        };
        let dir = own.or(dir);
        if std::str::from_utf8(line).is_ok() {
            return (dir, self.check(dir, message));
        }
        let wrapped = message.len() != lossy.len();
        let mut problems = input::utf8_problems(line, if wrapped { "/msg" } else { "" });
        let report = self.check_message(dir, message);
        let report = with_problems_first(report, &mut problems);
        self.summary.add(&report);
        (dir, report)
    }

    /// Checks `text` as a value of the schema definition `name` (`CallToolResult`,
    /// `ContentBlock`…) of the checked revision, instead of as a message; the session
    /// learns nothing from it. See [`definitions`].
    pub fn check_definition(&mut self, name: &str, text: &str) -> Report {
        let version = self.revision().unwrap_or_else(ProtocolVersion::latest);
        let report = definition_report(version, name, text);
        self.summary.add(&report);
        report
    }

    /// Records input that could not be read as a message (`reason`, e.g. where the JSON
    /// broke): [`Report::unreadable`], counted in the summary.
    pub fn unreadable(&mut self, reason: impl Into<String>) -> Report {
        let report = Report::unreadable(reason);
        self.summary.add(&report);
        report
    }

    /// Records a line of `length` bytes that was not checked because it is longer than
    /// `limit` bytes: an error with one [`ProblemKind::SizeLimit`] problem, counted in the
    /// summary. The session learns nothing from it.
    pub fn oversized(&mut self, length: u64, limit: u64) -> Report {
        let mut report = Report::unreadable(format!(
            "/: a line of {length} bytes, over the limit of {limit} bytes per line: not read, not checked"
        ));
        report.problems[0].kind = ProblemKind::SizeLimit;
        self.summary.add(&report);
        report
    }

    /// The counts of the reports so far.
    pub fn summary(&self) -> Summary {
        self.summary.clone()
    }
}

/// `report` with `problems` before its own, and its verdict an error.
fn with_problems_first(mut report: Report, problems: &mut Vec<Problem>) -> Report {
    problems.append(&mut report.problems);
    report.problems = std::mem::take(problems);
    report.verdict = Verdict::Error;
    report
}

/// The schema definitions of `version` that [`Checker::check_definition`] takes.
pub fn definitions(version: ProtocolVersion) -> &'static [&'static str] {
    revision::revision(version).definitions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_serialize_with_kinds_named() {
        let mut checker = Checker::with_revision(ProtocolVersion::V2025_06_18);
        let report = checker.check(
            Some(Direction::ServerToClient),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({
                "verdict": "noted",
                "revision": "2025-06-18",
                "what": "error -32700",
                "answer": null,
                "notes": [{
                    "kind": "erratum",
                    "id": "jsonrpc-error-id-null",
                    "pointer": "/id",
                    "message": "erratum jsonrpc-error-id-null: /id"
                }],
                "problems": []
            })
        );
    }
}
