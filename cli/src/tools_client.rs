//! Asking a server for its tools, over stdio (start it, and shut it down after) or over
//! Streamable HTTP (`--url`): a [`ClientSession`] that declares nothing, run by a
//! [`Connection`] (over the child's stdio, or over [`crate::http`]'s line streams), negotiates
//! the newest revision both sides speak and pages through `tools/list`. Over HTTP a
//! 2026-07-28 server is asked with `server/discover` and requests that name the revision in
//! their `_meta`; a server that does not serve it is initialized as over stdio.
//!
//! The session answers what the server asks in between (`ping`; anything else is refused,
//! since this client declares no capability), and passes over notifications.
//!
//! `mcp-typed tools --server -- CMD…` and `--url URL` run this client, then write the bindings
//! with [`mcp_typed_codegen::ToolsBuilder`].

use std::io::{BufRead, BufReader};
use std::process::Command;
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use mcp_typed::ProtocolVersion;
use mcp_typed::session::{
    ClientError, ClientInfo, ClientSession, Connection, Direction, PageError,
};
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

/// The revisions this client can speak in a session begun with `initialize`, newest first:
/// mcp-typed's [`ProtocolVersion`]s up to 2025-11-25 (2026-07-28 and later have no
/// `initialize`; over HTTP they are asked with `server/discover`).
pub fn client_revisions() -> Vec<&'static str> {
    handshake_revisions().iter().map(|r| r.as_str()).collect()
}

