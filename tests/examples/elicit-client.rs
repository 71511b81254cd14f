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
//!   ([`mcp_typed::elicit::client::Form`]): the server's name and message come first, then the
//!   form's fields (title, whether required, what to type: [`Field::hint`]), then the choice
//!   to fill in, decline or cancel. Then one prompt per field in the form's order ("field k of
//!   n"), with the form's defaults pre-filled, a select for an enum, a multi-select for an
//!   array. Typed values are edited with readline keys (`rustyline`: Ctrl-U clears up to the
//!   cursor, Ctrl-K after it, Ctrl-W a word, Ctrl-A / Ctrl-E go to the start / end); a value
//!   that breaks the form's rules is refused with the library's words for it
//!   ([`Field::explain`]: the field's title, what is wrong, an example of what fits) and asked
//!   again with the value kept. A review step shows the whole answer and lets you send it,
//!   change a field, decline or cancel. Esc (or Ctrl-C) asks before discarding the form.
//!   A form the model refuses (not a flat object of primitive fields) is answered with the
//!   -32602 error it names.
//! - a **URL** (URL mode, or the -32042 error of a tool call) is shown whole, as it will be
//!   opened, its host highlighted (and spelled out when it reads differently in Unicode), the
//!   URL as the server wrote it when that differs, and the model's warnings, each marked
//!   `! WARNING:`. Decline is the default: nothing is fetched or opened unless you choose
//!   "Open", which runs `--browser` (default `$BROWSER`, else `xdg-open`) with the URL.
//!   `notifications/elicitation/complete` for a URL you opened is reported; after a -32042
//!   error you may retry the call.
//! - `ping` is answered; anything else is refused with -32601 (this client declares no roots
//!   or sampling).
//!
//! Every outcome (an answer sent, declined or cancelled, a URL opened or not, a tool's result)
//! ends with one line saying what happened, marked ✔ or ✘. A tool's text is shown, but text
//! that is raw JSON is left out (structured content is shown as `name: value` lines instead)
//! unless `--log FILE` is given, which also appends every JSON-RPC line to FILE (`> ` sent,
//! `< ` received). The server's stderr is discarded unless `--server-log FILE` is given, so
//! that it does not draw over the prompts. `NO_COLOR` (set and not empty) turns colours off;
//! every warning keeps its `! WARNING:` marker.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::Receiver;

use clap::Parser;
use inquire::error::InquireError;
use inquire::list_option::ListOption;
use inquire::ui::{RenderConfig, Styled};
use inquire::validator::Validation;
use inquire::{MultiSelect, Select};
use mcp_typed::elicit::client::{
    Answer, Consent, Field, FieldKind, Form, FormReply, PendingUrls, UrlRequest,
};
use mcp_typed::v2025_11_25 as mcp;
use mcp_typed::{Map, ProtocolVersion, RequestMethod, Value};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Cmd, ColorMode, Config, Editor, KeyCode, KeyEvent, Modifiers};
use serde::de::DeserializeOwned;

