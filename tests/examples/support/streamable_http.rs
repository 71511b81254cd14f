//! A small Streamable HTTP server transport (MCP 2025-03-26 to 2025-11-25) for the examples, on
//! axum + tokio. Use it with `#[path = "support/streamable_http.rs"] mod streamable_http;`.
//!
//! The MCP logic stays in a [`Session`]: one incoming JSON-RPC message text in, the message
//! texts to send out, in order. The transport does the HTTP side of the specification
//! (<https://modelcontextprotocol.io/specification/2025-11-25/basic/transports>):
//!
//! - `POST /mcp` with a request answers `200 text/event-stream`: the messages the session sends
//!   while handling it, then its response, which ends the stream. A response the session sends
//!   later (after the client answered a request of the server's, e.g. an elicitation) still goes
//!   to the stream of the POST that carried the request.
//! - `POST /mcp` with a response or a notification answers `202 Accepted`. Requests and
//!   notifications the session sends then go to the stream that the same reply batch answers
//!   on, else the `GET` stream, else the newest open POST stream.
//! - `GET /mcp` opens the session's stream for server-initiated messages (one at a time: 409).
//! - `DELETE /mcp` ends the session; its id then answers 404.
//! - `Mcp-Session-Id` is assigned by a successful `initialize` and required afterwards (400
//!   without, 404 when unknown). `MCP-Protocol-Version`, when sent, must be the negotiated
//!   revision (400 otherwise); without it 2025-03-26 is assumed, as the specification says.
//! - DNS-rebinding protection: the server binds loopback addresses only, and a request whose
//!   `Host` or `Origin` is not `localhost`, `127.0.0.1` or `[::1]` gets 403.
//!
//! - 2026-07-28 is stateless: a POST with `MCP-Protocol-Version: 2026-07-28` and no session id
//!   is handled by a fresh `new_session()` that is dropped afterwards (the request's `_meta`
//!   carries what `initialize` used to).
//!
//! Errors of the transport answer with a JSON-RPC error body (`id: null`) saying what was wrong.
//! Not implemented: resuming a stream (`Last-Event-ID`, priming events), JSON batches (removed
//! in 2025-06-18), the 2026-07-28 `Mcp-Method`/`Mcp-Name` header checks.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_util::Stream;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// One MCP session's logic: the transport hands it each message the client sends and delivers
/// what it returns.
pub trait Session: Send + 'static {
    /// One incoming JSON-RPC message text → the message texts to send, in order.
    fn receive(&mut self, message: &str) -> Vec<String>;
}

/// The header carrying the session id.
const SESSION_ID: &str = "mcp-session-id";
/// The header carrying the negotiated protocol revision.
const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// The revisions with sessions this transport speaks.
const VERSIONS: [&str; 3] = ["2025-03-26", "2025-06-18", "2025-11-25"];
/// The stateless revisions: no `initialize`, no session, each request stands alone.
const STATELESS: [&str; 1] = ["2026-07-28"];

/// Serves MCP over Streamable HTTP at `http://<addr>/mcp` until the process ends, one
/// `new_session()` per `initialize`. Blocking: builds its own tokio runtime. Prints
/// `listening on http://<addr>/mcp` (with the actual port when `addr` has port 0) to stderr.
///
/// `addr` must be a loopback address: DNS-rebinding protection accepts loopback `Host` and
/// `Origin` headers only.
pub fn serve<S: Session>(
    addr: SocketAddr,
    new_session: impl Fn() -> S + Send + Sync + 'static,
) -> io::Result<()> {
    if !addr.ip().is_loopback() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{addr} is not a loopback address: this transport accepts loopback Host/Origin \
                 headers only (DNS-rebinding protection), so it serves on 127.0.0.1 or [::1]"
            ),
        ));
    }
    let server = Arc::new(Server {
        new_session: Box::new(new_session),
        sessions: Mutex::new(HashMap::new()),
    });
    let app = Router::new()
        .route(
            "/mcp",
            post(handle_post::<S>)
                .get(handle_get::<S>)
                .delete(handle_delete::<S>),
        )
        .with_state(server);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?
        .block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            axum::serve(listener, app).await
        })
}

