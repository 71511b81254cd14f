//! Checking one message: the revision's types by direction and by the request a result
//! answers, the re-encoding compared, notes on what lies beyond the revision, and the
//! protocol checks of [`protocol`](super::protocol).

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::diff::{Change, add_changes, diff_text, escape};
use super::protocol::{Begun, check_elicitation};
use super::revision::{
    self, Revision, UnionDecoded, decode_union, defined_anywhere, newer_revision,
};
use super::{Checker, Direction, Note, NoteKind, Problem, ProblemKind, Report, Verdict};
use crate::{ProtocolVersion, Unknown, UnknownKind};

/// What checking a message found so far.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub notes: Vec<Note>,
    /// Problems other than re-encoding changes.
    pub problems: Vec<Problem>,
    pub changes: Vec<Change>,
    pub answer: Option<i64>,
}

impl Findings {
    /// A problem at `pointer`, shown as `<pointer>: <text>`.
    pub fn problem(&mut self, kind: ProblemKind, pointer: String, text: String) {
        let shown = if pointer.is_empty() { "/" } else { &pointer };
        let message = format!("{shown}: {text}");
        self.problems.push(Problem {
            kind,
            pointer,
            message,
        });
    }

    /// A problem whose message says where itself.
    fn problem_as_is(&mut self, kind: ProblemKind, pointer: String, message: String) {
        self.problems.push(Problem {
            kind,
            pointer,
            message,
        });
    }

    pub(super) fn into_report(self, revision: Option<ProtocolVersion>, what: String) -> Report {
        let mut problems = self.problems;
        problems.extend(self.changes.into_iter().map(|c| Problem {
            kind: ProblemKind::Lossy,
            message: c.to_string(),
            pointer: c.path,
        }));
        let verdict = if !problems.is_empty() {
            Verdict::Error
        } else if !self.notes.is_empty() {
            Verdict::Noted
        } else {
            Verdict::Ok
        };
        Report {
            verdict,
            revision,
            what,
            answer: self.answer,
            notes: self.notes,
            problems,
        }
    }
}

impl Checker {
    pub(super) fn check_message(&mut self, dir: Option<Direction>, message: &str) -> Report {
        let value: Value = match serde_json::from_str(message) {
            Ok(v) => v,
            Err(e) => return unparsed(&e),
        };
        // Error pointers are read off the column of one-line text.
        let compact;
        let text = if message.contains('\n') {
            compact = value.to_string();
            compact.as_str()
        } else {
            message
        };
        let mut f = Findings::default();
        let (version, what) = match &value {
            // A batch (2025-03-26): each member is typed on its own.
            Value::Array(items) => self.check_batch(dir, text, &value, items, &mut f),
            _ => {
                let begun = self.session.begin(dir, &value, "", self.fixed, &mut f);
                let version = begun.version;
                let rev = revision::revision(version);
                let payload = typed_payload(rev, &value, &begun)
                    .and_then(|name| Some((name, root_member(text, name)?)));
                let what = match envelope(rev, text, &value, payload, &mut f) {
                    Some(envelope) => {
                        let result = payload.filter(|p| p.0 == "result").map(|p| p.1);
                        self.check_typed(
                            rev, dir, text, &value, "", result, &envelope, begun, &mut f,
                        )
                    }
                    None => String::new(),
                };
                (version, what)
            }
        };
        f.into_report(Some(version), what)
    }

