//! A stdio MCP client written against 2025-11-25 that drives any server through everything it
//! offers, at the revision asked for, converting each message at the boundary (as
//! `booking-server.rs` does on the server side):
//!
//! ```sh
//! cargo run -p mcp-tests --example everything-client -- --revision 2025-06-18 \
//!     --arguments 'trigger-long-running-operation={"duration":0.2,"steps":2}' \
//!     -- npx -y @modelcontextprotocol/server-everything stdio
//! ```
//!
//! It declares roots, sampling and elicitation (form, and url from 2025-11-25 on); pings, sets
//! the log level, lists every page of tools, prompts, resources and templates, reads every
//! resource and one template, gets every prompt (its arguments filled by completion), and
//! calls every tool with arguments built from its `inputSchema` (`--arguments` overrides
//! them; a tool that requires a task runs as one). Meanwhile it answers the server's
//! requests: roots (one root), sampling (a text message), elicitation (accept with content
//! built from the typed `requestedSchema`, decline, cancel, in turn).
//!
//! Every line both ways is audited in the session's revision: it must decode as that
//! revision's `ServerMessage`/`ClientMessage` (a response's `result` as the result type of the
//! request it answers) and encode back to the same JSON value (member order aside: typed
//! members are written in schema order; numbers must match in kind and value, `2.0` is not
//! `2`). What we send must hold nothing beyond the revision. What the server sends beyond it —
//! members, or a method, content type, schema kind of a newer revision, which land in a
//! union's catch-all (`Custom`/`Unknown`) variant — is kept whole and listed
//! (`unknown_members`, `beyond_revision`), not a failure. The last stdout line is a
//! JSON summary (messages by method, answers given, tools called, failures with the offending
//! line); the exit status is 1 on any failure or when the session cannot go on.
//!
//! Why 2025-11-25 plus conversion rather than code generic over revisions: the client's logic
//! (tasks, URL elicitation, typed form schemas) is written once against the newest types it
//! uses, and `convert` moves each message to and from the session's revision, listing what an
//! older revision cannot carry. Only the audit needs the older revisions' own types.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use clap::Parser;
use mcp_typed::v2025_11_25::*;
use mcp_typed::{
    DefinitionVisitor, ProtocolVersion, RequestMethod, Unknown, UnknownKind, Unknowns,
};
use mcp_typed::{IndexMap, Map, Value, convert};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

/// Runs `$body` with `$wire` naming the module of the session's revision's types.
macro_rules! on_wire {
    ($revision:expr, $wire:ident => $body:expr) => {
        match $revision {
            ProtocolVersion::V2024_11_05 => {
                use mcp_typed::v2024_11_05 as $wire;
                $body
            }
            ProtocolVersion::V2025_03_26 => {
                use mcp_typed::v2025_03_26 as $wire;
                $body
            }
            ProtocolVersion::V2025_06_18 => {
                use mcp_typed::v2025_06_18 as $wire;
                $body
            }
            _ => {
                use mcp_typed::v2025_11_25 as $wire;
                $body
            }
        }
    };
}

#[derive(Parser)]
struct Args {
    /// The revision to offer in `initialize`.
    #[arg(long, default_value = "2025-11-25")]
    revision: ProtocolVersion,
    /// `TOOL=JSON-OBJECT`: arguments merged over those built from the tool's input schema.
    #[arg(long = "arguments", value_parser = tool_arguments)]
    arguments: Vec<(String, Map<String, Value>)>,
    /// Seconds to wait for any one response.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// The server's command line.
    #[arg(last = true, required = true)]
    server: Vec<String>,
}

fn main() {
    let args = Args::parse();
    let mut client = Client::start(&args);
    let outcome = client.run(&args);
    client.report.error = outcome.err();
    let _ = client.server.kill();
    let _ = client.server.wait();
    println!(
        "{}",
        serde_json::to_string(&client.report).expect("a report encodes")
    );
    let failed = client.report.error.is_some() || !client.report.failures.is_empty();
    std::process::exit(i32::from(failed));
}

