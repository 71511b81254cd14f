//! A client written once, talking to a server of any revision: [`ClientSession`].

use std::collections::HashMap;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::{Client, Codec, Direction, Observer, Refusal, line};
use crate::elicit::client::{Form, FormError, FormReply, UrlRequest};
use crate::v2025_11_25 as app;
use crate::{ProtocolVersion, RequestMethod, convert};

/// How many times a 2026-07-28 request is retried with answers before the session gives up
/// (a server that keeps answering `input_required`).
const MAX_ROUNDS: u32 = 8;

/// What a client says about itself: its name, the revisions it speaks (the first preferred)
/// and what it can do. The session writes the capabilities in each revision's terms.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    /// The client's name and version.
    pub implementation: app::Implementation,
    /// The revisions it speaks, preferred first. The session offers the first: 2026-07-28
    /// with `server/discover` (falling back to `initialize` with the next one when the server
    /// does not serve it), an older one with `initialize`, accepting the server's counter-offer
    /// when it is in this list.
    pub versions: Vec<ProtocolVersion>,
    /// What it can do, as 2025-11-25 says it. `elicitation` is written per revision: left
    /// out before 2025-06-18, `{}` (forms) in 2025-06-18, with its modes from 2025-11-25 on.
    pub capabilities: app::ClientCapabilities,
}

impl ClientInfo {
    /// A client speaking every revision this build has, newest first, that declares no
    /// capability (it is asked for nothing).
    pub fn new(implementation: app::Implementation) -> ClientInfo {
        let stateless = cfg!(feature = "v2026_07_28").then_some(ProtocolVersion::V2026_07_28);
        let mut versions: Vec<ProtocolVersion> = super::revisions();
        versions.extend(stateless);
        versions.reverse();
        ClientInfo {
            implementation,
            versions,
            capabilities: app::ClientCapabilities::new(),
        }
    }

    /// Speaks `versions` only, the first preferred.
    pub fn with_versions(mut self, versions: impl IntoIterator<Item = ProtocolVersion>) -> Self {
        self.versions = versions.into_iter().collect();
        self
    }

    /// Declares form elicitation: the server may ask the user to fill forms
    /// ([`ClientHandler::form`]).
    pub fn with_forms(mut self) -> Self {
        let modes = self.capabilities.elicitation.take().unwrap_or_default();
        self.capabilities.elicitation = Some(modes.with_form(Map::new()));
        self
    }

    /// Declares URL-mode elicitation (2025-11-25 on): the server may ask the user to open a
    /// URL ([`ClientHandler::url`]).
    pub fn with_urls(mut self) -> Self {
        let modes = self.capabilities.elicitation.take().unwrap_or_default();
        self.capabilities.elicitation = Some(modes.with_url(Map::new()));
        self
    }

    /// Declares roots ([`ClientHandler::roots`]); `list_changed`: the client says when they
    /// change.
    pub fn with_roots(mut self, list_changed: bool) -> Self {
        let roots = app::ClientCapabilitiesRoots::new();
        let roots = if list_changed {
            roots.with_list_changed(true)
        } else {
            roots
        };
        self.capabilities.roots = Some(roots);
        self
    }

    /// Declares sampling ([`ClientHandler::sample`]).
    pub fn with_sampling(mut self) -> Self {
        self.capabilities.sampling = Some(app::ClientCapabilitiesSampling::new());
        self
    }

    fn forms(&self) -> bool {
        (self.capabilities.elicitation.as_ref())
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }

    fn urls(&self) -> bool {
        (self.capabilities.elicitation.as_ref()).is_some_and(|e| e.url.is_some())
    }

    /// The capabilities as `version` says them.
    fn capabilities(&self, version: ProtocolVersion) -> app::ClientCapabilities {
        let mut capabilities = self.capabilities.clone();
        if version < ProtocolVersion::ELICITATION {
            capabilities.elicitation = None;
        } else if version < ProtocolVersion::V2025_11_25 {
            // No modes yet: `{}` is a form, and URL mode does not exist.
            capabilities.elicitation = self.forms().then(app::ClientCapabilitiesElicitation::new);
        }
        capabilities
    }
}

/// What the server said about itself when the session was negotiated.
#[derive(Debug, Clone)]
pub struct ServerInfo {
    /// The revision negotiated.
    pub version: ProtocolVersion,
    /// The server's name and version (`initialize`'s `serverInfo`, `server/discover`'s
    /// `_meta`; `None` when a 2026-07-28 server does not say it).
    pub implementation: Option<app::Implementation>,
    /// What the server offers, as 2025-11-25's type.
    pub capabilities: app::ServerCapabilities,
    /// Its instructions for the client.
    pub instructions: Option<String>,
}

/// A client's answers to what a server asks, in 2025-11-25 types whatever the session's
/// revision: up to 2025-11-25 the server's requests, in 2026-07-28 the `inputRequests` of an
/// `input_required` result (the session retries the request with the answers). `ping` is
/// answered by the session, and a request for a capability the client did not declare in
/// [`ClientInfo`] never reaches the handler (it is refused as the spec says: `-32601` for roots
/// and sampling, `-32602` for an elicitation mode).
///
/// `()` is a handler that declares nothing and is asked nothing.
pub trait ClientHandler {
    /// The server asks the user to fill `form` (read into the received-form model, its
    /// schema checked): show it, and answer with [`Form::answer`] → [`Answer::accept`]
    /// (which validates), or decline or cancel. An accepted answer that breaks the form is
    /// not sent (the server gets `-32603`). Declines by default.
    ///
    /// [`Answer::accept`]: crate::elicit::client::Answer::accept
    fn form(&mut self, form: &Form) -> FormReply {
        let _ = form;
        FormReply::Decline
    }

