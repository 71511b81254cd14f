//! A stdio MCP server (newline-delimited JSON-RPC) serving 2025-06-18, 2025-11-25 and 2026-07-28
//! from one set of tools, one resource and one prompt.
//!
//! - `book_table(date)`: 2026-12-24 is full, so it asks for another date (a form) and books it.
//! - `survey`: a form of every primitive kind; answers with the values received.
//! - the resource `booking://menu` and the prompt `plan_dinner(guests)`.
//!
//! A tool asks for a form by returning [`Step::Ask`] and gets the answer on a second run. Up to
//! 2025-11-25 the server sends the form as an `elicitation/create` request and runs the tool
//! again when the response comes; from 2026-07-28 on it returns an `InputRequiredResult`, and
//! the client retries the `tools/call` with the answer in `inputResponses`. The handshake-era
//! code is written against 2025-11-25 and converts 2025-06-18 messages at the boundary.
//!
//! Run: `cargo run -p mcp-tests --example booking-server` (stdio), or
//! `… --example booking-server -- --http 127.0.0.1:3000` (Streamable HTTP at `/mcp`, one
//! `Booking` per HTTP session; `support/streamable_http.rs` is the transport).

#[path = "support/streamable_http.rs"]
mod streamable_http;

use std::io::{BufRead, Write};

use chrono::NaiveDate;
use mcp_typed::elicit::{ElicitOutcome, FormParams, to_typed};
use mcp_typed::{Elicit, IndexMap, ProtocolVersion, ToolSchema, Unknowns, convert};
use mcp_typed::{v2025_06_18 as v06, v2025_11_25 as v11, v2026_07_28 as v26};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::{RawValue, to_raw_value};
use serde_json::{Map, Value, json};

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
struct Alternative {
    /// Book another date instead?
    check_alternative: bool,
    /// The date to book instead
    alternative_date: NaiveDate,
}

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
struct Survey {
    name: String,
    #[elicit(minimum = 0, maximum = 150)]
    age: i64,
    height_m: f64,
    subscribe: bool,
    color: Color,
    #[elicit(max_items = 2)]
    toppings: Vec<Topping>,
}

#[derive(Elicit, Debug)]
enum Color {
    Red,
    Green,
}
#[derive(Elicit, Debug)]
enum Topping {
    Cheese,
    Olives,
}

const FULL: &str = "2026-12-24";
const MENU: &str = "booking://menu";
/// The key of the one input request a tool makes in 2026-07-28.
const FORM: &str = "form";

fn main() -> std::io::Result<()> {
    if let Some(addr) = std::env::args().skip_while(|a| a != "--http").nth(1) {
        let addr = addr
            .parse()
            .map_err(|e| std::io::Error::other(format!("--http {addr}: {e}")))?;
        return streamable_http::serve(addr, Booking::default);
    }
    let (mut session, mut out) = (Booking::default(), std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        for reply in session.receive(&line?) {
            writeln!(out, "{reply}")?;
        }
        out.flush()?;
    }
    Ok(())
}

impl streamable_http::Session for Booking {
    fn receive(&mut self, message: &str) -> Vec<String> {
        Booking::receive(self, message)
    }
}

/// What a tool run comes to: a text (and whether it is an error), or a form to fill first.
enum Step {
    Done(String, bool),
    Ask(FormParams),
}

/// Runs tool `name` in a session of `version`; `answer` is the `ElicitResult` for the form it
/// asked on its previous run. `None` when there is no such tool.
fn run_tool(
    name: &str,
    args: Option<&Map<String, Value>>,
    answer: Option<&RawValue>,
    version: ProtocolVersion,
) -> Option<Step> {
    let date = args
        .and_then(|a| a.get("date")?.as_str())
        .unwrap_or_default();
    Some(match (name, answer) {
        ("book_table", _) if date.parse::<NaiveDate>().is_err() => done(
            true,
            format!("`date` must be a date (YYYY-MM-DD), not `{date}`."),
        ),
        ("book_table", _) if date != FULL => done(false, format!("Booked a table for {date}.")),
        ("book_table", None) => ask::<Alternative>(format!("{FULL} is full."), version),
        ("book_table", Some(answer)) => match Alternative::outcome(&answer) {
            Ok(ElicitOutcome::Accepted(a)) if a.check_alternative => {
                done(false, format!("Booked a table for {}.", a.alternative_date))
            }
            Ok(_) => done(false, "Nothing was booked."),
            Err(e) => done(true, format!("Invalid answer: {e}")),
        },
        ("survey", None) => ask::<Survey>("A few questions", version),
        ("survey", Some(answer)) => match Survey::outcome(&answer) {
            Ok(ElicitOutcome::Accepted(s)) => done(
                false,
                format!(
                    "{}, {} years, {} m, subscribe: {}, {:?}, {:?}",
                    s.name, s.age, s.height_m, s.subscribe, s.color, s.toppings
                ),
            ),
            Ok(_) => done(false, "No answers."),
            Err(e) => done(true, format!("Invalid answer: {e}")),
        },
        _ => return None,
    })
}

