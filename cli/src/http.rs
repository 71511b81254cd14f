//! The Streamable HTTP transport (2025-03-26 on) as a pair of line streams, for
//! [`Connection::over`](mcp_typed::session::Connection::over) or any other driver of lines.
//!
//! [`connect`] gives the two halves. Each line written to the [`HttpSender`] is one message,
//! POSTed to the endpoint (`Accept: application/json, text/event-stream`, the
//! `Mcp-Session-Id` the server gave, `MCP-Protocol-Version` once known: read from the
//! `initialize` result passing through, or from a 2026-07-28 request's
//! `_meta["io.modelcontextprotocol/protocolVersion"]`). Every JSON-RPC message of the answer
//! (a JSON body, a batch, or each event of an SSE stream) becomes one line of [`HttpLines`].
//! A request's answer is read on a thread of its own, so that the server can ask the client
//! something in the middle of a long tool call and get the reply on the next POST;
//! notifications and responses are POSTed before `write` returns, in order. `202 Accepted`
//! gives no line; an HTTP error status, a failed request or an answer that is not JSON-RPC
//! is a read error of [`HttpLines`] (an [`HttpError`] inside the `io::Error`).
//!
//! Before `notifications/initialized` goes out, the server's stream for messages of its own
//! (a GET) is opened where the server offers one (`405` says it does not); its messages are
//! lines too. Dropping the sender ends the session with a DELETE (when the server gave an
//! id).
//!
//! ```no_run
//! use std::time::Duration;
//! use mcp_typed::session::{ClientInfo, ClientSession, Connection};
//! use mcp_typed::v2025_11_25 as mcp;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let (lines, sender) = mcp_typed_cli::http::connect(
//!     "http://127.0.0.1:3001/mcp",
//!     &[("Authorization".to_owned(), "Bearer …".to_owned())],
//!     Duration::from_secs(30),
//! )?;
//! let info = ClientInfo::new(mcp::Implementation::new("me", "1.0"));
//! let mut server = Connection::over(lines, sender, ClientSession::new(info, ()))?;
//! let sum = server.call_tool("get-sum", &serde_json::json!({"a": 1, "b": 2}))?;
//! # Ok(()) }
//! ```

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::Value;
use serde_json::value::RawValue;

/// How many times an event stream that ended before its response is resumed
/// (`Last-Event-ID`) without a new event.
const RESUMES: u32 = 3;

/// What went wrong on the HTTP side of a session.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The endpoint is not an `http` or `https` URL.
    #[error("{url:?} is not an http:// or https:// URL")]
    Url {
        /// The URL given.
        url: String,
    },
    /// The request got no answer (the connection failed, or timed out).
    #[error("{method} {url}: {message}")]
    Transport {
        /// `POST`, `GET` or `DELETE`.
        method: &'static str,
        /// The endpoint.
        url: String,
        /// Why.
        message: String,
    },
    /// The server answered with an HTTP error status.
    #[error("{method} {url}: HTTP {status}: {body}")]
    Status {
        /// `POST`, `GET` or `DELETE`.
        method: &'static str,
        /// The endpoint.
        url: String,
        /// The status, with its reason (`404 Not Found`).
        status: String,
        /// The start of the body.
        body: String,
    },
    /// The answer is not JSON-RPC (a body that is not JSON, an unknown content type, a stream
    /// that broke or ended before the response to its request).
    #[error("{method} {url}: {message}")]
    Answer {
        /// `POST` or `GET`.
        method: &'static str,
        /// The endpoint.
        url: String,
        /// What is wrong, with an excerpt.
        message: String,
    },
}

/// The server's messages, one line each: the reading half of [`connect`]. Ends when the
/// [`HttpSender`] is dropped and every answer has been read.
#[derive(Debug)]
pub struct HttpLines {
    lines: Receiver<io::Result<Vec<u8>>>,
    line: Vec<u8>,
    at: usize,
}

/// The client's messages, one line each: the writing half of [`connect`].
#[derive(Debug)]
pub struct HttpSender {
    shared: Arc<Shared>,
    lines: Sender<io::Result<Vec<u8>>>,
    partial: Vec<u8>,
    listening: bool,
}

#[derive(Debug)]
struct Shared {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// `Mcp-Session-Id`, once the server gave one.
    session: Option<String>,
    /// `MCP-Protocol-Version`, once known.
    version: Option<String>,
    /// The id of the `initialize` request on its way.
    initialize: Option<Value>,
}