    fn check_batch(
        &mut self,
        dir: Option<Direction>,
        text: &str,
        value: &Value,
        items: &[Value],
        f: &mut Findings,
    ) -> (ProtocolVersion, String) {
        let version = match self.revision() {
            Some(v) => v,
            None => {
                let latest = ProtocolVersion::latest();
                f.notes.push(Note {
                    kind: NoteKind::RevisionAssumed,
                    pointer: String::new(),
                    message: format!(
                        "/: no revision learned yet (no initialize, no _meta protocolVersion): checked against {latest}"
                    ),
                });
                latest
            }
        };
        let rev = revision::revision(version);
        let Some(envelope) = envelope(rev, text, value, None, f) else {
            return (version, String::new());
        };
        let raw: Vec<&RawValue> = match serde_json::from_str(text) {
            Ok(raw) => raw,
            Err(e) => {
                f.problem_as_is(ProblemKind::InvalidJson, String::new(), e.to_string());
                return (version, String::new());
            }
        };
        let mut parts = Vec::new();
        for (i, (raw, item)) in raw.iter().zip(items).enumerate() {
            let path = format!("/{i}");
            let mut item_findings = Findings::default();
            let begun = self
                .session
                .begin(dir, item, &path, self.fixed, &mut item_findings);
            let rev = revision::revision(begun.version);
            let what = self.check_typed(
                rev,
                dir,
                raw.get(),
                item,
                &path,
                None,
                &envelope,
                begun,
                &mut item_findings,
            );
            // Each member's problems, prefixed with which member and what it is.
            let prefix = match item_findings.answer {
                Some(code) if !what.is_empty() => format!("[{i}] {what}, answer {code}: "),
                _ if !what.is_empty() => format!("[{i}] {what}: "),
                _ => format!("[{i}] "),
            };
            for mut p in item_findings.problems {
                p.message.insert_str(0, &prefix);
                f.problems.push(p);
            }
            f.notes.extend(item_findings.notes);
            for c in item_findings.changes {
                if !f.changes.iter().any(|d| d.path == c.path) {
                    f.changes.push(c);
                }
            }
            parts.push(what);
        }
        (version, format!("batch [{}]", parts.join(", ")))
    }

