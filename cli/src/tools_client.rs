//! Asking a server for its tools, over stdio (start it, and shut it down after) or over
//! Streamable HTTP (`--url`): `initialize` at the newest revision both sides speak,
//! `notifications/initialized`, page through `tools/list`. Over HTTP, a 2026-07-28 server is
//! asked with `server/discover` and requests that name the revision in their `_meta`.
//!
//! The messages are mcp-typed' own (revision 2025-11-25, the newest with `initialize`): what
//! is sent is encoded from them, and every line received is decoded by
//! `ServerMessage::from_json`. A server request in between (`ping`, `roots/list`…) is
//! answered (`ping` with an empty result, anything else with "method not found"), and
//! notifications (logging…) are passed over.
//!
//! `mcp-typed tools --server -- CMD…` and `--url URL` run this client, then write the bindings
//! with [`mcp_typed_codegen::ToolsBuilder`].

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use mcp_typed::ProtocolVersion;
use mcp_typed::v2025_11_25 as m;
use serde_json::{Map, Value};

/// Why a server could not be asked for its tools.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No server command was given.
    #[error("no server command given (after `--`)")]
    NoCommand,
    /// The server's program could not be started.
    #[error("cannot start server {program:?}: {source}")]
    Start {
        /// The program.
        program: String,
        /// Why it did not start.
        #[source]
        source: std::io::Error,
    },
    /// The server did something this client cannot go on from: it exited, wrote what is not
    /// an MCP message, answered with an error or not in time, speaks no revision this client
    /// speaks, or its HTTP answer was not one.
    #[error("server `{server}`: {message}{}", stderr_tail(stderr))]
    Server {
        /// The server's command line, or its URL.
        server: String,
        /// What happened.
        message: String,
        /// The last lines the server wrote to stderr (stdio only; empty when none).
        stderr: String,
    },
}

fn stderr_tail(stderr: &str) -> String {
    match stderr.trim_end() {
        "" => String::new(),
        tail => format!("\nserver stderr (last lines):\n{tail}"),
    }
}

/// The result of asking a server.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The revision whose messages this client sends (`mcp_typed::v2025_11_25`).
const CLIENT_MESSAGES: ProtocolVersion = ProtocolVersion::V2025_11_25;

/// The revisions this client can speak, newest first: mcp-typed's [`ProtocolVersion`]s up to
/// the one whose messages it sends (2026-07-28 and later have no `initialize`; over HTTP they
/// are asked with `server/discover`).
pub fn client_revisions() -> Vec<&'static str> {
    ProtocolVersion::ALL
        .iter()
        .rev()
        .skip_while(|r| **r != CLIENT_MESSAGES)
        .map(|r| r.as_str())
        .collect()
}

/// A server's tool list, as received.
#[derive(Debug, Clone)]
pub struct ServerTools {
    /// The revision the session was initialized at.
    pub protocol_version: String,
    /// `serverInfo.name` and `.version`.
    pub server: (String, String),
    /// Every tool of every page, as the server sent it.
    pub tools: Vec<Value>,
    /// How many `tools/list` pages were read.
    pub pages: usize,
    /// How many messages were exchanged (sent and received).
    pub messages: usize,
}

impl ServerTools {
    /// The list as one `tools/list` result (`{"tools": [...]}`), what `--save` writes and
    /// [`ToolsBuilder::tool_list_path`](mcp_typed_codegen::ToolsBuilder::tool_list_path) reads.
    pub fn to_json(&self) -> String {
        let mut o = Map::new();
        o.insert("tools".into(), Value::Array(self.tools.clone()));
        let mut text =
            serde_json::to_string_pretty(&Value::Object(o)).expect("a JSON value serializes");
        text.push('\n');
        text
    }
}

