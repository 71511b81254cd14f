//! A terminal MCP client that shows a server's elicitations as forms a person fills in:
//!
//! ```sh
//! cargo run -p mcp-tests --example elicit-client -- npx -y @modelcontextprotocol/server-everything
//! cargo run -p mcp-tests --example elicit-client -- cargo run -p mcp-tests --example booking-server
//! ```
//!
//! It starts the server (the rest of the command line) and talks to it over stdio, offering
//! 2025-11-25 with form and URL elicitation. It lists the tools, lets you pick one (type to
//! filter; Esc quits), asks for its arguments (as a form when the tool's input schema is a flat
//! object of primitive fields, as JSON otherwise) and calls it. Every request the server makes
//! meanwhile is answered:
//!
//! - a **form** (`elicitation/create`, form mode) is read into the received-form model
//!   ([`mcp_typed::elicit::client::Form`]): the server's name and message come first, with a
//!   choice to fill in, decline or cancel; then one prompt per field in the form's order, with
//!   the form's defaults pre-filled, a select for an enum, a multi-select for an array, and a
//!   value that breaks the form's rules refused with the validator's message and asked again.
//!   A review step shows the whole answer and lets you send it, change a field, decline or
//!   cancel. Esc (or Ctrl-C) on any prompt cancels. A form the model refuses (not a flat
//!   object of primitive fields) is answered with the -32602 error it names.
//! - a **URL** (URL mode, or the -32042 error of a tool call) is shown whole, its host
//!   highlighted and written out (in Unicode when it is Punycode), with the model's warnings;
//!   nothing is fetched or opened unless you choose "Open", which runs `--browser` (default
//!   `$BROWSER`, else `xdg-open`) with the URL. `notifications/elicitation/complete` for a URL
//!   you opened is reported; after a -32042 error you may retry the call.
//! - `ping` is answered; anything else is refused with -32601 (this client declares no roots
//!   or sampling).
//!
//! `--log FILE` appends every JSON-RPC line (`> ` sent, `< ` received); the server's stderr is
//! discarded unless `--server-log FILE` is given, so that it does not draw over the prompts.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;

use clap::Parser;
use inquire::error::InquireError;
use inquire::list_option::ListOption;
use inquire::validator::Validation;
use inquire::{MultiSelect, Select, Text};
use mcp_typed::elicit::client::{
    Consent, Field, FieldKind, Form, FormReply, PendingUrls, UrlRequest,
};
use mcp_typed::v2025_11_25 as mcp;
use mcp_typed::{Map, ProtocolVersion, RequestMethod, Value};
use serde::de::DeserializeOwned;

#[derive(Parser)]
#[command(about = "A terminal MCP client that shows elicitations as forms")]
struct Args {
    /// The browser command that opens a URL the user consented to (the URL is appended).
    #[arg(long, env = "BROWSER", default_value = "xdg-open")]
    browser: String,
    /// Append every JSON-RPC line to this file (`> ` sent, `< ` received).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Write the server's stderr to this file (by default it is discarded).
    #[arg(long)]
    server_log: Option<PathBuf>,
    /// The server's command line.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    server: Vec<String>,
}

fn main() {
    let args = Args::parse();
    let mut session = match Session::start(&args) {
        Ok(session) => session,
        Err(e) => {
            eprintln!("elicit-client: {e}");
            std::process::exit(2);
        }
    };
    let outcome = session.run();
    let _ = session.server.kill();
    let _ = session.server.wait();
    if let Err(e) = outcome {
        eprintln!("elicit-client: {e}");
        std::process::exit(1);
    }
}

/// A connection to the server: its stdio, the negotiated revision, what is pending.
struct Session {
    server: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    log: Option<File>,
    next_id: i64,
    version: ProtocolVersion,
    server_name: String,
    browser: Vec<String>,
    urls: PendingUrls,
}

/// A failure that ends the session (the server went away, or wrote something unreadable
/// where its answer was due).
type Fatal = String;