    /// The typed part of one (non-batch) message whose envelope already decoded: what it
    /// is, its notes and problems. `result`: where the `result` is in `text`, when known.
    #[allow(clippy::too_many_arguments)]
    fn check_typed(
        &mut self,
        rev: &Revision,
        dir: Option<Direction>,
        text: &str,
        value: &Value,
        path: &str,
        result: Option<(usize, usize)>,
        envelope: &[Unknown],
        begun: Begun,
        f: &mut Findings,
    ) -> String {
        let version = rev.version;
        let method = value.get("method").and_then(Value::as_str);
        let id = value.get("id");
        if let Some(method) = method {
            let params = value.get("params");
            let request = id.is_some();
            let (kind, client, server) = if request {
                (
                    "request",
                    ("ClientRequest", rev.client_request),
                    (rev.server_request_union, rev.server_request),
                )
            } else {
                (
                    "notification",
                    ("ClientNotification", rev.client_notification),
                    ("ServerNotification", rev.server_notification),
                )
            };
            let unions = |r: &Revision| {
                if request {
                    (
                        ("ClientRequest", r.client_request),
                        (r.server_request_union, r.server_request),
                    )
                } else {
                    (
                        ("ClientNotification", r.client_notification),
                        ("ServerNotification", r.server_notification),
                    )
                }
            };
            let failed = || match id {
                Some(id) => format!("request id {id} ({method})"),
                None => format!("notification ({method})"),
            };
            let (what, sender) = match decode_union(dir, text, client, server, rev.defines(method))
            {
                UnionDecoded::Typed { typed, sender } => {
                    add_changes(&mut f.changes, path, value, &typed.encoded);
                    // Before 2025-11-25 the request and notification types leave `jsonrpc`
                    // and `id` to the envelope: a top-level member is unknown only if the
                    // envelope does not declare it either.
                    let mut unknowns = typed.unknowns;
                    unknowns.retain(|u| {
                        !(u.kind == UnknownKind::Member && u.pointer.rfind('/') == Some(0))
                            || envelope
                                .iter()
                                .any(|e| e.pointer.strip_prefix(path) == Some(u.pointer.as_str()))
                    });
                    unknown_notes(version, path, &unknowns, &mut f.notes);
                    errata_notes(value, path, None, &mut f.notes);
                    (format!("{kind} {} ({method})", typed.label), sender)
                }
                UnionDecoded::Failed(errors) => {
                    // The receiver of a request it cannot read answers with an error to that
                    // id.
                    if request {
                        f.answer = Some(crate::v2025_11_25::INVALID_PARAMS);
                    }
                    let newer = newer_revision(version, |r| {
                        let (client, server) = unions(r);
                        match decode_union(dir, text, client, server, r.defines(method)) {
                            // A revision that does not know the method is no evidence.
                            UnionDecoded::Typed { typed, .. } if typed.label != "Custom" => {
                                Some(typed.label)
                            }
                            _ => None,
                        }
                    });
                    let last = errors.len() - 1;
                    for (i, (union, e)) in errors.into_iter().enumerate() {
                        let newer = if i == last { newer.as_str() } else { "" };
                        f.problem_as_is(
                            ProblemKind::Schema,
                            e.pointer_in(path),
                            format!("{union}: {}{newer}", e.describe(path, version)),
                        );
                    }
                    (failed(), dir)
                }
                UnionDecoded::WrongDirection {
                    label,
                    union,
                    expected,
                    sent,
                } => {
                    // A method only the other side defines is, to this side, not found.
                    if request {
                        f.answer = Some(crate::v2025_11_25::METHOD_NOT_FOUND);
                    }
                    f.problem_as_is(
                        ProblemKind::WrongDirection,
                        format!("{path}/method"),
                        format!(
                            "wrong direction: {label} is a {union}, not a {expected} (sent {sent})"
                        ),
                    );
                    return failed();
                }
            };
            self.session.check_capabilities(
                sender,
                method,
                value,
                version,
                path,
                begun.own_caps.as_ref(),
                f,
            );
            if request
                && method == "elicitation/create"
                && let Some(params) = params
            {
                check_elicitation(params, &format!("{path}/params"), f);
            }
            return what;
        }
        if begun.unknown_id {
            let id = id.expect("a response with an unknown id has one");
            let from = match dir {
                Some(d) => match d.reverse() {
                    Direction::ClientToServer => "from the client ",
                    Direction::ServerToClient => "from the server ",
                },
                None => "",
            };
            f.problem(
                ProblemKind::UnknownId,
                format!("{path}/id"),
                format!(
                    "no request {from}with id {id} awaits a response (none was sent, or it was answered already)"
                ),
            );
        }
        let answered = begun.pending;
        self.session
            .check_response(value, path, version, answered.as_ref(), f);
        if let Some(error) = value.get("error") {
            errata_notes(value, path, None, &mut f.notes);
            let code = error.get("code").map_or("?".to_owned(), Value::to_string);
            return match answered {
                Some(p) => format!("error {code} to {}", p.method),
                None => format!("error {code}"),
            };
        }
        let Some(pending) = answered else {
            return "response".to_owned();
        };
        let method = pending.method.as_str();
        let Some((start, end)) = result.or_else(|| root_member(text, "result")) else {
            // The envelope took the response: it has one `result`.
            f.problem(
                ProblemKind::Schema,
                format!("{path}/result"),
                "the response's result could not be read again".to_owned(),
            );
            return format!("response to {method}");
        };
        let raw = &text[start..end];
        // A receiver that supports tasks for the request answers a task-augmented one with a
        // `CreateTaskResult`; one that does not ignores `task` and answers as usual.
        let result = |r: &Revision| {
            let plain = (r.result)(method, raw);
            match (pending.task, r.task_result) {
                (true, Some(task_result)) => match task_result(raw) {
                    Ok(t) => Some(("CreateTaskResult", Ok(t))),
                    Err(_) => plain,
                },
                _ => plain,
            }
        };
        let at = format!("{path}/result");
        match result(rev) {
            None => {
                f.notes.push(Note {
                    kind: NoteKind::Untyped,
                    message: format!(
                        "{at}: answers a method {version} does not define, not checked"
                    ),
                    pointer: at,
                });
                format!("response to {method} (untyped)")
            }
            Some((name, Err(e))) => {
                let newer = newer_revision(version, |r| match result(r) {
                    Some((_, Ok(t))) => Some(t.label),
                    _ => None,
                });
                let task = if pending.task {
                    " (task-augmented)"
                } else {
                    ""
                };
                f.problem_as_is(
                    ProblemKind::Schema,
                    e.pointer_in(&at),
                    format!("{name}: {}{newer}", e.describe(&at, version)),
                );
                format!("response to {method}{task}")
            }
            Some((_, Ok(typed))) => {
                add_changes(&mut f.changes, &at, &value["result"], &typed.encoded);
                unknown_notes(version, &at, &typed.unknowns, &mut f.notes);
                errata_notes(value, path, Some(&typed.label), &mut f.notes);
                format!("response to {method} ({})", typed.label)
            }
        }
    }
}

