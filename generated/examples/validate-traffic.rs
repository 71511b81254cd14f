//! Checks recorded MCP traffic against the generated types of one protocol revision.
//!
//! ```text
//! cargo run -p mcp-types --all-features --example validate-traffic -- \
//!     --revision 2025-11-25 session.jsonl
//! cargo run -p mcp-types --all-features --example validate-traffic -- \
//!     --revision draft --definition CallToolResult results.jsonl
//! ```
//!
//! Input: JSON Lines, one JSON-RPC message per line, or `{"dir":"c2s"|"s2c","msg":{…}}` to say
//! which side sent it (`c2s`: client to server). Blank lines are skipped.
//!
//! Output: one line per message, in input order, then `N passed, M failed`:
//! - `ok <what>`: decoded into the revision's types, and encoding it again gives back the same
//!   JSON. `<what>` is the typed variant: `request CallToolRequest (tools/call)`,
//!   `notification Custom (vendor/x)`, `response to tools/call (CallToolResult)`,
//!   `response` (no earlier request with that `id`), `error -32602 to tools/call`.
//! - `lossy <paths>`: decoded, but the re-encoded JSON differs at these JSON Pointer paths
//!   (`/params/progress: 50 -> 50.0`); numbers compare by value, integer-vs-float is a change.
//! - `error <reason>`: not valid JSON, or not a valid message of this revision.
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
use std::io::{BufRead, BufReader, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mcp_types::{DefinitionVisitor, ProtocolVersion, RequestMethod};
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

/// A decoded value, as a short name of its type (the variant chosen for a union) and its
/// re-encoded JSON; or the decoding error.
type Decoded = Result<(String, Value), String>;

/// Decodes `text` as `T` and encodes it again.
fn decode<T>(text: &str) -> Decoded
where
    T: serde::de::DeserializeOwned + serde::Serialize + fmt::Debug,
{
    let value: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let encoded = serde_json::to_value(&value).map_err(|e| format!("re-encoding failed: {e}"))?;
    Ok((type_label(&value), encoded))
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
            + 'static,
    {
        decode::<T>(self.0).map(|(label, v)| {
            // `label` is empty for values whose `Debug` names no type (aliases of `String`,
            // `Vec`…).
            if label.is_empty() || label == rust_name {
                (rust_name.to_owned(), v)
            } else {
                (format!("{rust_name} ({label})"), v)
            }
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
    /// The type generated for a schema definition; `None` when there is no such definition.
    definition: fn(&str, &str) -> Option<Decoded>,
    definitions: &'static [&'static str],
}

macro_rules! revision {
    ($m:ident, $server_request:ident, [$($request:ident),* $(,)?]) => {{
        use mcp_types::$m as m;
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
            ]
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
}

#[derive(Default)]
struct Session {
    pending: Vec<Pending>,
}

impl Session {
    fn request(&mut self, dir: Option<Dir>, id: &Value, method: &str) {
        self.pending.push(Pending {
            dir,
            id: id.clone(),
            method: method.to_owned(),
        });
    }

    /// The method of the latest request with this `id` sent from the other side (either side
    /// when a direction is unknown); each request is answered once.
    fn response(&mut self, dir: Option<Dir>, id: Option<&Value>) -> Option<String> {
        let id = id?;
        let i = self.pending.iter().rposition(|p| {
            &p.id == id
                && match (p.dir, dir) {
                    (Some(a), Some(b)) => a != b,
                    _ => true,
                }
        })?;
        Some(self.pending.remove(i).method)
    }
}

/// The outcome of one line.
enum Outcome {
    Ok(String),
    Lossy(Vec<Change>),
    Error(String),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok(what) => write!(f, "ok {what}"),
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

/// Splits a line into its direction and message text.
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
            Ok((label, v)) if label != "Custom" => return Ok((label, v)),
            Ok(custom_variant) => custom = Some(custom_variant),
            Err(e) => errors.push(format!("{union}: {e}")),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("; "));
    }
    if let (Some((union, decode)), Some(dir)) = (theirs, dir)
        && let Ok((label, _)) = decode(text)
        && label != "Custom"
    {
        let sent = match dir {
            Dir::C2s => "c2s",
            Dir::S2c => "s2c",
        };
        return Err(format!(
            "wrong direction: {label} is a {union}, not a {} (sent {sent})",
            mine[0].0
        ));
    }
    Ok(custom.expect("one union was tried"))
}

/// The typed part of one (non-batch) message whose envelope already decoded: what it is, and
/// the changes its typed re-encoding makes.
fn check_typed(
    rev: &Revision,
    session: &mut Session,
    dir: Option<Dir>,
    text: &str,
    value: &Value,
    path: &str,
    changes: &mut Vec<Change>,
) -> Result<String, String> {
    let method = value.get("method").and_then(Value::as_str);
    let id = value.get("id");
    if let Some(method) = method {
        let (kind, decoded) = if let Some(id) = id {
            session.request(dir, id, method);
            let server = (rev.server_request_union, rev.server_request);
            let decoded = decode_union(dir, text, ("ClientRequest", rev.client_request), server);
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
        let (label, encoded) = decoded?;
        add_changes(changes, path, value, &encoded);
        return Ok(format!("{kind} {label} ({method})"));
    }
    let answered = session.response(dir, id);
    if let Some(error) = value.get("error") {
        let code = error.get("code").map_or("?".to_owned(), Value::to_string);
        return Ok(match answered {
            Some(method) => format!("error {code} to {method}"),
            None => format!("error {code}"),
        });
    }
    let Some(method) = answered else {
        return Ok("response".to_owned());
    };
    let raw = serde_json::from_str::<ResultMember>(text).map_err(|e| e.to_string())?;
    match (rev.result)(&method, raw.result.get()) {
        None => Ok(format!("response to {method} (untyped)")),
        Some(Err(e)) => Err(format!("result of {method}: {e}")),
        Some(Ok((label, encoded))) => {
            add_changes(
                changes,
                &format!("{path}/result"),
                &value["result"],
                &encoded,
            );
            Ok(format!("response to {method} ({label})"))
        }
    }
}

/// Checks one line as a JSON-RPC message.
fn check_message(rev: &Revision, session: &mut Session, line: &str) -> Outcome {
    let (dir, text, value) = match split_line(line) {
        Ok(split) => split,
        Err(e) => return Outcome::Error(e),
    };
    let encoded = match (rev.message)(text) {
        Ok((_, encoded)) => encoded,
        Err(e) => return Outcome::Error(format!("JSONRPCMessage: {e}")),
    };
    let mut changes = Vec::new();
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
                match check_typed(rev, session, dir, raw.get(), item, &path, &mut changes) {
                    Ok(what) => parts.push(what),
                    Err(e) => return Outcome::Error(format!("[{i}] {e}")),
                }
            }
            format!("batch [{}]", parts.join(", "))
        }
        _ => match check_typed(rev, session, dir, text, &value, "", &mut changes) {
            Ok(what) => what,
            Err(e) => return Outcome::Error(e),
        },
    };
    if changes.is_empty() {
        Outcome::Ok(what)
    } else {
        Outcome::Lossy(changes)
    }
}

