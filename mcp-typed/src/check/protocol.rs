//! What a schema cannot see: which revision a session speaks, which request a response
//! answers, what each side declared it can do, and what an elicitation may ask for.

use std::collections::HashMap;

use serde_json::Value;

use super::capabilities::{Caps, Holder, rules_for};
use super::diff::escape;
use super::revision::{newest_with_initialize, revision};
use super::{Direction, Findings, Note, NoteKind, ProblemKind};
use crate::ProtocolVersion;
use crate::elicit::client::{UrlRequest, UrlWarning};
use mcp_typed_rules::sensitive_name;

/// `_meta` key of a 2026-07-28 request naming its revision.
pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of a 2026-07-28 request carrying the client's capabilities.
pub(crate) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// Requests waiting for their response beyond this many are forgotten, oldest first (a peer
/// that never answers must not grow a long-lived checker without bound).
const MAX_PENDING: usize = 4096;

// ---------------------------------------------------------------------------------------------
// Requests waiting for their response

/// Who sent a request, as the key of the pending map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Client,
    Server,
    Unknown,
}

impl Side {
    fn of(dir: Option<Direction>) -> Side {
        match dir {
            Some(Direction::ClientToServer) => Side::Client,
            Some(Direction::ServerToClient) => Side::Server,
            None => Side::Unknown,
        }
    }
}

/// A request `id`, as a map key: `1` and `"1"` differ, as JSON-RPC says.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum IdKey {
    Int(i64),
    UInt(u64),
    Str(Box<str>),
    Other(Box<str>),
}

impl IdKey {
    fn of(id: &Value) -> IdKey {
        match id {
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => IdKey::Int(i),
                (_, Some(u)) => IdKey::UInt(u),
                _ => IdKey::Other(n.to_string().into()),
            },
            Value::String(s) => IdKey::Str(s.as_str().into()),
            other => IdKey::Other(other.to_string().into()),
        }
    }
}

/// A request seen earlier, waiting for its response.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    seq: u64,
    pub method: String,
    /// Task-augmented (`params.task`): answered with a `CreateTaskResult`.
    pub task: bool,
    /// The revision the request was checked against; its response is checked against it too.
    pub version: ProtocolVersion,
    /// The client's capabilities the request itself carried (2026-07-28 `_meta`).
    pub client_caps: Option<Caps>,
}

// ---------------------------------------------------------------------------------------------
// The session

/// What the checker knows of a session.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// The revision learned from the traffic: the negotiated one, or the one requested.
    pub revision: Option<ProtocolVersion>,
    /// `revision` is an `initialize` response's (not a request's guess).
    negotiated: bool,
    pending: HashMap<(Side, IdKey), Pending>,
    seq: u64,
    client: Option<Caps>,
    server: Option<Caps>,
}

/// The revision to check a message against, and what it answers.
pub(crate) struct Begun {
    pub version: ProtocolVersion,
    /// For a response: the request it answers.
    pub pending: Option<Pending>,
    /// For a response: no request awaits an answer with its `id`.
    pub unknown_id: bool,
    /// For a request: the client capabilities it carries itself (2026-07-28 `_meta`).
    pub own_caps: Option<Caps>,
}