/// The Streamable HTTP endpoint `url` as a pair of line streams. `headers` go with every
/// request (`Authorization: Bearer …`); `timeout` bounds connecting and waiting for each
/// answer's status (a stream's events may take as long as they take). Nothing is sent until
/// the first line is written.
pub fn connect(
    url: &str,
    headers: &[(String, String)],
    timeout: Duration,
) -> Result<(HttpLines, HttpSender), HttpError> {
    let uri: Option<ureq::http::Uri> = url.parse().ok();
    let scheme = uri.as_ref().and_then(|u| u.scheme_str());
    if !matches!(scheme, Some("http" | "https")) || uri.and_then(|u| u.host().map(drop)).is_none() {
        return Err(HttpError::Url {
            url: url.to_owned(),
        });
    }
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(timeout))
        .timeout_send_request(Some(timeout))
        .timeout_send_body(Some(timeout))
        .timeout_recv_response(Some(timeout))
        .user_agent(concat!("mcp-typed/", env!("CARGO_PKG_VERSION")))
        .build();
    let shared = Arc::new(Shared {
        agent: ureq::Agent::new_with_config(config),
        url: url.to_owned(),
        headers: headers.to_vec(),
        timeout,
        state: Mutex::default(),
    });
    let (tx, rx) = mpsc::channel();
    let lines = HttpLines {
        lines: rx,
        line: Vec::new(),
        at: 0,
    };
    let sender = HttpSender {
        shared,
        lines: tx,
        partial: Vec::new(),
        listening: false,
    };
    Ok((lines, sender))
}

