//! Checks recorded MCP traffic against the generated types of one protocol revision.
//!
//! ```text
//! cargo run -p mcp-typed --all-features --example validate-traffic -- \
//!     --revision 2025-11-25 session.jsonl
//! cargo run -p mcp-typed --all-features --example validate-traffic -- \
//!     --revision draft --definition CallToolResult results.jsonl
//! ```
//!
//! Input: JSON values, one JSON-RPC message each, or `{"dir":"c2s"|"s2c","msg":{…}}` to say
//! which side sent it (`c2s`: client to server): JSON Lines, one pretty-printed document, or
//! values one after another. Blank lines are skipped; a line that is not JSON is reported and
//! reading goes on at the next line.
//!
//! Output: one line per message, in input order, then `N passed, M failed`:
//! - `ok <what>`: decoded into the revision's types, and encoding it again gives back the same
//!   JSON. `<what>` is the typed variant: `request CallToolRequest (tools/call)`,
//!   `notification Custom (vendor/x)`, `response to tools/call (CallToolResult)`,
//!   `response` (no earlier request with that `id`), `error -32602 to tools/call`. Notes may
//!   follow: what the message holds that the revision does not define, kept whole
//!   (`note: /result/content/1: unknown CallToolResultContentItem `type` "audio" (not in
//!   2024-11-05)`, see `mcp_typed::Unknowns`), and the errata of `schema/errata.json` that
//!   were needed to accept it (`note: erratum elicit-content-numbers: /result/content/n`).
//! - `lossy <paths>`: decoded, but the re-encoded JSON differs at these JSON Pointer paths
//!   (`/params/progress: 50 -> 50.0`); numbers compare by value, integer-vs-float is a change.
//! - `error <reason>`: not valid JSON, or not a valid message of this revision. For a request,
//!   the reason starts with its id and method and the JSON-RPC error a receiver answers
//!   (`request id 4 (tools/call), answer -32602: …`).
//!
//! Lossy and error lines count as failed; the exit status is 1 when any line failed (2 for a
//! usage error or an unreadable file).
//!
//! Typing goes beyond the JSON-RPC envelope: requests decode through `ClientRequest` (`c2s`)
//! or `ServerRequest` (`s2c`; in revisions without one, `InputRequest`), notifications
//! through `ClientNotification` / `ServerNotification`, both sides tried when the direction
//! is not given; with a direction, a method that only the other side sends is an error
//! (`wrong direction: CreateMessageRequest is a ServerRequest, not a ClientRequest (sent c2s)`).
//! A result decodes as the result type of the latest request with the same `id` sent earlier
//! in the file from the other side (`RequestMethod::Result`); `(untyped)` for a method the
//! revision does not define.
//!
//! With `--definition NAME` every line is decoded as that schema definition's type instead
//! (`with_definition`), and printed as `ok NAME` (`ok ContentBlock (ImageContent)` for a union).

use std::fmt::{self, Write as _};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mcp_typed::{
    DefinitionVisitor, ProtocolVersion, RequestMethod, Unknown, UnknownKind, Unknowns,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Number, Value};

#[derive(Parser, Debug)]
#[command(
    about = "Decode each line of a JSON Lines MCP traffic file with the generated types of one \
             revision, re-encode it, and report ok / lossy / error per line."
)]
struct Args {
    /// Protocol revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 or draft.
    #[arg(long, value_parser = parse_revision)]
    revision: ProtocolVersion,
    /// Decode every line as this schema definition (e.g. `CallToolResult`) instead of as a
    /// JSON-RPC message.
    #[arg(long, value_name = "NAME")]
    definition: Option<String>,
    /// The JSON Lines file; `-` reads standard input.
    file: PathBuf,
}

fn parse_revision(s: &str) -> Result<ProtocolVersion, String> {
    if s.eq_ignore_ascii_case("draft") {
        return Ok(ProtocolVersion::Draft);
    }
    s.parse::<ProtocolVersion>().map_err(|e| {
        let known: Vec<&str> = ProtocolVersion::ALL
            .iter()
            .map(|v| match v {
                ProtocolVersion::Draft => "draft",
                v => v.as_str(),
            })
            .collect();
        format!("{e}; expected one of {}", known.join(", "))
    })
}

// ---------------------------------------------------------------------------------------------
// Decoding with the generated types of one revision

/// A decoded value: a short name of its type (the variant chosen for a union), its
/// re-encoded JSON, and what it holds that the revision does not define.
struct Typed {
    label: String,
    encoded: Value,
    unknowns: Vec<Unknown>,
}