fn done(is_error: bool, text: impl Into<String>) -> Step {
    Step::Done(text.into(), is_error)
}

/// The form for `version`; one the revision cannot express is the tool's error.
fn ask<T: Elicit>(message: impl Into<String>, version: ProtocolVersion) -> Step {
    T::form_params(message, version).map_or_else(|e| done(true, e.to_string()), Step::Ask)
}

fn tools() -> Vec<v11::Tool> {
    let date = json!({"type": "object", "properties": {"date": {"type": "string", "format": "date"}}, "required": ["date"]});
    let date = v11::ToolInputSchema::from_json(date).expect("an object schema");
    let survey = v11::ToolInputSchema::new();
    vec![
        v11::Tool::new("book_table", date)
            .with_description("Books a table, or asks for another date."),
        v11::Tool::new("survey", survey).with_description("Asks a few questions."),
    ]
}

fn resources() -> Vec<v11::Resource> {
    let menu = v11::Resource::new("menu", MENU).with_mime_type("text/plain");
    vec![menu.with_description("Tonight's menu")]
}

fn read_resource(uri: &str) -> Option<v11::TextResourceContents> {
    let text = "Soup of the day 6.50\nRisotto 14.00\nTiramisu 7.25";
    (uri == MENU).then(|| v11::TextResourceContents::new(MENU, text).with_mime_type("text/plain"))
}

fn prompts() -> Vec<v11::Prompt> {
    let guests = v11::PromptArgument::new("guests").with_description("How many people");
    let prompt = v11::Prompt::new("plan_dinner").with_arguments(vec![guests.with_required(true)]);
    vec![prompt.with_description("Plans a dinner out.")]
}

/// The text of prompt `name`, or what is wrong with the request.
fn get_prompt(name: &str, args: Option<&IndexMap<String, String>>) -> Result<String, String> {
    match (name, args.and_then(|a| a.get("guests"))) {
        ("plan_dinner", Some(n)) => Ok(format!("Book a table for {n} and choose from {MENU}.")),
        ("plan_dinner", None) => Err("prompt `plan_dinner` needs the argument `guests`".into()),
        _ => Err(format!("no prompt `{name}`")),
    }
}

fn capabilities() -> v11::ServerCapabilities {
    v11::ServerCapabilities::new()
        .with_tools(v11::ServerCapabilitiesTools::new())
        .with_resources(v11::ServerCapabilitiesResources::new())
        .with_prompts(v11::ServerCapabilitiesPrompts::new())
}

fn server_info() -> v11::Implementation {
    v11::Implementation::new("booking-server", "0.1.0")
}

/// One client's session. 2026-07-28 is stateless (every request names its revision in
/// `_meta`); before it, `initialize` fixes the revision and sent forms wait for their answer.
#[derive(Default)]
pub struct Booking {
    version: Option<ProtocolVersion>,
    /// The id of each form sent, and the `tools/call` (id, params) it is for.
    waiting: Vec<(v11::RequestId, v11::RequestId, v11::CallToolRequestParams)>,
}

impl Booking {
    /// One incoming JSON-RPC message → the messages to send back, in order.
    pub fn receive(&mut self, message: &str) -> Vec<String> {
        let peek: Value = serde_json::from_str(message).unwrap_or_default();
        let requested = peek.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion");
        let reply = match (self.version, requested.and_then(Value::as_str)) {
            (None, Some(requested)) => modern(message, requested).map(|m| encode(&m)),
            (version, _) => self.legacy(message, version.unwrap_or(ProtocolVersion::V2025_11_25)),
        };
        reply.into_iter().collect()
    }

    /// A message of a handshake-era session of `version` → the reply, in the session's revision.
    fn legacy(&mut self, message: &str, version: ProtocolVersion) -> Option<String> {
        let reply = match read(message, version) {
            Ok(message) => self.handle(message)?,
            Err(reply) => reply,
        };
        if self.version.unwrap_or(version) == ProtocolVersion::V2025_11_25 {
            return Some(encode(&reply));
        }
        let down = convert::downgrade::<v06::ServerMessage>(&reply).map(|d| d.value);
        let error = |e: convert::ConversionError| {
            v06::ServerMessage::error(None, v06::INTERNAL_ERROR, e.to_string())
        };
        Some(encode(&down.unwrap_or_else(error)))
    }