/// Checks one line as the type of a schema definition.
fn check_definition(rev: &Revision, name: &str, line: &str) -> Outcome {
    let (_, text, value) = match split_line(line) {
        Ok(split) => split,
        Err(e) => return Outcome::Error(e),
    };
    match (rev.definition)(name, text) {
        None => Outcome::Error(format!("no definition `{name}`")),
        Some(Err(e)) => Outcome::Error(e),
        Some(Ok((what, encoded))) => {
            let mut changes = Vec::new();
            diff("", &value, &encoded, &mut changes);
            if changes.is_empty() {
                Outcome::Ok(what)
            } else {
                Outcome::Lossy(changes)
            }
        }
    }
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
    let input: Box<dyn BufRead> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(&args.file) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!("validate-traffic: {}: {e}", args.file.display());
                return ExitCode::from(2);
            }
        }
    };

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut session = Session::default();
    let (mut passed, mut failed) = (0usize, 0usize);
    for line in input.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("validate-traffic: {}: {e}", args.file.display());
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let outcome = match &args.definition {
            Some(name) => check_definition(&rev, name, &line),
            None => check_message(&rev, &mut session, &line),
        };
        match outcome {
            Outcome::Ok(_) => passed += 1,
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
        s.request(Some(Dir::C2s), &json!(1), "tools/call");
        s.request(Some(Dir::S2c), &json!(1), "ping");
        assert_eq!(
            s.response(Some(Dir::C2s), Some(&json!(1))).as_deref(),
            Some("ping")
        );
        assert_eq!(s.response(Some(Dir::C2s), Some(&json!(1))), None);
        assert_eq!(s.response(None, Some(&json!("1"))), None, "ids are typed");
        assert_eq!(
            s.response(None, Some(&json!(1))).as_deref(),
            Some("tools/call")
        );
    }
}