impl Session {
    /// Learns what `message` tells about the session (a handshake, a stateless request's
    /// `_meta`, capabilities), records a request, finds the request a response answers, and
    /// says which revision checks the message: `fixed` if given, else the one learned.
    pub fn begin(
        &mut self,
        dir: Option<Direction>,
        message: &Value,
        at: &str,
        fixed: Option<ProtocolVersion>,
        findings: &mut Findings,
    ) -> Begun {
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id");
        let mut version = None;
        let mut pending = None;
        let mut unknown_id = false;
        if let Some(method) = method {
            let params = message.get("params");
            let mut own_caps = None;
            if method == "initialize" && id.is_some() {
                // A new session: what the client asks for until the server answers.
                self.negotiated = false;
                self.server = None;
                self.client = params
                    .and_then(|p| p.get("capabilities"))
                    .map(|c| Caps::of(c, "the client's initialize request"));
                let requested = params
                    .and_then(|p| p.get("protocolVersion"))
                    .and_then(Value::as_str);
                let newest = newest_with_initialize();
                let v = match requested.map(str::parse::<ProtocolVersion>) {
                    Some(Ok(v)) if revision(v).has_initialize() => v,
                    Some(Ok(v)) => {
                        if fixed.is_none() {
                            assumed(
                                findings,
                                format!("{at}/params/protocolVersion"),
                                format!("{v} has no initialize: checked against {newest}"),
                            );
                        }
                        newest
                    }
                    _ => {
                        if fixed.is_none() {
                            let what = requested.map_or("no protocolVersion".to_owned(), |r| {
                                format!("protocolVersion {r:?} is no revision this crate knows")
                            });
                            assumed(
                                findings,
                                format!("{at}/params/protocolVersion"),
                                format!("{what}: checked against {newest}"),
                            );
                        }
                        newest
                    }
                };
                self.revision = Some(v);
                version = Some(v);
            } else if let Some(meta) = params.and_then(|p| p.get("_meta")) {
                // 2026-07-28: each request says its revision and the client's capabilities.
                if let Some(v) = meta.get(META_VERSION) {
                    match v.as_str().map(str::parse::<ProtocolVersion>) {
                        Some(Ok(v)) => {
                            version = Some(v);
                            if !self.negotiated {
                                self.revision = Some(v);
                            }
                        }
                        _ if fixed.is_none() => assumed(
                            findings,
                            format!("{at}/params/_meta/{}", escape(META_VERSION)),
                            format!("protocolVersion {v} is no revision this crate knows"),
                        ),
                        _ => {}
                    }
                }
                if let Some(c) = meta.get(META_CLIENT_CAPABILITIES) {
                    let caps = Caps::of(c, "the request's _meta clientCapabilities");
                    if !self.negotiated {
                        self.client = Some(caps.clone());
                    }
                    own_caps = Some(caps);
                }
            }
            let v = self.version(fixed.or(version), at, findings);
            if let Some(id) = id {
                self.seq += 1;
                let task = params.is_some_and(|p| p.get("task").is_some());
                self.pending.insert(
                    (Side::of(dir), IdKey::of(id)),
                    Pending {
                        seq: self.seq,
                        method: method.to_owned(),
                        task,
                        version: v,
                        client_caps: own_caps.clone(),
                    },
                );
                if self.pending.len() > MAX_PENDING {
                    let keep_after = self.seq.saturating_sub(MAX_PENDING as u64 / 2);
                    self.pending.retain(|_, p| p.seq > keep_after);
                }
            }
            return Begun {
                version: v,
                pending: None,
                unknown_id: false,
                own_caps,
            };
        }
        match id {
            // `"id": null` answers a request whose id could not be read.
            Some(Value::Null) | None => {}
            Some(id) => {
                pending = self.take(dir, id);
                unknown_id = pending.is_none();
            }
        }
        if let (Some(p), Some(result)) = (&pending, message.get("result")) {
            match p.method.as_str() {
                "initialize" => {
                    let negotiated = result
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .map(str::parse::<ProtocolVersion>);
                    match negotiated {
                        Some(Ok(v)) => {
                            self.revision = Some(v);
                            self.negotiated = true;
                            version = Some(v);
                        }
                        other if fixed.is_none() => {
                            let what = match other {
                                Some(_) => format!(
                                    "protocolVersion {} is no revision this crate knows",
                                    result["protocolVersion"]
                                ),
                                None => "no protocolVersion".to_owned(),
                            };
                            assumed(
                                findings,
                                format!("{at}/result/protocolVersion"),
                                format!("{what}: checked against {}", p.version),
                            );
                        }
                        _ => {}
                    }
                    self.server = result
                        .get("capabilities")
                        .map(|c| Caps::of(c, "the server's initialize result"));
                }
                "server/discover" => {
                    self.server = result
                        .get("capabilities")
                        .map(|c| Caps::of(c, "the server's server/discover result"));
                }
                _ => {}
            }
        }
        let v = fixed.or(version).or(pending.as_ref().map(|p| p.version));
        Begun {
            version: self.version(v, at, findings),
            pending,
            unknown_id,
            own_caps: None,
        }
    }

    /// `chosen`, else the session's revision, else the latest with a note saying so.
    fn version(
        &self,
        chosen: Option<ProtocolVersion>,
        at: &str,
        findings: &mut Findings,
    ) -> ProtocolVersion {
        if let Some(v) = chosen.or(self.revision) {
            return v;
        }
        let latest = ProtocolVersion::latest();
        assumed(
            findings,
            at.to_owned(),
            format!(
                "no revision learned yet (no initialize, no _meta protocolVersion): checked against {latest}"
            ),
        );
        latest
    }