impl Client {
    fn run(&mut self, args: &Args) -> Result<(), String> {
        let (offered, wire) = (args.revision, self.revision);
        let mut capabilities = ClientCapabilities::new()
            .with_roots(ClientCapabilitiesRoots::new().with_list_changed(true))
            .with_sampling(ClientCapabilitiesSampling::new());
        // Elicitation came with 2025-06-18, its modes (`{}` meant forms) with 2025-11-25.
        if wire >= ProtocolVersion::V2025_11_25 {
            let modes = ClientCapabilitiesElicitation::new().with_form(Map::new());
            capabilities = capabilities.with_elicitation(modes.with_url(Map::new()));
        } else if wire == ProtocolVersion::V2025_06_18 {
            capabilities = capabilities.with_elicitation(ClientCapabilitiesElicitation::new());
        }
        let me = Implementation::new("everything-client", "0.1.0");
        let init = InitializeRequestParams::new(offered.as_str(), capabilities, me);
        let init = self.request(|id| InitializeRequest::new(id, init))?;
        self.report.negotiated = Some(init.protocol_version.clone());
        if init.protocol_version != offered.as_str() {
            return Err(format!(
                "the server does not accept {offered}: it answered `initialize` with {}",
                init.protocol_version
            ));
        }
        self.send(
            ClientMessage::notification(InitializedNotification::new()),
            None,
        )?;
        self.request(PingRequest::new)?;
        let level = SetLevelRequestParams::new(LoggingLevel::Debug);
        self.request(|id| SetLevelRequest::new(id, level))?;

        let resources = self.pages(ListResourcesRequest::new, |r| (r.resources, r.next_cursor))?;
        for resource in resources {
            let read = ReadResourceRequestParams::new(resource.uri);
            self.request(|id| ReadResourceRequest::new(id, read))?;
        }
        let templates = self.pages(ListResourceTemplatesRequest::new, |r| {
            (r.resource_templates, r.next_cursor)
        })?;
        if let Some(template) = templates.first() {
            let reference = ResourceTemplateReference::new(&template.uri_template);
            let uri = expand(&template.uri_template, |name| {
                self.complete(reference.clone().into(), name)
            })?;
            self.request(|id| ReadResourceRequest::new(id, ReadResourceRequestParams::new(uri)))?;
        }

        for prompt in self.pages(ListPromptsRequest::new, |r| (r.prompts, r.next_cursor))? {
            let mut arguments = IndexMap::new();
            for argument in prompt.arguments.iter().flatten() {
                let reference = PromptReference::new(&prompt.name).into();
                arguments.insert(
                    argument.name.clone(),
                    self.complete(reference, &argument.name)?,
                );
            }
            let get = GetPromptRequestParams::new(&prompt.name).with_arguments(arguments);
            self.request(|id| GetPromptRequest::new(id, get))?;
        }

        let overrides: HashMap<_, _> = args.arguments.iter().cloned().collect();
        for tool in self.pages(ListToolsRequest::new, |r| (r.tools, r.next_cursor))? {
            let mut arguments = minimal_arguments(&tool.input_schema);
            arguments.extend(overrides.get(&tool.name).cloned().unwrap_or_default());
            // The call's id (the next one) is its progress token.
            let progress = CallToolRequestParamsMeta::new().with_progress_token(self.next_id);
            let call = CallToolRequestParams::new(&tool.name)
                .with_arguments(arguments)
                .with_meta(progress);
            let task_support = tool.execution.as_ref().and_then(|e| e.task_support);
            let result = if task_support == Some(ToolExecutionTaskSupport::Required)
                && wire >= ProtocolVersion::V2025_11_25
            {
                self.call_as_task(call)?
            } else {
                self.request(|id| CallToolRequest::new(id, call))?
            };
            let outcome = if result.is_error == Some(true) {
                "error"
            } else {
                "ok"
            };
            self.report.tools_called.insert(tool.name, outcome);
        }
        self.request(PingRequest::new)?;
        Ok(())
    }