#[derive(Parser)]
#[command(about = "A terminal MCP client that shows elicitations as forms")]
struct Args {
    /// The browser command that opens a URL the user consented to (the URL is appended).
    #[arg(long, env = "BROWSER", default_value = "xdg-open")]
    browser: String,
    /// Append every JSON-RPC line to this file (`> ` sent, `< ` received), and show tools'
    /// raw JSON on screen.
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
    if !colour() {
        // The same markers, no colours (https://no-color.org).
        let mut plain = RenderConfig::empty();
        plain.answered_prompt_prefix = Styled::new(">");
        plain.canceled_prompt_indicator = Styled::new("(Esc)");
        inquire::set_global_render_config(plain);
    } else {
        let mut config = RenderConfig::default_colored();
        config.canceled_prompt_indicator =
            Styled::new("(Esc)").with_fg(inquire::ui::Color::DarkYellow);
        inquire::set_global_render_config(config);
    }
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

/// How a URL came: a URL-mode request (the server gets a reply) or a -32042 error (it does
/// not).
#[derive(Clone, Copy, PartialEq)]
enum Via {
    Request,
    Error,
}

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
                outcome(false, &format!("Not called: {}.", tool.name));
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
                    show_result(name, &result, self.log.is_some());
                    return Ok(());
                }
                Err(error) if error.code == mcp::URL_ELICITATION_REQUIRED => {
                    println!("{name}: {}", error.message);
                    let requests = match UrlRequest::from_error(&error) {
                        Ok(requests) => requests,
                        Err(e) => {
                            outcome(
                                false,
                                &format!("{name} did not run; its URL error is unreadable: {e}"),
                            );
                            return Ok(());
                        }
                    };
                    let (mut opened, mut refused) = (false, "declined");
                    for request in requests {
                        match self.consent(request, Via::Error) {
                            FormReply::Accept(_) => opened = true,
                            FormReply::Decline => refused = "declined",
                            FormReply::Cancel => refused = "cancelled",
                        }
                    }
                    if !opened {
                        outcome(
                            false,
                            &format!(
                                "{name} did not run: it needs its URL opened, and you \
                                 {refused}; nothing was opened."
                            ),
                        );
                        return Ok(());
                    }
                    let again = Select::new("Retry the call?", vec!["Retry", "Back"])
                        .prompt()
                        .is_ok_and(|c| c == "Retry");
                    if !again {
                        outcome(false, &format!("{name} was not called again."));
                        return Ok(());
                    }
                }
                Err(error) => {
                    outcome(
                        false,
                        &format!("{name} failed: {} (error {})", error.message, error.code),
                    );
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
        let server = self.server_name.clone();
        if let mcp::ElicitRequestParams::Url(params) = params {
            let request = UrlRequest::from_params(params).map_err(|e| {
                outcome(
                    false,
                    &format!("Could not show {server}'s URL request ({e}); replied with an error."),
                );
                e.to_string()
            })?;
            return Ok(self.consent(request, Via::Request));
        }
        let form = Form::from_params(params, self.version).map_err(|e| {
            outcome(
                false,
                &format!("Could not show {server}'s form ({e}); replied with an error."),
            );
            e.to_string()
        })?;
        println!();
        println!("{} asks: {}", bold(&server), form.message());
        for line in [form.title(), form.description()].into_iter().flatten() {
            println!("  {line}");
        }
        show_fields(&form);
        let reply = loop {
            let start = Select::new("Answer?", vec!["Fill in the form", "Decline", "Cancel"])
                .with_help_message("↑↓ to move, Enter to choose · Esc to cancel")
                .prompt();
            match start {
                Ok("Fill in the form") => break fill(&form, Purpose::Elicitation),
                Ok("Decline") => break FormReply::Decline,
                Ok(_) => break FormReply::Cancel,
                Err(e) if discard(Purpose::Elicitation, &e) => break FormReply::Cancel,
                Err(_) => {}
            }
        };
        match &reply {
            FormReply::Accept(_) => outcome(true, &format!("Sent your answer to {server}.")),
            FormReply::Decline => outcome(
                false,
                &format!("Declined: {server} was told you will not answer."),
            ),
            FormReply::Cancel => outcome(
                false,
                &format!("Cancelled: {server} was told you dismissed the form."),
            ),
        }
        Ok(reply)
    }

    /// Shows a URL the server wants opened and opens it only if the user says so; Decline
    /// is the default.
    fn consent(&mut self, request: UrlRequest, via: Via) -> FormReply {
        let server = self.server_name.clone();
        println!();
        println!(
            "{} asks you to open a URL: {}",
            bold(&server),
            request.message()
        );
        let parts = request.parts();
        println!(
            "  URL:  {}{}{}",
            parts.before_host,
            highlight(parts.host),
            parts.after_host
        );
        if !request.is_as_written() {
            println!("  As written by the server: {}", request.written());
        }
        if request.host_unicode() == parts.host {
            println!("  Host: {}", highlight(parts.host));
        } else {
            println!(
                "  Host: {} (reads as {})",
                highlight(parts.host),
                request.host_unicode()
            );
        }
        for warning in request.warnings() {
            println!("  {}", warn(&warning.to_string()));
        }
        println!("  Nothing has been opened.");
        let told = |what: &str| match via {
            Via::Request => format!("; {server} was told you {what}"),
            Via::Error => String::new(),
        };
        loop {
            let choice = Select::new(
                "Open it in your browser?",
                vec!["Decline", "Open", "Cancel"],
            )
            .with_starting_cursor(0)
            .with_help_message("Enter declines · ↓ Open to open it in your browser · Esc cancels")
            .prompt();
            match choice {
                Ok("Open") => {}
                // After a -32042 error, the tool call's line says it.
                Ok("Decline") => {
                    if via == Via::Request {
                        outcome(
                            false,
                            &format!("Declined: nothing was opened{}.", told("declined")),
                        );
                    }
                    return request.decline();
                }
                _ => {
                    if via == Via::Request {
                        outcome(
                            false,
                            &format!("Cancelled: nothing was opened{}.", told("dismissed it")),
                        );
                    }
                    return request.cancel();
                }
            }
            self.urls.track(&request);
            let opened = request
                .clone()
                .consent(Consent::given_by_user())
                .open_with(|url| open(&self.browser, url.as_str()));
            match opened {
                Ok(reply) => {
                    outcome(
                        true,
                        &format!(
                            "Opened {} in your browser{}.",
                            request.shown_url(),
                            told("agreed")
                        ),
                    );
                    return reply;
                }
                Err(e) => println!(
                    "  {} nothing was sent; choose again.",
                    warn(&format!("Could not open it: {e};"))
                ),
            }
        }
    }

    /// A notification from the server.
    fn notice(&mut self, notification: mcp::ServerNotification) {
        if let mcp::ServerNotification::ElicitationComplete(done) = &notification
            && let Some(id) = self.urls.complete(done)
        {
            println!("{}: the URL flow {id} is complete.", self.server_name);
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
    let label = format!("Arguments for {} (a JSON object):", tool.name);
    let checked = |s: &str| match serde_json::from_str::<Map<String, Value>>(s) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!(
            "Not a JSON object ({e}); type one, e.g. {{\"name\": \"value\"}}."
        )),
    };
    let help = "a JSON object · Ctrl-U clears · Esc goes back";
    let text = line(&label, "{}", help, &checked).ok()?;
    serde_json::from_str(&text).ok()
}