/// Starts `command` (program and arguments), asks it for its tools and stops it. Each wait
/// for an answer is bounded by `timeout`.
pub fn list_tools(command: &[String], timeout: Duration) -> Result<ServerTools> {
    let (program, args) = command.split_first().ok_or(Error::NoCommand)?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| Error::Start {
            program: program.clone(),
            source,
        })?;
    let mut session = Session::stdio(&mut child, command.join(" "), timeout);
    let result = session.run();
    let stderr = session.stderr.clone();
    drop(session);
    shut_down(&mut child);
    result.map_err(|e| match e {
        Error::Server {
            server, message, ..
        } => Error::Server {
            server,
            message,
            stderr: stderr.lock().map(|s| s.clone()).unwrap_or_default(),
        },
        e => e,
    })
}

/// Asks the Streamable HTTP server at `url` for its tools. `headers` go with every request
/// (`Authorization: Bearer …` for a server that needs a token). Each answer is bounded by
/// `timeout`.
pub fn list_tools_http(
    url: &str,
    headers: &[(String, String)],
    timeout: Duration,
) -> Result<ServerTools> {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .user_agent(concat!("mcp-typed/", env!("CARGO_PKG_VERSION")))
        .build();
    let transport = Transport::Http(Http {
        agent: ureq::Agent::new_with_config(config),
        url: url.to_owned(),
        headers: headers.to_vec(),
        session: None,
        version: None,
        queue: VecDeque::new(),
    });
    let mut session = Session {
        transport,
        stderr: Arc::default(),
        command: url.to_owned(),
        timeout,
        line_no: 0,
        next_id: 1,
        messages: 0,
    };
    // Over HTTP every request is answered, so asking a 2025 server what it does not know
    // costs one exchange: `server/discover` first, `initialize` when it is not understood.
    if let Some(listed) = session.run_discovered()? {
        return Ok(listed);
    }
    if let Transport::Http(http) = &mut session.transport {
        http.queue.clear();
        http.session = None;
        http.version = None;
    }
    session.run()
}

/// How messages travel.
enum Transport {
    /// Lines on the child's stdin and stdout.
    Stdio {
        input: Option<ChildStdin>,
        lines: Receiver<std::io::Result<String>>,
    },
    /// Streamable HTTP: each message a POST; what the server answers (a JSON body, or the
    /// events of an SSE stream) is queued for [`Session::recv`].
    Http(Http),
}

struct Http {
    agent: ureq::Agent,
    url: String,
    headers: Vec<(String, String)>,
    /// `Mcp-Session-Id`, once the server gave one.
    session: Option<String>,
    /// `MCP-Protocol-Version`, once negotiated.
    version: Option<String>,
    queue: VecDeque<String>,
}

impl Http {
    /// POSTs one message and queues what comes back: for a request, the messages of its
    /// answer up to the response to `id`.
    fn post(
        &mut self,
        body: &str,
        id: Option<&Value>,
        method: Option<&str>,
    ) -> std::result::Result<(), String> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream");
        if let Some(s) = &self.session {
            request = request.header("Mcp-Session-Id", s);
        }
        if let Some(v) = &self.version {
            request = request.header("MCP-Protocol-Version", v);
            // From 2026-07-28 on, the method rides in a header too (for routing without
            // reading the body).
            if v.as_str() >= "2026-07-28"
                && let Some(method) = method
            {
                request = request.header("Mcp-Method", method);
            }
        }
        for (k, v) in &self.headers {
            request = request.header(k, v);
        }
        let response = request
            .send(body)
            .map_err(|e| format!("POST {}: {e}", self.url))?;
        let status = response.status();
        if let Some(s) = response.headers().get("mcp-session-id") {
            self.session = Some(s.to_str().map_err(|e| e.to_string())?.to_owned());
        }
        let sse = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let mut reader = BufReader::new(response.into_body().into_reader());
        if !status.is_success() {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut reader, &mut text);
            return Err(format!(
                "POST {}: HTTP {status}: {}",
                self.url,
                truncate(text.trim())
            ));
        }
        if !sse {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut reader, &mut text)
                .map_err(|e| format!("reading the answer: {e}"))?;
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Array(batch)) => self.queue.extend(batch.iter().map(Value::to_string)),
                Ok(_) => self.queue.push_back(text),
                Err(_) if text.trim().is_empty() => {}
                Err(e) => return Err(format!("the answer is not JSON ({e}): {}", truncate(&text))),
            }
            return Ok(());
        }
        // Server-sent events: `data:` lines up to a blank line make one message.
        let mut data = String::new();
        for line in reader.lines() {
            let line = line.map_err(|e| format!("reading the event stream: {e}"))?;
            if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            } else if line.is_empty() && !data.is_empty() {
                let event = std::mem::take(&mut data);
                let done = id.is_some_and(|id| {
                    serde_json::from_str::<Value>(&event)
                        .is_ok_and(|v| v.get("method").is_none() && v.get("id") == Some(id))
                });
                self.queue.push_back(event);
                if done {
                    break;
                }
            }
        }
        Ok(())
    }
}

