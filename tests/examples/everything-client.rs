//! A stdio MCP client that drives any server through everything it offers, at the revision
//! asked for, written once against 2025-11-25 types on `mcp_typed::session`:
//!
//! ```sh
//! cargo run -p mcp-tests --example everything-client -- --revision 2025-06-18 \
//!     --arguments 'trigger-long-running-operation={"duration":0.2,"steps":2}' \
//!     -- npx -y @modelcontextprotocol/server-everything stdio
//! ```
//!
//! It declares roots, sampling and elicitation (forms and URLs); pings, sets the log level,
//! reads every resource and one template, gets every prompt (arguments filled by completion),
//! and calls every tool with arguments built from its `inputSchema` by
//! `mcp_typed_cli::arguments::valid` (`--arguments` overrides them; a tool that requires a
//! task runs as one). It answers forms through the received-form model (accept with each
//! field's default or simplest valid value, decline, cancel, in turn), declines URLs (it never
//! opens one), gives one root and a canned sampling reply. Every line both ways goes through
//! the traffic checker in the session's revision: what we send must
//! follow the revision to the letter, what the server sends beyond it is listed. The last
//! stdout line is a JSON summary; the exit status is 1 on any failure.

use std::collections::BTreeMap;
use std::process::{Command, ExitCode};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Parser;
use mcp_typed::check::{Checker, Direction as Dir, NoteKind, Verdict};
use mcp_typed::elicit::client::{Form, FormReply, UrlRequest};
use mcp_typed::session::{
    ClientError, ClientHandler, ClientInfo, ClientSession, Connection, Direction, Refusal,
};
use mcp_typed::v2025_11_25::*;
use mcp_typed::{Map, ProtocolVersion, Value};
use serde::Serialize;

#[derive(Parser)]
struct Args {
    /// The revision to speak.
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

/// The last line: what went each way, what we answered, and what failed.
#[derive(Serialize, Default)]
struct Summary {
    negotiated: Option<String>,
    sent: BTreeMap<String, usize>,
    received: BTreeMap<String, usize>,
    tools_called: BTreeMap<String, &'static str>,
    answered: BTreeMap<String, usize>,
    /// What the server sent that the revision does not define (`pointer: what`), kept.
    beyond_revision: Vec<String>,
    failures: Vec<String>,
    error: Option<String>,
}

type Shared = Arc<Mutex<Summary>>;

/// The client's answers to the server's requests.
struct Answers(Shared, usize);

impl Answers {
    fn answered(&mut self, what: String) {
        *self.0.lock().unwrap().answered.entry(what).or_default() += 1;
    }
}

impl ClientHandler for Answers {
    fn form(&mut self, form: &Form) -> FormReply {
        self.1 += 1;
        let reply = match self.1 % 3 {
            1 => form.example_answer().accept().unwrap_or(FormReply::Cancel),
            2 => FormReply::Decline,
            _ => FormReply::Cancel,
        };
        self.answered(format!("elicitation/create form {}", reply.action()));
        reply
    }

    fn url(&mut self, request: UrlRequest) -> FormReply {
        self.1 += 1;
        self.answered("elicitation/create url decline".into());
        request.decline()
    }

    fn roots(&mut self) -> Result<Vec<Root>, Refusal> {
        self.answered("roots/list".into());
        Ok(vec![
            Root::new("file:///tmp/everything-client").with_name("example root"),
        ])
    }