    /// The server asks the user to open a URL: show [`UrlRequest::shown_url`], its domain and
    /// [`warnings`](UrlRequest::warnings); open it only after the user consented
    /// ([`UrlRequest::consent`]). Accepting sends no content. Declines by default.
    fn url(&mut self, request: UrlRequest) -> FormReply {
        request.decline()
    }

    /// `notifications/elicitation/complete`: the server says a URL elicitation ended.
    /// (Also delivered to [`notification`](ClientHandler::notification).)
    fn url_complete(&mut self, elicitation_id: &str) {
        let _ = elicitation_id;
    }

    /// The client's roots (`roots/list`). Refused (`-32601`) by default.
    fn roots(&mut self) -> Result<Vec<app::Root>, Refusal> {
        Err(Refusal::method_not_found("roots/list"))
    }

    /// A message from the model the client has (`sampling/createMessage`); the spec's code
    /// for a user who refuses is `-1`. Refused (`-32601`) by default.
    fn sample(
        &mut self,
        params: &app::CreateMessageRequestParams,
    ) -> Result<app::CreateMessageResult, Refusal> {
        let _ = params;
        Err(Refusal::method_not_found("sampling/createMessage"))
    }

    /// Any other request of the server (tasks, a custom method). Refused (`-32601`) by
    /// default.
    fn request(&mut self, request: &app::ServerRequest) -> Result<app::ClientResult, Refusal> {
        Err(Refusal::method_not_found(request.method()))
    }

    /// A notification: progress, a list changed, a log message, a resource updated… Nothing
    /// by default.
    fn notification(&mut self, notification: &app::ServerNotification) {
        let _ = notification;
    }
}

impl ClientHandler for () {}

/// Why a request got no result, or could not be sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server answered with a JSON-RPC error.
    #[error("the server answered `{method}` with error {code}: {message}")]
    Rejected {
        /// The request's method.
        method: String,
        /// The error's code.
        code: i64,
        /// The error's message.
        message: String,
        /// The error's `data`.
        data: Option<Box<Value>>,
    },
    /// The result is not the request's result type.
    #[error("the result of `{method}` is not its result type: {message}")]
    InvalidResult {
        /// The request's method.
        method: String,
        /// Why, with the JSON Pointer where it can be told.
        message: String,
    },
    /// The session's revision cannot carry the request (a method or member it does not
    /// define); nothing was sent.
    #[error("`{method}` cannot be sent in {version}: {message}")]
    Unsendable {
        /// The request's method.
        method: String,
        /// The session's revision.
        version: ProtocolVersion,
        /// What does not fit, and where.
        message: String,
    },
    /// The server asked, for a 2026-07-28 request, for something the handler refused, or
    /// kept asking; the request was not retried.
    #[error("`{method}` needs input the client cannot give: {message}")]
    InputRefused {
        /// The request's method.
        method: String,
        /// What was asked and why it was not given.
        message: String,
    },
    /// The request was cancelled ([`ClientSession::cancel`]).
    #[error("`{method}` was cancelled")]
    Cancelled {
        /// The request's method.
        method: String,
    },
    /// No answer came in time ([`ClientSession::expire`]); the request was cancelled.
    #[error("no answer to `{method}` within {after:?}")]
    TimedOut {
        /// The request's method.
        method: String,
        /// How long the session waited.
        after: Duration,
    },
    /// The session is not negotiated (yet, or it failed).
    #[error("the session is not ready: {0}")]
    NotReady(String),
    /// The server could not be started ([`Connection::spawn`](super::Connection::spawn)).
    #[error("cannot start `{program}`: {message}")]
    Start {
        /// The program.
        program: String,
        /// Why (the operating system's error).
        message: String,
    },
    /// The server ended its output: it exited, or closed its stdout
    /// ([`Connection`](super::Connection)).
    #[error("the server closed its output{}", status.as_ref().map(|s| format!(" ({s})")).unwrap_or_default())]
    Ended {
        /// Its exit status, when it is known.
        status: Option<String>,
    },
    /// The transport failed: a read or write error, an HTTP error status
    /// ([`Connection`](super::Connection)).
    #[error("{0}")]
    Closed(String),
}

/// A request sent and not yet answered: [`ClientSession::take`] gives its result as `R`'s
/// result type once it came.
#[derive(Debug)]
pub struct Pending<R> {
    id: i64,
    request: PhantomData<fn() -> R>,
}

impl<R> Clone for Pending<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Pending<R> {}

impl<R> Pending<R> {
    /// The id the request was sent with (a 2026-07-28 retry goes out with a new one).
    pub fn id(&self) -> app::RequestId {
        app::RequestId::Integer(self.id)
    }
}

#[derive(Debug)]
enum Stage {
    Idle,
    Discovering { id: i64 },
    Initializing { id: i64 },
    Ready,
    Failed(String),
}

/// A request on the wire.
#[derive(Debug)]
struct Waiting {
    /// The id of its [`Pending`].
    handle: i64,
    method: String,
    /// Its 2025-11-25 JSON, to retry it (2026-07-28 only).
    request: Option<Value>,
    /// Its result type, for the response to be decoded with it in one pass.
    result: Option<crate::runtime::ResultType>,
    sent: Instant,
    rounds: u32,
}

/// The results a session awaits, by the request ids on the wire.
struct Awaited<'a>(&'a HashMap<i64, Waiting>);