struct Server<S> {
    new_session: Box<dyn Fn() -> S + Send + Sync>,
    sessions: Mutex<HashMap<String, Arc<Mutex<Live<S>>>>>,
}

/// A session and the streams its messages go to.
struct Live<S> {
    session: S,
    /// The revision `initialize` negotiated.
    version: String,
    /// The streams of POSTed requests still owed a response, by request id (as JSON text).
    pending: Vec<(String, UnboundedSender<String>)>,
    /// The `GET` stream, while open.
    standalone: Option<UnboundedSender<String>>,
}

/// A refusal of the transport: a status and what was wrong.
struct Refusal(StatusCode, i64, String);

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal(status, -32600, message.into())
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let Refusal(status, code, message) = self;
        let body =
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic inside a session leaves its state as it was; keep serving the others.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn handle_post<S: Session>(
    State(server): State<Arc<Server<S>>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    check_origin(&headers)?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    let media_type = content_type
        .and_then(|v| v.split(';').next())
        .map(str::trim);
    if !media_type.is_some_and(|t| t.eq_ignore_ascii_case("application/json")) {
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        ));
    }
    if !(accepts(&headers, "application/json") && accepts(&headers, "text/event-stream")) {
        return Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            "Accept must list both application/json and text/event-stream",
        ));
    }
    let text = std::str::from_utf8(&body)
        .map_err(|e| Refusal(StatusCode::BAD_REQUEST, -32700, format!("body: {e}")))?;
    let message: Value = serde_json::from_str(text)
        .map_err(|e| Refusal(StatusCode::BAD_REQUEST, -32700, format!("parse error: {e}")))?;
    let Some(object) = message.as_object() else {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "the body must be one JSON-RPC message object (batches are not supported)",
        ));
    };
    let method = object.get("method").and_then(Value::as_str);
    // A request has a method and an id; responses and notifications get 202.
    let request_id = object.get("id").filter(|_| method.is_some());

    if !headers.contains_key(SESSION_ID) {
        let version = headers.get(PROTOCOL_VERSION).and_then(|v| v.to_str().ok());
        if version.is_some_and(|v| STATELESS.contains(&v)) {
            return Ok(stateless(&server, text, request_id));
        }
        if method == Some("initialize") {
            return initialize(&server, text, request_id);
        }
    }
    let live = find_session(&server, &headers)?;
    let mut live = lock(&live);
    check_version(&headers, &live.version)?;
    let Some(id) = request_id else {
        let out = live.session.receive(text);
        live.deliver(None, out);
        return Ok(StatusCode::ACCEPTED.into_response());
    };
    let (tx, rx) = unbounded_channel();
    live.pending.push((id.to_string(), tx));
    let out = live.session.receive(text);
    live.deliver(Some(&id.to_string()), out);
    Ok(sse(rx).into_response())
}

/// An `initialize` without a session id: a new session, kept (and named in the response's
/// `Mcp-Session-Id`) when it answers with a result.
fn initialize<S: Session>(
    server: &Server<S>,
    text: &str,
    request_id: Option<&Value>,
) -> Result<Response, Refusal> {
    let Some(id) = request_id else {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "initialize must be a request (it has no id)",
        ));
    };
    let key = id.to_string();
    let mut session = (server.new_session)();
    let out = session.receive(text);
    // The negotiated revision, from the initialize response among what the session sent.
    let version = out.iter().find_map(|m| {
        let m: Value = serde_json::from_str(m).ok()?;
        (m.get("id")?.to_string() == key).then_some(())?;
        Some(m.pointer("/result/protocolVersion")?.as_str()?.to_owned())
    });
    let (tx, rx) = unbounded_channel();
    let mut live = Live {
        session,
        version: version.clone().unwrap_or_default(),
        pending: vec![(key.clone(), tx)],
        standalone: None,
    };
    live.deliver(Some(&key), out);
    let mut response = sse(rx).into_response();
    if version.is_some() {
        let session_id = uuid::Uuid::new_v4().to_string();
        let value = HeaderValue::from_str(&session_id).expect("a UUID is a valid header value");
        response.headers_mut().insert(SESSION_ID, value);
        lock(&server.sessions).insert(session_id, Arc::new(Mutex::new(live)));
    }
    Ok(response)
}

