//! A server written once, serving every revision: [`ServerSession`].

#[cfg(feature = "v2026_07_28")]
use serde_json::json;
use serde_json::{Map, Value};

use super::{Codec, Direction, Observer, Server, Traffic, line, requested_version};
use crate::ProtocolVersion;
use crate::convert;
#[cfg(feature = "v2026_07_28")]
use crate::convert::ConversionError;
use crate::elicit::{Elicit, ElicitOutcome, FormParams};
use crate::v2025_11_25 as app;

/// What a server says about itself, in `initialize` and 2026-07-28's `server/discover`.
#[derive(Debug, Clone)]
pub struct Info {
    /// The server's name and version.
    pub implementation: app::Implementation,
    /// What it offers.
    pub capabilities: app::ServerCapabilities,
    /// Instructions for the client (`initialize` only).
    pub instructions: Option<String>,
    /// The revisions it serves; `initialize` negotiates among the handshake-era ones, and
    /// 2026-07-28's stateless requests are served when it is listed.
    pub versions: Vec<ProtocolVersion>,
    /// 2026-07-28's cache hints for cacheable results (lists, `resources/read`,
    /// `server/discover`): how long they stay fresh, in milliseconds …
    pub ttl_ms: u64,
    /// … and whether any cache may keep them (`"public"`) or only this user's (`"private"`).
    pub cache_scope: &'static str,
}

impl Info {
    /// A server serving every revision this build has, with results that may be cached by
    /// anyone for 0 ms (that is: not cached).
    pub fn new(implementation: app::Implementation, capabilities: app::ServerCapabilities) -> Info {
        // The handshake-era revisions, and 2026-07-28's stateless requests when built in.
        let stateless = cfg!(feature = "v2026_07_28").then_some(ProtocolVersion::V2026_07_28);
        let versions = super::revisions().into_iter().chain(stateless).collect();
        Info {
            implementation,
            capabilities,
            instructions: None,
            versions,
            ttl_ms: 0,
            cache_scope: "public",
        }
    }

    /// Serves `versions` only.
    pub fn with_versions(mut self, versions: impl IntoIterator<Item = ProtocolVersion>) -> Info {
        self.versions = versions.into_iter().collect();
        self
    }

    /// Instructions for the client.
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Info {
        self.instructions = Some(instructions.into());
        self
    }

    /// 2026-07-28's cache hints: fresh for `ttl_ms`, cacheable by anyone (`public: true`) or
    /// this user only.
    pub fn with_cache(mut self, ttl_ms: u64, public: bool) -> Info {
        self.ttl_ms = ttl_ms;
        self.cache_scope = if public { "public" } else { "private" };
        self
    }
}

/// A server's logic, in 2025-11-25 types whatever the session's revision.
pub trait Handler {
    /// Answers a request. `initialize`, `ping` and `server/discover` are answered by the
    /// session; a tool that needs a form asks with [`Context::elicit`].
    fn request(
        &mut self,
        request: &app::ClientRequest,
        cx: &mut Context<'_>,
    ) -> Result<app::ServerResult, Refusal>;

    /// A notification from the client (nothing by default).
    fn notification(&mut self, notification: &app::ClientNotification) {
        let _ = notification;
    }
}

/// Why a request gets no result: a JSON-RPC error, a form to ask first, or a tool error.
#[derive(Debug)]
pub struct Refusal(Kind);

#[derive(Debug)]
enum Kind {
    Error {
        code: i64,
        message: String,
    },
    Ask {
        key: String,
        form: FormParams,
    },
    ToolError(String),
    /// A form asked of a client that did not declare form elicitation: nothing is sent.
    NoElicitation,
}

/// What the session answers when a handler asks a client for a form it cannot take.
const NO_ELICITATION: &str = "the client did not declare form elicitation \
    (capabilities.elicitation), so the server cannot ask for this form";

/// A refused argument: for `tools/call` a tool error naming the argument (the model can
/// correct its call), for another request `-32602`.
impl From<crate::tools::ArgumentsError> for Refusal {
    fn from(error: crate::tools::ArgumentsError) -> Refusal {
        Refusal::tool_error(error.to_string())
    }
}

impl Refusal {
    /// A JSON-RPC error.
    pub fn error(code: i64, message: impl Into<String>) -> Refusal {
        Refusal(Kind::Error {
            code,
            message: message.into(),
        })
    }

    /// `-32602`: the params do not fit (an unknown tool, resource or prompt, a missing
    /// argument).
    pub fn invalid_params(message: impl Into<String>) -> Refusal {
        Refusal::error(app::INVALID_PARAMS, message)
    }