/// A decoded value, or the decoding error.
type Decoded = Result<Typed, String>;

/// Decodes `text` as `T` and encodes it again.
fn decode<T>(text: &str) -> Decoded
where
    T: serde::de::DeserializeOwned + serde::Serialize + fmt::Debug + Unknowns,
{
    let value: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let encoded = serde_json::to_value(&value).map_err(|e| format!("re-encoding failed: {e}"))?;
    Ok(Typed {
        label: type_label(&value),
        encoded,
        unknowns: value.unknowns(),
    })
}

/// [`decode`] for the type `with_definition` picks.
struct DecodeAs<'a>(&'a str);

impl DefinitionVisitor for DecodeAs<'_> {
    type Output = Decoded;
    fn visit<T>(self, rust_name: &'static str) -> Decoded
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + fmt::Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + 'static,
    {
        decode::<T>(self.0).map(|mut t| {
            // `label` is empty for values whose `Debug` names no type (aliases of `String`,
            // `Vec`…).
            if t.label.is_empty() || t.label == rust_name {
                t.label = rust_name.to_owned();
            } else {
                t.label = format!("{rust_name} ({})", t.label);
            }
            t
        })
    }
}

/// The name of the type a decoded value ended up as: `CallToolRequest` for
/// `CallTool(CallToolRequest { .. })`, `Custom` for `Custom({..})`, the struct's own name for
/// a struct. Read from the derived `Debug` output, which is cut short after a few characters.
fn type_label<T: fmt::Debug>(value: &T) -> String {
    struct Prefix(String);
    impl fmt::Write for Prefix {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                if self.0.len() >= 200 {
                    return Err(fmt::Error); // stop formatting: enough seen
                }
                self.0.push(c);
            }
            Ok(())
        }
    }
    let mut prefix = Prefix(String::new());
    let _ = write!(prefix, "{value:?}");
    let mut rest = prefix.0.as_str();
    let mut label = "";
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            return label.to_owned();
        }
        label = &rest[..end];
        match rest[end..].strip_prefix('(') {
            // A newtype variant: the wrapped value's type names it better, if it has one.
            Some(inner) => rest = inner,
            None => return label.to_owned(),
        }
    }
}

/// The generated types of one revision, behind plain functions.
struct Revision {
    /// `JSONRPCMessage`.
    message: fn(&str) -> Decoded,
    client_request: fn(&str) -> Decoded,
    /// `ServerRequest`, or `InputRequest` in revisions that have no `ServerRequest`.
    server_request: fn(&str) -> Decoded,
    server_request_union: &'static str,
    client_notification: fn(&str) -> Decoded,
    server_notification: fn(&str) -> Decoded,
    /// The result of the request with this `method`; `None` for a method the revision does
    /// not define.
    result: fn(&str, &str) -> Option<Decoded>,
    /// `CreateTaskResult`, the result of a task-augmented request (params with `task`), in
    /// revisions that have tasks.
    task_result: Option<fn(&str) -> Decoded>,
    /// The type generated for a schema definition; `None` when there is no such definition.
    definition: fn(&str, &str) -> Option<Decoded>,
    definitions: &'static [&'static str],
}

macro_rules! revision {
    ($m:ident, $server_request:ident, [$($request:ident),* $(,)?]) => {
        revision!($m, $server_request, [$($request),*], None)
    };
    ($m:ident, $server_request:ident, [$($request:ident),* $(,)?], tasks) => {
        revision!($m, $server_request, [$($request),*], Some(decode::<mcp_typed::$m::CreateTaskResult>))
    };
    ($m:ident, $server_request:ident, [$($request:ident),* $(,)?], $task_result:expr) => {{
        use mcp_typed::$m as m;
        Revision {
            message: decode::<m::JsonRpcMessage>,
            client_request: decode::<m::ClientRequest>,
            server_request: decode::<m::$server_request>,
            server_request_union: stringify!($server_request),
            client_notification: decode::<m::ClientNotification>,
            server_notification: decode::<m::ServerNotification>,
            result: |method, text| {
                $(
                    if method == <m::$request as RequestMethod>::METHOD {
                        return Some(decode::<<m::$request as RequestMethod>::Result>(text));
                    }
                )*
                None
            },
            task_result: $task_result,
            definition: |name, text| m::with_definition(name, DecodeAs(text)),
            definitions: m::DEFINITIONS,
        }
    }};
}