    fn sample(&mut self, _: &CreateMessageRequestParams) -> Result<CreateMessageResult, Refusal> {
        self.answered("sampling/createMessage".into());
        let text = TextContent::new("Hello from the everything-client example.");
        Ok(
            CreateMessageResult::new(Role::Assistant, text, "example-model")
                .with_stop_reason("endTurn"),
        )
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let summary = Shared::default();
    let info = ClientInfo::new(Implementation::new("everything-client", "0.1.0"))
        .with_versions([args.revision])
        .with_roots(true)
        .with_sampling()
        .with_forms()
        .with_urls();
    let (audit, mut checker) = (summary.clone(), Checker::new());
    let session = ClientSession::new(info, Answers(summary.clone(), 0)).observe(move |line| {
        let (dir, ours) = match line.direction {
            Direction::Out => (Dir::ClientToServer, true),
            Direction::In => (Dir::ServerToClient, false),
        };
        let report = checker.check(Some(dir), line.line);
        let mut s = audit.lock().unwrap();
        let what = line.method.map_or(report.what.clone(), str::to_owned);
        *(if ours { &mut s.sent } else { &mut s.received })
            .entry(what)
            .or_default() += 1;
        for note in report
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::BeyondRevision)
        {
            match ours {
                true => s
                    .failures
                    .push(format!("sent beyond the revision: {}", note.message)),
                false => s.beyond_revision.push(note.message.clone()),
            }
        }
        if report.verdict == Verdict::Error {
            s.failures.push(format!(
                "{}: {report}: {}",
                if ours { "sent" } else { "received" },
                line.line
            ));
        }
    });
    let (program, rest) = args
        .server
        .split_first()
        .expect("clap requires the command");
    let outcome =
        Connection::spawn(Command::new(program).args(rest), session).and_then(|mut server| {
            server.set_timeout(Duration::from_secs(args.timeout));
            summary.lock().unwrap().negotiated = Some(server.server().version.to_string());
            let run = drive(&mut server, &args, &summary);
            let _ = server.close();
            run
        });
    let mut summary = summary.lock().unwrap();
    summary.error = outcome.err().map(|e| e.to_string());
    println!(
        "{}",
        serde_json::to_string(&*summary).expect("a summary encodes")
    );
    ExitCode::from(u8::from(
        summary.error.is_some() || !summary.failures.is_empty(),
    ))
}

fn drive<H: ClientHandler>(
    server: &mut Connection<H>,
    args: &Args,
    summary: &Shared,
) -> Result<(), ClientError> {
    let revision = server.server().version;
    if revision < ProtocolVersion::V2026_07_28 {
        server.request(PingRequest::new)?;
        let level = SetLevelRequestParams::new(LoggingLevel::Debug);
        server.request(|id| SetLevelRequest::new(id, level))?;
    }
    for resource in server.list_resources()? {
        server.read_resource(&resource.uri)?;
    }
    if let Some(template) = server.list_resource_templates()?.first() {
        let reference: CompleteRequestParamsRef =
            ResourceTemplateReference::new(&template.uri_template).into();
        let mut uri = template.uri_template.clone();
        while let Some((name, _)) = uri
            .split_once('{')
            .and_then(|(_, rest)| rest.split_once('}'))
        {
            let value = complete(server, reference.clone(), name)?;
            uri = uri.replace(&format!("{{{name}}}"), &value);
        }
        server.read_resource(&uri)?;
    }
    for prompt in server.list_prompts()? {
        let mut arguments = Vec::new();
        for argument in prompt.arguments.iter().flatten() {
            let reference = PromptReference::new(&prompt.name).into();
            arguments.push((
                argument.name.clone(),
                complete(server, reference, &argument.name)?,
            ));
        }
        server.get_prompt(&prompt.name, arguments)?;
    }
    for tool in server.list_tools()? {
        let schema = serde_json::to_value(&tool.input_schema).unwrap_or_default();
        let built = mcp_typed_cli::arguments::valid(&schema).map(|a| a.as_object().cloned());
        let mut arguments = built.ok().flatten().unwrap_or_default();
        let overrides = args.arguments.iter().filter(|(name, _)| *name == tool.name);
        arguments.extend(overrides.flat_map(|(_, a)| a.clone()));
        let progress = CallToolRequestParamsMeta::new().with_progress_token(tool.name.clone());
        let call = CallToolRequestParams::new(&tool.name)
            .with_arguments(arguments)
            .with_meta(progress);
        let task = tool.execution.as_ref().and_then(|e| e.task_support);
        let result = if task == Some(ToolExecutionTaskSupport::Required)
            && revision == ProtocolVersion::V2025_11_25
        {
            let call = call.with_task(TaskMetadata::new().with_ttl(60_000));
            let created: CreateTaskResult =
                server.request_as(|id| CallToolRequest::new(id, call))?;
            let payload = GetTaskPayloadRequestParams::new(created.task.task_id);
            server.request_as(|id| GetTaskPayloadRequest::new(id, payload))?
        } else {
            server.request(|id| CallToolRequest::new(id, call))?
        };
        let outcome = if result.is_error == Some(true) {
            "error"
        } else {
            "ok"
        };
        summary
            .lock()
            .unwrap()
            .tools_called
            .insert(tool.name, outcome);
    }
    Ok(())
}

/// The first value the server completes `argument` with, else `"1"`.
fn complete<H: ClientHandler>(
    server: &mut Connection<H>,
    reference: CompleteRequestParamsRef,
    argument: &str,
) -> Result<String, ClientError> {
    let params =
        CompleteRequestParams::new(reference, CompleteRequestParamsArgument::new(argument, ""));
    let done = server.request(|id| CompleteRequest::new(id, params))?;
    Ok(done
        .completion
        .values
        .into_iter()
        .next()
        .unwrap_or_else(|| "1".to_owned()))
}

/// Arguments for a tool's required properties: the default, else the first `enum` value,
/// else the smallest value of the type.
fn tool_arguments(s: &str) -> Result<(String, Map<String, Value>), String> {
    let (tool, json) = s.split_once('=').ok_or("expected TOOL=JSON-OBJECT")?;
    let arguments = serde_json::from_str(json).map_err(|e| format!("{tool}: {e}"))?;
    Ok((tool.to_owned(), arguments))
}
