//! A client session over a blocking line transport: [`Connection`].

use std::collections::HashSet;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::client::{ClientError, ClientHandler, ClientSession, Pending, ServerInfo};
use crate::RequestMethod;
use crate::v2025_11_25 as app;

/// The longest line a [`Connection`] reads from a server (64 MiB, the traffic checker's
/// default `--max-line`): a longer one ends the connection with an error.
const MAX_LINE: u64 = 64 << 20;

/// The most pages [`Connection::list_tools`] and the other lists read.
const MAX_PAGES: usize = 1000;

/// How long a [`Connection`] waits for any one answer unless told otherwise.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A [`ClientSession`] run over newline-delimited JSON-RPC with blocking I/O: a server started
/// as a child process (the stdio transport), or any pair of streams. Each call sends its
/// request and reads the server's lines until the answer comes, answering the server's
/// requests through the session's handler on the way; one thread reads the server's output.
///
/// ```no_run
/// use std::process::Command;
/// use mcp_typed::session::{ClientInfo, ClientSession, Connection};
/// use mcp_typed::v2025_11_25 as mcp;
///
/// # fn main() -> Result<(), mcp_typed::session::ClientError> {
/// let info = ClientInfo::new(mcp::Implementation::new("me", "1.0"));
/// let mut server = Connection::spawn(
///     Command::new("npx").args(["-y", "@modelcontextprotocol/server-everything"]),
///     ClientSession::new(info, ()),
/// )?;
/// for tool in server.list_tools()? {
///     println!("{}", tool.name);
/// }
/// let sum = server.call_tool("get-sum", &serde_json::json!({"a": 1, "b": 2}))?;
/// assert_ne!(sum.is_error, Some(true));
/// # Ok(()) }
/// ```
pub struct Connection<H> {
    session: ClientSession<H>,
    lines: Receiver<io::Result<Vec<u8>>>,
    writer: Option<Box<dyn Write + Send>>,
    child: Option<Child>,
    timeout: Duration,
}

impl<H: ClientHandler> Connection<H> {
    /// Starts `command` with its stdin and stdout piped (stderr as the command says) and
    /// negotiates with it.
    pub fn spawn(command: &mut Command, session: ClientSession<H>) -> Result<Self, ClientError> {
        Connection::spawn_with_timeout(command, session, TIMEOUT)
    }