impl crate::runtime::Awaits<app::RequestId> for Awaited<'_> {
    fn result_type(&self, id: &app::RequestId) -> Option<crate::runtime::ResultType> {
        match id {
            app::RequestId::Integer(id) => self.0.get(id)?.result,
            app::RequestId::String(_) => None,
        }
    }

    fn guess(&self) -> Option<crate::runtime::ResultType> {
        let mut types = self.0.values().map(|w| w.result);
        let first = types.next()??;
        types.all(|t| t == Some(first)).then_some(first)
    }
}

/// A client's session with a server of any revision, written against 2025-11-25 types:
/// lines in, lines out, no I/O of its own ([`Connection`](super::Connection) runs one over
/// a child process or any pair of streams).
///
/// [`connect`](ClientSession::connect) gives the first line: `initialize` offering the
/// preferred revision, or 2026-07-28's `server/discover` (the session falls back to
/// `initialize` when the server does not serve it). Feed every line the server writes to
/// [`receive`](ClientSession::receive) and send what it returns: replies to the server's
/// requests (answered through the [`ClientHandler`]), `notifications/initialized`, a
/// 2026-07-28 request retried with the answers its `input_required` result asked for.
/// [`request`](ClientSession::request) sends a typed request in the session's revision and
/// gives a [`Pending`] whose result [`take`](ClientSession::take) reads as the request's
/// result type.
///
/// ```
/// # #[cfg(feature = "v2025_06_18")] {
/// use mcp_typed::ProtocolVersion;
/// use mcp_typed::session::{ClientInfo, ClientSession};
/// use mcp_typed::v2025_11_25 as mcp;
///
/// let info = ClientInfo::new(mcp::Implementation::new("me", "1.0"))
///     .with_versions([ProtocolVersion::V2025_06_18]);
/// let mut session = ClientSession::new(info, ());
/// let hello = session.connect();
/// assert!(hello[0].contains(r#""protocolVersion":"2025-06-18""#));
/// let sent = session.receive(r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18",
///     "capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#);
/// assert_eq!(sent, [r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]);
///
/// let (tools, line) = session.request(mcp::ListToolsRequest::new).unwrap();
/// assert_eq!(line, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
/// session.receive(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#);
/// let tools: mcp::ListToolsResult = session.take(&tools).unwrap().unwrap();
/// assert!(tools.tools.is_empty());
/// # }
/// ```
#[derive(Debug)]
pub struct ClientSession<H> {
    handler: H,
    info: ClientInfo,
    stage: Stage,
    codec: Codec<Client>,
    server: Option<ServerInfo>,
    next_id: i64,
    waiting: HashMap<i64, Waiting>,
    done: HashMap<i64, Result<crate::runtime::RawJson, ClientError>>,
    observer: Option<Observer>,
}

impl<H: ClientHandler> ClientSession<H> {
    /// A session, before [`connect`](ClientSession::connect).
    pub fn new(info: ClientInfo, handler: H) -> ClientSession<H> {
        ClientSession {
            handler,
            info,
            stage: Stage::Idle,
            codec: Codec::new(ProtocolVersion::V2025_11_25),
            server: None,
            next_id: 0,
            waiting: HashMap::new(),
            done: HashMap::new(),
            observer: None,
        }
    }

    /// Calls `observer` with every line the session reads and writes, in order (see
    /// [`ServerSession::observe`](super::ServerSession::observe)).
    pub fn observe(mut self, observer: impl FnMut(&super::Traffic<'_>) + Send + 'static) -> Self {
        self.observer = Some(Observer(Box::new(observer)));
        self
    }

    /// The handler.
    pub fn handler(&mut self) -> &mut H {
        &mut self.handler
    }

    /// The negotiated revision (`None` before, or when negotiation failed).
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.server.as_ref().map(|s| s.version)
    }

    /// What the server said about itself (`None` until negotiated).
    pub fn server(&self) -> Option<&ServerInfo> {
        self.server.as_ref()
    }