fn handshake_revisions() -> Vec<ProtocolVersion> {
    let newest = ProtocolVersion::V2025_11_25;
    let all = ProtocolVersion::ALL.iter().rev().copied();
    all.skip_while(|r| *r != newest).collect()
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
    let start = |source| Error::Start {
        program: program.clone(),
        source,
    };
    // The last lines the server writes to stderr, for errors.
    let (stderr, stderr_in) = std::io::pipe().map_err(start)?;
    let (tail, ended) = tail(stderr);
    let mut child = Command::new(program);
    child.args(args).stderr(stderr_in);
    let run = Run::new(command.join(" "), "stdout line");
    let session = run.session(handshake_revisions());
    let connection = Connection::spawn_with_timeout(&mut child, session, timeout);
    // The pipe's writing end is the child's alone now: it ends when the server does.
    drop(child);
    let listed = match connection {
        Err(ClientError::Start { message, .. }) => {
            return Err(start(std::io::Error::other(message)));
        }
        Err(e) => Err(run.error(e, "initialize", timeout)),
        Ok(mut connection) => {
            let listed = run.list(&mut connection, timeout);
            let _ = connection.close();
            listed
        }
    };
    listed.map_err(|e| match e {
        Error::Server {
            server, message, ..
        } => Error::Server {
            server,
            message,
            stderr: {
                // What it wrote before it ended (a grandchild may hold the pipe open).
                let _ = ended.recv_timeout(Duration::from_secs(1));
                tail.lock().map(|s| s.clone()).unwrap_or_default()
            },
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
    let mut revisions = vec![ProtocolVersion::V2026_07_28];
    revisions.extend(handshake_revisions());
    match ask_http(url, headers, timeout, revisions) {
        // A refusal of `server/discover` that carries a JSON-RPC error falls back to
        // `initialize` on the same connection (`crate::http`); one without (a bare HTTP 400, or
        // an error whose id is not the request's) ends the connection: then the server is
        // asked again, from the start, with `initialize`.
        Err((true, _)) => ask_http(url, headers, timeout, handshake_revisions()).map_err(|e| e.1),
        listed => listed.map_err(|e| e.1),
    }
}

/// One session over HTTP; an error says whether the transport ended it before it was
/// negotiated.
fn ask_http(
    url: &str,
    headers: &[(String, String)],
    timeout: Duration,
    revisions: Vec<ProtocolVersion>,
) -> Result<ServerTools, (bool, Error)> {
    let run = Run::new(url.to_owned(), "message");
    let first = match revisions[0] {
        ProtocolVersion::V2026_07_28 => "server/discover",
        _ => "initialize",
    };
    let (lines, sender) = crate::http::connect(url, headers, timeout)
        .map_err(|e| (false, run.fail(e.to_string())))?;
    let session = run.session(revisions);
    let mut connection =
        Connection::over_with_timeout(lines, sender, session, timeout).map_err(|e| {
            (
                matches!(e, ClientError::Closed(_)),
                run.error(e, first, timeout),
            )
        })?;
    run.list(&mut connection, timeout).map_err(|e| (false, e))
}

/// What one run saw, for its report and its errors.
struct Run {
    /// The server's command line, or its URL.
    server: String,
    /// What a line of the server is called in errors.
    line: &'static str,
    seen: Arc<Mutex<Seen>>,
}

#[derive(Default)]
struct Seen {
    /// Lines in and out.
    messages: usize,
    /// Lines in.
    read: usize,
    /// The first line of the server that is not an MCP message, and its number.
    unreadable: Option<(usize, String)>,
}

impl Run {
    fn new(server: String, line: &'static str) -> Run {
        Run {
            server,
            line,
            seen: Arc::default(),
        }
    }

    /// A client that declares nothing, speaking `revisions` (the first preferred), whose
    /// traffic this run counts.
    fn session(&self, revisions: Vec<ProtocolVersion>) -> ClientSession<()> {
        let implementation = m::Implementation::new("mcp-typed", env!("CARGO_PKG_VERSION"));
        let info = ClientInfo::new(implementation).with_versions(revisions);
        let seen = Arc::clone(&self.seen);
        ClientSession::new(info, ()).observe(move |traffic| {
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            seen.messages += 1;
            if traffic.direction == Direction::In {
                seen.read += 1;
                if traffic.error.is_some() && seen.unreadable.is_none() {
                    seen.unreadable = Some((seen.read, truncate(traffic.line)));
                }
            }
        })
    }

    /// Pages through `tools/list` (at most 1000 pages), each page checked as the revision's
    /// result and its tools kept as they came (to lose nothing).
    fn list(&self, server: &mut Connection<()>, timeout: Duration) -> Result<ServerTools> {
        let mut tools = Vec::new();
        let read = server.pages(
            1000,
            |id, page| m::ListToolsRequest::new(id).with_params(page),
            |number, page: Value| {
                let typed: m::ListToolsResult =
                    serde_json::from_value(page.clone()).map_err(|e| {
                        ClientError::InvalidResult {
                            method: "tools/list".to_owned(),
                            message: format!("page {number}: {e}"),
                        }
                    })?;
                if let Some(Value::Array(list)) = page.get("tools") {
                    tools.extend(list.iter().cloned());
                }
                Ok(typed.next_cursor)
            },
        );
        let pages = match read {
            Ok(pages) => pages,
            Err(PageError::Request { error, .. }) => {
                return Err(self.error(error, "tools/list", timeout));
            }
            Err(stop) => return Err(self.fail(format!("tools/list: {stop}"))),
        };
        let about = server.server();
        let implementation = about.implementation.clone();
        Ok(ServerTools {
            protocol_version: about.version.as_str().to_owned(),
            server: implementation
                .map(|i| (i.name, i.version))
                .unwrap_or_default(),
            tools,
            pages,
            messages: self.seen.lock().map(|s| s.messages).unwrap_or_default(),
        })
    }

    fn fail(&self, message: String) -> Error {
        Error::Server {
            server: self.server.clone(),
            message,
            stderr: String::new(),
        }
    }

    /// `e`, met while waiting for the answer to `what`, said for a person: with the first
    /// line of the server that was not an MCP message, if there was one.
    fn error(&self, e: ClientError, what: &str, timeout: Duration) -> Error {
        let secs = timeout.as_secs_f64();
        let message = match e {
            ClientError::Ended { status } => {
                let status = status.map(|s| format!(" ({s})")).unwrap_or_default();
                format!("closed its stdout (exited?) before answering {what}{status}")
            }
            ClientError::Closed(why) => why
                .strip_prefix("cannot read the server: ")
                .unwrap_or(&why)
                .to_owned(),
            ClientError::TimedOut { .. } => format!("no answer to {what} within {secs:.1} s"),
            ClientError::Rejected { code, message, .. } => {
                format!("{what} failed: {message} (code {code})")
            }
            e => e.to_string(),
        };
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        match &seen.unreadable {
            Some((n, line)) => self.fail(format!(
                "{} {n}: not an MCP message: {line}; then {message}",
                self.line
            )),
            None => self.fail(message),
        }
    }
}

/// Reads `stderr` to its end on a thread, keeping the last 4000 bytes; the channel hears
/// when it ended.
fn tail(stderr: impl std::io::Read + Send + 'static) -> (Arc<Mutex<String>>, mpsc::Receiver<()>) {
    let kept = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel();
    let keep = Arc::clone(&kept);
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(|l| l.ok()) {
            let mut kept = keep.lock().unwrap_or_else(|e| e.into_inner());
            kept.push_str(&line);
            kept.push('\n');
            if kept.len() > 4000 {
                let cut = kept.len() - 4000;
                let cut = (cut..kept.len()).find(|&i| kept.is_char_boundary(i));
                kept.drain(..cut.unwrap_or(0));
            }
        }
        let _ = tx.send(());
    });
    (kept, rx)
}

fn truncate(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_owned(),
    }
}