    /// [`spawn`](Connection::spawn), waiting at most `timeout` for any one answer, the
    /// negotiation's included (see [`set_timeout`](Connection::set_timeout)).
    pub fn spawn_with_timeout(
        command: &mut Command,
        session: ClientSession<H>,
        timeout: Duration,
    ) -> Result<Self, ClientError> {
        let program = command.get_program().to_string_lossy().into_owned();
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| ClientError::Start {
                program,
                message: e.to_string(),
            })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut connection = Connection::unstarted(stdout, stdin, session);
        connection.child = Some(child);
        connection.timeout = timeout;
        connection.connect()?;
        Ok(connection)
    }

    /// Over `reader` (the server's lines) and `writer` (the client's), and negotiates.
    pub fn over(
        reader: impl BufRead + Send + 'static,
        writer: impl Write + Send + 'static,
        session: ClientSession<H>,
    ) -> Result<Self, ClientError> {
        Connection::over_with_timeout(reader, writer, session, TIMEOUT)
    }

    /// [`over`](Connection::over), waiting at most `timeout` for any one answer, the
    /// negotiation's included (see [`set_timeout`](Connection::set_timeout)).
    pub fn over_with_timeout(
        reader: impl BufRead + Send + 'static,
        writer: impl Write + Send + 'static,
        session: ClientSession<H>,
        timeout: Duration,
    ) -> Result<Self, ClientError> {
        let mut connection = Connection::unstarted(reader, writer, session);
        connection.timeout = timeout;
        connection.connect()?;
        Ok(connection)
    }

    fn unstarted(
        mut reader: impl BufRead + Send + 'static,
        writer: impl Write + Send + 'static,
        session: ClientSession<H>,
    ) -> Self {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                // A line that never ends is not kept without bound.
                match (&mut reader)
                    .take(MAX_LINE + 1)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) => break,
                    Ok(n) if n as u64 > MAX_LINE => {
                        let why = format!("the server wrote a line longer than {MAX_LINE} bytes");
                        let _ = tx.send(Err(io::Error::new(io::ErrorKind::InvalidData, why)));
                        break;
                    }
                    Ok(_) => {
                        if line.ends_with(b"\n") {
                            line.pop();
                        }
                        if line.ends_with(b"\r") {
                            line.pop();
                        }
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });
        Connection {
            session,
            lines,
            writer: Some(Box::new(writer)),
            child: None,
            timeout: TIMEOUT,
        }
    }

    fn connect(&mut self) -> Result<(), ClientError> {
        let hello = self.session.connect();
        self.send(&hello)?;
        // `server/discover` may be refused, and `initialize` follow.
        self.wait(|s| s.is_ready() || s.failure().is_some())?;
        match self.session.failure() {
            Some(why) => Err(ClientError::NotReady(why.to_owned())),
            None => Ok(()),
        }
    }

    /// How long to wait for any one answer (30 s unless set): a request not answered in
    /// time is cancelled and gives [`ClientError::TimedOut`].
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The session (its handler, revision, observer…).
    pub fn session(&mut self) -> &mut ClientSession<H> {
        &mut self.session
    }

    /// What the server said about itself.
    pub fn server(&self) -> &ServerInfo {
        self.session.server().expect("a connection is negotiated")
    }

    /// Sends the request `make` builds from its id and waits for its result
    /// (`server.request(|id| mcp::CompleteRequest::new(id, params))?`).
    pub fn request<R>(
        &mut self,
        make: impl FnOnce(app::RequestId) -> R,
    ) -> Result<R::Result, ClientError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
        R::Result: serde::de::DeserializeOwned,
    {
        let (pending, line) = self.session.request(make)?;
        self.send(&[line])?;
        self.wait(|s| s.is_done(&pending))?;
        self.session.take(&pending).expect("waited for it")
    }

    /// Sends the request `make` builds without waiting for its result: several can be on
    /// their way at once. [`finish`](Connection::finish) waits for one, [`cancel`](Connection::cancel)
    /// gives up on it.
    pub fn start<R>(
        &mut self,
        make: impl FnOnce(app::RequestId) -> R,
    ) -> Result<Pending<R>, ClientError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
    {
        let (pending, line) = self.session.request(make)?;
        self.send(&[line])?;
        Ok(pending)
    }

    /// Waits for the result of a request sent with [`start`](Connection::start).
    pub fn finish<R>(&mut self, pending: &Pending<R>) -> Result<R::Result, ClientError>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned,
    {
        self.wait(|s| s.is_done(pending))?;
        self.session.take(pending).expect("waited for it")
    }

    /// Gives up on a request sent with [`start`](Connection::start): the server is sent
    /// `notifications/cancelled` (unless it answered already), and the result is
    /// [`ClientError::Cancelled`].
    pub fn cancel<R>(
        &mut self,
        pending: &Pending<R>,
        reason: Option<&str>,
    ) -> Result<(), ClientError> {
        match self.session.cancel(pending, reason) {
            Some(line) => self.send(&[line]),
            None => Ok(()),
        }
    }

    /// [`request`](Connection::request), reading the result as `T`: for a request whose
    /// result type depends on its params (a 2025-11-25 `tools/call` with `task` is answered
    /// with a `CreateTaskResult`).
    pub fn request_as<R, T>(
        &mut self,
        make: impl FnOnce(app::RequestId) -> R,
    ) -> Result<T, ClientError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
        T: crate::runtime::Decode,
    {
        let (pending, line) = self.session.request(make)?;
        self.send(&[line])?;
        self.wait(|s| s.is_done(&pending))?;
        self.session.take_as(&pending).expect("waited for it")
    }

    /// Sends a notification.
    pub fn notify(
        &mut self,
        notification: impl Into<app::ClientNotification>,
    ) -> Result<(), ClientError> {
        let line = self.session.notify(notification)?;
        self.send(&[line])
    }

    /// Calls tool `name` with `arguments`: anything that serializes to a JSON object (a
    /// struct deriving `Serialize`, a map, `json!({..})`), or `&()` for none. A failed tool
    /// is a result with `is_error`, not an error.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &impl Serialize,
    ) -> Result<app::CallToolResult, ClientError> {
        let arguments = match crate::runtime::json_value(arguments) {
            Ok(Value::Object(arguments)) => Some(arguments),
            Ok(Value::Null) => None,
            Ok(other) => {
                return Err(ClientError::Unsendable {
                    method: "tools/call".to_owned(),
                    version: self.server().version,
                    message: format!("the arguments of `{name}` are not an object: {other}"),
                });
            }
            Err(e) => {
                return Err(ClientError::Unsendable {
                    method: "tools/call".to_owned(),
                    version: self.server().version,
                    message: format!("the arguments of `{name}` do not serialize: {e}"),
                });
            }
        };
        let mut params = app::CallToolRequestParams::new(name);
        params.arguments = arguments.map(Into::into);
        self.request(|id| app::CallToolRequest::new(id, params))
    }

    /// Every tool, following the pages (at most 1000: see [`pages`](Connection::pages)).
    pub fn list_tools(&mut self) -> Result<Vec<app::Tool>, ClientError> {
        self.list(
            |id, page| app::ListToolsRequest::new(id).with_params(page),
            |r: app::ListToolsResult| (r.tools, r.next_cursor),
        )
    }

    /// Every prompt, following the pages (at most 1000).
    pub fn list_prompts(&mut self) -> Result<Vec<app::Prompt>, ClientError> {
        self.list(
            |id, page| app::ListPromptsRequest::new(id).with_params(page),
            |r: app::ListPromptsResult| (r.prompts, r.next_cursor),
        )
    }

    /// Every resource, following the pages (at most 1000).
    pub fn list_resources(&mut self) -> Result<Vec<app::Resource>, ClientError> {
        self.list(
            |id, page| app::ListResourcesRequest::new(id).with_params(page),
            |r: app::ListResourcesResult| (r.resources, r.next_cursor),
        )
    }

    /// Every resource template, following the pages (at most 1000).
    pub fn list_resource_templates(&mut self) -> Result<Vec<app::ResourceTemplate>, ClientError> {
        self.list(
            |id, page| app::ListResourceTemplatesRequest::new(id).with_params(page),
            |r: app::ListResourceTemplatesResult| (r.resource_templates, r.next_cursor),
        )
    }

    /// Reads resource `uri`.
    pub fn read_resource(&mut self, uri: &str) -> Result<app::ReadResourceResult, ClientError> {
        let params = app::ReadResourceRequestParams::new(uri);
        self.request(|id| app::ReadResourceRequest::new(id, params))
    }

    /// Gets prompt `name` with `arguments` (name → value).
    pub fn get_prompt<K: Into<String>, V: Into<String>>(
        &mut self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<app::GetPromptResult, ClientError> {
        let arguments = arguments.into_iter().map(|(k, v)| (k.into(), v.into()));
        let params = app::GetPromptRequestParams::new(name).with_arguments(arguments.collect());
        self.request(|id| app::GetPromptRequest::new(id, params))
    }

    /// Reads a paginated list page by page, at most `max_pages` of them: `request` builds a
    /// page's request, and `page` is given each page's number (from 1) and result, read as
    /// `T` (the request's result type, or a `serde_json::Value` to look at each item on its
    /// own), and says the next cursor (`None`: the list ended) or refuses the page. Gives how
    /// many pages were read. A cursor given twice ends the list with an error rather than
    /// looping, and so does a next cursor after `max_pages` pages.
    ///
    /// [`list_tools`](Connection::list_tools) and the other lists are this with the typed
    /// result and 1000 pages.
    pub fn pages<R, T>(
        &mut self,
        max_pages: usize,
        request: impl Fn(app::RequestId, app::PaginatedRequestParams) -> R,
        mut page: impl FnMut(usize, T) -> Result<Option<String>, ClientError>,
    ) -> Result<usize, PageError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
        T: crate::runtime::Decode,
    {
        let mut cursors = HashSet::new();
        let mut params = app::PaginatedRequestParams::new();
        let mut number = 0;
        loop {
            number += 1;
            let next = (self.request_as(|id| request(id, params)))
                .and_then(|result| page(number, result))
                .map_err(|error| PageError::Request {
                    page: number,
                    error,
                })?;
            let Some(cursor) = next else {
                return Ok(number);
            };
            if !cursors.insert(cursor.clone()) {
                return Err(PageError::RepeatedCursor {
                    page: number,
                    cursor,
                });
            }
            if number >= max_pages {
                return Err(PageError::TooMany { pages: number });
            }
            params = app::PaginatedRequestParams::new().with_cursor(cursor);
        }
    }

    /// Every item of a paginated list, typed: [`pages`](Connection::pages) with
    /// [`MAX_PAGES`], its stops said as [`ClientError`]s.
    fn list<R, T>(
        &mut self,
        request: impl Fn(app::RequestId, app::PaginatedRequestParams) -> R,
        split: impl Fn(R::Result) -> (Vec<T>, Option<String>),
    ) -> Result<Vec<T>, ClientError>
    where
        R: RequestMethod + Into<app::ClientRequest>,
        R::Result: crate::runtime::Decode,
    {
        let mut items = Vec::new();
        let read = self.pages(MAX_PAGES, request, |_, result| {
            let (more, next) = split(result);
            items.extend(more);
            Ok(next)
        });
        match read {
            Ok(_) => Ok(items),
            Err(PageError::Request { error, .. }) => Err(error),
            Err(stop) => Err(ClientError::InvalidResult {
                method: R::METHOD.to_owned(),
                message: stop.to_string(),
            }),
        }
    }

    /// Closes the server's input and waits for it to end (5 s, then it is killed): its exit
    /// status (`None` for a connection over streams).
    pub fn close(mut self) -> io::Result<Option<ExitStatus>> {
        self.shut(Duration::from_secs(5))
    }

    fn shut(&mut self, grace: Duration) -> io::Result<Option<ExitStatus>> {
        self.writer = None;
        let Some(mut child) = self.child.take() else {
            return Ok(None);
        };
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Some(status) = child.try_wait()? {
                return Ok(Some(status));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        child.kill()?;
        child.wait().map(Some)
    }

    fn send(&mut self, lines: &[String]) -> Result<(), ClientError> {
        let writer = self
            .writer
            .as_mut()
            .ok_or_else(|| ClientError::Closed("the connection is closed".to_owned()))?;
        let written = lines
            .iter()
            .try_for_each(|line| writeln!(writer, "{line}"))
            .and_then(|()| writer.flush());
        match written {
            Ok(()) => Ok(()),
            // A server that ended before it read: say so, with its status.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe && self.child.is_some() => {
                Err(ClientError::Ended {
                    status: self.exit_status(),
                })
            }
            Err(e) => Err(ClientError::Closed(format!(
                "cannot write to the server: {e}"
            ))),
        }
    }

    /// The child's exit status once it ended (waited for a second at most).
    fn exit_status(&mut self) -> Option<String> {
        let child = self.child.as_mut()?;
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Reads the server's lines, answering them, until `done` holds or nothing came for the
    /// timeout (then every request that old is given up on, and `done` is asked again).
    fn wait(&mut self, done: impl Fn(&ClientSession<H>) -> bool) -> Result<(), ClientError> {
        let mut deadline = Instant::now() + self.timeout;
        while !done(&self.session) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => {
                    let replies = self.session.receive_bytes(&line);
                    self.send(&replies)?;
                    deadline = Instant::now() + self.timeout;
                }
                Ok(Err(e)) => {
                    return Err(ClientError::Closed(format!("cannot read the server: {e}")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let cancels = self.session.expire(self.timeout);
                    self.send(&cancels)?;
                    if done(&self.session) {
                        return Ok(());
                    }
                    if let Some(method) = self.session.negotiating() {
                        return Err(ClientError::TimedOut {
                            method: method.to_owned(),
                            after: self.timeout,
                        });
                    }
                    deadline = Instant::now() + self.timeout;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(ClientError::Ended {
                        status: self.exit_status(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Why [`Connection::pages`] stopped before a list's end.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PageError {
    /// Page `page`'s request failed, or the page was refused.
    #[error("page {page}: {error}")]
    Request {
        /// The page's number, from 1.
        page: usize,
        /// Why.
        error: ClientError,
    },
    /// Page `page` gave a next cursor that an earlier page gave: following it would loop.
    #[error("the server gave cursor {cursor:?} twice (page {page})")]
    RepeatedCursor {
        /// The page's number, from 1.
        page: usize,
        /// The cursor.
        cursor: String,
    },
    /// Still a next cursor after `pages` pages, the most asked for.
    #[error("still a next cursor after {pages} pages")]
    TooMany {
        /// How many pages were read.
        pages: usize,
    },
}

impl<H: std::fmt::Debug> std::fmt::Debug for Connection<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("session", &self.session)
            .field("child", &self.child)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl<H> Drop for Connection<H> {
    fn drop(&mut self) {
        self.writer = None;
        if let Some(mut child) = self.child.take()
            && matches!(child.try_wait(), Ok(None))
        {
            std::thread::sleep(Duration::from_millis(50));
            if matches!(child.try_wait(), Ok(None)) {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
    }
}
