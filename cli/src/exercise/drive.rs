//! One revision's session: connect, exercise everything the server declares, and gather what
//! the checker and the command's own rules found.

use std::collections::{BTreeMap, HashSet};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mcp_typed::check::capabilities::capability_of;
use mcp_typed::check::{Checker, Direction as Dir, Verdict};
use mcp_typed::elicit::client::{Form, FormReply, UrlRequest};
use mcp_typed::session::{
    ClientError, ClientHandler, ClientInfo, ClientSession, Connection, Direction, PageError,
    Refusal, Traffic,
};
use mcp_typed::v2025_11_25 as mcp;
use mcp_typed::{ProtocolVersion, RequestMethod};
use serde::Serialize;
use serde_json::Value;

use super::TestArgs;
use super::plan::{self, Plan};
use super::report::Progress;

/// How many resources are read (a server may list thousands).
const MAX_READS: usize = 20;

/// What went wrong, or is worth saying.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// `error`, or `note` (the server's deviation that breaks nothing, or a tool that failed
    /// with generated arguments).
    pub level: Level,
    /// The capability whose messages it is about (`tools`, `prompts`…; `lifecycle` for the
    /// rest).
    pub capability: &'static str,
    /// The message: `s2c response to tools/call (CallToolResult)`, `tools/call echo`…
    pub what: String,
    /// JSON Pointer into the message.
    pub pointer: String,
    /// The rule broken: the checker's problem kind (`schema`, `capability`, `unknown_id`…) or
    /// the command's (`output_schema`, `invalid_arguments_accepted`, `no_answer`…).
    pub rule: String,
    /// In words.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Error,
    Note,
}

/// One column of the matrix.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Cell {
    /// Declared: by the server (tools, prompts, resources, completions, logging) or by the
    /// command as the client (elicitation, sampling, roots, where the revision has them).
    pub offered: bool,
    /// Requests sent (or server requests answered) for it.
    pub exercised: usize,
    /// Errors found in its messages.
    pub problems: usize,
}

/// The capabilities of the matrix, in its order.
pub const CAPABILITIES: [&str; 9] = [
    "lifecycle",
    "tools",
    "prompts",
    "resources",
    "completions",
    "logging",
    "elicitation",
    "sampling",
    "roots",
];

/// How a revision went.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", content = "why", rename_all = "snake_case")]
pub enum Status {
    /// The server speaks it: exercised.
    Tested,
    /// The server does not: what it answered.
    NotServed(String),
    /// The session broke off (the server died, stopped answering).
    Failed(String),
}

/// One revision's run.
#[derive(Debug, Clone, Serialize)]
pub struct Run {
    #[serde(serialize_with = "revision_name")]
    pub revision: ProtocolVersion,
    #[serde(flatten)]
    pub status: Status,
    /// The server's name and version, as it said.
    pub server: Option<String>,
    pub matrix: BTreeMap<&'static str, Cell>,
    /// Which tools were called and why (or why not).
    pub tools: BTreeMap<String, Plan>,
    pub findings: Vec<Finding>,
    /// Messages sent and received.
    pub sent: usize,
    pub received: usize,
    /// Notifications received, by method.
    pub notifications: BTreeMap<String, usize>,
    #[serde(serialize_with = "millis")]
    pub elapsed: Duration,
}

fn revision_name<S: serde::Serializer>(v: &ProtocolVersion, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.as_str())
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u128(d.as_millis())
}

impl Run {
    fn cell(&mut self, capability: &'static str) -> &mut Cell {
        self.matrix.entry(capability).or_default()
    }

    fn find(&mut self, finding: Finding) {
        if finding.level == Level::Error {
            self.cell(finding.capability).problems += 1;
        }
        self.findings.push(finding);
    }

    pub fn errors(&self) -> usize {
        let errors = self.findings.iter().filter(|f| f.level == Level::Error);
        errors.count() + usize::from(matches!(self.status, Status::Failed(_)))
    }
}