    /// A tool that requires a task: create it, then wait for its result (`tasks/result`).
    fn call_as_task(&mut self, call: CallToolRequestParams) -> Result<CallToolResult, String> {
        let call = call.with_task(TaskMetadata::new().with_ttl(60_000));
        let created: CreateTaskResult =
            self.request_as(|id| CallToolRequest::new(id, call), "CreateTaskResult")?;
        let payload = GetTaskPayloadRequestParams::new(created.task.task_id);
        self.request_as(
            |id| GetTaskPayloadRequest::new(id, payload),
            "CallToolResult",
        )
    }

    /// The first value the server completes `argument` with, else `"1"`.
    fn complete(
        &mut self,
        reference: CompleteRequestParamsRef,
        argument: &str,
    ) -> Result<String, String> {
        let params =
            CompleteRequestParams::new(reference, CompleteRequestParamsArgument::new(argument, ""));
        let done = self.request(|id| CompleteRequest::new(id, params))?;
        Ok(done
            .completion
            .values
            .into_iter()
            .next()
            .unwrap_or_else(|| "1".to_owned()))
    }

    /// Every item of a paginated list.
    fn pages<R, T>(
        &mut self,
        new: fn(RequestId) -> R,
        items: impl Fn(R::Result) -> (Vec<T>, Option<String>),
    ) -> Result<Vec<T>, String>
    where
        R: RequestMethod + Into<ClientRequest> + WithCursor,
        R::Result: DeserializeOwned,
    {
        let (mut all, mut cursor) = (Vec::new(), None);
        loop {
            let page = self.request(|id| new(id).cursor(cursor.take()))?;
            let (mut more, next) = items(page);
            all.append(&mut more);
            match next {
                Some(next) => cursor = Some(next),
                None => return Ok(all),
            }
        }
    }

    /// The answer to a request of the server's.
    fn answer(&mut self, request: ServerRequest) -> Result<(), String> {
        let id = ServerMessage::request_id(&request).ok_or("a server request without an id")?;
        let method = serde_json::to_value(&request).expect("requests encode")["method"].clone();
        let method = method.as_str().unwrap_or_default().to_owned();
        let mut answered = method.clone();
        let (reply, result) = match request {
            ServerRequest::Ping(_) => {
                (ClientMessage::response(id, McpResult::new()), "EmptyResult")
            }
            ServerRequest::ListRoots(_) => {
                let root = Root::new("file:///tmp/everything-client").with_name("example root");
                let roots = ListRootsResult::new(vec![root]);
                (ClientMessage::response(id, roots), "ListRootsResult")
            }
            ServerRequest::CreateMessage(_) => {
                let text = TextContent::new("Hello from the everything-client example.");
                let message = CreateMessageResult::new(Role::Assistant, text, "example-model")
                    .with_stop_reason("endTurn");
                (ClientMessage::response(id, message), "CreateMessageResult")
            }
            ServerRequest::Elicit(request) => {
                let (answer, how) = self.elicit(&request.params);
                answered = format!("{method} {how}");
                (ClientMessage::response(id, answer), "ElicitResult")
            }
            // Tasks (not declared) and methods this revision does not define.
            _ => {
                answered = format!("{method} refused");
                (
                    ClientMessage::error(Some(id), METHOD_NOT_FOUND, "Method not found"),
                    "",
                )
            }
        };
        *self.report.answered.entry(answered).or_default() += 1;
        self.send(reply, Some((method.as_str(), result)))
    }

    /// Accept (with content for the form), decline, cancel, in turn.
    fn elicit(&mut self, params: &ElicitRequestParams) -> (ElicitResult, String) {
        let actions = [
            ElicitResultAction::Accept,
            ElicitResultAction::Decline,
            ElicitResultAction::Cancel,
        ];
        let action = actions[self.elicitations % 3];
        self.elicitations += 1;
        let mut result = ElicitResult::new(action);
        let mode = match params {
            ElicitRequestParams::Form(form) => {
                if action == ElicitResultAction::Accept {
                    result = result.with_content(form_content(&form.requested_schema));
                }
                "form"
            }
            ElicitRequestParams::Url(_) => "url",
            ElicitRequestParams::Unknown(_) => "unknown mode",
        };
        let action = serde_json::to_value(action).expect("an action encodes");
        (
            result,
            format!("{mode} {}", action.as_str().unwrap_or_default()),
        )
    }
}