    /// `-32601`: the server has no such method.
    pub fn method_not_found(method: &str) -> Refusal {
        Refusal::error(app::METHOD_NOT_FOUND, format!("no method `{method}`"))
    }

    /// As a JSON-RPC error, for a request that has no tool error (a client's answer to a
    /// server's request): a tool error is `-32602`, anything else `-32603`.
    pub(super) fn into_error(self) -> (i64, String) {
        match self.0 {
            Kind::Error { code, message } => (code, message),
            Kind::ToolError(text) => (app::INVALID_PARAMS, text),
            Kind::NoElicitation => (app::INVALID_PARAMS, NO_ELICITATION.to_owned()),
            Kind::Ask { .. } => (
                app::INTERNAL_ERROR,
                "a client cannot ask for a form".to_owned(),
            ),
        }
    }

    /// For `tools/call`, a result with `isError: true` and `text` (the model sees it);
    /// for another request, `-32602` with `text`.
    pub fn tool_error(text: impl Into<String>) -> Refusal {
        Refusal(Kind::ToolError(text.into()))
    }
}

/// What a handler knows about the request it answers: the session's revision, what the
/// client declared, and the answers to the forms it asked.
#[derive(Debug)]
pub struct Context<'a> {
    version: ProtocolVersion,
    client: Option<&'a app::ClientCapabilities>,
    answers: &'a Map<String, Value>,
    asked: usize,
}

impl Context<'_> {
    /// The revision of the session (2026-07-28 for its stateless requests).
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The capabilities the client declared: in `initialize`, or in a 2026-07-28 request's
    /// `_meta` (`io.modelcontextprotocol/clientCapabilities`), as 2025-11-25's type. `None`
    /// when the client declared none the session could read.
    pub fn client_capabilities(&self) -> Option<&app::ClientCapabilities> {
        self.client
    }

    /// Whether [`elicit`](Context::elicit) can ask this client for a form: the revision has
    /// elicitation and the client declared it in form mode (`elicitation: {}`, which means
    /// form mode, or `elicitation: {"form": {}}`; `{"url": {}}` alone excludes forms).
    pub fn can_elicit(&self) -> bool {
        self.version >= ProtocolVersion::ELICITATION
            && self
                .client
                .and_then(|c| c.elicitation.as_ref())
                .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }

    /// Asks the user for `T`'s form with `message`, and reads the answer, the same way in
    /// every revision: propagate the refusal with `?` and the session asks (an
    /// `elicitation/create` request up to 2025-11-25, an `InputRequiredResult` in 2026-07-28)
    /// and runs the handler again with the answer, where this call returns it. Ask in the same
    /// order on every run: the first form asked is `"form"`, the next `"form-2"`…
    ///
    /// An answer that breaks the form, or a form the revision cannot express (a multi-select
    /// in 2025-06-18), is a [tool error](Refusal::tool_error) naming the fields. A client that
    /// did not declare form elicitation ([`can_elicit`](Context::can_elicit) is false) is
    /// asked nothing: the refusal is a tool error saying so (for `tools/call`; `-32602` for
    /// another request), and in 2026-07-28 the `-32021` error
    /// (`MissingRequiredClientCapabilityError`) that revision defines for it. Check
    /// `can_elicit` first to go on without the form instead.
    pub fn elicit<T: Elicit>(
        &mut self,
        message: impl Into<String>,
    ) -> Result<ElicitOutcome<T>, Refusal> {
        self.asked += 1;
        let key = match self.asked {
            1 => "form".to_owned(),
            n => format!("form-{n}"),
        };
        if let Some(answer) = self.answers.get(&key) {
            return T::outcome(answer)
                .map_err(|e| Refusal::tool_error(format!("Invalid answer: {e}")));
        }
        if !self.can_elicit() {
            return Err(Refusal(Kind::NoElicitation));
        }
        let form = T::form_params(message, self.version)
            .map_err(|e| Refusal::tool_error(e.to_string()))?;
        Err(Refusal(Kind::Ask { key, form }))
    }
}

/// A tool call waiting for the answer to a form it asked.
#[derive(Debug)]
struct Parked {
    asked: app::RequestId,
    call: app::RequestId,
    request: app::ClientRequest,
    key: String,
    answers: Map<String, Value>,
}