/// The column of the matrix a method's messages go to: the capability the checker's tables
/// gate it with ([`capability_of`]), else `lifecycle` (`tasks/*` too).
fn capability(method: &str) -> &'static str {
    let gated = capability_of(method).and_then(|c| CAPABILITIES.into_iter().find(|k| *k == c));
    gated.unwrap_or("lifecycle")
}

/// The method a checker report is about: its own for a request or notification, the request's
/// for a response (`response to tools/call (CallToolResult)`, `error -32602 to tools/call`).
fn method_of<'a>(traffic: &'a Traffic<'_>, what: &'a str) -> &'a str {
    if let Some(method) = traffic.method {
        return method;
    }
    let after = what.split_once(" to ").map_or("", |(_, rest)| rest);
    after.split([' ', '(']).next().unwrap_or("")
}

/// What the observer and the handler gather while the session runs.
#[derive(Default)]
struct Audit {
    run_findings: Vec<Finding>,
    sent: usize,
    received: usize,
    notifications: BTreeMap<String, usize>,
    answered: BTreeMap<&'static str, usize>,
}

type Shared = Arc<Mutex<Audit>>;

fn lock(audit: &Shared) -> std::sync::MutexGuard<'_, Audit> {
    audit.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Every line through the checker, in the session's revision.