impl Session {
    fn start(args: &Args) -> Result<Session, Fatal> {
        let (program, rest) = args.server.split_first().ok_or("no server command")?;
        let stderr = match &args.server_log {
            Some(path) => Stdio::from(File::create(path).map_err(|e| format!("{e}"))?),
            None => Stdio::null(),
        };
        let mut server = Command::new(program)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
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
        let log = match &args.log {
            Some(path) => Some(
                File::options()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Session {
            server,
            input,
            lines,
            log,
            next_id: 1,
            version: ProtocolVersion::V2025_11_25,
            server_name: program.clone(),
            browser: args.browser.split_whitespace().map(String::from).collect(),
            urls: PendingUrls::new(),
        })
    }

    fn run(&mut self) -> Result<(), Fatal> {
        let modes = mcp::ClientCapabilitiesElicitation::new()
            .with_form(Map::new())
            .with_url(Map::new());
        let capabilities = mcp::ClientCapabilities::new().with_elicitation(modes);
        let me = mcp::Implementation::new("elicit-client", env!("CARGO_PKG_VERSION"));
        let init = mcp::InitializeRequestParams::new(
            ProtocolVersion::V2025_11_25.as_str(),
            capabilities,
            me,
        );
        let init = self
            .request(|id| mcp::InitializeRequest::new(id, init))?
            .map_err(|e| format!("initialize failed: {} {}", e.code, e.message))?;
        self.version = init
            .protocol_version
            .parse()
            .map_err(|_| format!("the server answered {}", init.protocol_version))?;
        let server = &init.server_info;
        self.server_name = server.title.clone().unwrap_or_else(|| server.name.clone());
        self.send(&mcp::ClientMessage::notification(
            mcp::InitializedNotification::new(),
        ))?;
        println!(
            "Connected to {} {} (MCP {}).",
            self.server_name, server.version, self.version
        );

        let tools = self.tools()?;
        if tools.is_empty() {
            println!("The server offers no tools.");
            return Ok(());
        }
        let choices: Vec<ToolChoice> = tools.into_iter().map(ToolChoice).collect();
        loop {
            let picked = Select::new(
                "Call a tool (type to filter, Esc to quit):",
                choices.clone(),
            )
            .with_page_size(12)
            .prompt();
            let tool = match picked {
                Ok(ToolChoice(tool)) => tool,
                Err(InquireError::OperationCanceled | InquireError::OperationInterrupted) => {
                    return Ok(());
                }
                Err(e) => return Err(e.to_string()),
            };
            let Some(arguments) = ask_arguments(&tool) else {
                continue;
            };
            self.call(&tool.name, arguments)?;
        }
    }

    /// Every tool, all pages.
    fn tools(&mut self) -> Result<Vec<mcp::Tool>, Fatal> {
        let (mut tools, mut cursor) = (Vec::new(), None::<String>);
        loop {
            let params = cursor
                .take()
                .map(|c| mcp::PaginatedRequestParams::new().with_cursor(c));
            let page = self
                .request(|id| {
                    let list = mcp::ListToolsRequest::new(id);
                    match params {
                        Some(params) => list.with_params(params),
                        None => list,
                    }
                })?
                .map_err(|e| format!("tools/list failed: {} {}", e.code, e.message))?;
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
    }

    /// Calls a tool and shows its result; after a -32042 error, offers the URLs it names
    /// and a retry.
    fn call(&mut self, name: &str, arguments: Map<String, Value>) -> Result<(), Fatal> {
        loop {
            let params = mcp::CallToolRequestParams::new(name).with_arguments(arguments.clone());
            match self.request(|id| mcp::CallToolRequest::new(id, params))? {
                Ok(result) => {
                    show_result(&result);
                    return Ok(());
                }
                Err(error) if error.code == mcp::URL_ELICITATION_REQUIRED => {
                    println!("{name}: {}", error.message);
                    let requests = match UrlRequest::from_error(&error) {
                        Ok(requests) => requests,
                        Err(e) => {
                            println!("The server's URL elicitation error is unreadable: {e}");
                            return Ok(());
                        }
                    };
                    let mut opened = false;
                    for request in requests {
                        opened |= matches!(self.consent(request), FormReply::Accept(_));
                    }
                    let again = opened
                        && Select::new("Retry the call?", vec!["Retry", "Back"])
                            .prompt()
                            .is_ok_and(|c| c == "Retry");
                    if !again {
                        return Ok(());
                    }
                }
                Err(error) => {
                    println!("{name} failed: {} ({})", error.message, error.code);
                    return Ok(());
                }
            }
        }
    }

    /// Sends a request and reads until its response, answering the server's requests on
    /// the way. A JSON-RPC error comes back as `Ok(Err(_))`.
    fn request<R>(
        &mut self,
        new: impl FnOnce(mcp::RequestId) -> R,
    ) -> Result<Result<R::Result, mcp::Error>, Fatal>
    where
        R: RequestMethod + Into<mcp::ClientRequest>,
        R::Result: DeserializeOwned,
    {
        let id = mcp::RequestId::from(self.next_id);
        self.next_id += 1;
        self.send(&mcp::ClientMessage::request(new(id.clone())))?;
        loop {
            let line = self.receive()?;
            match mcp::ServerMessage::from_json(&line) {
                Ok(mcp::ServerMessage::Response(response)) if response.id == id => {
                    return decode(response.result.get(), R::METHOD).map(Ok);
                }
                Ok(mcp::ServerMessage::Error(error)) if error.id.as_ref() == Some(&id) => {
                    return Ok(Err(error.error));
                }
                Ok(mcp::ServerMessage::Request(request)) => self.answer(request)?,
                Ok(mcp::ServerMessage::Notification(notification)) => self.notice(notification),
                Ok(_) => {}
                Err(e) => println!("(an unreadable message from the server: {e})"),
            }
        }
    }

    /// Answers a request of the server's.
    fn answer(&mut self, request: mcp::ServerRequest) -> Result<(), Fatal> {
        let Some(id) = mcp::ServerMessage::request_id(&request) else {
            return Ok(());
        };
        let reply = match request {
            mcp::ServerRequest::Ping(_) => mcp::ClientMessage::response(id, mcp::McpResult::new()),
            mcp::ServerRequest::Elicit(elicit) => match self.elicit(&elicit.params) {
                Ok(reply) => {
                    let result: mcp::ElicitResult =
                        reply.to_result().expect("a reply is an ElicitResult");
                    mcp::ClientMessage::response(id, result)
                }
                Err(refusal) => mcp::ClientMessage::error(Some(id), mcp::INVALID_PARAMS, refusal),
            },
            other => mcp::ClientMessage::error(
                Some(id),
                mcp::METHOD_NOT_FOUND,
                format!("this client does not answer {}", other.method()),
            ),
        };
        self.send(&reply)
    }

    /// Shows an elicitation and gives the reply, or why it cannot be shown (-32602).
    fn elicit(&mut self, params: &mcp::ElicitRequestParams) -> Result<FormReply, String> {
        if let mcp::ElicitRequestParams::Url(params) = params {
            let request = UrlRequest::from_params(params).map_err(|e| e.to_string())?;
            return Ok(self.consent(request));
        }
        let form = Form::from_params(params, self.version).map_err(|e| {
            println!(
                "\n{} sent a form this client cannot show: {e}",
                self.server_name
            );
            e.to_string()
        })?;
        println!();
        println!("{} asks: {}", bold(&self.server_name), form.message());
        for line in [form.title(), form.description()].into_iter().flatten() {
            println!("  {line}");
        }
        let start = Select::new("Answer?", vec!["Fill in the form", "Decline", "Cancel"]).prompt();
        Ok(match start {
            Ok("Fill in the form") => fill(&form, Purpose::Elicitation),
            Ok("Decline") => FormReply::Decline,
            _ => FormReply::Cancel,
        })
    }

    /// Shows a URL the server wants opened and opens it only if the user says so.
    fn consent(&mut self, request: UrlRequest) -> FormReply {
        println!();
        println!(
            "{} asks you to open a URL: {}",
            bold(&self.server_name),
            request.message()
        );
        let parts = request.parts();
        println!(
            "  URL:  {}{}{}",
            parts.before_host,
            highlight(parts.host),
            parts.after_host
        );
        if request.host_unicode() == parts.host {
            println!("  Host: {}", highlight(parts.host));
        } else {
            println!(
                "  Host: {} (written {})",
                highlight(request.host_unicode()),
                parts.host
            );
        }
        for warning in request.warnings() {
            println!("  Warning: {warning}");
        }
        println!("  Nothing has been opened.");
        loop {
            let choice = Select::new(
                "Open it in your browser?",
                vec!["Open", "Decline", "Cancel"],
            )
            .prompt();
            match choice {
                Ok("Open") => {}
                Ok("Decline") => return request.decline(),
                _ => return request.cancel(),
            }
            self.urls.track(&request);
            let opened = request
                .clone()
                .consent(Consent::given_by_user())
                .open_with(|url| open(&self.browser, url.as_str()));
            match opened {
                Ok(reply) => {
                    println!("  Opened.");
                    return reply;
                }
                Err(e) => println!("  Could not open it: {e}"),
            }
        }
    }

    /// A notification from the server.
    fn notice(&mut self, notification: mcp::ServerNotification) {
        if let mcp::ServerNotification::ElicitationComplete(done) = &notification {
            if let Some(id) = self.urls.complete(done) {
                println!("{}: the URL flow {id} is complete.", self.server_name);
            }
        }
    }

    fn send(&mut self, message: &mcp::ClientMessage) -> Result<(), Fatal> {
        let line = serde_json::to_string(message).expect("messages encode");
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "> {line}");
        }
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the server's input is closed: {e}"))
    }