/// The report on text serde_json did not parse: invalid JSON, or JSON nested deeper than
/// [`MAX_DEPTH`](super::MAX_DEPTH) (valid as far as read, not checked).
pub(super) fn unparsed(e: &serde_json::Error) -> Report {
    let mut f = Findings::default();
    let text = e.to_string();
    if text.starts_with("recursion limit exceeded") {
        f.problem_as_is(
            ProblemKind::DepthLimit,
            String::new(),
            format!(
                "/: JSON nested deeper than {} levels (at line {} column {}): valid as far as read, beyond the checker's depth limit, not checked",
                super::MAX_DEPTH,
                e.line(),
                e.column()
            ),
        );
    } else {
        f.problem_as_is(
            ProblemKind::InvalidJson,
            String::new(),
            format!("invalid JSON: {e}"),
        );
    }
    f.into_report(None, String::new())
}

/// Decodes the JSON-RPC envelope (`JSONRPCMessage`): its unknowns, or `None` with the
/// problem recorded. Re-encoding changes are recorded too. `payload` is the member (`params`
/// or `result`) the typed step decodes and compares whole (see [`typed_payload`]), and where
/// it is in `text`: the envelope reads only what it declares of it (see [`envelope_text`]).
fn envelope(
    rev: &Revision,
    text: &str,
    value: &Value,
    payload: Option<(&'static str, (usize, usize))>,
    f: &mut Findings,
) -> Option<Vec<Unknown>> {
    let cut = payload.and_then(|(name, span)| envelope_text(text, span, value.get(name)?));
    let (text, skip) = match (&cut, payload) {
        (Some(cut), Some((name, _))) => (cut.as_str(), Some(name)),
        _ => (text, None),
    };
    match (rev.message)(text) {
        Ok(t) => {
            diff_text("", value, &t.encoded, skip, &mut f.changes);
            Some(t.unknowns)
        }
        Err(e) => {
            f.problem_as_is(
                ProblemKind::Schema,
                e.pointer.clone(),
                format!("JSONRPCMessage: {}", e.describe("", rev.version)),
            );
            None
        }
    }
}

/// The member of a message the typed step decodes with a type of the revision's and compares
/// whole: `params` of a request or notification whose method the revision defines (a method
/// it does not define is the catch-all's, which keeps `params` without reading it), `result`
/// of a response to a pending request of such a method.
fn typed_payload(rev: &Revision, value: &Value, begun: &Begun) -> Option<&'static str> {
    match value.get("method") {
        Some(Value::String(method)) => {
            let methods = if value.get("id").is_some() {
                rev.requests
            } else {
                rev.notifications
            };
            methods.contains(&method.as_str()).then_some("params")
        }
        Some(_) => None,
        None if value.get("error").is_some() => None,
        None => {
            let pending = begun.pending.as_ref()?;
            rev.requests
                .contains(&pending.method.as_str())
                .then_some("result")
        }
    }
}

/// What the envelope's own types declare of `params` and `result`: `_meta` in every revision,
/// `resultType` (of `Result`) from 2026-07-28. Everything else in them is open
/// (`additionalProperties: {}`), so these members alone give the envelope its verdict.
const ENVELOPE_PAYLOAD_MEMBERS: [&str; 2] = ["_meta", "resultType"];

/// `text` with the value of its root member at `span` (an object, `payload`) cut down to
/// [`ENVELOPE_PAYLOAD_MEMBERS`], so that decoding the envelope does not build, encode and
/// compare what the typed step decodes and compares anyway. The rest of the text is kept as
/// written (a member repeated there is the envelope's to refuse); inside `payload`, that step
/// refuses what is repeated. `None`: `payload` is not an object.
fn envelope_text(text: &str, (start, end): (usize, usize), payload: &Value) -> Option<String> {
    let Value::Object(members) = payload else {
        return None;
    };
    let mut cut = String::with_capacity(start + 64 + (text.len() - end));
    cut.push_str(&text[..start]);
    cut.push('{');
    for name in ENVELOPE_PAYLOAD_MEMBERS {
        if let Some(v) = members.get(name) {
            if cut.len() > start + 1 {
                cut.push(',');
            }
            cut.push('"');
            cut.push_str(name);
            cut.push_str("\":");
            cut.push_str(&v.to_string());
        }
    }
    cut.push('}');
    cut.push_str(&text[end..]);
    Some(cut)
}

/// The root members the typed step decodes on their own, as written (serde_json skips
/// everything else without building it).
#[derive(Deserialize)]
struct Payloads<'a> {
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
}