struct Session {
    transport: Transport,
    stderr: Arc<Mutex<String>>,
    command: String,
    timeout: Duration,
    line_no: usize,
    next_id: i64,
    messages: usize,
}

impl Session {
    fn stdio(child: &mut Child, command: String, timeout: Duration) -> Session {
        let input = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        // The last lines the server wrote to stderr, for errors.
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(err) = child.stderr.take() {
            let keep = Arc::clone(&stderr);
            thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(|l| l.ok()) {
                    if let Ok(mut s) = keep.lock() {
                        s.push_str(&line);
                        s.push('\n');
                        if s.len() > 4000 {
                            let cut = s.len() - 4000;
                            let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                            s.drain(..cut);
                        }
                    }
                }
            });
        }
        Session {
            transport: Transport::Stdio { input, lines },
            stderr,
            command,
            timeout,
            line_no: 0,
            next_id: 1,
            messages: 0,
        }
    }

    fn run(&mut self) -> Result<ServerTools> {
        let params = m::InitializeRequestParams::new(
            CLIENT_MESSAGES.as_str(),
            m::ClientCapabilities::new(),
            m::Implementation::new("mcp-typed", env!("CARGO_PKG_VERSION")),
        );
        let id = self.next_id();
        let init: m::InitializeResult =
            self.request(m::InitializeRequest::new(id, params), "initialize")?;
        // The server answers with the version it picks; a client that cannot speak it
        // disconnects.
        let version = init.protocol_version.clone();
        if let Transport::Http(http) = &mut self.transport {
            http.version = Some(version.clone());
        }
        let speaks = client_revisions();
        if !speaks.contains(&version.as_str()) {
            return Err(self.error(format!(
                "the server answered initialize with protocol version {version:?}, which this client does not speak ({})",
                speaks.join(", ")
            )));
        }
        self.send(&m::ClientMessage::notification(
            m::InitializedNotification::new(),
        ))?;
        let (tools, pages) = self.list_pages(
            |s, cursor| {
                let mut request = m::ListToolsRequest::new(s.next_id());
                if let Some(c) = cursor {
                    request = request.with_params(m::PaginatedRequestParams::new().with_cursor(c));
                }
                s.request_raw(request, "tools/list")
            },
            |page| serde_json::from_value::<m::ListToolsResult>(page).map(|r| r.next_cursor),
        )?;
        Ok(ServerTools {
            protocol_version: version,
            server: (init.server_info.name, init.server_info.version),
            tools,
            pages,
            messages: self.messages,
        })
    }

    /// A 2026-07-28 session has no handshake: `server/discover` says which revisions the
    /// server speaks, then each request names the revision in its `_meta`. `Ok(None)` when
    /// the server does not know `server/discover` (an older server).
    fn run_discovered(&mut self) -> Result<Option<ServerTools>> {
        use mcp_typed::v2026_07_28 as n;
        const MODERN: &str = "2026-07-28";
        let meta = || n::RequestMetaObject::new(MODERN, n::ClientCapabilities::new());
        // Stateless: the revision goes in a header of every request, no session.
        if let Transport::Http(http) = &mut self.transport {
            http.version = Some(MODERN.to_owned());
        }
        let id = self.next_id();
        let discover = n::DiscoverRequest::new(modern_id(&id), n::RequestParams::new(meta()));
        let found = self.modern_request(n::ClientMessage::request(discover), id, "server/discover");
        let Ok(found) = found else {
            return Ok(None);
        };
        let found: n::DiscoverResult = match serde_json::from_value(found) {
            Ok(d) => d,
            Err(_) => return Ok(None),
        };
        if !found.supported_versions.iter().any(|v| v == MODERN) {
            return Ok(None);
        }
        let server = found
            .meta
            .and_then(|m| m.server_info)
            .map(|i| (i.name, i.version))
            .unwrap_or_default();
        let (tools, pages) = self.list_pages(
            |s, cursor| {
                let id = s.next_id();
                let mut params = n::PaginatedRequestParams::new(meta());
                if let Some(c) = cursor {
                    params = params.with_cursor(c);
                }
                let request = n::ListToolsRequest::new(modern_id(&id), params);
                s.modern_request(n::ClientMessage::request(request), id, "tools/list")
            },
            |page| serde_json::from_value::<n::ListToolsResult>(page).map(|r| r.next_cursor),
        )?;
        Ok(Some(ServerTools {
            protocol_version: MODERN.to_owned(),
            server,
            tools,
            pages,
            messages: self.messages,
        }))
    }

    /// Sends a 2026-07-28 request (`id` is its id) and returns its result.
    fn modern_request(
        &mut self,
        message: mcp_typed::v2026_07_28::ClientMessage,
        id: m::RequestId,
        what: &str,
    ) -> Result<Value> {
        let line = serde_json::to_string(&message)
            .map_err(|e| self.error(format!("encoding {what}: {e}")))?;
        self.send_line(line, serde_json::to_value(&id).ok(), Some(what))?;
        self.answer(id, what)
    }

    /// Pages through `tools/list`: `page(self, cursor)` asks for one page, `next(page)` checks
    /// it with the revision's typed result and gives its `nextCursor`. The tools are kept as
    /// they came, to lose nothing.
    fn list_pages(
        &mut self,
        mut page: impl FnMut(&mut Self, Option<String>) -> Result<Value>,
        next: impl Fn(Value) -> serde_json::Result<Option<String>>,
    ) -> Result<(Vec<Value>, usize)> {
        let mut tools = Vec::new();
        let mut cursor = None;
        let mut pages = 0;
        loop {
            let raw = page(self, cursor.take())?;
            pages += 1;
            if let Some(Value::Array(list)) = raw.get("tools") {
                tools.extend(list.iter().cloned());
            }
            match next(raw).map_err(|e| self.error(format!("tools/list page {pages}: {e}")))? {
                Some(c) if pages < 1000 => cursor = Some(c),
                Some(_) => return Err(self.error("tools/list: more than 1000 pages".into())),
                None => break,
            }
        }
        Ok((tools, pages))
    }

    fn next_id(&mut self) -> m::RequestId {
        let id = self.next_id;
        self.next_id += 1;
        m::RequestId::Integer(id)
    }

    fn error(&self, message: String) -> Error {
        Error::Server {
            server: self.command.clone(),
            message,
            stderr: String::new(),
        }
    }

    fn send(&mut self, message: &m::ClientMessage) -> Result<()> {
        let line = serde_json::to_string(message)
            .map_err(|e| self.error(format!("encoding a message: {e}")))?;
        let (id, method) = match message {
            m::ClientMessage::Request(r) => (
                m::ClientMessage::request_id(r)
                    .map(|id| serde_json::to_value(id).expect("ids encode")),
                Some(r.method()),
            ),
            m::ClientMessage::Notification(n) => (None, Some(n.method())),
            _ => (None, None),
        };
        self.send_line(line, id, method)
    }

    /// Sends one encoded message (`id`: a request's, for the HTTP answer's end; `method`, for
    /// the header that names it from 2026-07-28 on).
    fn send_line(
        &mut self,
        mut line: String,
        id: Option<Value>,
        method: Option<&str>,
    ) -> Result<()> {
        let written = match &mut self.transport {
            Transport::Stdio { input, .. } => {
                line.push('\n');
                let input = input.as_mut().expect("stdin is open until the end");
                input
                    .write_all(line.as_bytes())
                    .and_then(|()| input.flush())
                    .map_err(|e| format!("writing to its stdin: {e} (did it exit?)"))
            }
            Transport::Http(http) => http.post(&line, id.as_ref(), method),
        };
        written.map_err(|e| self.error(e))?;
        self.messages += 1;
        Ok(())
    }

    /// Sends a request and returns its result decoded as `R::Result`.
    fn request<R>(&mut self, request: R, what: &str) -> Result<R::Result>
    where
        R: mcp_typed::RequestMethod + Into<m::ClientRequest>,
        R::Result: serde::de::DeserializeOwned,
    {
        let raw = self.request_raw(request, what)?;
        serde_json::from_value(raw).map_err(|e| self.error(format!("{what} result: {e}")))
    }

    /// Sends a request and returns its result as received.
    fn request_raw(&mut self, request: impl Into<m::ClientRequest>, what: &str) -> Result<Value> {
        let request = request.into();
        let id = m::ClientMessage::request_id(&request).expect("a typed request has an id");
        self.send(&m::ClientMessage::request(request))?;
        self.answer(id, what)
    }

    /// The result of request `id`, answering what the server asks in between.
    fn answer(&mut self, id: m::RequestId, what: &str) -> Result<Value> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let line = self.recv(deadline, what)?;
            let message = match m::ServerMessage::from_json(&line) {
                Ok(message) => message,
                Err(_) => {
                    return Err(self.error(format!(
                        "stdout line {}: not an MCP message: {}",
                        self.line_no,
                        truncate(&line)
                    )));
                }
            };
            match message {
                m::ServerMessage::Response(r) if r.id == id => {
                    return serde_json::from_str(r.result.get()).map_err(|e| {
                        self.error(format!("stdout line {}: {what} result: {e}", self.line_no))
                    });
                }
                m::ServerMessage::Error(e) if e.id.as_ref() == Some(&id) => {
                    return Err(self.error(format!(
                        "{what} failed: {} (code {})",
                        e.error.message, e.error.code
                    )));
                }
                m::ServerMessage::Request(r) => {
                    let Some(rid) = m::ServerMessage::request_id(&r) else {
                        continue;
                    };
                    let answer = match r {
                        m::ServerRequest::Ping(_) => {
                            m::ClientMessage::response(rid, m::EmptyResult::new())
                        }
                        _ => m::ClientMessage::error(
                            Some(rid),
                            m::METHOD_NOT_FOUND,
                            "mcp-typed tools only lists tools",
                        ),
                    };
                    self.send(&answer)?;
                }
                // Notifications, and answers to nothing this client asked.
                _ => {}
            }
        }
    }

    fn recv(&mut self, deadline: Instant, what: &str) -> Result<String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let lines = match &mut self.transport {
            Transport::Stdio { lines, .. } => lines,
            Transport::Http(http) => {
                return match http.queue.pop_front() {
                    Some(message) => {
                        self.line_no += 1;
                        self.messages += 1;
                        Ok(message)
                    }
                    None => Err(self.error(format!(
                        "the HTTP answer ended without the response to {what}"
                    ))),
                };
            }
        };
        match lines.recv_timeout(wait) {
            Ok(Ok(line)) => {
                self.line_no += 1;
                self.messages += 1;
                Ok(line)
            }
            Ok(Err(e)) => {
                Err(self.error(format!("reading stdout after line {}: {e}", self.line_no)))
            }
            Err(RecvTimeoutError::Timeout) => Err(self.error(format!(
                "no answer to {what} within {:.1} s",
                self.timeout.as_secs_f64()
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(self.error(format!(
                "closed its stdout (exited?) before answering {what}"
            ))),
        }
    }
}

/// The same id in 2026-07-28's type.
fn modern_id(id: &m::RequestId) -> mcp_typed::v2026_07_28::RequestId {
    match id {
        m::RequestId::Integer(i) => mcp_typed::v2026_07_28::RequestId::Integer(*i),
        m::RequestId::String(s) => mcp_typed::v2026_07_28::RequestId::String(s.clone()),
    }
}

fn truncate(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_owned(),
    }
}

/// Closes the server's stdin (the stdio transport's shutdown), waits briefly for it to exit,
/// then kills it.
fn shut_down(child: &mut Child) {
    drop(child.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}