/// A request of a stateless revision: a session of its own, dropped once it has answered.
fn stateless<S: Session>(server: &Server<S>, text: &str, request_id: Option<&Value>) -> Response {
    let mut session = (server.new_session)();
    let out = session.receive(text);
    let Some(id) = request_id else {
        return StatusCode::ACCEPTED.into_response();
    };
    let key = id.to_string();
    let (tx, rx) = unbounded_channel();
    let mut live = Live {
        session,
        version: String::new(),
        pending: vec![(key.clone(), tx)],
        standalone: None,
    };
    live.deliver(Some(&key), out);
    sse(rx).into_response()
}

async fn handle_get<S: Session>(
    State(server): State<Arc<Server<S>>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    check_origin(&headers)?;
    if !accepts(&headers, "text/event-stream") {
        return Err(Refusal::new(
            StatusCode::NOT_ACCEPTABLE,
            "Accept must list text/event-stream",
        ));
    }
    let live = find_session(&server, &headers)?;
    let mut live = lock(&live);
    check_version(&headers, &live.version)?;
    if live.standalone.as_ref().is_some_and(|s| !s.is_closed()) {
        return Err(Refusal::new(
            StatusCode::CONFLICT,
            "this session already has an open GET stream",
        ));
    }
    let (tx, rx) = unbounded_channel();
    live.standalone = Some(tx);
    Ok(sse(rx).into_response())
}

async fn handle_delete<S: Session>(
    State(server): State<Arc<Server<S>>>,
    headers: HeaderMap,
) -> Result<StatusCode, Refusal> {
    check_origin(&headers)?;
    let id = session_id(&headers)?;
    // Dropping the session drops the senders of its streams, which ends them.
    match lock(&server.sessions).remove(id) {
        Some(_) => Ok(StatusCode::OK),
        None => Err(unknown_session(id)),
    }
}

impl<S> Live<S> {
    /// Sends what the session returned for one incoming message. `current` is the id of the
    /// request that message was, if it was one.
    fn deliver(&mut self, current: Option<&str>, out: Vec<String>) {
        // When the incoming message was not a request, the stream the batch's first response
        // goes to carries the batch's requests and notifications too.
        let batch = current.map(str::to_owned).or_else(|| {
            out.iter().find_map(|m| {
                let id = response_id(&serde_json::from_str(m).ok()?)?;
                self.pending.iter().any(|(k, _)| *k == id).then_some(id)
            })
        });
        for text in out {
            let Ok(message) = serde_json::from_str::<Value>(&text) else {
                eprintln!("streamable_http: the session sent a message that is not JSON: {text}");
                continue;
            };
            match response_id(&message) {
                Some(id) => self.respond(&id, current, text),
                None => self.send(batch.as_deref(), text),
            }
        }
    }

    /// A response: to the stream of its request, which it ends.
    fn respond(&mut self, id: &str, current: Option<&str>, text: String) {
        let at = self.pending.iter().position(|(k, _)| k == id);
        // A response naming no pending request (e.g. an error with id null) answers the
        // request being handled.
        let at = at.or_else(|| {
            self.pending
                .iter()
                .position(|(k, _)| Some(k.as_str()) == current)
        });
        match at {
            Some(at) => {
                let (_, tx) = self.pending.remove(at);
                // The client may have gone; the message is then lost, as on any transport.
                let _ = tx.send(text);
            }
            None => eprintln!("streamable_http: no open stream for response {id}: {text}"),
        }
    }