/// What a form is filled in for: a server's elicitation, or a tool's arguments.
#[derive(Clone, Copy, PartialEq)]
enum Purpose {
    Elicitation,
    Arguments,
}

/// Shows the form's fields before anything is asked: title, whether required, what to type.
fn show_fields(form: &Form) {
    let fields = form.fields();
    let required = fields.iter().filter(|f| f.required).count();
    let count = match fields.len() {
        1 => "1 field".to_owned(),
        n => format!("{n} fields"),
    };
    println!("  The form has {count}, {required} required:");
    let width = fields.len().to_string().len();
    for (k, field) in fields.iter().enumerate() {
        let needed = if field.required { " (required)" } else { "" };
        let what = field.hint().unwrap_or_else(|| "text".to_owned());
        println!(
            "  {:>width$}. {}{needed} — {what}",
            k + 1,
            bold(field.label())
        );
    }
}

/// Whether Esc (or Ctrl-C) on a prompt discards the form: asked, the default is to go
/// back. Esc on this question goes back too; Ctrl-C discards.
fn discard(purpose: Purpose, why: &InquireError) -> bool {
    if !matches!(
        why,
        InquireError::OperationCanceled | InquireError::OperationInterrupted
    ) {
        return true;
    }
    let question = match purpose {
        Purpose::Elicitation => "Discard this form? The server will be told you cancelled.",
        Purpose::Arguments => "Discard these arguments? The tool will not be called.",
    };
    let answer = Select::new(question, vec!["No, back to the form", "Yes, discard it"])
        .with_help_message("Enter goes back · Esc goes back")
        .prompt();
    match answer {
        Ok(choice) => choice == "Yes, discard it",
        Err(InquireError::OperationInterrupted) => true,
        Err(_) => false,
    }
}