    /// The request negotiation waits for (`server/discover` or `initialize`), while it does.
    pub(super) fn negotiating(&self) -> Option<&'static str> {
        match self.stage {
            Stage::Discovering { .. } => Some("server/discover"),
            Stage::Initializing { .. } => Some("initialize"),
            _ => None,
        }
    }

    /// Whether the session is negotiated: requests can be sent.
    pub fn is_ready(&self) -> bool {
        matches!(self.stage, Stage::Ready)
    }

    /// Why negotiation failed (the server refused `initialize`, or answered with a revision
    /// this client does not speak).
    pub fn failure(&self) -> Option<&str> {
        match &self.stage {
            Stage::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// Starts negotiating: the line to send first.
    pub fn connect(&mut self) -> Vec<String> {
        let preferred = self.info.versions.first().copied();
        let lines =
            if preferred == Some(ProtocolVersion::V2026_07_28) && cfg!(feature = "v2026_07_28") {
                self.discover()
            } else {
                self.initialize()
            };
        self.seen_out(&lines);
        lines
    }

    /// Sends a request built by `make` from the id the session gives it
    /// (`|id| mcp::CallToolRequest::new(id, params)`, or a constructor taking the id alone:
    /// `mcp::ListToolsRequest::new`): the line to send, in the session's revision, and the
    /// handle of its result. Refused, with nothing sent, before the session is negotiated or
    /// when its revision cannot carry the request.
    pub fn request<R>(
        &mut self,
        make: impl FnOnce(app::RequestId) -> R,
    ) -> Result<(Pending<R>, String), ClientError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
    {
        if !self.is_ready() {
            let why = self.failure().unwrap_or("not negotiated yet").to_owned();
            return Err(ClientError::NotReady(why));
        }
        let id = self.fresh_id();
        let request: app::ClientRequest = make(app::RequestId::Integer(id)).into();
        let method = request.method().to_owned();
        let message = app::ClientMessage::Request(request);
        let stateless = self.version() == Some(ProtocolVersion::V2026_07_28);
        let (line, kept) = if stateless {
            let value = crate::runtime::json_value(&message).expect("messages encode");
            (
                self.stateless_line(&method, value.clone(), &message)?,
                Some(value),
            )
        } else {
            (self.handshake_line(&method, &message)?, None)
        };
        self.waiting.insert(
            id,
            Waiting {
                handle: id,
                method,
                request: kept,
                result: R::result_type(),
                sent: Instant::now(),
                rounds: 0,
            },
        );
        self.seen_out(std::slice::from_ref(&line));
        Ok((
            Pending {
                id,
                request: PhantomData,
            },
            line,
        ))
    }

    /// A notification to the server (`notifications/roots/list_changed`…), in the session's
    /// revision.
    pub fn notify(
        &mut self,
        notification: impl Into<app::ClientNotification>,
    ) -> Result<String, ClientError> {
        let notification = notification.into();
        let method = notification.method().to_owned();
        let message = app::ClientMessage::Notification(notification);
        let line = if self.version() == Some(ProtocolVersion::V2026_07_28) {
            let value = crate::runtime::json_value(&message).expect("messages encode");
            self.checked_2026(&method, &value, &message)?
        } else {
            self.handshake_line(&method, &message)?
        };
        self.seen_out(std::slice::from_ref(&line));
        Ok(line)
    }

    /// The result of `pending` once its response came (then `Some`, once): decoded as `R`'s
    /// result type, or why there is none. `None` while it is on its way.
    pub fn take<R>(&mut self, pending: &Pending<R>) -> Option<Result<R::Result, ClientError>>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned,
    {
        let outcome = self.done.remove(&pending.id)?;
        Some(outcome.and_then(|raw| {
            R::result_from_raw(raw).map_err(|e| ClientError::InvalidResult {
                method: R::METHOD.to_owned(),
                message: e.to_string(),
            })
        }))
    }

    /// [`take`](ClientSession::take), decoding the result as `T` instead of `R`'s result type:
    /// for a request whose result type depends on its params (a 2025-11-25 `tools/call` with
    /// `task` is answered with a `CreateTaskResult`).
    pub fn take_as<R, T>(&mut self, pending: &Pending<R>) -> Option<Result<T, ClientError>>
    where
        R: RequestMethod,
        T: crate::runtime::Decode,
    {
        let outcome = self.done.remove(&pending.id)?;
        Some(outcome.and_then(|raw| {
            convert::decode(raw.get()).map_err(|e| ClientError::InvalidResult {
                method: R::METHOD.to_owned(),
                message: e.to_string(),
            })
        }))
    }

    /// Whether `pending`'s answer came ([`take`](ClientSession::take) would give it).
    pub fn is_done<R>(&self, pending: &Pending<R>) -> bool {
        self.done.contains_key(&pending.id)
    }

    /// Gives up on `pending`: the `notifications/cancelled` line to send (`None` when it was
    /// already answered). Its result is then [`ClientError::Cancelled`], and a late answer
    /// is ignored.
    pub fn cancel<R>(&mut self, pending: &Pending<R>, reason: Option<&str>) -> Option<String> {
        let (&wire, _) = self.waiting.iter().find(|(_, w)| w.handle == pending.id)?;
        let waiting = self.waiting.remove(&wire)?;
        let error = ClientError::Cancelled {
            method: waiting.method.clone(),
        };
        self.done.insert(waiting.handle, Err(error));
        self.cancelled(wire, reason)
    }

    /// Gives up on every request sent more than `after` ago: their results are
    /// [`ClientError::TimedOut`], and the lines returned cancel them at the server.
    pub fn expire(&mut self, after: Duration) -> Vec<String> {
        let now = Instant::now();
        let late: Vec<i64> = (self.waiting.iter())
            .filter(|(_, w)| now.duration_since(w.sent) >= after)
            .map(|(&id, _)| id)
            .collect();
        let mut lines = Vec::new();
        for wire in late {
            let waiting = self.waiting.remove(&wire).expect("listed above");
            let error = ClientError::TimedOut {
                method: waiting.method,
                after,
            };
            self.done.insert(waiting.handle, Err(error));
            lines.extend(self.cancelled(wire, Some("timed out")));
        }
        lines
    }

    /// The requests sent and not answered yet.
    pub fn in_flight(&self) -> usize {
        self.waiting.len()
    }

    /// One line from the server → the lines to send, in order.
    pub fn receive(&mut self, text: &str) -> Vec<String> {
        let mut error = None;
        let out = self.read(text, &mut error);
        if let Some(observer) = &mut self.observer {
            observer.see(Direction::In, text, error.as_deref());
            for line in &out {
                observer.see(Direction::Out, line, None);
            }
        }
        out
    }

    /// [`receive`](ClientSession::receive) for a line as bytes: one that is not UTF-8 is not
    /// read (the observer sees it, with the offset of the first bad byte) and gets no reply.
    pub fn receive_bytes(&mut self, bytes: &[u8]) -> Vec<String> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.receive(text),
            Err(e) => {
                if let Some(observer) = &mut self.observer {
                    let why = format!("not UTF-8 (byte {})", e.valid_up_to());
                    let text = String::from_utf8_lossy(bytes);
                    observer.see(Direction::In, &text, Some(&why));
                }
                Vec::new()
            }
        }
    }

    fn seen_out(&mut self, lines: &[String]) {
        if let Some(observer) = &mut self.observer {
            for line in lines {
                observer.see(Direction::Out, line, None);
            }
        }
    }

    fn fresh_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    fn stateless(&self) -> bool {
        matches!(self.stage, Stage::Discovering { .. })
            || self.version() == Some(ProtocolVersion::V2026_07_28)
    }

    fn read(&mut self, text: &str, error: &mut Option<String>) -> Vec<String> {
        // The results of the requests waiting are decoded in the same pass as their
        // responses (in 2025-11-25's types: a session of that revision, or stateless).
        let awaited = Awaited(&self.waiting);
        let decoded = if self.stateless() {
            app::ServerMessage::from_json_awaiting(text, &awaited)
                .map_err(|e| (e.to_string(), line(e.reply())))
        } else {
            (self.codec.decode_awaiting(text, &awaited)).map_err(|r| (r.message, r.reply))
        };
        let message = match decoded {
            Ok(message) => message,
            Err((why, reply)) => {
                *error = Some(why.clone());
                return self.unreadable(text, why, reply);
            }
        };
        match message {
            app::ServerMessage::Request(request) => self.serve(request),
            app::ServerMessage::Notification(notification) => {
                if let app::ServerNotification::ElicitationComplete(done) = &notification {
                    self.handler.url_complete(&done.params.elicitation_id);
                }
                self.handler.notification(&notification);
                Vec::new()
            }
            app::ServerMessage::Response(response) => {
                self.answered(response.id, Ok(response.result))
            }
            app::ServerMessage::Error(error) => match error.id {
                Some(id) => self.answered(id, Err(error.error)),
                None => Vec::new(),
            },
        }
    }

    /// A line that is not a message of the session's revision: a request gets the error
    /// reply owed; a response to one of ours fails that request (rather than leaving it
    /// waiting); anything else is only reported (to the observer).
    fn unreadable(&mut self, text: &str, why: String, reply: String) -> Vec<String> {
        let peek: Option<Value> = serde_json::from_str(text).ok();
        let member = |name: &str| peek.as_ref().and_then(|v| v.get(name));
        if member("method").is_some() {
            return if member("id").is_some() {
                vec![reply]
            } else {
                Vec::new()
            };
        }
        if let Some(id) = member("id").and_then(Value::as_i64)
            && let Some(waiting) = self.waiting.remove(&id)
        {
            let error = ClientError::InvalidResult {
                method: waiting.method,
                message: why,
            };
            self.done.insert(waiting.handle, Err(error));
        }
        Vec::new()
    }

    /// A response (or error) to request `id`.
    fn answered(
        &mut self,
        id: app::RequestId,
        outcome: Result<crate::runtime::RawJson, app::Error>,
    ) -> Vec<String> {
        let app::RequestId::Integer(id) = id else {
            return Vec::new();
        };
        match self.stage {
            Stage::Discovering { id: asked } if asked == id => return self.discovered(outcome),
            Stage::Initializing { id: asked } if asked == id => return self.initialized(outcome),
            _ => {}
        }
        // An answer to a request given up on (cancelled, timed out) is not waited for.
        let Some(waiting) = self.waiting.remove(&id) else {
            return Vec::new();
        };
        match outcome {
            Ok(result) if self.stateless() && input_required(&result) => {
                self.retry(waiting, &result)
            }
            Ok(result) => {
                self.done.insert(waiting.handle, Ok(result));
                Vec::new()
            }
            Err(error) => {
                let error = ClientError::Rejected {
                    method: waiting.method,
                    code: error.code,
                    message: error.message,
                    data: error.data.map(Box::new),
                };
                self.done.insert(waiting.handle, Err(error));
                Vec::new()
            }
        }
    }

    fn initialize(&mut self) -> Vec<String> {
        let built = super::revisions();
        // The first revision with `initialize` (2026-07-28 has none).
        let offered = (self.info.versions.iter())
            .copied()
            .find(|v| built.contains(v));
        let Some(offered) = offered else {
            self.stage = Stage::Failed(format!(
                "there is no revision to offer in `initialize`: the client speaks {}, this build \
                 has {}",
                list(&self.info.versions),
                list(&built)
            ));
            return Vec::new();
        };
        let id = self.fresh_id();
        self.codec.set_version(offered);
        let params = app::InitializeRequestParams::new(
            offered.as_str(),
            self.info.capabilities(offered),
            self.info.implementation.clone(),
        );
        let message = app::ClientMessage::request(app::InitializeRequest::new(id, params));
        match self.handshake_line("initialize", &message) {
            Ok(line) => {
                self.stage = Stage::Initializing { id };
                vec![line]
            }
            Err(e) => {
                self.stage = Stage::Failed(e.to_string());
                Vec::new()
            }
        }
    }

    fn initialized(&mut self, outcome: Result<crate::runtime::RawJson, app::Error>) -> Vec<String> {
        let result = match outcome {
            Ok(raw) => app::InitializeRequest::result_from_json(raw.get()),
            Err(e) => {
                let why = format!(
                    "the server refused `initialize`: {} ({})",
                    e.message, e.code
                );
                self.stage = Stage::Failed(why);
                return Vec::new();
            }
        };
        let result = match result {
            Ok(result) => result,
            Err(e) => {
                self.stage = Stage::Failed(format!("`initialize`'s result: {e}"));
                return Vec::new();
            }
        };
        let answered = result.protocol_version.parse::<ProtocolVersion>().ok();
        let Some(version) =
            answered.filter(|v| self.info.versions.contains(v) && super::revisions().contains(v))
        else {
            self.stage = Stage::Failed(format!(
                "the server answered `initialize` with {}, which this client does not speak \
                 (it speaks {})",
                result.protocol_version,
                list(&self.info.versions)
            ));
            return Vec::new();
        };
        self.codec.set_version(version);
        self.server = Some(ServerInfo {
            version,
            implementation: Some(result.server_info),
            capabilities: *result.capabilities,
            instructions: result.instructions,
        });
        self.stage = Stage::Ready;
        let done = app::ClientMessage::notification(app::InitializedNotification::new());
        match self.handshake_line("notifications/initialized", &done) {
            Ok(line) => vec![line],
            Err(e) => {
                self.stage = Stage::Failed(e.to_string());
                Vec::new()
            }
        }
    }

    /// Encodes `message` in the handshake-era revision of the session, refusing to drop
    /// anything (strict in what we send).
    fn handshake_line(
        &mut self,
        method: &str,
        message: &app::ClientMessage,
    ) -> Result<String, ClientError> {
        let version = self.codec.version();
        let unsendable = |message: String| ClientError::Unsendable {
            method: method.to_owned(),
            version,
            message,
        };
        let encoded = self
            .codec
            .encode(message)
            .map_err(|e| unsendable(format!("{} (at `{}`)", e.message, e.pointer)))?;
        if !encoded.dropped.is_empty() {
            return Err(unsendable(format!(
                "the revision has no {}",
                encoded.dropped.join(", ")
            )));
        }
        Ok(encoded.line)
    }

    /// The reply to a request of the server.
    fn serve(&mut self, request: app::ServerRequest) -> Vec<String> {
        let Some(id) = app::ServerMessage::request_id(&request) else {
            return Vec::new();
        };
        let reply = match self.answer(&request) {
            Ok(result) => {
                app::ClientMessage::Response(app::ResultResponse::new(id.clone(), &result))
            }
            Err(Failure { code, message }) => {
                app::ClientMessage::Error(app::JsonRpcErrorResponse {
                    id: Some(id.clone()),
                    error: app::Error::new(code, message),
                    extra: crate::Extra::new(),
                })
            }
        };
        if self.stateless() {
            // 2026-07-28 servers send no requests: whatever came is answered in its terms.
            return vec![line(&reply)];
        }
        let line = match self.codec.encode(&reply) {
            Ok(encoded) => encoded.line,
            Err(e) => {
                let message = format!("the answer does not fit {}: {e}", self.codec.version());
                let error = app::ClientMessage::error(Some(id), app::INTERNAL_ERROR, message);
                self.codec
                    .encode(&error)
                    .map(|e| e.line)
                    .unwrap_or_default()
            }
        };
        vec![line]
    }

    /// The client's answer to a request of the server (a result as JSON).
    fn answer(&mut self, request: &app::ServerRequest) -> Result<Value, Failure> {
        let refused = |refusal: Refusal| {
            let (code, message) = refusal.into_error();
            Failure::new(code, message)
        };
        let encoded = |result: &dyn erased::Encode| {
            result
                .value()
                .map_err(|e| Failure::new(app::INTERNAL_ERROR, e.to_string()))
        };
        let undeclared = |what: &str| {
            Failure::new(
                app::METHOD_NOT_FOUND,
                format!("the client did not declare {what}"),
            )
        };
        let capabilities = &self.info.capabilities;
        match request {
            app::ServerRequest::Ping(_) => Ok(json!({})),
            app::ServerRequest::ListRoots(_) if capabilities.roots.is_none() => {
                Err(undeclared("roots"))
            }
            app::ServerRequest::ListRoots(_) => {
                let roots = self.handler.roots().map_err(refused)?;
                encoded(&app::ListRootsResult::new(roots))
            }
            app::ServerRequest::CreateMessage(_) if capabilities.sampling.is_none() => {
                Err(undeclared("sampling"))
            }
            app::ServerRequest::CreateMessage(r) => {
                let result = self.handler.sample(&r.params).map_err(refused)?;
                encoded(&result)
            }
            app::ServerRequest::Elicit(r) => self.elicit(&r.params),
            other => {
                let result = self.handler.request(other).map_err(refused)?;
                encoded(&result)
            }
        }
    }

    /// An `elicitation/create`: the form or URL request through the handler, in the modes
    /// the client declared.
    fn elicit(&mut self, params: &app::ElicitRequestParams) -> Result<Value, Failure> {
        let version = self.version().unwrap_or(self.codec.version());
        let invalid = |message: String| Failure::new(app::INVALID_PARAMS, message);
        let reply = match params {
            app::ElicitRequestParams::Url(_) if !self.info.urls() => {
                return Err(invalid(
                    "the client did not declare URL-mode elicitation".to_owned(),
                ));
            }
            app::ElicitRequestParams::Url(_) => {
                let request =
                    UrlRequest::from_params(params).map_err(|e| invalid(e.to_string()))?;
                // A URL request is accepted without content.
                match self.handler.url(request) {
                    FormReply::Accept(_) => FormReply::Accept(Map::new()),
                    other => other,
                }
            }
            app::ElicitRequestParams::Form(_) if !self.info.forms() => {
                return Err(invalid(
                    "the client did not declare form elicitation".to_owned(),
                ));
            }
            app::ElicitRequestParams::Form(_) => {
                let form = Form::from_params(params, version)
                    .map_err(|e| Failure::new(FormError::CODE, e.to_string()))?;
                let reply = self.handler.form(&form);
                if let FormReply::Accept(content) = &reply {
                    form.validate(content).map_err(|e| {
                        let message = format!("the client's answer breaks the form: {e}");
                        Failure::new(app::INTERNAL_ERROR, message)
                    })?;
                }
                reply
            }
            app::ElicitRequestParams::Unknown(params) => {
                let mode = params.get("mode").cloned().unwrap_or(Value::Null);
                return Err(invalid(format!("no elicitation mode {mode}")));
            }
        };
        let result: app::ElicitResult = reply
            .to_result()
            .map_err(|e| Failure::new(app::INTERNAL_ERROR, e.to_string()))?;
        crate::runtime::json_value(&result)
            .map_err(|e| Failure::new(app::INTERNAL_ERROR, e.to_string()))
    }

    /// `notifications/cancelled` for wire request `id`.
    fn cancelled(&mut self, id: i64, reason: Option<&str>) -> Option<String> {
        let mut params = app::CancelledNotificationParams::new().with_request_id(id);
        if let Some(reason) = reason {
            params = params.with_reason(reason);
        }
        let note = app::ClientMessage::notification(app::CancelledNotification::new(params));
        let line = if self.version() == Some(ProtocolVersion::V2026_07_28) {
            let value = crate::runtime::json_value(&note).ok()?;
            self.checked_2026("notifications/cancelled", &value, &note)
                .ok()?
        } else {
            self.handshake_line("notifications/cancelled", &note).ok()?
        };
        self.seen_out(std::slice::from_ref(&line));
        Some(line)
    }
}