    fn receive(&mut self) -> Result<String, Fatal> {
        let line = self
            .lines
            .recv()
            .map_err(|_| "the server closed its output".to_owned())?;
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "< {line}");
        }
        Ok(line)
    }
}

fn decode<T: DeserializeOwned>(json: &str, method: &str) -> Result<T, Fatal> {
    serde_json::from_str(json).map_err(|e| format!("the result of {method} is unreadable: {e}"))
}

/// Runs the browser command with the URL appended.
fn open(browser: &[String], url: &str) -> Result<(), String> {
    let (program, rest) = browser.split_first().ok_or("no --browser command")?;
    let status = Command::new(program)
        .args(rest)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("{program} exited with {status}"))
}

/// A tool in the menu: its name, then its title or description.
#[derive(Clone)]
struct ToolChoice(mcp::Tool);

impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = &self.0;
        f.write_str(&tool.name)?;
        let about = tool.title.as_deref().or(tool.description.as_deref());
        if let Some(about) = about.and_then(|a| a.lines().next()) {
            let short: String = about.chars().take(60).collect();
            let more = if short.len() < about.len() { "…" } else { "" };
            write!(f, " — {short}{more}")?;
        }
        Ok(())
    }
}

/// A tool's arguments: a form when its input schema reads as one, JSON otherwise. `None`:
/// the user went back.
fn ask_arguments(tool: &mcp::Tool) -> Option<Map<String, Value>> {
    let schema = serde_json::to_value(&tool.input_schema).expect("schemas encode");
    if schema["properties"].as_object().is_none_or(Map::is_empty) {
        return Some(Map::new());
    }
    let params = serde_json::json!({
        "message": format!("Arguments for {}", tool.name),
        "requestedSchema": schema,
    });
    if let Ok(form) = Form::from_params(&params, ProtocolVersion::V2025_11_25) {
        return match fill(&form, Purpose::Arguments) {
            FormReply::Accept(arguments) => Some(arguments),
            _ => None,
        };
    }
    let text = Text::new(&format!("Arguments for {} (a JSON object):", tool.name))
        .with_initial_value("{}")
        .with_validator(|s: &str| {
            Ok(match serde_json::from_str::<Map<String, Value>>(s) {
                Ok(_) => Validation::Valid,
                Err(e) => Validation::Invalid(format!("not a JSON object: {e}").into()),
            })
        })
        .prompt()
        .ok()?;
    serde_json::from_str(&text).ok()
}