/// Fills a form in: every field in order, then a review where the answer is sent, a field
/// changed, or (an elicitation) declined or cancelled. Esc asks before discarding.
fn fill(form: &Form, purpose: Purpose) -> FormReply {
    let mut answer = form.answer();
    let fields = form.fields();
    let mut k = 0;
    while k < fields.len() {
        match ask(&fields[k], (k + 1, fields.len()), &mut answer) {
            Ok(()) => k += 1,
            Err(e) if discard(purpose, &e) => return FormReply::Cancel,
            Err(_) => {}
        }
    }
    let (question, options) = match purpose {
        Purpose::Elicitation => (
            "Send this answer?",
            vec!["Send", "Change an answer", "Decline", "Cancel"],
        ),
        Purpose::Arguments => ("Call the tool?", vec!["Call", "Change an answer", "Back"]),
    };
    let mut shown = true;
    loop {
        if shown {
            println!("  {}", bold("Your answer:"));
            for field in fields {
                let value = answer
                    .get(&field.name)
                    .map_or("—".to_owned(), |v| shown_for(field, v));
                println!("    {}: {value}", field.label());
            }
        }
        shown = true;
        let choice = Select::new(question, options.clone())
            .with_help_message("↑↓ to move, Enter to choose · Esc to cancel")
            .prompt();
        match choice {
            Ok("Change an answer") => {
                let labels: Vec<FieldChoice> = fields.iter().map(FieldChoice).collect();
                let Ok(FieldChoice(field)) = Select::new("Which one?", labels)
                    .with_help_message("type to filter, Enter to choose · Esc goes back")
                    .prompt()
                else {
                    shown = false;
                    continue;
                };
                let k = fields.iter().position(|f| f == field).expect("a field");
                while let Err(e) = ask(field, (k + 1, fields.len()), &mut answer) {
                    if discard(purpose, &e) {
                        return FormReply::Cancel;
                    }
                }
            }
            Ok("Decline") => return FormReply::Decline,
            Ok("Send" | "Call") => match answer.clone().accept() {
                Ok(reply) => return reply,
                Err(e) => {
                    for words in form.explain(&e) {
                        println!("  {} {words}", styled("!", "1;31"));
                    }
                    shown = false;
                }
            },
            Ok(_) => return FormReply::Cancel,
            Err(e) if discard(purpose, &e) => return FormReply::Cancel,
            Err(_) => shown = false,
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

/// Asks one field (`at`: its place, k of n); `Err` when the user pressed Esc or Ctrl-C (the
/// answer is then unchanged).
fn ask(field: &Field, at: (usize, usize), answer: &mut Answer<'_>) -> Result<(), InquireError> {
    let label = if field.required {
        format!("{}:", field.label())
    } else {
        format!("{} (optional):", field.label())
    };
    let current = answer.get(&field.name).cloned();
    let name = field.name.as_str();
    match &field.kind {
        FieldKind::Text { .. } | FieldKind::Integer { .. } | FieldKind::Number { .. } => {
            let initial = current.as_ref().map(shown).unwrap_or_default();
            let help = help(field, at, "Ctrl-U clears · Esc to cancel");
            let text = line(&label, &initial, &help, &|s: &str| {
                typed(field, s).map(|_| ())
            })
            .map_err(|stop| match stop {
                Stop::Cancel => InquireError::OperationCanceled,
                Stop::Broken(e) => InquireError::Custom(e.into()),
            })?;
            match typed(field, &text) {
                Ok(Some(_)) => {
                    answer.parse(name, &text).expect("checked by the validator");
                }
                _ => {
                    answer.clear(name);
                }
            }
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
            let choice = Select::new(&label, options)
                .with_starting_cursor(cursor)
                .with_help_message(&help(field, at, "Esc to cancel"))
                .prompt()?;
            match choice {
                NO_ANSWER => {
                    answer.clear(name);
                }
                yes_no => {
                    answer.set_bool(name, yes_no == "Yes").expect("a boolean");
                }
            }
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
            let picked = Select::new(&label, labels)
                .with_starting_cursor(cursor)
                .with_help_message(&help(field, at, "Esc to cancel"))
                .raw_prompt()?;
            match options.get(picked.index) {
                Some(option) => {
                    answer
                        .set_choice(name, &option.value)
                        .expect("one of the options");
                }
                None => {
                    answer.clear(name);
                }
            }
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
            let picked = MultiSelect::new(&label, labels)
                .with_default(&chosen)
                .with_help_message(&help(
                    field,
                    at,
                    "Space ticks, Enter confirms · Esc to cancel",
                ))
                .with_validator(move |picked: &[ListOption<&String>]| {
                    let indexes: Vec<usize> = picked.iter().map(|o| o.index).collect();
                    let value = Value::from(check(&indexes));
                    let empty_optional = indexes.is_empty() && !rules.required;
                    Ok(match rules.check(&value) {
                        Err(e) if !empty_optional => {
                            Validation::Invalid(explain(&rules, &e).into())
                        }
                        _ => Validation::Valid,
                    })
                })
                .raw_prompt()?;
            let indexes: Vec<usize> = picked.iter().map(|o| o.index).collect();
            if indexes.is_empty() && !field.required {
                answer.clear(name);
            } else {
                answer
                    .set_choices(name, values(&indexes))
                    .expect("options of the field");
            }
        }
        // `FieldKind` is non-exhaustive: a kind added later is left unanswered.
        _ => {}
    }
    Ok(())
}

const NO_ANSWER: &str = "(no answer)";

/// What a text prompt's input means for the field: `None` for an optional field left
/// empty, the value when it fits the field's rules, else why not in a person's words.
fn typed(field: &Field, text: &str) -> Result<Option<Value>, String> {
    let blank = match field.kind {
        FieldKind::Text { .. } => text.is_empty(),
        _ => text.trim().is_empty(),
    };
    if blank {
        return if field.required {
            Err(field.explain(&mcp_typed::elicit::ViolationKind::Missing))
        } else {
            Ok(None)
        };
    }
    let value = field.read(text).map_err(|e| field.explain_error(&e))?;
    field.check(&value).map_err(|e| explain(field, &e))?;
    Ok(Some(value))
}

/// A content error's violations in a person's words.
fn explain(field: &Field, error: &mcp_typed::elicit::ContentError) -> String {
    let words: Vec<String> = error
        .violations()
        .iter()
        .map(|v| field.explain(&v.kind))
        .collect();
    words.join(" ")
}

/// The help line under a prompt: where in the form, the field's description, what to type
/// with an example, and the keys.
fn help(field: &Field, (k, n): (usize, usize), keys: &str) -> String {
    let mut parts = vec![format!("field {k} of {n}")];
    parts.extend(field.description.iter().cloned());
    if matches!(
        field.kind,
        FieldKind::Text { .. } | FieldKind::Integer { .. } | FieldKind::Number { .. }
    ) {
        parts.extend(field.hint());
    }
    if let FieldKind::MultiSelect {
        min_items,
        max_items,
        ..
    } = field.kind
    {
        match (min_items.filter(|&m| m > 0), max_items) {
            (Some(min), Some(max)) => parts.push(format!("choose {min} to {max}")),
            (Some(min), None) => parts.push(format!("choose at least {min}")),
            (None, Some(max)) => parts.push(format!("choose at most {max}")),
            (None, None) => {}
        }
    }
    parts.push(keys.to_owned());
    parts.join(" · ")
}

/// Why a line prompt stopped without a value.
enum Stop {
    /// Esc, Ctrl-C or Ctrl-D.
    Cancel,
    /// The terminal failed.
    Broken(String),
}

/// One line of text, edited with readline's keys (Ctrl-U clears to the start, Ctrl-K to the
/// end, Ctrl-W a word), starting from `initial`; `check` refuses a value with its message,
/// shown under the line, and the line is edited again. The help line is shown under it.
fn line(
    label: &str,
    initial: &str,
    help: &str,
    check: &dyn Fn(&str) -> Result<(), String>,
) -> Result<String, Stop> {
    let config = Config::builder()
        .color_mode(if colour() {
            ColorMode::Enabled
        } else {
            ColorMode::Disabled
        })
        // A lone Esc arrives as one byte; wait this long (ms) for the rest of a key sequence.
        .keyseq_timeout(Some(50))
        .auto_add_history(false)
        .build();
    let helper = LineHelper {
        help: help.to_owned(),
        check,
    };
    let mut editor: Editor<LineHelper<'_>, rustyline::history::DefaultHistory> =
        Editor::with_config(config).map_err(|e| Stop::Broken(e.to_string()))?;
    editor.set_helper(Some(helper));
    editor.bind_sequence(KeyEvent(KeyCode::Esc, Modifiers::NONE), Cmd::Interrupt);
    let raw = format!("? {label} ");
    let prompt = (raw, format!("{} {} ", styled("?", "92"), bold(label)));
    match editor.readline_with_initial(&prompt, (initial, "")) {
        Ok(text) => Ok(text),
        Err(ReadlineError::Interrupted | ReadlineError::Eof) => {
            println!("{}", styled("(Esc)", "33"));
            Err(Stop::Cancel)
        }
        Err(e) => Err(Stop::Broken(e.to_string())),
    }
}

/// The line prompt's help (under the line, as a hint) and check.
struct LineHelper<'c> {
    help: String,
    check: &'c dyn Fn(&str) -> Result<(), String>,
}

impl rustyline::Helper for LineHelper<'_> {}

impl Completer for LineHelper<'_> {
    type Candidate = String;
}

impl Hinter for LineHelper<'_> {
    type Hint = String;

    fn hint(&self, _line: &str, _pos: usize, _ctx: &rustyline::Context<'_>) -> Option<String> {
        Some(format!("\n[{}]", self.help))
    }
}