/// Content valid for a form: every field's default, else the first option, the minimum, or a
/// value of the field's format. A field of a kind the revision does not define, or a choice
/// without options, is left out.
fn form_content(
    schema: &ElicitRequestFormParamsRequestedSchema,
) -> IndexMap<String, ElicitResultContentValue> {
    use ElicitResultContentValue as V;
    use PrimitiveSchemaDefinition as P;
    let one = |default: &Option<String>, first: Option<&String>| {
        default.clone().or(first.cloned()).map(V::String)
    };
    let some = |default: &Option<Vec<String>>, first: Option<&String>| {
        let first = first.map(|f| vec![f.clone()]);
        default.clone().or(first).map(V::Array)
    };
    let value = |field: &P| match field {
        P::String(s) => Some(V::String(s.default.clone().unwrap_or_else(
            || match s.format {
                Some(StringSchemaFormat::Email) => "user@example.com".into(),
                Some(StringSchemaFormat::Uri) => "https://example.com/".into(),
                Some(StringSchemaFormat::Date) => "2000-01-31".into(),
                Some(StringSchemaFormat::DateTime) => "2000-01-31T12:00:00Z".into(),
                None => "example".into(),
            },
        ))),
        P::Number(n) => {
            let least = n.default.clone().or_else(|| n.minimum.clone());
            Some(V::Number(least.unwrap_or(1.into())))
        }
        P::Boolean(b) => Some(V::Boolean(b.default.unwrap_or(true))),
        P::UntitledSingleSelectEnum(e) => one(&e.default, e.r#enum.first()),
        P::LegacyTitledEnum(e) => one(&e.default, e.r#enum.first()),
        P::TitledSingleSelectEnum(e) => one(&e.default, e.one_of.first().map(|o| &o.r#const)),
        P::UntitledMultiSelectEnum(e) => some(&e.default, e.items.r#enum.first()),
        P::TitledMultiSelectEnum(e) => some(&e.default, e.items.any_of.first().map(|o| &o.r#const)),
        P::Unknown(_) => None,
    };
    let fields = schema.properties.iter();
    fields
        .filter_map(|(name, field)| Some((name.clone(), value(field)?)))
        .collect()
}

/// Arguments for a tool's required properties: the default, else the first `enum` value,
/// else the smallest value of the type (a value of the `format` for strings).
fn minimal_arguments(schema: &ToolInputSchema) -> Map<String, Value> {
    let properties = schema.properties.clone().unwrap_or_default();
    let required = schema.required.iter().flatten();
    required
        .filter_map(|name| {
            let p = properties.get(name)?;
            let value = p
                .get("default")
                .or_else(|| p.get("enum").and_then(|e| e.get(0)))
                .cloned()
                .unwrap_or_else(|| {
                    match (
                        p.get("type").and_then(Value::as_str),
                        p.get("format").and_then(Value::as_str),
                    ) {
                        (Some("number" | "integer"), _) => {
                            p.get("minimum").cloned().unwrap_or(1.into())
                        }
                        (Some("boolean"), _) => false.into(),
                        (Some("array"), _) => Value::Array(Vec::new()),
                        (Some("object"), _) => Value::Object(Map::new()),
                        (_, Some("uri")) => "https://example.com/".into(),
                        (_, Some("email")) => "user@example.com".into(),
                        (_, Some("date")) => "2000-01-31".into(),
                        _ => "example".into(),
                    }
                });
            Some((name.clone(), value))
        })
        .collect()
}

/// A URI template's `{variables}` filled in.
fn expand(
    template: &str,
    mut value: impl FnMut(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some((before, after)) = rest.split_once('{') {
        let (name, after) = after
            .split_once('}')
            .ok_or("an unclosed `{` in a URI template")?;
        out.push_str(before);
        out.push_str(&value(name)?);
        rest = after;
    }
    out.push_str(rest);
    Ok(out)
}

/// The paginated list requests.
trait WithCursor {
    fn cursor(self, cursor: Option<String>) -> Self;
}

macro_rules! with_cursor {
    ($($request:ty),*) => {$(
        impl WithCursor for $request {
            fn cursor(self, cursor: Option<String>) -> Self {
                match cursor {
                    Some(c) => self.with_params(PaginatedRequestParams::new().with_cursor(c)),
                    None => self,
                }
            }
        }
    )*};
}
with_cursor!(
    ListToolsRequest,
    ListPromptsRequest,
    ListResourcesRequest,
    ListResourceTemplatesRequest
);

// ---------------------------------------------------------------------------------------------
// The session: sending, receiving, and the audit of every line

struct Client {
    revision: ProtocolVersion,
    server: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
    next_id: i64,
    /// The method and result definition of each of our requests in flight, by id.
    in_flight: HashMap<String, (String, &'static str)>,
    elicitations: usize,
    report: Report,
}

#[derive(Serialize, Default)]
struct Report {
    revision: String,
    negotiated: Option<String>,
    sent: usize,
    received: usize,
    sent_by_method: BTreeMap<String, usize>,
    received_by_method: BTreeMap<String, usize>,
    /// Tool name → "ok" or "error" (the tool's own `isError`).
    tools_called: BTreeMap<String, &'static str>,
    /// Server requests answered, by method, mode and action.
    answered: BTreeMap<String, usize>,
    /// Members the session's revision does not define, kept: `method: pointer`.
    unknown_members: Vec<String>,
    /// Values the server sent that the session's revision does not define (a method, content
    /// type, schema kind… of a newer revision), kept whole in a `Custom`/`Unknown` variant and
    /// re-encoded unchanged: `pointer: what`. The server's deviation, not a failure of ours.
    beyond_revision: Vec<String>,
    /// What our 2025-11-25 messages held that the session's revision cannot carry.
    dropped: Vec<String>,
    failures: Vec<Failure>,
    error: Option<String>,
}

#[derive(Serialize)]
struct Failure {
    /// `sent`: what we wrote does not decode back, round-trip, or follow the revision;
    /// `unreadable`: a server line does not decode (or convert); `round-trip`: it encodes
    /// back differently.
    kind: &'static str,
    error: String,
    message: String,
}

impl Client {
    fn start(args: &Args) -> Client {
        let (program, rest) = args
            .server
            .split_first()
            .expect("clap requires the command");
        let mut server = Command::new(program)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                eprintln!("cannot start {program}: {e} (is it installed and on PATH?)");
                std::process::exit(2)
            });
        let input = server.stdin.take().expect("piped");
        let output = BufReader::new(server.stdout.take().expect("piped"));
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // The wire types: the session's revision, 2025-11-25 for newer ones (only offered).
        let revision = args.revision.min(ProtocolVersion::V2025_11_25);
        let report = Report {
            revision: args.revision.to_string(),
            ..Report::default()
        };
        Client {
            revision,
            server,
            input,
            lines,
            timeout: Duration::from_secs(args.timeout),
            next_id: 0,
            in_flight: HashMap::new(),
            elicitations: 0,
            report,
        }
    }

    fn request<R>(&mut self, new: impl FnOnce(RequestId) -> R) -> Result<R::Result, String>
    where
        R: RequestMethod + Into<ClientRequest>,
        R::Result: DeserializeOwned,
    {
        self.request_as(new, result_definition(R::METHOD))
    }

    /// Sends a request and reads (answering the server meanwhile) until its response, which
    /// is decoded as `T`, the type of schema definition `result`.
    fn request_as<R, T>(
        &mut self,
        new: impl FnOnce(RequestId) -> R,
        result: &'static str,
    ) -> Result<T, String>
    where
        R: RequestMethod + Into<ClientRequest>,
        T: DeserializeOwned,
    {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.in_flight
            .insert(id.to_string(), (R::METHOD.to_owned(), result));
        self.send(ClientMessage::request(new(id.clone())), None)?;
        loop {
            let line = match self.lines.recv_timeout(self.timeout) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no response to {} (id {id}) within {:?}",
                        R::METHOD,
                        self.timeout
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .server
                        .wait()
                        .map(|s| s.to_string())
                        .unwrap_or_default();
                    return Err(format!(
                        "the server closed its output ({status}) before answering {}",
                        R::METHOD
                    ));
                }
            };
            match self.receive(&line) {
                Some(ServerMessage::Request(request)) => self.answer(request)?,
                Some(ServerMessage::Response(response)) if response.id == id => {
                    return serde_json::from_str(response.result.get())
                        .map_err(|e| format!("the result of {} is no {result}: {e}", R::METHOD));
                }
                Some(ServerMessage::Error(e)) if e.id.as_ref() == Some(&id) => {
                    return Err(format!(
                        "{} failed: {} {}",
                        R::METHOD,
                        e.error.code,
                        e.error.message
                    ));
                }
                Some(_) => {}
                // Unreadable: if it was our response, stop waiting.
                None if !self.in_flight.contains_key(&id.to_string()) => {
                    return Err(format!("the response to {} is unreadable", R::METHOD));
                }
                None => {}
            }
        }
    }

    /// Writes a message in the session's revision; a response says which method it answers
    /// and the schema definition of its result.
    fn send(
        &mut self,
        message: ClientMessage,
        answering: Option<(&str, &str)>,
    ) -> Result<(), String> {
        let (line, dropped) = on_wire!(self.revision, wire => {
            let down = convert::downgrade::<wire::ClientMessage>(&message).map_err(|e| format!("cannot be sent in {}: {e}", self.revision))?;
            (serde_json::to_string(&down.value).expect("messages encode"), down.dropped)
        });
        let method = message_method(&line, answering.map(|a| a.0));
        let result = answering.map(|a| a.1).filter(|r| !r.is_empty());
        self.report.sent += 1;
        *self
            .report
            .sent_by_method
            .entry(method.clone())
            .or_default() += 1;
        self.report
            .dropped
            .extend(dropped.into_iter().map(|p| format!("{method}: {p}")));
        // What we send must follow the revision to the letter.
        let mut failures = Vec::new();
        let audited = on_wire!(self.revision, wire => {
            audit::<wire::ClientMessage>(self.revision, &line, result, &mut failures).map(|a| a.1)
        });
        for failure in failures {
            self.fail("sent", failure, &line);
        }
        match audited {
            Ok(unknowns) if unknowns.is_empty() => {}
            Ok(unknowns) => {
                let unknowns: Vec<String> = unknowns.iter().map(ToString::to_string).collect();
                let error = format!(
                    "sent what {} does not define: {}",
                    self.revision,
                    unknowns.join(", ")
                );
                self.fail("sent", error, &line)
            }
            Err(e) => self.fail("sent", e, &line),
        }
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the server's input: {e}"))
    }

    /// Audits a line the server wrote; its 2025-11-25 reading, unless it failed.
    fn receive(&mut self, line: &str) -> Option<ServerMessage> {
        let parsed = serde_json::from_str::<Value>(line).unwrap_or_default();
        // A response ends its request's flight, whether or not it can be read.
        let flight = match (parsed.get("method"), parsed.get("id")) {
            (None, Some(id)) => self.in_flight.remove(&id.to_string()),
            _ => None,
        };
        let method = message_method(line, flight.as_ref().map(|f| f.0.as_str()));
        self.report.received += 1;
        *self
            .report
            .received_by_method
            .entry(method.clone())
            .or_default() += 1;
        let result = flight
            .filter(|_| parsed.get("result").is_some())
            .map(|f| f.1);
        let mut failures = Vec::new();
        let audited = audit_server(self.revision, line, result, &mut failures);
        for failure in failures {
            self.fail("round-trip", failure, line);
        }
        let audited = audited.map_err(|e| self.fail("unreadable", e, line));
        let (message, unknowns) = audited.ok()?;
        for u in unknowns {
            match u.kind {
                UnknownKind::Member => {
                    let member = format!("{method}: {}", u.pointer);
                    self.report.unknown_members.push(member)
                }
                _ => self.report.beyond_revision.push(u.to_string()),
            }
        }
        Some(message)
    }

    fn fail(&mut self, kind: &'static str, error: String, message: &str) {
        self.report.failures.push(Failure {
            kind,
            error,
            message: message.to_owned(),
        });
    }
}

/// The message's method, or `<method> result` / `<method> error` for a response to `method`.
fn message_method(line: &str, answering: Option<&str>) -> String {
    let v = serde_json::from_str::<Value>(line).unwrap_or_default();
    if let Some(method) = v.get("method").and_then(Value::as_str) {
        return method.to_owned();
    }
    let kind = if v.get("error").is_some() {
        "error"
    } else {
        "result"
    };
    format!("{} {kind}", answering.unwrap_or("(no request)"))
}

/// The schema definition of the result of `method` (in every revision that has the method).
fn result_definition(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "completion/complete" => "CompleteResult",
        _ => "EmptyResult", // ping, logging/setLevel
    }
}

/// A line decoded as `W`, one of the session's revision's message types, and encoded back to
/// the same JSON; a response's result likewise as definition `result`. Returns the message and
/// what it holds that the revision does not define; a difference on re-encoding goes to
/// `failures`.
fn audit<W>(
    revision: ProtocolVersion,
    line: &str,
    result: Option<&str>,
    failures: &mut Vec<String>,
) -> Result<(W, Vec<Unknown>), String>
where
    W: DeserializeOwned + Serialize + Unknowns,
{
    let message: W = serde_json::from_str(line).map_err(|e| format!("does not decode: {e}"))?;
    failures.extend(same_json(&message, line).err());
    let mut unknowns = message.unknowns();
    if let Some(definition) = result {
        #[derive(serde::Deserialize)]
        struct Raw {
            result: Box<RawValue>,
        }
        let raw: Raw = serde_json::from_str(line).map_err(|e| format!("no result: {e}"))?;
        let recheck = Recheck(raw.result.get(), failures);
        let checked = on_wire!(revision, wire => wire::with_definition(definition, recheck));
        let found = checked.unwrap_or_else(|| Err(format!("{revision} has no {definition}")))?;
        let result = found.into_iter().map(|u| Unknown {
            pointer: format!("/result{}", u.pointer),
            kind: u.kind,
        });
        unknowns.extend(result);
    }
    Ok((message, unknowns))
}

/// A server line in the session's revision, moved to 2025-11-25.
fn audit_server(
    revision: ProtocolVersion,
    line: &str,
    result: Option<&str>,
    failures: &mut Vec<String>,
) -> Result<(ServerMessage, Vec<Unknown>), String> {
    on_wire!(revision, wire => {
        let (message, unknowns) = audit::<wire::ServerMessage>(revision, line, result, failures)?;
        let message = convert::upgrade(&message)
            .map_err(|e| format!("does not convert to 2025-11-25: {e}"))?;
        Ok((message, unknowns))
    })
}

/// Decodes text as the definition's type, checks it encodes back to the same JSON, and
/// returns what it holds beyond its revision.
struct Recheck<'a>(&'a str, &'a mut Vec<String>);

impl DefinitionVisitor for Recheck<'_> {
    type Output = Result<Vec<Unknown>, String>;
    fn visit<T>(self, name: &'static str) -> Self::Output
    where
        T: Serialize + DeserializeOwned + std::fmt::Debug + Clone + PartialEq + Unknowns + 'static,
    {
        let value: T =
            serde_json::from_str(self.0).map_err(|e| format!("the result is no {name}: {e}"))?;
        let mismatch = same_json(&value, self.0).err();
        self.1.extend(mismatch.map(|e| format!("the result {e}")));
        Ok(value.unknowns())
    }
}

/// Whether `value` encodes to the JSON of `text`, as JSON values: member order aside (typed
/// members are written in schema order), numbers equal in kind and value (`2.0` is not `2`).
fn same_json(value: &impl Serialize, text: &str) -> Result<(), String> {
    let received: Value = serde_json::from_str(text).map_err(|e| format!("is not JSON: {e}"))?;
    let again = serde_json::to_value(value).map_err(|e| format!("does not encode: {e}"))?;
    if received == again {
        Ok(())
    } else {
        Err(format!("encodes back as {again}"))
    }
}

fn tool_arguments(s: &str) -> Result<(String, Map<String, Value>), String> {
    let (tool, json) = s.split_once('=').ok_or("expected TOOL=JSON-OBJECT")?;
    let arguments = serde_json::from_str(json).map_err(|e| format!("{tool}: {e}"))?;
    Ok((tool.to_owned(), arguments))
}