/// What a form is filled in for: a server's elicitation, or a tool's arguments.
#[derive(Clone, Copy, PartialEq)]
enum Purpose {
    Elicitation,
    Arguments,
}

/// Fills a form in: every field in order, then a review where the answer is sent, a field
/// changed, or (an elicitation) declined or cancelled. Esc cancels.
fn fill(form: &Form, purpose: Purpose) -> FormReply {
    let mut answer = form.answer();
    for field in form.fields() {
        if !ask(field, &mut answer) {
            return FormReply::Cancel;
        }
    }
    let (question, options) = match purpose {
        Purpose::Elicitation => (
            "Send this answer?",
            vec!["Send", "Change an answer", "Decline", "Cancel"],
        ),
        Purpose::Arguments => ("Call the tool?", vec!["Call", "Change an answer", "Back"]),
    };
    loop {
        println!("  {}", bold("Your answer:"));
        for field in form.fields() {
            let value = answer
                .get(&field.name)
                .map_or("—".to_owned(), |v| shown_for(field, v));
            println!("    {}: {value}", field.label());
        }
        match Select::new(question, options.clone()).prompt() {
            Ok("Change an answer") => {
                let labels: Vec<FieldChoice> = form.fields().iter().map(FieldChoice).collect();
                if let Ok(FieldChoice(field)) = Select::new("Which one?", labels).prompt() {
                    if !ask(field, &mut answer) {
                        return FormReply::Cancel;
                    }
                }
            }
            Ok("Decline") => return FormReply::Decline,
            Ok("Send" | "Call") => match answer.clone().accept() {
                Ok(reply) => return reply,
                Err(e) => println!("  {e}"),
            },
            _ => return FormReply::Cancel,
        }
    }
}