    /// The latest request with this `id` sent from the other side (either side when a
    /// direction is unknown), taken: each request is answered once.
    fn take(&mut self, dir: Option<Direction>, id: &Value) -> Option<Pending> {
        if self.pending.is_empty() {
            return None;
        }
        let id = IdKey::of(id);
        let sides: &[Side] = match dir {
            Some(Direction::ClientToServer) => &[Side::Server, Side::Unknown],
            Some(Direction::ServerToClient) => &[Side::Client, Side::Unknown],
            None => &[Side::Client, Side::Server, Side::Unknown],
        };
        let mut best: Option<(Side, u64)> = None;
        for side in sides {
            if let Some(p) = self.pending.get(&(*side, id.clone()))
                && best.is_none_or(|(_, seq)| p.seq > seq)
            {
                best = Some((*side, p.seq));
            }
        }
        let (side, _) = best?;
        self.pending.remove(&(side, id))
    }

    /// The declared capabilities allow `message` (a request or notification with `method`,
    /// at `at` in what was sent) sent by `sender`, as the revision's capability table says
    /// ([`capabilities`](super::capabilities)); `own_caps` are the client capabilities the
    /// request (or the request a result answers) carried itself. A capability whose holder
    /// declared nothing this checker saw is not checked.
    #[allow(clippy::too_many_arguments)]
    pub fn check_capabilities(
        &self,
        sender: Option<Direction>,
        method: &str,
        message: &Value,
        version: ProtocolVersion,
        at: &str,
        own_caps: Option<&Caps>,
        findings: &mut Findings,
    ) {
        for rule in rules_for(version, method, message) {
            let holder = match (rule.holder, sender) {
                (Holder::Client, _) => Direction::ClientToServer,
                (Holder::Server, _) => Direction::ServerToClient,
                (Holder::Receiver, Some(sender)) => sender.reverse(),
                (Holder::Receiver, None) => continue,
            };
            let (caps, side) = match holder {
                Direction::ServerToClient => (self.server.as_ref(), "server"),
                Direction::ClientToServer => (own_caps.or(self.client.as_ref()), "client"),
            };
            let Some(caps) = caps else {
                continue; // not declared where this checker could see it
            };
            if caps.has(rule.capability) {
                continue;
            }
            let text = format!(
                "`{method}` needs the {side}'s `{}` capability, not declared in {}",
                rule.capability, caps.source
            );
            findings.problem(
                ProblemKind::Capability,
                format!("{at}{}", rule.member),
                text,
            );
        }
    }

    /// The checks of a response's `result` or `error` that need the request: the input
    /// requests of a 2026-07-28 `InputRequiredResult`, the URLs of a `-32042` error.
    pub fn check_response(
        &self,
        message: &Value,
        at: &str,
        version: ProtocolVersion,
        pending: Option<&Pending>,
        findings: &mut Findings,
    ) {
        if let Some(Value::Object(inputs)) = message.pointer("/result/inputRequests") {
            let own_caps = pending.and_then(|p| p.client_caps.as_ref());
            for (key, input) in inputs {
                let Some(method) = input.get("method").and_then(Value::as_str) else {
                    continue;
                };
                let here = format!("{at}/result/inputRequests/{}", escape(key));
                let params = input.get("params");
                self.check_capabilities(
                    Some(Direction::ServerToClient),
                    method,
                    input,
                    version,
                    &here,
                    own_caps,
                    findings,
                );
                if method == "elicitation/create"
                    && let Some(params) = params
                {
                    check_elicitation(params, &format!("{here}/params"), findings);
                }
            }
        }
        if let Some(error) = message.get("error")
            && error.get("code").and_then(Value::as_i64)
                == Some(crate::elicit::URL_ELICITATION_REQUIRED)
            && let Some(Value::Array(list)) = error.pointer("/data/elicitations")
        {
            for (i, params) in list.iter().enumerate() {
                check_url(
                    params,
                    &format!("{at}/error/data/elicitations/{i}"),
                    findings,
                );
            }
        }
    }
}