fn observer(audit: Shared) -> impl FnMut(&Traffic<'_>) + Send + 'static {
    let mut checker = Checker::new();
    move |traffic| {
        let (dir, side) = match traffic.direction {
            Direction::Out => (Dir::ClientToServer, "c2s"),
            Direction::In => (Dir::ServerToClient, "s2c"),
        };
        let report = checker.check(Some(dir), traffic.line);
        let mut audit = lock(&audit);
        match traffic.direction {
            Direction::Out => audit.sent += 1,
            Direction::In => audit.received += 1,
        }
        if report.verdict != Verdict::Error {
            return;
        }
        let capability = capability(method_of(traffic, &report.what));
        for problem in &report.problems {
            let finding = Finding {
                level: Level::Error,
                capability,
                what: format!("{side} {}", report.what),
                pointer: problem.pointer.clone(),
                rule: problem.kind.name().to_owned(),
                message: problem.message.clone(),
            };
            audit.run_findings.push(finding);
        }
    }
}

/// The client's side of the server's requests: valid answers, a decline and a cancel in turn
/// for forms; URLs declined (never opened); one root; a canned model reply.
struct Tester {
    audit: Shared,
    forms: usize,
}

impl Tester {
    fn answered(&self, capability: &'static str) {
        *lock(&self.audit).answered.entry(capability).or_default() += 1;
    }
}

impl ClientHandler for Tester {
    fn form(&mut self, form: &Form) -> FormReply {
        self.answered("elicitation");
        self.forms += 1;
        match self.forms % 3 {
            1 => form.example_answer().accept().unwrap_or(FormReply::Cancel),
            2 => FormReply::Decline,
            _ => FormReply::Cancel,
        }
    }

    fn url(&mut self, request: UrlRequest) -> FormReply {
        self.answered("elicitation");
        request.decline()
    }

    fn roots(&mut self) -> Result<Vec<mcp::Root>, Refusal> {
        self.answered("roots");
        Ok(vec![
            mcp::Root::new("file:///tmp/mcp-typed-test").with_name("mcp-typed test"),
        ])
    }

    fn sample(
        &mut self,
        _: &mcp::CreateMessageRequestParams,
    ) -> Result<mcp::CreateMessageResult, Refusal> {
        self.answered("sampling");
        let text = mcp::TextContent::new("A reply from mcp-typed test's canned model.");
        let reply = mcp::CreateMessageResult::new(mcp::Role::Assistant, text, "mcp-typed-test");
        Ok(reply.with_stop_reason("endTurn"))
    }

    fn notification(&mut self, notification: &mcp::ServerNotification) {
        let method = notification.method().to_owned();
        *lock(&self.audit).notifications.entry(method).or_default() += 1;
    }
}

/// One revision: offered in a session of its own, exercised when the server accepts it.
pub fn revision(args: &TestArgs, version: ProtocolVersion, progress: &Progress) -> Run {
    let started = Instant::now();
    let audit = Shared::default();
    let info = ClientInfo::new(mcp::Implementation::new(
        "mcp-typed test",
        env!("CARGO_PKG_VERSION"),
    ))
    .with_versions([version])
    .with_forms()
    .with_urls()
    .with_roots(false)
    .with_sampling();
    let handler = Tester {
        audit: audit.clone(),
        forms: 0,
    };
    let session = ClientSession::new(info, handler).observe(observer(audit.clone()));
    let mut run = Run {
        revision: version,
        status: Status::Tested,
        server: None,
        matrix: CAPABILITIES.map(|c| (c, Cell::default())).into(),
        tools: BTreeMap::new(),
        findings: Vec::new(),
        sent: 0,
        received: 0,
        notifications: BTreeMap::new(),
        elapsed: Duration::ZERO,
    };
    match connect(args, session) {
        Ok(mut server) => {
            server.set_timeout(super::timeout(args));
            let mut exercise = Exercise {
                server: &mut server,
                run: &mut run,
                args,
                progress,
            };
            if let Err(stop) = exercise.all() {
                run.status = Status::Failed(stop.to_string());
            }
            let _ = server.close();
        }
        Err(ClientError::NotReady(why)) => run.status = Status::NotServed(why),
        // Over HTTP a server without 2026-07-28 refuses `server/discover` with an HTTP
        // status: with a JSON-RPC error in the body that is `NotReady` above; a bare status
        // (or an error whose id is not the request's) ends the connection before any
        // negotiation.
        Err(ClientError::Closed(why))
            if args.url.is_some() && version == ProtocolVersion::V2026_07_28 =>
        {
            run.status = Status::NotServed(format!("`server/discover` refused: {why}"));
        }
        Err(e) => run.status = Status::Failed(e.to_string()),
    }
    let mut audit = lock(&audit);
    for finding in std::mem::take(&mut audit.run_findings) {
        run.find(finding);
    }
    for (capability, n) in &audit.answered {
        run.cell(capability).exercised += n;
    }
    run.sent = audit.sent;
    run.received = audit.received;
    run.notifications = std::mem::take(&mut audit.notifications);
    run.elapsed = started.elapsed();
    run
}

/// The session, negotiated: over a server process of its own (stdio), or a connection of its
/// own to `--url`.
fn connect<H: ClientHandler>(
    args: &TestArgs,
    session: ClientSession<H>,
) -> Result<Connection<H>, ClientError> {
    let timeout = super::timeout(args);
    if let Some(url) = &args.url {
        let (lines, sender) = mcp_typed_cli::http::connect(url, &args.headers, timeout)
            .map_err(|e| ClientError::Closed(e.to_string()))?;
        return Connection::over_with_timeout(lines, sender, session, timeout);
    }
    let (program, rest) = args
        .server
        .split_first()
        .expect("clap requires the command");
    let mut command = Command::new(program);
    command.args(rest).stderr(Stdio::null());
    Connection::spawn_with_timeout(&mut command, session, timeout)
}

/// A session being exercised.
struct Exercise<'a, H> {
    server: &'a mut Connection<H>,
    run: &'a mut Run,
    args: &'a TestArgs,
    progress: &'a Progress,
}

/// Why a session cannot go on.
type Stop = ClientError;