/// 2026-07-28: `server/discover`, per-request `_meta`, `input_required` results.
impl<H: ClientHandler> ClientSession<H> {
    fn meta_2026(&self) -> Map<String, Value> {
        let capabilities = self.info.capabilities(ProtocolVersion::V2026_07_28);
        let mut meta = Map::new();
        meta.insert(
            "io.modelcontextprotocol/protocolVersion".to_owned(),
            Value::from(ProtocolVersion::V2026_07_28.as_str()),
        );
        meta.insert(
            "io.modelcontextprotocol/clientInfo".to_owned(),
            crate::runtime::json_value(&self.info.implementation).expect("encodes"),
        );
        meta.insert(
            "io.modelcontextprotocol/clientCapabilities".to_owned(),
            crate::runtime::json_value(&capabilities).expect("encodes"),
        );
        meta
    }

    fn discover(&mut self) -> Vec<String> {
        let id = self.fresh_id();
        let request = json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "server/discover",
            "params": {"_meta": self.meta_2026()},
        });
        self.stage = Stage::Discovering { id };
        vec![line(&request)]
    }

    /// `server/discover`'s answer: the session is 2026-07-28's when the server serves it,
    /// else it falls back to `initialize` with the next revision.
    fn discovered(&mut self, outcome: Result<crate::runtime::RawJson, app::Error>) -> Vec<String> {
        let stateless = ProtocolVersion::V2026_07_28;
        let (result, refused) = match outcome {
            Ok(raw) => (serde_json::from_str::<Value>(raw.get()).ok(), None),
            Err(e) => (None, Some(format!("error {}: {}", e.code, e.message))),
        };
        let serves = result
            .as_ref()
            .and_then(|r| r.get("supportedVersions"))
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().any(|v| v.as_str() == Some(stateless.as_str())));
        let Some(result) = result.filter(|_| serves) else {
            let lines = self.initialize();
            if let Stage::Failed(why) = &mut self.stage {
                let answer = refused.unwrap_or_else(|| "a result without it".to_owned());
                *why = format!(
                    "the server does not serve {stateless} (it answered `server/discover` with \
                     {answer}), and {why}"
                );
            }
            return lines;
        };
        let capabilities = result
            .get("capabilities")
            .map(|c| convert::decode::<app::ServerCapabilities>(&c.to_string()));
        let capabilities = match capabilities {
            Some(Ok(capabilities)) => capabilities,
            Some(Err(e)) => {
                self.stage = Stage::Failed(format!("`server/discover`'s capabilities: {e}"));
                return Vec::new();
            }
            None => app::ServerCapabilities::new(),
        };
        let implementation = result
            .pointer("/_meta/io.modelcontextprotocol~1serverInfo")
            .and_then(|i| convert::decode(&i.to_string()).ok());
        let instructions = result
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.server = Some(ServerInfo {
            version: stateless,
            implementation,
            capabilities,
            instructions,
        });
        self.stage = Stage::Ready;
        Vec::new()
    }

    /// A request as 2026-07-28's, with the `_meta` every request of that revision carries.
    fn stateless_line(
        &self,
        method: &str,
        mut value: Value,
        message: &app::ClientMessage,
    ) -> Result<String, ClientError> {
        let object = value.as_object_mut().expect("a message is an object");
        let params = object
            .entry("params")
            .or_insert_with(|| Value::Object(Map::new()));
        let params = params.as_object_mut().expect("params are an object");
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            for (k, v) in self.meta_2026() {
                meta.entry(k).or_insert(v);
            }
        }
        self.checked_2026(method, &value, message)
    }

    /// `value` (the JSON of `message`, with 2026-07-28's additions) written as 2026-07-28's
    /// message: refused where that revision has no such method, or would only carry a member
    /// as an unknown one (one the caller's 2025-11-25 message did not hold as unknown).
    fn checked_2026(
        &self,
        method: &str,
        value: &Value,
        message: &app::ClientMessage,
    ) -> Result<String, ClientError> {
        let stateless = ProtocolVersion::V2026_07_28;
        let unsendable = |message: String| ClientError::Unsendable {
            method: method.to_owned(),
            version: stateless,
            message,
        };
        #[cfg(feature = "v2026_07_28")]
        {
            use crate::Unknowns;
            use crate::v2026_07_28 as v26;
            use std::collections::HashSet;
            let defined = match message {
                app::ClientMessage::Request(_) => v26::REQUEST_METHODS.contains(&method),
                app::ClientMessage::Notification(_) => v26::NOTIFICATION_METHODS.contains(&method),
                _ => true,
            };
            if !defined {
                return Err(unsendable(format!(
                    "`{method}` is not a method of {stateless}"
                )));
            }
            let typed: v26::ClientMessage = convert::decode(&value.to_string())
                .map_err(|e| unsendable(format!("{} (at `{}`)", e.message, e.pointer)))?;
            let ours: HashSet<String> = message.unknowns().into_iter().map(|u| u.pointer).collect();
            let beyond: Vec<String> = (typed.unknowns().into_iter())
                .map(|u| u.pointer)
                .filter(|p| !ours.contains(p))
                .collect();
            if !beyond.is_empty() {
                return Err(unsendable(format!(
                    "the revision has no {}",
                    beyond.join(", ")
                )));
            }
            Ok(line(&typed))
        }
        #[cfg(not(feature = "v2026_07_28"))]
        {
            let _ = (value, message);
            Err(unsendable("this build has no 2026-07-28 types".to_owned()))
        }
    }

    /// A 2026-07-28 `input_required` result: each input request answered through the
    /// handler, and the request sent again with the answers (and the server's state).
    fn retry(&mut self, mut waiting: Waiting, result: &crate::runtime::RawJson) -> Vec<String> {
        let method = waiting.method.clone();
        let fail = |this: &mut Self, handle: i64, message: String| {
            let error = ClientError::InputRefused {
                method: method.clone(),
                message,
            };
            this.done.insert(handle, Err(error));
            Vec::new()
        };
        waiting.rounds += 1;
        if waiting.rounds > MAX_ROUNDS {
            let why = format!("the server still asks after {MAX_ROUNDS} rounds");
            return fail(self, waiting.handle, why);
        }
        let result: Value = serde_json::from_str(result.get()).unwrap_or_default();
        let mut responses = Map::new();
        let requests = result.get("inputRequests").and_then(Value::as_object);
        for (key, request) in requests.into_iter().flatten() {
            let asked = request.get("method").and_then(Value::as_str).unwrap_or("");
            let asked = asked.to_owned();
            // The input request as a request of the server: `params` only where it has them
            // (`roots/list` has none, and `"params": null` is no request's).
            let mut full = json!({"jsonrpc": "2.0", "id": key, "method": request.get("method")});
            if let Some(params) = request.get("params") {
                full["params"] = params.clone();
            }
            let answer = match app::ServerMessage::from_json(&full.to_string()) {
                Ok(app::ServerMessage::Request(request)) => self.answer(&request),
                Ok(_) => Err(Failure::new(
                    app::INVALID_PARAMS,
                    format!("`inputRequests/{key}` is not a request"),
                )),
                Err(e) => Err(Failure::new(
                    app::INVALID_PARAMS,
                    format!("`inputRequests/{key}` is not a request the client knows: {e}"),
                )),
            };
            match answer {
                Ok(value) => {
                    responses.insert(key.clone(), value);
                }
                Err(e) => {
                    let why = format!("`{asked}` ({key}): {} ({})", e.message, e.code);
                    return fail(self, waiting.handle, why);
                }
            }
        }
        let Some(mut request) = waiting.request.clone() else {
            return fail(self, waiting.handle, "nothing to retry".to_owned());
        };
        let id = self.fresh_id();
        request["id"] = Value::from(id);
        let params = request
            .as_object_mut()
            .expect("a request is an object")
            .entry("params")
            .or_insert_with(|| Value::Object(Map::new()));
        if !responses.is_empty() {
            params["inputResponses"] = Value::Object(responses);
        }
        if let Some(state) = result.get("requestState") {
            params["requestState"] = state.clone();
        }
        // What the retry carries that 2025-11-25's request has no member for is the
        // revision's own: checked against 2026-07-28's type, not refused as beyond it.
        let message = match convert::decode::<app::ClientMessage>(&request.to_string()) {
            Ok(message) => message,
            Err(e) => return fail(self, waiting.handle, e.to_string()),
        };
        match self.stateless_line(&method, request, &message) {
            Ok(line) => {
                waiting.sent = Instant::now();
                self.waiting.insert(id, waiting);
                vec![line]
            }
            Err(e) => fail(self, waiting.handle, e.to_string()),
        }
    }
}

/// Why the client does not answer a server's request: the JSON-RPC error it replies with.
#[derive(Debug)]
struct Failure {
    code: i64,
    message: String,
}

impl Failure {
    fn new(code: i64, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

/// Whether a result says `resultType: "input_required"`.
fn input_required(result: &crate::runtime::RawJson) -> bool {
    // Cheap first: most results are not.
    result.get().contains("input_required")
        && serde_json::from_str::<Value>(result.get())
            .ok()
            .and_then(|v| v.get("resultType").cloned())
            .is_some_and(|t| t == "input_required")
}

fn list(versions: &[ProtocolVersion]) -> String {
    let names: Vec<&str> = versions.iter().map(|v| v.as_str()).collect();
    names.join(", ")
}

/// A result type as JSON, through a trait object (one copy of the code for every result).
mod erased {
    use serde_json::Value;

    pub(super) trait Encode {
        fn value(&self) -> serde_json::Result<Value>;
    }

    impl<T: serde::Serialize> Encode for T {
        fn value(&self) -> serde_json::Result<Value> {
            crate::runtime::json_value(self)
        }
    }
}