/// Where the value of the root object's member `name` (`params` or `result`) is in `text`
/// (byte offsets), when the root is an object with that member once.
fn root_member(text: &str, name: &str) -> Option<(usize, usize)> {
    let payloads: Payloads<'_> = serde_json::from_str(text).ok()?;
    let raw = match name {
        "params" => payloads.params,
        _ => payloads.result,
    }?
    .get();
    // `raw` is a slice of `text` (serde_json borrows it from the input).
    let start = raw.as_ptr() as usize - text.as_ptr() as usize;
    Some((start, start + raw.len()))
}

/// Checks `text` as the schema definition `name` of `version`.
pub(super) fn definition_report(version: ProtocolVersion, name: &str, text: &str) -> Report {
    let mut f = Findings::default();
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return unparsed(&e),
    };
    let compact;
    let text = if text.contains('\n') {
        compact = value.to_string();
        compact.as_str()
    } else {
        text
    };
    let rev = revision::revision(version);
    let what = match (rev.definition)(name, text) {
        None => {
            f.problem_as_is(
                ProblemKind::Schema,
                String::new(),
                format!("no definition `{name}` in {version}"),
            );
            String::new()
        }
        Some(Err(e)) => {
            f.problem_as_is(
                ProblemKind::Schema,
                e.pointer.clone(),
                e.describe("", version),
            );
            String::new()
        }
        Some(Ok(typed)) => {
            diff_text("", &value, &typed.encoded, None, &mut f.changes);
            unknown_notes(version, "", &typed.unknowns, &mut f.notes);
            typed.label
        }
    };
    f.into_report(Some(version), what)
}

/// Notes on what a decoded value (at `path` in the message) holds beyond `version`.
fn unknown_notes(
    version: ProtocolVersion,
    path: &str,
    unknowns: &[Unknown],
    notes: &mut Vec<Note>,
) {
    for u in unknowns {
        let u = Unknown {
            pointer: format!("{path}{}", u.pointer),
            kind: u.kind.clone(),
        };
        let kind = match &u.kind {
            UnknownKind::Method {
                method: Some(m), ..
            } if !defined_anywhere(m) => NoteKind::Vendor,
            UnknownKind::Member if vendor_member(&u.pointer) => NoteKind::Vendor,
            _ => NoteKind::BeyondRevision,
        };
        notes.push(Note {
            kind,
            message: format!("{u} (not in {version})"),
            pointer: u.pointer,
        });
    }
}

/// An extension member by its name (the last token of `pointer`): `x-…`, or namespaced
/// (`com.example/trace`, `vendor.flag`).
fn vendor_member(pointer: &str) -> bool {
    let name = pointer.rsplit('/').next().unwrap_or(pointer);
    name.starts_with("x-") || name.starts_with("X-") || name.contains("~1") || name.contains('.')
}