fn revision(version: ProtocolVersion) -> Revision {
    match version {
        ProtocolVersion::V2024_11_05 => revision!(
            v2024_11_05,
            ServerRequest,
            [
                CallToolRequest,
                CompleteRequest,
                CreateMessageRequest,
                GetPromptRequest,
                InitializeRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListToolsRequest,
                PingRequest,
                ReadResourceRequest,
                SetLevelRequest,
                SubscribeRequest,
                UnsubscribeRequest,
            ]
        ),
        ProtocolVersion::V2025_03_26 => revision!(
            v2025_03_26,
            ServerRequest,
            [
                CallToolRequest,
                CompleteRequest,
                CreateMessageRequest,
                GetPromptRequest,
                InitializeRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListToolsRequest,
                PingRequest,
                ReadResourceRequest,
                SetLevelRequest,
                SubscribeRequest,
                UnsubscribeRequest,
            ]
        ),
        ProtocolVersion::V2025_06_18 => revision!(
            v2025_06_18,
            ServerRequest,
            [
                CallToolRequest,
                CompleteRequest,
                CreateMessageRequest,
                ElicitRequest,
                GetPromptRequest,
                InitializeRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListToolsRequest,
                PingRequest,
                ReadResourceRequest,
                SetLevelRequest,
                SubscribeRequest,
                UnsubscribeRequest,
            ]
        ),
        ProtocolVersion::V2025_11_25 => revision!(
            v2025_11_25,
            ServerRequest,
            [
                CallToolRequest,
                CancelTaskRequest,
                CompleteRequest,
                CreateMessageRequest,
                ElicitRequest,
                GetPromptRequest,
                GetTaskPayloadRequest,
                GetTaskRequest,
                InitializeRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListTasksRequest,
                ListToolsRequest,
                PingRequest,
                ReadResourceRequest,
                SetLevelRequest,
                SubscribeRequest,
                UnsubscribeRequest,
            ],
            tasks
        ),
        ProtocolVersion::V2026_07_28 => revision!(
            v2026_07_28,
            InputRequest,
            [
                CallToolRequest,
                CompleteRequest,
                CreateMessageRequest,
                DiscoverRequest,
                ElicitRequest,
                GetPromptRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListToolsRequest,
                ReadResourceRequest,
                SubscriptionsListenRequest,
            ]
        ),
        ProtocolVersion::Draft => revision!(
            draft,
            InputRequest,
            [
                CallToolRequest,
                CompleteRequest,
                CreateMessageRequest,
                DiscoverRequest,
                ElicitRequest,
                GetPromptRequest,
                ListPromptsRequest,
                ListResourceTemplatesRequest,
                ListResourcesRequest,
                ListRootsRequest,
                ListToolsRequest,
                ReadResourceRequest,
                SubscriptionsListenRequest,
            ]
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Comparing the re-encoded JSON with the input

/// One difference between the input and its re-encoding.
struct Change {
    path: String,
    before: Option<Value>,
    after: Option<Value>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn show(v: &Option<Value>) -> String {
            let Some(v) = v else {
                return "(absent)".to_owned();
            };
            let s = v.to_string();
            if s.chars().count() > 40 {
                format!("{}…", s.chars().take(39).collect::<String>())
            } else {
                s
            }
        }
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "{path}: {} -> {}", show(&self.before), show(&self.after))
    }
}

/// Same number by value (`1` and `1.0` are the same value).
fn same_value(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x == y;
    }
    a.as_f64() == b.as_f64()
}