impl Read for HttpLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for HttpLines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.line.len() {
            match self.lines.recv() {
                Ok(Ok(line)) => {
                    self.line = line;
                    self.line.push(b'\n');
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                // Every sender is gone: the end.
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.line[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.line.len());
    }
}

impl Write for HttpSender {
    /// Buffers `buf`; each complete line is POSTed.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim();
            if !line.is_empty() {
                self.post(line.to_owned());
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl HttpSender {
    fn post(&mut self, line: String) {
        let message: Value = serde_json::from_str(&line).unwrap_or_default();
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id").filter(|id| !id.is_null());
        let request = method.and(id).cloned();
        {
            let mut state = self.shared.lock();
            if method == Some("initialize") {
                state.initialize = request.clone();
            }
            let meta = "/params/_meta/io.modelcontextprotocol~1protocolVersion";
            if let Some(version) = message.pointer(meta).and_then(Value::as_str) {
                state.version = Some(version.to_owned());
            }
        }
        if method == Some("notifications/initialized") && !self.listening {
            self.listening = true;
            self.shared.listen(&self.lines);
        }
        let (told, status) = mpsc::channel();
        let shared = Arc::clone(&self.shared);
        let lines = self.lines.clone();
        let method = method.map(str::to_owned);
        thread::spawn(move || shared.send(&line, method.as_deref(), request, &lines, told));
        // A notification or a response is answered at once (202): in order with what follows.
        // A request's answer may wait for the client's reply to a question of the server.
        if message.get("id").is_none() || message.get("method").is_none() {
            let _ = status.recv();
        }
    }
}

impl Drop for HttpSender {
    /// Ends the session at the server (DELETE), when it gave one.
    fn drop(&mut self) {
        let (session, version) = {
            let mut state = self.shared.lock();
            (state.session.take(), state.version.clone())
        };
        let Some(session) = session else {
            return;
        };
        let shared = &self.shared;
        let mut request = shared.agent.delete(&shared.url);
        request = request.header("Mcp-Session-Id", &session);
        if let Some(version) = version {
            request = request.header("MCP-Protocol-Version", version);
        }
        for (name, value) in &shared.headers {
            request = request.header(name, value);
        }
        // 405: the server does not let clients end sessions; nothing more to do either way.
        let _ = request.call();
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The headers every request carries: the session, the revision, the caller's.
    fn headers<B>(
        &self,
        mut request: ureq::RequestBuilder<B>,
        method: Option<&str>,
    ) -> ureq::RequestBuilder<B> {
        let state = self.lock();
        if let Some(session) = &state.session {
            request = request.header("Mcp-Session-Id", session);
        }
        if let Some(version) = &state.version {
            request = request.header("MCP-Protocol-Version", version);
            // From 2026-07-28 on, the method rides in a header too (for routing without
            // reading the body).
            if version.as_str() >= "2026-07-28"
                && let Some(method) = method
            {
                request = request.header("Mcp-Method", method);
            }
        }
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        request
    }

    /// POSTs `line` and passes its answer on to `lines`; `told` hears when the status came.
    fn send(
        &self,
        line: &str,
        method: Option<&str>,
        request: Option<Value>,
        lines: &Sender<io::Result<Vec<u8>>>,
        told: Sender<()>,
    ) {
        let post = self.agent.post(&self.url);
        let post = self
            .headers(post, method)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        let response = match post.send(line) {
            Ok(response) => response,
            Err(e) => {
                let _ = lines.send(Err(self.transport("POST", &e)));
                return;
            }
        };
        if let Some(session) = response.headers().get("mcp-session-id")
            && let Ok(session) = session.to_str()
        {
            self.lock().session = Some(session.to_owned());
        }
        let status = response.status();
        if !status.is_success() {
            // A request refused with a JSON-RPC error in the body (a 2025-11-25 server answers
            // 2026-07-28's `server/discover` with 400 and one) is that request's error: the
            // session reads it and goes on (falling back to `initialize`); anything else ends
            // the connection. The revision the refused request named is not assumed.
            let (error, body) = status_error_body("POST", &self.url, response);
            let refused = request.as_ref().and_then(|id| error_reply(&body, id));
            if refused.is_some() && line.contains("io.modelcontextprotocol/protocolVersion") {
                self.lock().version = None;
            }
            let _ = lines.send(
                refused
                    .map(|line| Ok(line.into_bytes()))
                    .unwrap_or(Err(error)),
            );
            let _ = told.send(());
            return;
        }
        let _ = told.send(());
        if status == ureq::http::StatusCode::ACCEPTED {
            return;
        }
        if let Err(e) = self.read_answer("POST", response, request.as_ref(), lines) {
            let _ = lines.send(Err(e));
        }
    }

    /// Opens the server's own stream (GET) and reads it on a thread. Waits (a little) for its
    /// status, so that what the server sends once initialized has somewhere to go.
    fn listen(self: &Arc<Self>, lines: &Sender<io::Result<Vec<u8>>>) {
        let (told, status) = mpsc::channel();
        let shared = Arc::clone(self);
        let lines = lines.clone();
        thread::spawn(move || {
            let get = shared.agent.get(&shared.url);
            let get = shared
                .headers(get, None)
                .header("Accept", "text/event-stream");
            let response = get.call();
            let _ = told.send(());
            // No stream (405, or any other refusal): the server sends everything on the
            // answers to POSTs.
            if let Ok(response) = response
                && response.status().is_success()
                && let Err(e) = shared.read_answer("GET", response, None, &lines)
            {
                let _ = lines.send(Err(e));
            }
        });
        let _ = status.recv_timeout(self.timeout.min(Duration::from_secs(2)));
    }

    /// The messages of an answer, each a line on `lines`: a JSON body (or batch), or the
    /// events of a stream, up to the response to `request` when there is one.
    fn read_answer(
        &self,
        method: &'static str,
        response: ureq::http::Response<ureq::Body>,
        request: Option<&Value>,
        lines: &Sender<io::Result<Vec<u8>>>,
    ) -> io::Result<()> {
        let kind = (response.headers().get("content-type"))
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let body = response.into_body().into_reader();
        if kind.starts_with("text/event-stream") {
            return self.read_events(method, body, request, lines);
        }
        let mut text = String::new();
        BufReader::new(body)
            .read_to_string(&mut text)
            .map_err(|e| self.answer(method, format!("reading the answer: {e}")))?;
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let batch = text.starts_with('[');
        let messages = match serde_json::from_str::<Vec<Box<RawValue>>>(text) {
            Ok(batch) => Ok(batch),
            Err(_) if batch => Err(()),
            Err(_) => serde_json::from_str::<Box<RawValue>>(text)
                .map(|m| vec![m])
                .map_err(drop),
        };
        let json = kind.starts_with("application/json") || kind.is_empty();
        let messages = match messages {
            Ok(messages) if json || batch => messages,
            _ => {
                let message = format!(
                    "the answer ({}) is not JSON-RPC: {}",
                    if kind.is_empty() {
                        "no content type"
                    } else {
                        &kind
                    },
                    excerpt(text)
                );
                return Err(self.answer(method, message));
            }
        };
        for message in messages {
            let line = one_line(message.get());
            self.seen(&line);
            if lines.send(Ok(line.into_bytes())).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Server-sent events: each event's `data` is one message. A stream that ends before the
    /// response to `request` is resumed with `Last-Event-ID` when its events had ids.
    fn read_events(
        &self,
        method: &'static str,
        body: impl Read,
        request: Option<&Value>,
        lines: &Sender<io::Result<Vec<u8>>>,
    ) -> io::Result<()> {
        let mut body: Box<dyn BufRead> = Box::new(BufReader::new(body));
        let mut last_id: Option<String> = None;
        let mut retry = Duration::ZERO;
        let mut resumes = 0;
        loop {
            let mut data = String::new();
            let mut event_id = None;
            for line in (&mut body).lines() {
                let line =
                    line.map_err(|e| self.answer(method, format!("the event stream: {e}")))?;
                let line = line.strip_suffix('\r').unwrap_or(&line);
                let (field, value) = match line.split_once(':') {
                    Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                    None => (line, ""),
                };
                match field {
                    "" if line.is_empty() => {
                        if let Some(id) = event_id.take() {
                            last_id = Some(id);
                        }
                        if data.trim().is_empty() {
                            data.clear();
                            continue;
                        }
                        let text = one_line(&std::mem::take(&mut data));
                        self.seen(&text);
                        let answered = request.is_some_and(|id| {
                            let message: Value = serde_json::from_str(&text).unwrap_or_default();
                            message.get("method").is_none() && message.get("id") == Some(id)
                        });
                        if lines.send(Ok(text.into_bytes())).is_err() || answered {
                            return Ok(());
                        }
                        resumes = 0;
                    }
                    "data" => {
                        if !data.is_empty() {
                            data.push('\n');
                        }
                        data.push_str(value);
                    }
                    "id" => event_id = Some(value.to_owned()),
                    "retry" => {
                        if let Ok(ms) = value.trim().parse() {
                            retry = Duration::from_millis(ms);
                        }
                    }
                    _ => {}
                }
            }
            // The stream ended. The server's own stream may; a request's must not before its
            // response, unless it can be resumed.
            let Some(request) = request else {
                return Ok(());
            };
            let Some(last) = last_id.clone().filter(|_| resumes < RESUMES) else {
                return Err(self.answer(
                    method,
                    format!("the event stream ended before the response to request {request}"),
                ));
            };
            resumes += 1;
            thread::sleep(retry.min(self.timeout));
            let get = self.agent.get(&self.url);
            let get = (self.headers(get, None))
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", &last);
            let response = get.call().map_err(|e| self.transport("GET", &e))?;
            if !response.status().is_success() {
                return Err(status_error("GET", &self.url, response));
            }
            body = Box::new(BufReader::new(response.into_body().into_reader()));
        }
    }

    /// A message passing through: the revision negotiated, from `initialize`'s result.
    fn seen(&self, line: &str) {
        let mut state = self.lock();
        if state.initialize.is_none() {
            return;
        }
        let message: Value = serde_json::from_str(line).unwrap_or_default();
        if message.get("id") == state.initialize.as_ref() {
            state.initialize = None;
            let version = message.pointer("/result/protocolVersion");
            if let Some(version) = version.and_then(Value::as_str) {
                state.version = Some(version.to_owned());
            }
        }
    }

    fn transport(&self, method: &'static str, e: &ureq::Error) -> io::Error {
        io::Error::other(HttpError::Transport {
            method,
            url: self.url.clone(),
            message: e.to_string(),
        })
    }

    fn answer(&self, method: &'static str, message: String) -> io::Error {
        io::Error::other(HttpError::Answer {
            method,
            url: self.url.clone(),
            message,
        })
    }
}

/// An error status, with the start of the body.
fn status_error(
    method: &'static str,
    url: &str,
    response: ureq::http::Response<ureq::Body>,
) -> io::Error {
    status_error_body(method, url, response).0
}

/// An error status with the start of the body, and the body (its first 4 KiB).
fn status_error_body(
    method: &'static str,
    url: &str,
    response: ureq::http::Response<ureq::Body>,
) -> (io::Error, String) {
    let status = response.status();
    let mut text = String::new();
    let body = response.into_body().into_reader().take(4096);
    let _ = BufReader::new(body).read_to_string(&mut text);
    let error = io::Error::other(HttpError::Status {
        method,
        url: url.to_owned(),
        status: status.to_string(),
        body: excerpt(text.trim()),
    });
    (error, text)
}

/// The JSON-RPC error response an HTTP error status carried in its body, as a line answering
/// request `id` (whose id it repeats, or stands in for when the body says `null`).
fn error_reply(body: &str, id: &Value) -> Option<String> {
    let mut reply: Value = serde_json::from_str(body).ok()?;
    let object = reply.as_object_mut()?;
    let error = object.get("error")?;
    if !(error.get("code")?.is_i64() && error.get("message")?.is_string()) {
        return None;
    }
    match object.get("id") {
        None | Some(Value::Null) => {
            object.insert("id".to_owned(), id.clone());
        }
        Some(given) if given != id => return None,
        Some(_) => {}
    }
    Some(reply.to_string())
}

/// A message as one line: JSON has no newline but between tokens.
fn one_line(text: &str) -> String {
    text.trim().replace(['\n', '\r'], " ")
}

fn excerpt(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}