    fn handle(&mut self, message: v11::ClientMessage) -> Option<v11::ServerMessage> {
        use v11::{ClientRequest as R, ServerMessage as M};
        let request = match message {
            v11::ClientMessage::Request(request) => request,
            v11::ClientMessage::Response(answer) => {
                let at = self.waiting.iter().position(|w| w.0 == answer.id)?;
                let (_, id, call) = self.waiting.remove(at);
                return Some(self.call_tool(id, call, Some(&answer.result)));
            }
            v11::ClientMessage::Notification(_) | v11::ClientMessage::Error(_) => return None,
        };
        let id = v11::ClientMessage::request_id(&request)?;
        Some(match request {
            R::Initialize(init) => {
                let ours = [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];
                let version = ProtocolVersion::negotiate(&init.params.protocol_version, &ours)?;
                self.version = Some(version);
                let result =
                    v11::InitializeResult::new(version.as_str(), capabilities(), server_info());
                M::response(id, result)
            }
            R::Ping(_) => M::response(id, v11::McpResult::new()),
            R::ListTools(_) => M::response(id, v11::ListToolsResult::new(tools())),
            R::ListResources(_) => M::response(id, v11::ListResourcesResult::new(resources())),
            R::ReadResource(r) => match read_resource(&r.params.uri) {
                Some(text) => M::response(id, v11::ReadResourceResult::new(vec![text.into()])),
                None => M::error(Some(id), v11::INVALID_PARAMS, no_resource(&r.params.uri)),
            },
            R::ListPrompts(_) => M::response(id, v11::ListPromptsResult::new(prompts())),
            R::GetPrompt(p) => match get_prompt(&p.params.name, p.params.arguments.as_ref()) {
                Ok(text) => {
                    let text =
                        v11::PromptMessage::new(v11::Role::User, v11::TextContent::new(text));
                    M::response(id, v11::GetPromptResult::new(vec![text]))
                }
                Err(e) => M::error(Some(id), v11::INVALID_PARAMS, e),
            },
            R::CallTool(call) => self.call_tool(id, call.params, None),
            _ => M::error(Some(id), v11::METHOD_NOT_FOUND, "not supported"),
        })
    }

    /// Runs the tool of `tools/call` `id`: the response, or the form it asks first.
    fn call_tool(
        &mut self,
        id: v11::RequestId,
        call: v11::CallToolRequestParams,
        answer: Option<&RawValue>,
    ) -> v11::ServerMessage {
        use v11::ServerMessage as M;
        let version = self.version.unwrap_or(ProtocolVersion::V2025_11_25);
        match run_tool(&call.name, call.arguments.as_ref(), answer, version) {
            None => M::error(Some(id), v11::INVALID_PARAMS, no_tool(&call.name)),
            Some(Step::Done(text, is_error)) => {
                let result = v11::CallToolResult::new(vec![v11::TextContent::new(text).into()]);
                M::response(id, result.with_is_error(is_error))
            }
            Some(Step::Ask(form)) => {
                let form_id = v11::RequestId::from(format!("form-{id}"));
                let params: v11::ElicitRequestFormParams = to_typed(&form).expect("a form");
                self.waiting.push((form_id.clone(), id, call));
                M::request(v11::ElicitRequest::new(form_id, params))
            }
        }
    }
}