/// Collects the paths where `after` differs from `before`. Object member order does not
/// matter; a number that keeps its value but turns from integer to float (or back) does.
fn diff(path: &str, before: &Value, after: &Value, out: &mut Vec<Change>) {
    let changed = |out: &mut Vec<Change>| {
        out.push(Change {
            path: path.to_owned(),
            before: Some(before.clone()),
            after: Some(after.clone()),
        })
    };
    match (before, after) {
        (Value::Number(a), Value::Number(b)) => {
            if !same_value(a, b) || a.is_f64() != b.is_f64() {
                changed(out);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = format!("{path}/{}", escape(k));
                match b.get(k) {
                    Some(w) => diff(&p, v, w, out),
                    None => out.push(Change {
                        path: p,
                        before: Some(v.clone()),
                        after: None,
                    }),
                }
            }
            for (k, w) in b {
                if !a.contains_key(k) {
                    out.push(Change {
                        path: format!("{path}/{}", escape(k)),
                        before: None,
                        after: Some(w.clone()),
                    });
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = format!("{path}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(v), Some(w)) => diff(&p, v, w, out),
                    (v, w) => out.push(Change {
                        path: p,
                        before: v.cloned(),
                        after: w.cloned(),
                    }),
                }
            }
        }
        _ if before == after => {}
        _ => changed(out),
    }
}

/// JSON Pointer escaping of one reference token.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Adds the changes between `before` and `after` that `changes` does not have yet.
fn add_changes(changes: &mut Vec<Change>, path: &str, before: &Value, after: &Value) {
    let mut more = Vec::new();
    diff(path, before, after, &mut more);
    for c in more {
        if !changes.iter().any(|d| d.path == c.path) {
            changes.push(c);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lines, directions and request/response correlation

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
enum Dir {
    #[serde(rename = "c2s")]
    C2s,
    #[serde(rename = "s2c")]
    S2c,
}

/// `{"dir": "c2s", "msg": {…}}`
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wrapped<'a> {
    dir: Option<Dir>,
    #[serde(borrow)]
    msg: &'a RawValue,
}

/// The `result` member of a response, as it was written.
#[derive(Deserialize)]
struct ResultMember<'a> {
    #[serde(borrow)]
    result: &'a RawValue,
}

/// A request seen earlier in the file, waiting for its response.
struct Pending {
    dir: Option<Dir>,
    id: Value,
    method: String,
    /// Task-augmented (`params.task`): answered with a `CreateTaskResult`.
    task: bool,
}

#[derive(Default)]
struct Session {
    pending: Vec<Pending>,
}

impl Session {
    fn request(&mut self, dir: Option<Dir>, id: &Value, method: &str, task: bool) {
        self.pending.push(Pending {
            dir,
            id: id.clone(),
            method: method.to_owned(),
            task,
        });
    }

    /// The method of the latest request with this `id` sent from the other side (either side
    /// when a direction is unknown); each request is answered once.
    fn response(&mut self, dir: Option<Dir>, id: Option<&Value>) -> Option<(String, bool)> {
        let id = id?;
        let i = self.pending.iter().rposition(|p| {
            &p.id == id
                && match (p.dir, dir) {
                    (Some(a), Some(b)) => a != b,
                    _ => true,
                }
        })?;
        let p = self.pending.remove(i);
        Some((p.method, p.task))
    }
}

/// The outcome of one message.
enum Outcome {
    /// Decoded and re-encoded unchanged; with notes on what was kept or needed an erratum.
    Ok(String, Vec<String>),
    Lossy(Vec<Change>),
    Error(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok(what, notes) => {
                write!(f, "ok {what}")?;
                for n in notes {
                    write!(f, "; note: {n}")?;
                }
                Ok(())
            }
            Outcome::Lossy(changes) => {
                const SHOWN: usize = 8;
                f.write_str("lossy ")?;
                for (i, c) in changes.iter().take(SHOWN).enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{c}")?;
                }
                if changes.len() > SHOWN {
                    write!(f, "; … and {} more", changes.len() - SHOWN)?;
                }
                Ok(())
            }
            Outcome::Error(reason) => write!(f, "error {reason}"),
        }
    }
}

/// Splits a message into its direction and message text.
fn split_line(line: &str) -> Result<(Option<Dir>, &str, Value), String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let wrapped = match &value {
        Value::Object(m) => m.contains_key("msg") && m.keys().all(|k| k == "dir" || k == "msg"),
        _ => false,
    };
    if !wrapped {
        return Ok((None, line, value));
    }
    let w: Wrapped = serde_json::from_str(line).map_err(|e| format!("line wrapper: {e}"))?;
    let Value::Object(mut m) = value else {
        unreachable!("checked above")
    };
    let msg = m.remove("msg").expect("checked above");
    Ok((w.dir, w.msg.get(), msg))
}