    /// A request or notification of the server's.
    fn send(&mut self, batch: Option<&str>, text: String) {
        let on_batch = batch.and_then(|b| self.pending.iter().find(|(k, _)| k == b));
        let target = on_batch
            .map(|(_, tx)| tx)
            .or(self.standalone.as_ref().filter(|s| !s.is_closed()))
            .or(self
                .pending
                .iter()
                .rev()
                .find(|(_, tx)| !tx.is_closed())
                .map(|(_, tx)| tx));
        match target {
            Some(tx) => {
                let _ = tx.send(text);
            }
            None => eprintln!("streamable_http: no open stream for {text}"),
        }
    }
}

/// The id (as JSON text) of a response or error response; `None` for requests and
/// notifications.
fn response_id(message: &Value) -> Option<String> {
    if message.get("method").is_some() {
        return None;
    }
    message.get("id").map(Value::to_string)
}

fn sse(rx: UnboundedReceiver<String>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let events = futures_util::stream::unfold(rx, |mut rx| async move {
        let text = rx.recv().await?;
        Some((Ok(Event::default().event("message").data(text)), rx))
    });
    Sse::new(events).keep_alive(KeepAlive::default())
}

fn session_id(headers: &HeaderMap) -> Result<&str, Refusal> {
    let Some(id) = headers.get(SESSION_ID) else {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "Mcp-Session-Id header missing: send initialize first, then the id it returned",
        ));
    };
    id.to_str().map_err(|_| {
        Refusal::new(
            StatusCode::BAD_REQUEST,
            "Mcp-Session-Id is not visible ASCII",
        )
    })
}

fn find_session<S>(
    server: &Server<S>,
    headers: &HeaderMap,
) -> Result<Arc<Mutex<Live<S>>>, Refusal> {
    let id = session_id(headers)?;
    lock(&server.sessions)
        .get(id)
        .cloned()
        .ok_or_else(|| unknown_session(id))
}

fn unknown_session(id: &str) -> Refusal {
    Refusal(
        StatusCode::NOT_FOUND,
        -32001,
        format!("session {id:?} not found (never created, or ended): initialize a new one"),
    )
}

fn check_version(headers: &HeaderMap, negotiated: &str) -> Result<(), Refusal> {
    let Some(sent) = headers.get(PROTOCOL_VERSION) else {
        return Ok(()); // 2025-03-26 clients do not send it
    };
    let sent = sent.to_str().unwrap_or("");
    if sent == negotiated {
        return Ok(());
    }
    Err(Refusal::new(
        StatusCode::BAD_REQUEST,
        if VERSIONS.contains(&sent) {
            format!("MCP-Protocol-Version {sent:?} is not the session's revision {negotiated:?}")
        } else {
            format!(
                "MCP-Protocol-Version {sent:?} is not supported (supported: {})",
                VERSIONS.join(", ")
            )
        },
    ))
}

/// DNS-rebinding protection: `Host` and, when sent, `Origin` must name a loopback host.
fn check_origin(headers: &HeaderMap) -> Result<(), Refusal> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| is_loopback_authority(h)) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            format!("Host {host:?} is not a loopback host (DNS-rebinding protection)"),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if !authority.is_some_and(is_loopback_authority) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                format!("Origin {origin:?} is not a loopback origin (DNS-rebinding protection)"),
            ));
        }
    }
    Ok(())
}

/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port.
fn is_loopback_authority(authority: &str) -> bool {
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "[::1]"
}

/// Whether `Accept` lists `media_type` (or `*/*`).
fn accepts(headers: &HeaderMap, media_type: &str) -> bool {
    headers.get_all(header::ACCEPT).iter().any(|v| {
        v.to_str().is_ok_and(|v| {
            v.split(',').any(|part| {
                let t = part.split(';').next().unwrap_or("").trim();
                t.eq_ignore_ascii_case(media_type) || t == "*/*"
            })
        })
    })
}