/// A 2026-07-28 message (`requested`: the revision its `_meta` names) → the reply, if any.
fn modern(message: &str, requested: &str) -> Option<v26::ServerMessage> {
    use v26::{ClientRequest as R, ServerMessage as M};
    let request = match v26::ClientMessage::from_json(message) {
        Ok(v26::ClientMessage::Request(request)) => request,
        Ok(_) => return None,
        Err(e) => return Some(e.into_reply()),
    };
    let id = v26::ClientMessage::request_id(&request)?;
    let ours = ProtocolVersion::V2026_07_28.as_str();
    if requested != ours {
        let data = json!({"requested": requested, "supported": [ours]});
        let message = format!("protocol version `{requested}` is not supported");
        let error = v26::Error::new(v26::UNSUPPORTED_PROTOCOL_VERSION, message).with_data(data);
        let id = Some(id);
        return Some(M::Error(v26::JsonRpcErrorResponse {
            error,
            id,
            extra: Map::new(),
        }));
    }
    // Every result says it is complete, names the server, and may be cached by anyone (ttl 0).
    let (done, meta) = (
        "complete",
        v26::ResultMetaObject::new().with_server_info(up::<v26::Implementation>(&server_info())),
    );
    Some(match request {
        R::Discover(_) => {
            let scope = v26::DiscoverResultCacheScope::Public;
            let result = v26::DiscoverResult::new(
                done,
                0,
                scope,
                vec![ours.into()],
                up::<v26::ServerCapabilities>(&capabilities()),
            );
            M::response(id, result.with_meta(meta))
        }
        R::ListTools(_) => {
            let scope = v26::ListToolsResultCacheScope::Public;
            M::response(
                id,
                v26::ListToolsResult::new(done, 0, scope, up(&tools())).with_meta(meta),
            )
        }
        R::ListResources(_) => {
            let scope = v26::ListResourcesResultCacheScope::Public;
            let result = v26::ListResourcesResult::new(done, 0, scope, up(&resources()));
            M::response(id, result.with_meta(meta))
        }
        R::ReadResource(r) => match read_resource(&r.params.uri) {
            Some(text) => {
                let (scope, text) = (
                    v26::ReadResourceResultCacheScope::Public,
                    up::<v26::TextResourceContents>(&text),
                );
                let result = v26::ReadResourceResult::new(done, 0, scope, vec![text.into()]);
                M::response(id, result.with_meta(meta))
            }
            None => M::error(Some(id), v26::INVALID_PARAMS, no_resource(&r.params.uri)),
        },
        R::ListPrompts(_) => {
            let scope = v26::ListPromptsResultCacheScope::Public;
            M::response(
                id,
                v26::ListPromptsResult::new(done, 0, scope, up(&prompts())).with_meta(meta),
            )
        }
        R::GetPrompt(p) => match get_prompt(&p.params.name, p.params.arguments.as_ref()) {
            Ok(text) => {
                let text = v26::PromptMessage::new(v26::Role::User, v26::TextContent::new(text));
                M::response(
                    id,
                    v26::GetPromptResult::new(done, vec![text]).with_meta(meta),
                )
            }
            Err(e) => M::error(Some(id), v26::INVALID_PARAMS, e),
        },
        R::CallTool(call) => {
            let p = call.params;
            let answer = p.input_responses.as_ref().and_then(|r| r.get(FORM));
            let answer = answer.map(|a| to_raw_value(a).expect("typed values encode"));
            match run_tool(
                &p.name,
                p.arguments.as_ref(),
                answer.as_deref(),
                ProtocolVersion::V2026_07_28,
            ) {
                None => M::error(Some(id), v26::INVALID_PARAMS, no_tool(&p.name)),
                Some(Step::Done(text, is_error)) => {
                    let result =
                        v26::CallToolResult::new(done, vec![v26::TextContent::new(text).into()]);
                    M::response(id, result.with_is_error(is_error).with_meta(meta))
                }
                // Ask for the form; the client retries this call with the answer under `FORM`.
                Some(Step::Ask(form)) => {
                    let request: v26::InputRequest =
                        to_typed(&form.into_request()).expect("a form");
                    let requests = IndexMap::from_iter([(FORM.to_owned(), request)]);
                    M::response(
                        id,
                        v26::InputRequiredResult::new()
                            .with_input_requests(requests)
                            .with_meta(meta),
                    )
                }
            }
        }
        _ => M::error(Some(id), v26::METHOD_NOT_FOUND, "not supported"),
    })
}

/// A line of a handshake-era session as a 2025-11-25 message, or the error response owed.
fn read(line: &str, version: ProtocolVersion) -> Result<v11::ClientMessage, v11::ServerMessage> {
    if version == ProtocolVersion::V2025_11_25 {
        return v11::ClientMessage::from_json(line).map_err(|e| e.into_reply());
    }
    let message = v06::ClientMessage::from_json(line)
        .map_err(|e| convert::upgrade(e.reply()).expect("error responses upgrade"))?;
    convert::upgrade(&message)
        .map_err(|e| v11::ServerMessage::error(None, v11::INVALID_REQUEST, e.to_string()))
}

/// A 2025-11-25 value as 2026-07-28's: tools, resources and prompts mean the same in both.
fn up<T: DeserializeOwned + Unknowns>(value: &(impl Serialize + Unknowns)) -> T {
    convert::upgrade(value).expect("upgrades to 2026-07-28")
}

fn encode(message: &impl Serialize) -> String {
    serde_json::to_string(message).expect("messages encode")
}

fn no_tool(name: &str) -> String {
    format!("no tool `{name}`")
}

fn no_resource(uri: &str) -> String {
    format!("no resource `{uri}`")
}