/// Decodes with the union(s) for `dir`: the typed variant wins over an error, an error over
/// `Custom` (a method that one side's union does not know is no excuse for the other side's
/// union rejecting it). With a direction, a method only the other side may send is an error.
fn decode_union(
    dir: Option<Dir>,
    text: &str,
    client: (&str, fn(&str) -> Decoded),
    server: (&str, fn(&str) -> Decoded),
) -> Decoded {
    let (mine, theirs) = match dir {
        Some(Dir::C2s) => (vec![client], Some(server)),
        Some(Dir::S2c) => (vec![server], Some(client)),
        None => (vec![client, server], None),
    };
    let mut custom = None;
    let mut errors = Vec::new();
    for (union, decode) in &mine {
        match decode(text) {
            Ok(t) if t.label != "Custom" => return Ok(t),
            Ok(custom_variant) => custom = Some(custom_variant),
            Err(e) => errors.push(format!("{union}: {e}")),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("; "));
    }
    if let (Some((union, decode)), Some(dir)) = (theirs, dir)
        && let Ok(t) = decode(text)
        && t.label != "Custom"
    {
        let sent = match dir {
            Dir::C2s => "c2s",
            Dir::S2c => "s2c",
        };
        return Err(format!(
            "wrong direction: {} is a {union}, not a {} (sent {sent})",
            t.label, mine[0].0
        ));
    }
    Ok(custom.expect("one union was tried"))
}

/// For a value `version` cannot decode: `; a <revision> shape (<type>)` naming the oldest
/// newer revision whose types take it, so that a reader sees a peer speaking past the
/// negotiated revision rather than a broken message. Empty when none does.
fn newer_revision(version: ProtocolVersion, decode: impl Fn(&Revision) -> Decoded) -> String {
    ProtocolVersion::ALL
        .iter()
        .filter(|v| **v > version && **v != ProtocolVersion::Draft)
        .find_map(|v| {
            decode(&revision(*v))
                .ok()
                .map(|t| format!("; a {v} shape ({})", t.label))
        })
        .unwrap_or_default()
}

/// Notes on what a decoded value (at `path` in the message) holds beyond `revision`.
fn unknown_notes(
    revision: ProtocolVersion,
    path: &str,
    unknowns: &[Unknown],
    notes: &mut Vec<String>,
) {
    for u in unknowns {
        let u = Unknown {
            pointer: format!("{path}{}", u.pointer),
            kind: u.kind.clone(),
        };
        notes.push(format!("{u} (not in {revision})"));
    }
}

/// Notes on the errata of `schema/errata.json` that accepting `message` needed: decimal
/// elicitation answers (`elicit-content-numbers`) and `"id": null` error responses
/// (`jsonrpc-error-id-null`). `result_label` is the type the result decoded as.
fn errata_notes(message: &Value, result_label: Option<&str>, notes: &mut Vec<String>) {
    if message.get("error").is_some() && message.get("id").is_some_and(Value::is_null) {
        notes.push("erratum jsonrpc-error-id-null: /id".to_owned());
    }
    let mut decimals = |content: Option<&Value>, path: String| {
        if let Some(Value::Object(content)) = content {
            for (k, v) in content {
                if v.is_f64() {
                    notes.push(format!(
                        "erratum elicit-content-numbers: {path}/content/{}",
                        escape(k)
                    ));
                }
            }
        }
    };
    if result_label == Some("ElicitResult") {
        decimals(message.pointer("/result/content"), "/result".to_owned());
    }
    // 2026-07-28: answers travel inside a retried request's `inputResponses`.
    if let Some(Value::Object(responses)) = message.pointer("/params/inputResponses") {
        for (k, r) in responses {
            if r.get("action").is_some() {
                decimals(
                    r.get("content"),
                    format!("/params/inputResponses/{}", escape(k)),
                );
            }
        }
    }
}