/// Notes on the errata of `schema/errata.json` that accepting `message` (at `path`) needed:
/// decimal elicitation answers (`elicit-content-numbers`) and `"id": null` error responses
/// (`jsonrpc-error-id-null`). `result_label` is the type the result decoded as.
fn errata_notes(message: &Value, path: &str, result_label: Option<&str>, notes: &mut Vec<Note>) {
    if message.get("error").is_some() && message.get("id").is_some_and(Value::is_null) {
        let pointer = format!("{path}/id");
        notes.push(Note {
            kind: NoteKind::Erratum {
                id: "jsonrpc-error-id-null",
            },
            message: format!("erratum jsonrpc-error-id-null: {pointer}"),
            pointer,
        });
    }
    let mut decimals = |content: Option<&Value>, at: String| {
        if let Some(Value::Object(content)) = content {
            for (k, v) in content {
                if v.is_f64() {
                    let pointer = format!("{at}/content/{}", escape(k));
                    notes.push(Note {
                        kind: NoteKind::Erratum {
                            id: "elicit-content-numbers",
                        },
                        message: format!("erratum elicit-content-numbers: {pointer}"),
                        pointer,
                    });
                }
            }
        }
    };
    if result_label == Some("ElicitResult") {
        decimals(message.pointer("/result/content"), format!("{path}/result"));
    }
    // 2026-07-28: answers travel inside a retried request's `inputResponses`.
    if let Some(Value::Object(responses)) = message.pointer("/params/inputResponses") {
        for (k, r) in responses {
            if r.get("action").is_some() {
                decimals(
                    r.get("content"),
                    format!("{path}/params/inputResponses/{}", escape(k)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::diff::diff;
    use super::*;

    #[test]
    fn a_union_names_the_type_of_its_member_or_the_variant() {
        use crate::Unknowns;
        use crate::v2025_11_25::{ClientRequest, JsonRpcMessage, ProgressToken};
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
        let request: ClientRequest = crate::convert::decode(call).unwrap();
        assert_eq!(request.chosen(), Some("CallToolRequest"));
        // Through the union inside the union: the request's own type.
        let message: JsonRpcMessage = crate::convert::decode(call).unwrap();
        assert_eq!(message.chosen(), Some("JsonRpcRequest"));
        let custom = r#"{"jsonrpc":"2.0","id":1,"method":"x/y"}"#;
        let request: ClientRequest = crate::convert::decode(custom).unwrap();
        assert_eq!(request.chosen(), Some("Custom"));
        // A member of no generated type of its own: the variant.
        let token: ProgressToken = crate::convert::decode("7").unwrap();
        assert_eq!(token.chosen(), Some("Integer"));
        // A struct is named by its type, not by `chosen`.
        let ClientRequest::CallTool(call) = crate::convert::decode(call).unwrap() else {
            panic!("not a tools/call")
        };
        assert_eq!(call.chosen(), None);
        // What the checker reports: the member's type for a union, the type for a struct.
        let rev = revision::revision(ProtocolVersion::V2025_11_25);
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
        assert_eq!((rev.client_request)(text).unwrap().label, "CallToolRequest");
        let result = (rev.result)("tools/call", r#"{"content":[]}"#).unwrap();
        assert_eq!(
            (result.0, result.1.unwrap().label.as_str()),
            ("CallToolResult", "CallToolResult")
        );
        let token = (rev.definition)("ProgressToken", "\"t\"").unwrap().unwrap();
        assert_eq!(token.label, "ProgressToken (String)");
    }

    /// The envelope decoded with `params`/`result` cut to what it declares: what only the
    /// envelope or only the whole text shows is still found, at the same pointer.
    #[test]
    fn what_the_cut_envelope_does_not_read_is_still_checked() {
        use super::super::{Checker, Direction::*, Verdict};
        let request = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#;
        // (revision, the client's request, the server's response): the pointer of a problem.
        for (version, ask, answer, pointer) in [
            // `_meta` is the envelope's own (kept in the cut), not an object here.
            (
                ProtocolVersion::V2024_11_05,
                request,
                r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":5,"content":[]}}"#,
                "/result/_meta",
            ),
            // An `id` written twice is the envelope's to refuse (the text outside the
            // payload is decoded as written).
            (
                ProtocolVersion::V2025_11_25,
                request,
                r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{"content":[]}}"#,
                "",
            ),
            // A member of the payload written twice: the typed step refuses it.
            (
                ProtocolVersion::V2025_06_18,
                request,
                r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"content":[]}}"#,
                "/result",
            ),
            // 2026-07-28's `Result` requires `resultType` (kept in the cut).
            (
                ProtocolVersion::V2026_07_28,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
                r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#,
                "/result",
            ),
            // The request's own params, cut from the envelope, read by the typed step.
            (
                ProtocolVersion::V2025_06_18,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
                r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#,
                "/params/name",
            ),
        ] {
            let mut checker = Checker::with_revision(version);
            let asked = checker.check(Some(ClientToServer), ask);
            let answered = checker.check(Some(ServerToClient), answer);
            let report = if asked.verdict == Verdict::Error {
                &asked
            } else {
                &answered
            };
            assert_eq!(
                report.verdict,
                Verdict::Error,
                "{version}: {ask} / {answer}: {report}"
            );
            assert!(
                report
                    .problems
                    .iter()
                    .any(|p| p.pointer.starts_with(pointer)),
                "{version}: no problem at {pointer}: {report}"
            );
        }
    }

    #[test]
    fn many_changes_are_cut_short() {
        let mut f = Findings::default();
        let before: serde_json::Map<String, Value> = (0..10)
            .map(|i| (format!("k{i}"), serde_json::json!(i)))
            .collect();
        diff(
            "",
            &Value::Object(before),
            &serde_json::json!({}),
            &mut f.changes,
        );
        let shown = f.into_report(None, String::new()).to_string();
        assert!(shown.starts_with("lossy /k0: 0 -> (absent); "), "{shown}");
        assert!(shown.ends_with("; … and 2 more"), "{shown}");
    }
}