struct FieldChoice<'f>(&'f Field);

impl fmt::Display for FieldChoice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.label())
    }
}

/// A field's value as the review shows it: options by their labels, booleans as Yes/No.
fn shown_for(field: &Field, value: &Value) -> String {
    let label = |v: &Value| {
        let options = field.kind.options().unwrap_or_default();
        match options
            .iter()
            .find(|o| Some(o.value.as_str()) == v.as_str())
        {
            Some(option) => option.label().to_owned(),
            None => shown(v),
        }
    };
    match value {
        Value::Bool(true) => "Yes".to_owned(),
        Value::Bool(false) => "No".to_owned(),
        Value::Array(items) => items.iter().map(label).collect::<Vec<_>>().join(", "),
        other => label(other),
    }
}

/// A value as typed.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// Asks one field; `false` when the user pressed Esc (or Ctrl-C).
fn ask(field: &Field, answer: &mut mcp_typed::elicit::client::Answer<'_>) -> bool {
    let label = if field.required {
        format!("{}:", field.label())
    } else {
        format!("{} (optional):", field.label())
    };
    let help = help(field);
    let current = answer.get(&field.name).cloned();
    let name = field.name.as_str();
    let outcome: Result<(), InquireError> = match &field.kind {
        FieldKind::Text { .. } | FieldKind::Integer { .. } | FieldKind::Number { .. } => {
            let initial = current.as_ref().map(shown).unwrap_or_default();
            let rules = field.clone();
            Text::new(&label)
                .with_initial_value(&initial)
                .with_help_message(&help)
                .with_validator(move |s: &str| {
                    Ok(match typed(&rules, s) {
                        Ok(_) => Validation::Valid,
                        Err(why) => Validation::Invalid(why.into()),
                    })
                })
                .prompt()
                .map(|text| match typed(field, &text) {
                    Ok(Some(_)) => {
                        answer.parse(name, &text).expect("checked by the validator");
                    }
                    _ => {
                        answer.clear(name);
                    }
                })
        }
        FieldKind::Boolean => {
            let mut options = vec!["Yes", "No"];
            if !field.required {
                options.push(NO_ANSWER);
            }
            let cursor = match current {
                Some(Value::Bool(false)) => 1,
                None if !field.required => 2,
                _ => 0,
            };
            Select::new(&label, options)
                .with_starting_cursor(cursor)
                .with_help_message(&help)
                .prompt()
                .map(|choice| match choice {
                    NO_ANSWER => {
                        answer.clear(name);
                    }
                    yes_no => {
                        answer.set_bool(name, yes_no == "Yes").expect("a boolean");
                    }
                })
        }
        FieldKind::SingleSelect { options, .. } => {
            let mut labels: Vec<String> = options.iter().map(|o| o.label().to_owned()).collect();
            if !field.required {
                labels.push(NO_ANSWER.to_owned());
            }
            let cursor = match current.as_ref().and_then(Value::as_str) {
                Some(value) => options.iter().position(|o| o.value == value).unwrap_or(0),
                None if !field.required => options.len(),
                None => 0,
            };
            Select::new(&label, labels)
                .with_starting_cursor(cursor)
                .with_help_message(&help)
                .raw_prompt()
                .map(|picked| match options.get(picked.index) {
                    Some(option) => {
                        answer
                            .set_choice(name, &option.value)
                            .expect("one of the options");
                    }
                    None => {
                        answer.clear(name);
                    }
                })
        }
        FieldKind::MultiSelect { options, .. } => {
            let labels: Vec<String> = options.iter().map(|o| o.label().to_owned()).collect();
            let chosen: Vec<usize> = match &current {
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(|v| {
                        options
                            .iter()
                            .position(|o| Some(o.value.as_str()) == v.as_str())
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let rules = field.clone();
            let values = move |picked: &[usize]| -> Vec<String> {
                let options = rules.kind.options().unwrap_or_default();
                picked.iter().map(|&i| options[i].value.clone()).collect()
            };
            let check = values.clone();
            let rules = field.clone();
            MultiSelect::new(&label, labels)
                .with_default(&chosen)
                .with_help_message(&help)
                .with_validator(move |picked: &[ListOption<&String>]| {
                    let indexes: Vec<usize> = picked.iter().map(|o| o.index).collect();
                    let value = Value::from(check(&indexes));
                    let empty_optional = indexes.is_empty() && !rules.required;
                    Ok(match rules.check(&value) {
                        Err(e) if !empty_optional => Validation::Invalid(problems(&e).into()),
                        _ => Validation::Valid,
                    })
                })
                .raw_prompt()
                .map(|picked| {
                    let indexes: Vec<usize> = picked.iter().map(|o| o.index).collect();
                    if indexes.is_empty() && !field.required {
                        answer.clear(name);
                    } else {
                        answer
                            .set_choices(name, values(&indexes))
                            .expect("options of the field");
                    }
                })
        }
        // `FieldKind` is non-exhaustive: a kind added later is left unanswered.
        _ => Ok(()),
    };
    outcome.is_ok()
}

const NO_ANSWER: &str = "(no answer)";

/// What a text prompt's input means for the field: `None` for an optional field left
/// empty, the value when it fits the field's rules, else the validator's message.
fn typed(field: &Field, text: &str) -> Result<Option<Value>, String> {
    let blank = match field.kind {
        FieldKind::Text { .. } => text.is_empty(),
        _ => text.trim().is_empty(),
    };
    if blank {
        return if field.required {
            Err("required: type a value".to_owned())
        } else {
            Ok(None)
        };
    }
    let value = field.read(text).map_err(|e| e.to_string())?;
    field.check(&value).map_err(|e| problems(&e))?;
    Ok(Some(value))
}

/// A content error's violations, without the field name the prompt already shows.
fn problems(error: &mcp_typed::elicit::ContentError) -> String {
    let kinds: Vec<String> = error
        .violations()
        .iter()
        .map(|v| v.kind.to_string())
        .collect();
    kinds.join("; ")
}

/// The help line under a prompt: the field's description and its rules.
fn help(field: &Field) -> String {
    let mut parts: Vec<String> = field.description.iter().cloned().collect();
    match &field.kind {
        FieldKind::Text {
            format,
            min_length,
            max_length,
            ..
        } => {
            if let Some(format) = format {
                parts.push(format!("format: {format}"));
            }
            match (min_length, max_length) {
                (Some(min), Some(max)) => parts.push(format!("{min} to {max} characters")),
                (Some(min), None) => parts.push(format!("at least {min} characters")),
                (None, Some(max)) => parts.push(format!("at most {max} characters")),
                (None, None) => {}
            }
        }
        FieldKind::Integer { minimum, maximum } => {
            parts.push(range("an integer", minimum, maximum))
        }
        FieldKind::Number { minimum, maximum } => parts.push(range("a number", minimum, maximum)),
        FieldKind::MultiSelect {
            min_items,
            max_items,
            ..
        } => {
            parts.push("space toggles, enter confirms".to_owned());
            match (min_items, max_items) {
                (Some(min), Some(max)) => parts.push(format!("pick {min} to {max}")),
                (Some(min), None) => parts.push(format!("pick at least {min}")),
                (None, Some(max)) => parts.push(format!("pick at most {max}")),
                (None, None) => {}
            }
        }
        _ => {}
    }
    parts.push("Esc cancels".to_owned());
    parts.join(" · ")
}

fn range<T: fmt::Display>(what: &str, minimum: &Option<T>, maximum: &Option<T>) -> String {
    match (minimum, maximum) {
        (Some(min), Some(max)) => format!("{what} from {min} to {max}"),
        (Some(min), None) => format!("{what}, at least {min}"),
        (None, Some(max)) => format!("{what}, at most {max}"),
        (None, None) => what.to_owned(),
    }
}

/// Shows a tool's result: its text blocks, else its structured content.
fn show_result(result: &mcp::CallToolResult) {
    if result.is_error == Some(true) {
        println!("{}", bold("The tool reports an error:"));
    }
    let mut texts = 0;
    for text in result.texts() {
        println!("{text}");
        texts += 1;
    }
    if texts == 0 {
        if let Some(structured) = &result.structured_content {
            let pretty = serde_json::to_string_pretty(structured).expect("values encode");
            println!("{pretty}");
        }
    }
    let others = result.content.len() - texts;
    if others > 0 {
        println!("({others} non-text content block(s) not shown)");
    }
}

fn styled(text: &str, code: &str) -> String {
    if std::io::stdout().is_terminal() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

fn bold(text: &str) -> String {
    styled(text, "1")
}

/// The host of a URL as shown: bold, underlined, yellow.
fn highlight(text: &str) -> String {
    styled(text, "1;4;33")
}