/// The typed part of one (non-batch) message whose envelope already decoded: what it is, and
/// the changes its typed re-encoding makes.
#[allow(clippy::too_many_arguments)]
fn check_typed(
    rev: &Revision,
    version: ProtocolVersion,
    session: &mut Session,
    dir: Option<Dir>,
    text: &str,
    value: &Value,
    path: &str,
    envelope: &[Unknown],
    changes: &mut Vec<Change>,
    notes: &mut Vec<String>,
) -> Result<String, String> {
    let method = value.get("method").and_then(Value::as_str);
    let id = value.get("id");
    if let Some(method) = method {
        let (kind, decoded) = if let Some(id) = id {
            let task = value.pointer("/params/task").is_some();
            session.request(dir, id, method, task);
            let server = (rev.server_request_union, rev.server_request);
            let decoded = decode_union(dir, text, ("ClientRequest", rev.client_request), server)
                // The receiver of a request it cannot read answers with an error to that id.
                .map_err(|e| {
                    let newer = newer_revision(version, |r| {
                        decode_union(
                            dir,
                            text,
                            ("ClientRequest", r.client_request),
                            (r.server_request_union, r.server_request),
                        )
                    });
                    // A method only the other side defines is, to this side, not found.
                    let code = if e.starts_with("wrong direction") {
                        -32601
                    } else {
                        -32602
                    };
                    format!("request id {id} ({method}), answer {code}: {e}{newer}")
                });
            ("request", decoded)
        } else {
            let decoded = decode_union(
                dir,
                text,
                ("ClientNotification", rev.client_notification),
                ("ServerNotification", rev.server_notification),
            );
            ("notification", decoded)
        };
        let mut typed = decoded?;
        add_changes(changes, path, value, &typed.encoded);
        // Before 2025-11-25 the request and notification types leave `jsonrpc` and `id` to
        // the envelope: a top-level member is unknown only if the envelope does not declare
        // it either.
        typed.unknowns.retain(|u| {
            !(u.kind == UnknownKind::Member && u.pointer.rfind('/') == Some(0))
                || envelope
                    .iter()
                    .any(|e| e.pointer == format!("{path}{}", u.pointer))
        });
        unknown_notes(version, path, &typed.unknowns, notes);
        errata_notes(value, None, notes);
        return Ok(format!("{kind} {} ({method})", typed.label));
    }
    let answered = session.response(dir, id);
    if let Some(error) = value.get("error") {
        errata_notes(value, None, notes);
        let code = error.get("code").map_or("?".to_owned(), Value::to_string);
        return Ok(match answered {
            Some((method, _)) => format!("error {code} to {method}"),
            None => format!("error {code}"),
        });
    }
    let Some((method, task)) = answered else {
        return Ok("response".to_owned());
    };
    let raw = serde_json::from_str::<ResultMember>(text).map_err(|e| e.to_string())?;
    // A receiver that supports tasks for the request answers a task-augmented one with a
    // `CreateTaskResult`; one that does not ignores `task` and answers as usual.
    let result = |r: &Revision| {
        let plain = (r.result)(&method, raw.result.get());
        match (task, r.task_result) {
            (true, Some(task_result)) => match task_result(raw.result.get()) {
                Ok(t) => Some(Ok(t)),
                Err(_) => plain,
            },
            _ => plain,
        }
    };
    match result(rev) {
        None => {
            notes.push(format!(
                "{path}/result: answers a method {version} does not define, not checked"
            ));
            Ok(format!("response to {method} (untyped)"))
        }
        Some(Err(e)) => {
            let newer = newer_revision(version, |r| {
                result(r).unwrap_or_else(|| Err("untyped".to_owned()))
            });
            let task = if task { " (task-augmented)" } else { "" };
            Err(format!("result of {method}{task}: {e}{newer}"))
        }
        Some(Ok(typed)) => {
            let at = format!("{path}/result");
            add_changes(changes, &at, &value["result"], &typed.encoded);
            unknown_notes(version, &at, &typed.unknowns, notes);
            errata_notes(value, Some(&typed.label), notes);
            Ok(format!("response to {method} ({})", typed.label))
        }
    }
}

/// Checks one message.
fn check_message(
    rev: &Revision,
    version: ProtocolVersion,
    session: &mut Session,
    line: &str,
) -> Outcome {
    let (dir, text, value) = match split_line(line) {
        Ok(split) => split,
        Err(e) => return Outcome::Error(e),
    };
    let (encoded, envelope) = match (rev.message)(text) {
        Ok(t) => (t.encoded, t.unknowns),
        Err(e) => return Outcome::Error(format!("JSONRPCMessage: {e}")),
    };
    let mut changes = Vec::new();
    let mut notes = Vec::new();
    diff("", &value, &encoded, &mut changes);
    let what = match &value {
        // A batch (2025-03-26): each member is typed on its own.
        Value::Array(items) => {
            let raw: Vec<&RawValue> = match serde_json::from_str(text) {
                Ok(raw) => raw,
                Err(e) => return Outcome::Error(e.to_string()),
            };
            let mut parts = Vec::new();
            for (i, (raw, item)) in raw.iter().zip(items).enumerate() {
                let path = format!("/{i}");
                match check_typed(
                    rev,
                    version,
                    session,
                    dir,
                    raw.get(),
                    item,
                    &path,
                    &envelope,
                    &mut changes,
                    &mut notes,
                ) {
                    Ok(what) => parts.push(what),
                    Err(e) => return Outcome::Error(format!("[{i}] {e}")),
                }
            }
            format!("batch [{}]", parts.join(", "))
        }
        _ => match check_typed(
            rev,
            version,
            session,
            dir,
            text,
            &value,
            "",
            &envelope,
            &mut changes,
            &mut notes,
        ) {
            Ok(what) => what,
            Err(e) => return Outcome::Error(e),
        },
    };
    if changes.is_empty() {
        Outcome::Ok(what, notes)
    } else {
        Outcome::Lossy(changes)
    }
}