fn assumed(findings: &mut Findings, pointer: String, message: String) {
    findings.notes.push(Note {
        kind: NoteKind::RevisionAssumed,
        pointer,
        message,
    });
}

// ---------------------------------------------------------------------------------------------
// Elicitation content

/// What an `elicitation/create` may not ask (`params` at `at` in the message): sensitive
/// fields in form mode, a URL that is not safe to show in URL mode.
pub(crate) fn check_elicitation(params: &Value, at: &str, findings: &mut Findings) {
    match params.get("mode").and_then(Value::as_str) {
        Some("url") => check_url(params, at, findings),
        None | Some("form") => {
            let Some(Value::Object(fields)) = params.pointer("/requestedSchema/properties") else {
                return;
            };
            for name in fields.keys() {
                if let Some(word) = sensitive_name(name) {
                    findings.problem(
                        ProblemKind::SensitiveField,
                        format!("{at}/requestedSchema/properties/{}", escape(name)),
                        format!(
                            "form-mode elicitation asks for sensitive data (`{word}`): the spec forbids requesting passwords, secrets, tokens, API keys or payment data in form mode; URL mode is for those"
                        ),
                    );
                }
            }
        }
        Some(_) => {}
    }
}

/// A URL-mode elicitation (`params` at `at`): plain `http` to a host that is not this
/// machine, or a URL a client cannot show, is a problem; other warnings are notes.
fn check_url(params: &Value, at: &str, findings: &mut Findings) {
    match UrlRequest::from_params(params) {
        Ok(request) => {
            for warning in request.warnings() {
                let pointer = format!("{at}/url");
                match warning {
                    UrlWarning::NotHttps => findings.problem(
                        ProblemKind::InsecureUrl,
                        pointer,
                        format!(
                            "URL-mode elicitation over plain http to a host that is not this machine ({}): what the user enters there can be read or changed on the way; use https",
                            request.shown_url()
                        ),
                    ),
                    other => {
                        let message = format!("{}: {other}", pointer_shown(&pointer));
                        findings.notes.push(Note {
                            kind: NoteKind::SuspiciousUrl,
                            pointer,
                            message,
                        });
                    }
                }
            }
        }
        Err(e) => findings.problem(
            ProblemKind::InsecureUrl,
            format!("{at}{}", e.pointer),
            format!("a client cannot show this URL elicitation: {}", e.message),
        ),
    }
}

fn pointer_shown(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn responses_pair_with_the_other_side_s_latest_request() {
        let mut s = Session::default();
        let mut f = Findings::default();
        let fixed = Some(ProtocolVersion::V2025_11_25);
        let c2s = Some(Direction::ClientToServer);
        let s2c = Some(Direction::ServerToClient);
        s.begin(
            c2s,
            &json!({"id": 1, "method": "tools/call", "params": {"task": {}}}),
            "",
            fixed,
            &mut f,
        );
        s.begin(s2c, &json!({"id": 1, "method": "ping"}), "", fixed, &mut f);
        let taken = |p: Option<Pending>| p.map(|p| (p.method, p.task));
        assert_eq!(
            taken(s.take(c2s, &json!(1))),
            Some(("ping".to_owned(), false))
        );
        assert_eq!(taken(s.take(c2s, &json!(1))), None);
        assert_eq!(taken(s.take(None, &json!("1"))), None, "ids are typed");
        assert_eq!(
            taken(s.take(None, &json!(1))),
            Some(("tools/call".to_owned(), true))
        );
        // Without directions: the latest request with the id.
        s.begin(None, &json!({"id": 2, "method": "a"}), "", fixed, &mut f);
        s.begin(None, &json!({"id": 2, "method": "b"}), "", fixed, &mut f);
        assert_eq!(taken(s.take(s2c, &json!(2))).unwrap().0, "b");
        assert!(f.notes.is_empty() && f.problems.is_empty());
    }

    #[test]
    fn pending_requests_are_bounded() {
        let mut s = Session::default();
        let mut f = Findings::default();
        for i in 0..(MAX_PENDING * 3) {
            s.begin(
                None,
                &json!({"id": i, "method": "ping"}),
                "",
                Some(ProtocolVersion::V2025_11_25),
                &mut f,
            );
        }
        assert!(s.pending.len() <= MAX_PENDING);
        assert!(s.take(None, &json!(MAX_PENDING * 3 - 1)).is_some());
    }
}