impl<H: ClientHandler> Exercise<'_, H> {
    fn version(&self) -> ProtocolVersion {
        self.run.revision
    }

    fn say(&self, what: &str) {
        self.progress.say(&format!("{}: {what}", self.run.revision));
    }

    /// The outcome of one request: its result, or `None` after recording why there is none
    /// (`rejected` is the level of a JSON-RPC error: an error for what a declared capability
    /// must answer, a note for what generated arguments may not satisfy). A transport failure
    /// stops the session.
    fn outcome<T>(
        &mut self,
        capability: &'static str,
        what: &str,
        result: Result<T, ClientError>,
        rejected: Level,
    ) -> Result<Option<T>, Stop> {
        self.run.cell(capability).exercised += 1;
        let (level, rule, message) = match result {
            Ok(value) => return Ok(Some(value)),
            Err(e @ (ClientError::Closed(_) | ClientError::Ended { .. })) => return Err(e),
            // The checker reports the message itself (the result does not decode).
            Err(ClientError::InvalidResult { .. }) => return Ok(None),
            // What the revision cannot carry is not sent: nothing to test.
            Err(ClientError::Unsendable { .. }) => {
                self.run.cell(capability).exercised -= 1;
                return Ok(None);
            }
            Err(ClientError::Rejected { code, message, .. }) => (
                rejected,
                "request_refused",
                format!("error {code}: {message}"),
            ),
            Err(ClientError::TimedOut { after, .. }) => (
                Level::Error,
                "no_answer",
                format!("no answer within {after:?}"),
            ),
            Err(e) => (Level::Error, "request_failed", e.to_string()),
        };
        self.run.find(Finding {
            level,
            capability,
            what: what.to_owned(),
            pointer: String::new(),
            rule: rule.to_owned(),
            message,
        });
        Ok(None)
    }

    fn all(&mut self) -> Result<(), Stop> {
        let about = self.server.server().clone();
        self.run.server = about
            .implementation
            .as_ref()
            .map(|i| format!("{} {}", i.name, i.version));
        let declared = &about.capabilities;
        let version = self.version();
        let offered = [
            ("lifecycle", true),
            ("tools", declared.tools.is_some()),
            ("prompts", declared.prompts.is_some()),
            ("resources", declared.resources.is_some()),
            ("completions", declared.completions.is_some()),
            ("logging", declared.logging.is_some()),
            ("elicitation", version >= ProtocolVersion::ELICITATION),
            ("sampling", true),
            ("roots", true),
        ];
        for (capability, on) in offered {
            self.run.cell(capability).offered = on;
        }
        let stateless = version == ProtocolVersion::V2026_07_28;
        if !stateless {
            self.say("ping");
            let ping = self.server.request(mcp::PingRequest::new);
            self.outcome("lifecycle", "ping", ping, Level::Error)?;
        }
        if declared.logging.is_some() && !stateless {
            self.say("logging/setLevel");
            let level = mcp::SetLevelRequestParams::new(mcp::LoggingLevel::Debug);
            let set = self
                .server
                .request(|id| mcp::SetLevelRequest::new(id, level));
            self.outcome("logging", "logging/setLevel", set, Level::Error)?;
        }
        let completes = declared.completions.is_some();
        if declared.prompts.is_some() {
            self.prompts(completes)?;
        }
        if let Some(resources) = &declared.resources {
            let subscribe = resources.subscribe == Some(true) && !stateless;
            self.resources(completes, subscribe)?;
        }
        if declared.tools.is_some() {
            self.tools()?;
        }
        Ok(())
    }

    /// The first value the server completes `argument` with, else `"example"`.
    fn complete(
        &mut self,
        completes: bool,
        reference: mcp::CompleteRequestParamsRef,
        argument: &str,
    ) -> Result<String, Stop> {
        if !completes {
            return Ok("example".to_owned());
        }
        let argument_ = mcp::CompleteRequestParamsArgument::new(argument, "");
        let params = mcp::CompleteRequestParams::new(reference, argument_);
        let asked = self
            .server
            .request(|id| mcp::CompleteRequest::new(id, params));
        let what = format!("completion/complete {argument}");
        let done = self.outcome("completions", &what, asked, Level::Error)?;
        let first = done.and_then(|d| d.completion.values.into_iter().next());
        Ok(first.unwrap_or_else(|| "example".to_owned()))
    }

    /// Every item of a paginated list, read leniently through [`Connection::pages`]: each
    /// page's result as JSON, each item decoded on its own (one the revision's type refuses
    /// is left out: the checker reports it), an item listed twice, a cursor given twice and a
    /// list that does not end within `--max-pages` reported.
    fn list<R, T>(
        &mut self,
        capability: &'static str,
        request: impl Fn(mcp::RequestId, mcp::PaginatedRequestParams) -> R,
        (field, key): (&str, &str),
    ) -> Result<Vec<T>, Stop>
    where
        R: RequestMethod + Into<mcp::ClientRequest>,
        T: serde::de::DeserializeOwned,
    {
        let method = R::METHOD;
        self.say(method);
        let what = |page| format!("{method} (page {page})");
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let run = &mut *self.run;
        let read = self
            .server
            .pages(self.args.max_pages, request, |page, result: Value| {
                run.cell(capability).exercised += 1;
                let listed = result.get(field).and_then(Value::as_array);
                for (at, item) in listed.into_iter().flatten().enumerate() {
                    let name = item.get(key).and_then(Value::as_str).unwrap_or_default();
                    if seen.insert(name.to_owned()) {
                        items.extend(serde_json::from_value::<T>(item.clone()).ok());
                        continue;
                    }
                    run.find(Finding {
                        level: Level::Error,
                        capability,
                        what: what(page),
                        pointer: format!("/result/{field}/{at}"),
                        rule: "pagination".to_owned(),
                        message: format!("`{name}` was listed already (`{key}`)"),
                    });
                }
                let next = result.get("nextCursor").and_then(Value::as_str);
                Ok(next.map(str::to_owned))
            });
        let (page, message) = match read {
            Ok(_) => return Ok(items),
            Err(PageError::Request { page, error }) => {
                self.outcome::<()>(capability, &what(page), Err(error), Level::Error)?;
                return Ok(items);
            }
            Err(PageError::RepeatedCursor { page, cursor }) => {
                (page, format!("the cursor {cursor:?} was given already"))
            }
            Err(PageError::TooMany { pages }) => (
                pages,
                format!("still a next cursor after {pages} pages (--max-pages)"),
            ),
            Err(stop) => (0, stop.to_string()),
        };
        self.run.find(Finding {
            level: Level::Error,
            capability,
            what: what(page),
            pointer: "/result/nextCursor".to_owned(),
            rule: "pagination".to_owned(),
            message,
        });
        Ok(items)
    }

    fn prompts(&mut self, completes: bool) -> Result<(), Stop> {
        let prompts: Vec<mcp::Prompt> = self.list(
            "prompts",
            |id, page| mcp::ListPromptsRequest::new(id).with_params(page),
            ("prompts", "name"),
        )?;
        for prompt in prompts {
            self.say(&format!("prompts/get {}", prompt.name));
            let mut arguments = Vec::new();
            for argument in prompt.arguments.iter().flatten() {
                if argument.required != Some(true) {
                    continue;
                }
                let reference = mcp::PromptReference::new(&prompt.name).into();
                let value = self.complete(completes, reference, &argument.name)?;
                arguments.push((argument.name.clone(), value));
            }
            let got = self.server.get_prompt(&prompt.name, arguments);
            let what = format!("prompts/get {}", prompt.name);
            self.outcome("prompts", &what, got, Level::Note)?;
        }
        Ok(())
    }

    fn resources(&mut self, completes: bool, subscribe: bool) -> Result<(), Stop> {
        let resources: Vec<mcp::Resource> = self.list(
            "resources",
            |id, page| mcp::ListResourcesRequest::new(id).with_params(page),
            ("resources", "uri"),
        )?;
        for resource in resources.iter().take(MAX_READS) {
            self.say(&format!("resources/read {}", resource.uri));
            let read = self.server.read_resource(&resource.uri);
            let what = format!("resources/read {}", resource.uri);
            self.outcome("resources", &what, read, Level::Error)?;
        }
        if let Some(first) = resources.first().filter(|_| subscribe) {
            let uri = first.uri.clone();
            let params = mcp::SubscribeRequestParams::new(&uri);
            let on = self
                .server
                .request(|id| mcp::SubscribeRequest::new(id, params));
            self.outcome("resources", "resources/subscribe", on, Level::Error)?;
            let params = mcp::UnsubscribeRequestParams::new(&uri);
            let off = self
                .server
                .request(|id| mcp::UnsubscribeRequest::new(id, params));
            self.outcome("resources", "resources/unsubscribe", off, Level::Error)?;
        }
        let templates: Vec<mcp::ResourceTemplate> = self.list(
            "resources",
            |id, page| mcp::ListResourceTemplatesRequest::new(id).with_params(page),
            ("resourceTemplates", "uriTemplate"),
        )?;
        if let Some(template) = templates.into_iter().next() {
            let reference: mcp::CompleteRequestParamsRef =
                mcp::ResourceTemplateReference::new(&template.uri_template).into();
            let mut uri = template.uri_template.clone();
            while let Some((_, rest)) = uri.split_once('{')
                && let Some((name, _)) = rest.split_once('}')
            {
                let name = name.to_owned();
                let bare = name.trim_start_matches(['+', '#', '/', '?', '&', '.', ';']);
                let value = self.complete(completes, reference.clone(), bare)?;
                uri = uri.replacen(&format!("{{{name}}}"), &value, 1);
            }
            let read = self.server.read_resource(&uri);
            let what = format!("resources/read {uri} (from {})", template.uri_template);
            self.outcome("resources", &what, read, Level::Note)?;
        }
        Ok(())
    }

    fn tools(&mut self) -> Result<(), Stop> {
        let tools: Vec<mcp::Tool> = self.list(
            "tools",
            |id, page| mcp::ListToolsRequest::new(id).with_params(page),
            ("tools", "name"),
        )?;
        let mut cancelled = false;
        for tool in &tools {
            let plan = plan::tool(tool, self.args);
            self.run.tools.insert(tool.name.clone(), plan.clone());
            if !plan.calls() || self.args.dry_run {
                continue;
            }
            self.say(&format!("tools/call {}", tool.name));
            let schema = serde_json::to_value(&tool.input_schema).unwrap_or_default();
            match mcp_typed_cli::arguments::valid(&schema) {
                Ok(arguments) => self.call(tool, &arguments)?,
                Err(e) => self.run.find(Finding {
                    level: Level::Note,
                    capability: "tools",
                    what: format!("tools/call {}", tool.name),
                    pointer: format!("/inputSchema{}", e.pointer),
                    rule: "no_arguments".to_owned(),
                    message: format!("no valid arguments could be generated: {}", e.message),
                }),
            }
            if let Some((arguments, wrong)) = mcp_typed_cli::arguments::invalid(&schema) {
                self.call_invalid(tool, &arguments, &wrong)?;
            }
            if !cancelled {
                cancelled = true;
                self.cancel(tool, &schema)?;
            }
        }
        Ok(())
    }

    /// A call with valid arguments: its result checked against the tool's `outputSchema`.
    fn call(&mut self, tool: &mcp::Tool, arguments: &Value) -> Result<(), Stop> {
        let what = format!("tools/call {}", tool.name);
        let called = self.server.call_tool(&tool.name, arguments);
        let Some(result) = self.outcome("tools", &what, called, Level::Note)? else {
            return Ok(());
        };
        if result.is_error == Some(true) {
            let text = serde_json::to_string(&result.content).unwrap_or_default();
            self.run.find(Finding {
                level: Level::Note,
                capability: "tools",
                what,
                pointer: "/result/isError".to_owned(),
                rule: "tool_error".to_owned(),
                message: format!("failed with arguments {arguments}: {}", excerpt(&text)),
            });
            return Ok(());
        }
        let Some(schema) = &tool.output_schema else {
            return Ok(());
        };
        let schema = serde_json::to_value(schema).unwrap_or_default();
        let Some(content) = &result.structured_content else {
            self.run.find(Finding {
                level: Level::Error,
                capability: "tools",
                what,
                pointer: "/result".to_owned(),
                rule: "output_schema".to_owned(),
                message: "the tool declares an outputSchema but its result has no \
                          structuredContent"
                    .to_owned(),
            });
            return Ok(());
        };
        let content = serde_json::to_value(content).unwrap_or_default();
        match jsonschema::validator_for(&schema) {
            Ok(validator) => {
                for error in validator.iter_errors(&content) {
                    self.run.find(Finding {
                        level: Level::Error,
                        capability: "tools",
                        what: what.clone(),
                        pointer: format!("/result/structuredContent{}", error.instance_path()),
                        rule: "output_schema".to_owned(),
                        message: format!("does not match the tool's outputSchema: {error}"),
                    });
                }
            }
            Err(e) => self.run.find(Finding {
                level: Level::Error,
                capability: "tools",
                what: "tools/list".to_owned(),
                pointer: format!("/result/tools/{}/outputSchema", tool.name),
                rule: "output_schema".to_owned(),
                message: format!("not a JSON Schema: {e}"),
            }),
        }
        Ok(())
    }

    /// A call with arguments the input schema refuses: `-32602` or a result with `isError`.
    fn call_invalid(
        &mut self,
        tool: &mcp::Tool,
        arguments: &Value,
        wrong: &str,
    ) -> Result<(), Stop> {
        let what = format!("tools/call {} (invalid arguments: {wrong})", tool.name);
        self.run.cell("tools").exercised += 1;
        let message = match self.server.call_tool(&tool.name, arguments) {
            Ok(result) if result.is_error == Some(true) => return Ok(()),
            Err(ClientError::Rejected { code: -32602, .. }) => return Ok(()),
            Ok(_) => format!("accepted arguments its inputSchema refuses ({wrong}): {arguments}"),
            Err(ClientError::Rejected { code, message, .. }) => {
                format!("refused invalid arguments with {code} ({message}), not -32602 or isError")
            }
            Err(e @ (ClientError::Closed(_) | ClientError::Ended { .. })) => return Err(e),
            Err(e) => format!("invalid arguments: {e}"),
        };
        self.run.find(Finding {
            level: Level::Error,
            capability: "tools",
            what,
            // The answer that should have refused them.
            pointer: "/result".to_owned(),
            rule: "invalid_arguments_accepted".to_owned(),
            message,
        });
        Ok(())
    }

    /// One call cancelled as soon as it is sent; the server must go on answering.
    fn cancel(&mut self, tool: &mcp::Tool, schema: &Value) -> Result<(), Stop> {
        let Ok(Value::Object(arguments)) = mcp_typed_cli::arguments::valid(schema) else {
            return Ok(());
        };
        self.say(&format!("tools/call {} (cancelled)", tool.name));
        let params = mcp::CallToolRequestParams::new(&tool.name).with_arguments(arguments);
        let pending = self
            .server
            .start(|id| mcp::CallToolRequest::new(id, params))?;
        self.server
            .cancel(&pending, Some("mcp-typed test cancels one call"))?;
        self.run.cell("lifecycle").exercised += 1;
        let after = self.server.list_tools().map(drop);
        let what = format!("tools/list after cancelling tools/call {}", tool.name);
        self.outcome("tools", &what, after, Level::Error)?;
        Ok(())
    }
}

fn excerpt(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