/// Checks one message as the type of a schema definition.
fn check_definition(rev: &Revision, version: ProtocolVersion, name: &str, line: &str) -> Outcome {
    let (_, text, value) = match split_line(line) {
        Ok(split) => split,
        Err(e) => return Outcome::Error(e),
    };
    match (rev.definition)(name, text) {
        None => Outcome::Error(format!("no definition `{name}`")),
        Some(Err(e)) => Outcome::Error(e),
        Some(Ok(typed)) => {
            let mut changes = Vec::new();
            diff("", &value, &typed.encoded, &mut changes);
            if changes.is_empty() {
                let mut notes = Vec::new();
                unknown_notes(version, "", &typed.unknowns, &mut notes);
                Outcome::Ok(typed.label, notes)
            } else {
                Outcome::Lossy(changes)
            }
        }
    }
}

/// The JSON values of the input, in order: one per line (JSON Lines), or spanning lines (a
/// pretty-printed document), or several on one line. A stretch that is not JSON is one
/// `Err` naming its line, and reading goes on at the next line.
fn values(text: &str) -> Vec<Result<&str, String>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        let skipped = rest.len() - rest.trim_start().len();
        pos += skipped;
        if pos >= text.len() {
            break;
        }
        let mut stream = serde_json::Deserializer::from_str(&text[pos..]).into_iter::<&RawValue>();
        match stream.next() {
            Some(Ok(raw)) => {
                out.push(Ok(raw.get()));
                pos += stream.byte_offset();
            }
            Some(Err(e)) => {
                // The parser counts from `pos`: report where in the whole input it stopped.
                let before = &text[..pos];
                let first = before.matches('\n').count() + 1;
                let line = first + e.line() - 1;
                let column = if e.line() == 1 {
                    before.len() - before.rfind('\n').map_or(0, |n| n + 1) + e.column()
                } else {
                    e.column()
                };
                let what = e.to_string();
                let what = what.split(" at line ").next().unwrap_or(&what);
                out.push(Err(format!(
                    "invalid JSON at line {line} column {column}: {what}"
                )));
                pos = text[pos..].find('\n').map_or(text.len(), |n| pos + n);
            }
            None => break,
        }
    }
    out
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rev = revision(args.revision);
    if let Some(name) = &args.definition
        && !rev.definitions.contains(&name.as_str())
    {
        eprintln!(
            "validate-traffic: revision {} has no schema definition `{name}` (it has: {})",
            args.revision,
            rev.definitions.join(", ")
        );
        return ExitCode::from(2);
    }
    let text = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text).map(|_| text)
    } else {
        std::fs::read_to_string(&args.file)
    };
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            eprintln!("validate-traffic: {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    };

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut session = Session::default();
    let (mut passed, mut failed) = (0usize, 0usize);
    for message in values(&text) {
        let outcome = match message {
            Err(e) => Outcome::Error(e),
            Ok(message) => match &args.definition {
                Some(name) => check_definition(&rev, args.revision, name, message),
                None => check_message(&rev, args.revision, &mut session, message),
            },
        };
        match outcome {
            Outcome::Ok(..) => passed += 1,
            _ => failed += 1,
        }
        // A closed pipe (`| head`) ends the run quietly.
        if writeln!(out, "{outcome}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if writeln!(out, "{passed} passed, {failed} failed")
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn changes(before: Value, after: Value) -> String {
        let mut out = Vec::new();
        diff("", &before, &after, &mut out);
        if out.is_empty() {
            return "ok".to_owned();
        }
        Outcome::Lossy(out).to_string()
    }

    #[test]
    fn integer_to_float_is_a_change_equal_numbers_are_not() {
        assert_eq!(
            changes(
                json!({"params": {"progress": 50}}),
                json!({"params": {"progress": 50.0}})
            ),
            "lossy /params/progress: 50 -> 50.0"
        );
        assert_eq!(
            changes(json!({"p": 0.8}), json!({"p": 0.800000011920929})),
            "lossy /p: 0.8 -> 0.800000011920929"
        );
        assert_eq!(
            changes(json!({"a": 1, "b": [1.5]}), json!({"b": [1.5], "a": 1})),
            "ok"
        );
        assert_eq!(changes(json!(u64::MAX), json!(u64::MAX)), "ok");
        assert_eq!(
            changes(json!(-1), json!(u64::MAX)),
            "lossy /: -1 -> 18446744073709551615"
        );
    }

    #[test]
    fn members_and_items_added_or_removed_are_named_by_json_pointer() {
        assert_eq!(
            changes(
                // (keys in sorted order: the order of the map's iteration either way)
                json!({"a/b~c": 1, "capabilities": {"roots": {}}, "xs": [1, 2]}),
                json!({"a/b~c": null, "capabilities": {}, "mode": "form", "xs": [1]})
            ),
            "lossy /a~1b~0c: 1 -> null; /capabilities/roots: {} -> (absent); \
             /xs/1: 2 -> (absent); /mode: (absent) -> \"form\""
        );
    }

    #[test]
    fn long_values_and_many_changes_are_cut_short() {
        let long = "x".repeat(100);
        let shown = changes(json!({"s": long}), json!({"s": "y"}));
        assert!(shown.starts_with("lossy /s: \"xxx"), "{shown}");
        assert!(shown.contains("…"), "{shown}");
        assert!(shown.len() < 80, "{shown}");
        let before: serde_json::Map<String, Value> =
            (0..10).map(|i| (format!("k{i}"), json!(i))).collect();
        let shown = changes(Value::Object(before), json!({}));
        assert!(shown.ends_with("; … and 2 more"), "{shown}");
    }

    #[test]
    fn type_label_names_the_wrapped_type_or_the_variant() {
        #[derive(Debug)]
        struct CallToolRequest {
            #[allow(dead_code)]
            id: u8,
        }
        #[derive(Debug)]
        #[allow(dead_code)]
        enum Union {
            CallTool(CallToolRequest),
            Custom(serde_json::Map<String, Value>),
        }
        assert_eq!(
            type_label(&Union::CallTool(CallToolRequest { id: 1 })),
            "CallToolRequest"
        );
        assert_eq!(type_label(&Union::Custom(Default::default())), "Custom");
        assert_eq!(type_label(&CallToolRequest { id: 1 }), "CallToolRequest");
        assert_eq!(type_label(&"a string"), "");
        // Formatting stops early: a huge value is not rendered whole.
        let huge = Union::Custom((0..100_000).map(|i| (i.to_string(), json!(i))).collect());
        assert_eq!(type_label(&huge), "Custom");
    }

    #[test]
    fn revision_names() {
        assert_eq!(parse_revision("draft"), Ok(ProtocolVersion::Draft));
        assert_eq!(
            parse_revision("2025-11-25"),
            Ok(ProtocolVersion::V2025_11_25)
        );
        let e = parse_revision("2025-01-01").unwrap_err();
        assert!(e.contains("2024-11-05") && e.contains("draft"), "{e}");
    }

    #[test]
    fn responses_pair_with_the_other_side_s_latest_request() {
        let mut s = Session::default();
        s.request(Some(Dir::C2s), &json!(1), "tools/call", true);
        s.request(Some(Dir::S2c), &json!(1), "ping", false);
        assert_eq!(
            s.response(Some(Dir::C2s), Some(&json!(1))),
            Some(("ping".to_owned(), false))
        );
        assert_eq!(s.response(Some(Dir::C2s), Some(&json!(1))), None);
        assert_eq!(s.response(None, Some(&json!("1"))), None, "ids are typed");
        assert_eq!(
            s.response(None, Some(&json!(1))),
            Some(("tools/call".to_owned(), true))
        );
    }

    #[test]
    fn values_are_read_whatever_their_layout() {
        let text = "{\"a\":1}\n\n{\n  \"b\": [1,\n 2]\n}\n3 \"x\"\n{oops\n[]";
        let got: Vec<Result<&str, String>> = values(text);
        assert_eq!(got.len(), 6, "{got:?}");
        assert_eq!(got[0], Ok("{\"a\":1}"));
        assert_eq!(got[1], Ok("{\n  \"b\": [1,\n 2]\n}"));
        assert_eq!(got[2], Ok("3"));
        assert_eq!(got[3], Ok("\"x\""));
        assert_eq!(
            got[4],
            Err("invalid JSON at line 8 column 2: key must be a string".to_owned())
        );
        assert_eq!(got[5], Ok("[]"));
        assert!(values("").is_empty());
        assert!(values(" \n\t\n").is_empty());
    }
}