/// One client's session with a server written against 2025-11-25 types ([`Handler`]):
/// negotiates in `initialize`, answers `ping` and 2026-07-28's `server/discover`, reads and
/// writes every message in the session's revision ([`Codec`]), and asks for forms.
#[derive(Debug)]
pub struct ServerSession<H> {
    handler: H,
    info: Info,
    /// At 2025-11-25 until `initialize` negotiates (its shape is the same in every revision).
    codec: Codec<Server>,
    negotiated: bool,
    /// What the client declared in `initialize`.
    client: Option<app::ClientCapabilities>,
    /// Whether a 2026-07-28 (stateless) request was served.
    stateless: bool,
    parked: Vec<Parked>,
    observer: Option<Observer>,
}

impl<H: Handler> ServerSession<H> {
    /// A session, before `initialize`.
    pub fn new(info: Info, handler: H) -> ServerSession<H> {
        ServerSession {
            handler,
            info,
            codec: Codec::new(ProtocolVersion::V2025_11_25),
            negotiated: false,
            client: None,
            stateless: false,
            parked: Vec::new(),
            observer: None,
        }
    }

    /// Calls `observer` with every line the session reads and writes, in order: its
    /// direction, the kind of message and method, and why an incoming line could not be read.
    /// For logging a session's traffic without a loop of one's own around
    /// [`receive`](ServerSession::receive).
    pub fn observe(mut self, observer: impl FnMut(&Traffic<'_>) + Send + 'static) -> Self {
        self.observer = Some(Observer(Box::new(observer)));
        self
    }

    /// The session's revision: the one `initialize` negotiated, or 2026-07-28 once a
    /// request of that revision (which has no handshake) was served; `None` before either.
    pub fn version(&self) -> Option<ProtocolVersion> {
        if self.negotiated {
            return Some(self.codec.version());
        }
        self.stateless.then_some(ProtocolVersion::V2026_07_28)
    }

    /// The capabilities the client declared in `initialize` (`None` before it, and in
    /// 2026-07-28, where each request declares them: see [`Context::client_capabilities`]).
    pub fn client_capabilities(&self) -> Option<&app::ClientCapabilities> {
        self.client.as_ref()
    }

    /// The handler.
    pub fn handler(&mut self) -> &mut H {
        &mut self.handler
    }

    /// Serves newline-delimited JSON-RPC on stdin/stdout (the stdio transport) until stdin
    /// ends.
    pub fn serve_stdio(mut self) -> std::io::Result<()> {
        self.serve_lines(std::io::stdin().lock(), std::io::stdout().lock())
    }

    /// Serves newline-delimited JSON-RPC: each line read from `input` is answered on `output`
    /// (flushed after each), until `input` ends.
    pub fn serve_lines(
        &mut self,
        input: impl std::io::BufRead,
        mut output: impl std::io::Write,
    ) -> std::io::Result<()> {
        for text in input.lines() {
            for reply in self.receive(&text?) {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
        }
        Ok(())
    }

    /// One incoming line → the lines to send, in order.
    pub fn receive(&mut self, text: &str) -> Vec<String> {
        let mut error = None;
        let out = self.answer(text, &mut error);
        if let Some(observer) = &mut self.observer {
            observer.see(Direction::In, text, error.as_deref());
            for line in &out {
                observer.see(Direction::Out, line, None);
            }
        }
        out
    }

    fn answer(&mut self, text: &str, error: &mut Option<String>) -> Vec<String> {
        if !self.negotiated
            && let Ok(peek) = serde_json::from_str::<Value>(text)
            && let Some(requested) = requested_version(&peek)
        {
            return self
                .stateless(text, &peek, requested, error)
                .into_iter()
                .collect();
        }
        let message = match self.codec.decode(text) {
            Ok(message) => message,
            Err(refused) => {
                *error = Some(refused.message);
                return vec![refused.reply];
            }
        };
        let out = self.handle(message);
        out.iter().map(|m| self.encode(m)).collect()
    }

    fn encode(&mut self, message: &app::ServerMessage) -> String {
        let codec = &mut self.codec;
        match codec.encode(message) {
            Ok(encoded) => encoded.line,
            Err(e) => {
                let id = match message {
                    app::ServerMessage::Response(r) => Some(r.id.clone()),
                    _ => None,
                };
                let version = codec.version();
                let error = app::ServerMessage::error(
                    id,
                    app::INTERNAL_ERROR,
                    format!("the answer cannot be said in {version}: {e}"),
                );
                codec
                    .encode(&error)
                    .map_or_else(|_| line(&error), |e| e.line)
            }
        }
    }

    fn handle(&mut self, message: app::ClientMessage) -> Vec<app::ServerMessage> {
        use app::ServerMessage as M;
        match message {
            app::ClientMessage::Request(request) => {
                let Some(id) = app::ClientMessage::request_id(&request) else {
                    return Vec::new();
                };
                match &request {
                    app::ClientRequest::Initialize(init) => vec![self.initialize(id, init)],
                    app::ClientRequest::Ping(_) => vec![M::response(id, app::McpResult::new())],
                    _ => self.run(id, request, Map::new()),
                }
            }
            app::ClientMessage::Response(answer) => {
                let Some(at) = self.parked.iter().position(|p| p.asked == answer.id) else {
                    return Vec::new();
                };
                let mut parked = self.parked.remove(at);
                let value = serde_json::from_str(answer.result.get()).unwrap_or(Value::Null);
                parked.answers.insert(parked.key, value);
                self.run(parked.call, parked.request, parked.answers)
            }
            app::ClientMessage::Error(error) => {
                let at = self
                    .parked
                    .iter()
                    .position(|p| Some(&p.asked) == error.id.as_ref());
                let Some(at) = at else {
                    return Vec::new();
                };
                let parked = self.parked.remove(at);
                let text = format!(
                    "The client could not answer the form: {} ({})",
                    error.error.message, error.error.code
                );
                vec![refused(parked.call, &parked.request, Kind::ToolError(text))]
            }
            app::ClientMessage::Notification(notification) => {
                self.handler.notification(&notification);
                Vec::new()
            }
        }
    }

    fn initialize(
        &mut self,
        id: app::RequestId,
        init: &app::InitializeRequest,
    ) -> app::ServerMessage {
        let handshake: Vec<ProtocolVersion> = self
            .info
            .versions
            .iter()
            .copied()
            .filter(|v| super::revisions().contains(v))
            .collect();
        let Some(version) = ProtocolVersion::negotiate(&init.params.protocol_version, &handshake)
        else {
            return app::ServerMessage::error(
                Some(id),
                app::INVALID_PARAMS,
                "this server serves no revision with `initialize`",
            );
        };
        self.codec.set_version(version);
        self.negotiated = true;
        self.client = Some(app::ClientCapabilities::clone(&init.params.capabilities));
        let info = &self.info;
        let mut result = app::InitializeResult::new(
            version.as_str(),
            info.capabilities.clone(),
            info.implementation.clone(),
        );
        result.instructions = info.instructions.clone();
        app::ServerMessage::response(id, result)
    }

    /// Runs the handler for a request, with the answers to the forms it asked so far.
    fn run(
        &mut self,
        id: app::RequestId,
        request: app::ClientRequest,
        answers: Map<String, Value>,
    ) -> Vec<app::ServerMessage> {
        let version = self.version().unwrap_or(ProtocolVersion::V2025_11_25);
        let mut cx = Context {
            version,
            client: self.client.as_ref(),
            answers: &answers,
            asked: 0,
        };
        let kind = match self.handler.request(&request, &mut cx) {
            Ok(result) => return vec![app::ServerMessage::response(id, result)],
            Err(Refusal(kind)) => kind,
        };
        let Kind::Ask { key, form } = kind else {
            return vec![refused(id, &request, kind)];
        };
        let asked = match key.as_str() {
            "form" => app::RequestId::from(format!("form-{id}")),
            _ => app::RequestId::from(format!("{key}-{id}")),
        };
        let params: app::ElicitRequestParams = match convert::decode(&line(&form)) {
            Ok(params) => params,
            Err(e) => return vec![refused(id, &request, Kind::ToolError(e.to_string()))],
        };
        self.parked.push(Parked {
            asked: asked.clone(),
            call: id,
            request,
            key,
            answers,
        });
        vec![app::ServerMessage::request(app::ElicitRequest::new(
            asked, params,
        ))]
    }

    /// A 2026-07-28 request (it names its revision in `_meta`; no session): the reply.
    #[cfg(feature = "v2026_07_28")]
    fn stateless(
        &mut self,
        text: &str,
        peek: &Value,
        requested: &str,
        error: &mut Option<String>,
    ) -> Option<String> {
        use crate::v2026_07_28 as v26;
        let request = match v26::ClientMessage::from_json(text) {
            Ok(v26::ClientMessage::Request(request)) => request,
            Ok(_) => return None,
            Err(e) => {
                *error = Some(e.to_string());
                return Some(line(e.reply()));
            }
        };
        let id = v26::ClientMessage::request_id(&request)?;
        let stateless = ProtocolVersion::V2026_07_28;
        let served = self.info.versions.contains(&stateless);
        if requested != stateless.as_str() || !served {
            let supported: Vec<&str> = served.then_some(stateless.as_str()).into_iter().collect();
            let data = json!({"requested": requested, "supported": supported});
            let message = format!("protocol version `{requested}` is not supported");
            let error = v26::Error::new(v26::UNSUPPORTED_PROTOCOL_VERSION, message).with_data(data);
            return Some(line(&v26::JsonRpcErrorResponse {
                id: Some(id),
                error,
                extra: crate::Extra::new(),
            }));
        }
        let reply = |result: Result<Value, (i64, String)>| -> String {
            match result {
                Ok(result) => line(&json!({"jsonrpc": "2.0", "id": id, "result": result})),
                Err((code, message)) => {
                    line(&v26::ServerMessage::error(Some(id.clone()), code, message))
                }
            }
        };
        self.stateless = true;
        let method = request.method().to_owned();
        if let v26::ClientRequest::Discover(_) = &request {
            return Some(reply(self.discover()));
        }
        // A method of another revision that 2026-07-28 does not define (`ping`, which it
        // removed) is not that method here; one no revision defines goes to the handler.
        if app::REQUEST_METHODS.contains(&method.as_str())
            && !v26::REQUEST_METHODS.contains(&method.as_str())
        {
            let message = format!("`{method}` is not a method of {stateless}");
            return Some(reply(Err((app::METHOD_NOT_FOUND, message))));
        }
        // What the client declared, in this request's `_meta` (from the peek `receive` made).
        let client: Option<app::ClientCapabilities> = peek
            .pointer("/params/_meta/io.modelcontextprotocol~1clientCapabilities")
            .and_then(|caps| convert::decode(&caps.to_string()).ok());
        let mut answers = Map::new();
        if let v26::ClientRequest::CallTool(call) = &request {
            if let Some(Ok(Value::Object(earlier))) = call
                .params
                .request_state
                .as_deref()
                .map(serde_json::from_str)
            {
                answers = earlier;
            }
            for (key, response) in call.params.input_responses.as_deref().into_iter().flatten() {
                answers.insert(
                    key.clone(),
                    crate::runtime::json_value(response).unwrap_or_default(),
                );
            }
        }
        let message = v26::ClientMessage::Request(request);
        let request = match convert::downgrade::<app::ClientMessage>(&message) {
            Ok(down) => match down.value {
                app::ClientMessage::Request(request) => request,
                _ => return None,
            },
            Err(_) => {
                let refusal = (app::METHOD_NOT_FOUND, format!("no method `{method}`"));
                return Some(reply(Err(refusal)));
            }
        };
        let mut cx = Context {
            version: stateless,
            client: client.as_ref(),
            answers: &answers,
            asked: 0,
        };
        let result = match self.handler.request(&request, &mut cx) {
            Ok(result) => self.result_2026(&method, &result),
            Err(Refusal(Kind::Error { code, message })) => Err((code, message)),
            Err(Refusal(Kind::ToolError(text))) if method == "tools/call" => {
                self.result_2026(&method, &app::CallToolResult::error(text).into())
            }
            Err(Refusal(Kind::ToolError(text))) => Err((app::INVALID_PARAMS, text)),
            Err(Refusal(Kind::NoElicitation)) => {
                let error =
                    v26::Error::new(v26::MISSING_REQUIRED_CLIENT_CAPABILITY, NO_ELICITATION)
                        .with_data(json!({"requiredCapabilities": {"elicitation": {}}}));
                return Some(line(&v26::JsonRpcErrorResponse {
                    id: Some(id),
                    error,
                    extra: crate::Extra::new(),
                }));
            }
            Err(Refusal(Kind::Ask { key, form })) => {
                let mut result = json!({
                    "resultType": "input_required",
                    "inputRequests": {key: form.into_request().to_value()},
                    "_meta": self.meta_2026(),
                });
                if !answers.is_empty() {
                    result["requestState"] = Value::String(Value::Object(answers).to_string());
                }
                checked::<v26::InputRequiredResult>(result)
            }
        };
        Some(reply(result))
    }

    #[cfg(not(feature = "v2026_07_28"))]
    fn stateless(
        &mut self,
        text: &str,
        _peek: &Value,
        _requested: &str,
        error: &mut Option<String>,
    ) -> Option<String> {
        let mut codec = Codec::<Server>::new(ProtocolVersion::V2025_11_25);
        let refused = codec.decode(text).err()?;
        *error = Some(refused.message);
        Some(refused.reply)
    }

    #[cfg(feature = "v2026_07_28")]
    fn meta_2026(&self) -> Value {
        json!({"io.modelcontextprotocol/serverInfo": self.info.implementation})
    }

    /// A 2025-11-25 result as 2026-07-28's (bridges `result-type`, `cache-hints`,
    /// `server-info-meta`), checked against 2026-07-28's type for `method`.
    #[cfg(feature = "v2026_07_28")]
    fn result_2026(
        &self,
        method: &str,
        result: &app::ServerResult,
    ) -> Result<Value, (i64, String)> {
        use crate::v2026_07_28 as v26;
        let mut value =
            crate::runtime::json_value(result).map_err(|e| (app::INTERNAL_ERROR, e.to_string()))?;
        let Value::Object(object) = &mut value else {
            return Err((app::INTERNAL_ERROR, "a result is an object".to_owned()));
        };
        object
            .entry("resultType")
            .or_insert_with(|| Value::from("complete"));
        if CACHEABLE.contains(&method) {
            object
                .entry("ttlMs")
                .or_insert_with(|| Value::from(self.info.ttl_ms));
            object
                .entry("cacheScope")
                .or_insert_with(|| Value::from(self.info.cache_scope));
        }
        let meta = object
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Value::Object(meta), Value::Object(ours)) = (meta, self.meta_2026()) {
            for (k, v) in ours {
                meta.entry(k).or_insert(v);
            }
        }
        match method {
            "tools/list" => checked::<v26::ListToolsResult>(value),
            "tools/call" => checked::<v26::CallToolResult>(value),
            "resources/list" => checked::<v26::ListResourcesResult>(value),
            "resources/templates/list" => checked::<v26::ListResourceTemplatesResult>(value),
            "resources/read" => checked::<v26::ReadResourceResult>(value),
            "prompts/list" => checked::<v26::ListPromptsResult>(value),
            "prompts/get" => checked::<v26::GetPromptResult>(value),
            "completion/complete" => checked::<v26::CompleteResult>(value),
            _ => checked::<Value>(value),
        }
    }

    /// `server/discover`'s result, from [`Info`].
    #[cfg(feature = "v2026_07_28")]
    fn discover(&self) -> Result<Value, (i64, String)> {
        let result = json!({
            "resultType": "complete",
            "ttlMs": self.info.ttl_ms,
            "cacheScope": self.info.cache_scope,
            "supportedVersions": [ProtocolVersion::V2026_07_28.as_str()],
            "capabilities": self.info.capabilities,
            "_meta": self.meta_2026(),
        });
        checked::<crate::v2026_07_28::DiscoverResult>(result)
    }
}

/// Results cached per 2026-07-28's cache hints.
#[cfg(feature = "v2026_07_28")]
const CACHEABLE: [&str; 5] = [
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
];

/// `value` read as `T` and written back (what we send must fit the revision, members in its
/// order); else an internal error naming where it does not fit.
#[cfg(feature = "v2026_07_28")]
fn checked<T: crate::runtime::Decode + serde::Serialize>(
    value: Value,
) -> Result<Value, (i64, String)> {
    match convert::decode::<T>(&value.to_string()) {
        Ok(typed) => Ok(crate::runtime::json_value(&typed).expect("typed values encode")),
        Err(ConversionError { pointer, message }) => Err((
            app::INTERNAL_ERROR,
            format!("the result does not fit 2026-07-28 at `{pointer}`: {message}"),
        )),
    }
}

/// The reply to request `id` that a handler refused.
fn refused(id: app::RequestId, request: &app::ClientRequest, kind: Kind) -> app::ServerMessage {
    use app::ServerMessage as M;
    match kind {
        Kind::Error { code, message } => M::error(Some(id), code, message),
        Kind::ToolError(text) if matches!(request, app::ClientRequest::CallTool(_)) => {
            M::response(id, app::CallToolResult::error(text))
        }
        Kind::ToolError(text) => M::error(Some(id), app::INVALID_PARAMS, text),
        Kind::NoElicitation if matches!(request, app::ClientRequest::CallTool(_)) => {
            M::response(id, app::CallToolResult::error(NO_ELICITATION))
        }
        Kind::NoElicitation => M::error(Some(id), app::INVALID_PARAMS, NO_ELICITATION),
        Kind::Ask { .. } => M::error(Some(id), app::INTERNAL_ERROR, "a form asked twice"),
    }
}