impl Highlighter for LineHelper<'_> {
    fn highlight_hint<'h>(&self, hint: &'h str) -> std::borrow::Cow<'h, str> {
        styled(hint, "36").into()
    }
}

impl Validator for LineHelper<'_> {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(match (self.check)(ctx.input()) {
            Ok(()) => ValidationResult::Valid(None),
            Err(why) => ValidationResult::Invalid(Some(format!(
                "\n{} {why}\n{}",
                styled("#", "31"),
                styled(&format!("[{}]", self.help), "36")
            ))),
        })
    }
}

/// Shows a tool's result: its text, then one line saying how it went. Text that is raw JSON
/// (and structured content as JSON) is shown only with `--log` (`raw`); without it,
/// structured content is shown as `name: value` lines when its JSON text was left out.
fn show_result(name: &str, result: &mcp::CallToolResult, raw: bool) {
    let mut left_out = 0;
    let mut texts = 0;
    for text in result.texts() {
        texts += 1;
        if !raw && is_json(text) {
            left_out += 1;
            continue;
        }
        println!("{text}");
    }
    if let Some(structured) = &result.structured_content {
        if raw && texts == 0 {
            let pretty = serde_json::to_string_pretty(structured).expect("values encode");
            println!("{pretty}");
        } else if !raw && (texts == 0 || left_out == texts) {
            for (key, value) in structured.iter() {
                let value = match value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                println!("  {key}: {value}");
            }
        }
    }
    let others = result.content.len() - texts;
    let mut notes = Vec::new();
    if others > 0 {
        notes.push(format!("{others} non-text block(s) not shown"));
    }
    if left_out > 0 {
        notes.push(format!(
            "{left_out} block(s) of raw JSON left out; --log shows them"
        ));
    }
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    };
    if result.is_error == Some(true) {
        outcome(false, &format!("{name} reported an error{notes}."));
    } else {
        outcome(true, &format!("{name} finished{notes}."));
    }
}

/// Whether a text block is raw JSON: a JSON object or array, alone or after a one-line
/// label (`Raw result: {…}`).
fn is_json(text: &str) -> bool {
    let Some(start) = text.find(['{', '[']) else {
        return false;
    };
    let label = text[..start].trim();
    let labelled = label.is_empty() || (label.ends_with(':') && !label.contains('\n'));
    labelled && serde_json::from_str::<Value>(text[start..].trim()).is_ok()
}

/// One line that ends an outcome: ✔ (green) or ✘ (red), then what happened.
fn outcome(ok: bool, text: &str) {
    let mark = if ok {
        styled("✔", "1;32")
    } else {
        styled("✘", "1;31")
    };
    println!("{mark} {text}");
}

/// Whether to colour: a terminal, and `NO_COLOR` unset or empty.
fn colour() -> bool {
    static COLOUR: OnceLock<bool> = OnceLock::new();
    *COLOUR.get_or_init(|| {
        std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    })
}

fn styled(text: &str, code: &str) -> String {
    if colour() {
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

/// A warning: the `! WARNING:` marker (bold, red) stays without colours; the text is yellow.
fn warn(text: &str) -> String {
    format!("{} {}", styled("! WARNING:", "1;31"), styled(text, "33"))
}
