//! A stdio MCP server (newline-delimited JSON-RPC) written against 2025-11-25 that also serves
//! 2025-06-18 sessions, converting each message at the boundary: `book_table(date)` asks for
//! another date when the day is full (2026-12-24); `survey` asks a form of every primitive kind
//! and answers with the values received. Run: `cargo run -p mcp-tests --example booking-server`.

use std::io::{BufRead, Write};

use mcp_types::elicit::{ElicitOutcome, to_typed};
use mcp_types::v2025_11_25::*;
use mcp_types::{Elicit, ProtocolVersion, ToolSchema, convert, v2025_06_18 as old};
use serde_json::json;

#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
struct Alternative {
    /// Book another date instead?
    check_alternative: bool,
    /// The date to book instead
    #[elicit(format = "date")]
    alternative_date: String,
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
/// The id of a form sent, the `tools/call` it is for, and whether it is the survey.
struct Waiting(RequestId, RequestId, bool);

fn main() -> std::io::Result<()> {
    let (mut out, mut waiting) = (std::io::stdout().lock(), Vec::<Waiting>::new());
    let mut version = ProtocolVersion::V2025_11_25; // until `initialize` says otherwise
    for line in std::io::stdin().lock().lines() {
        let reply = match read(&line?, version) {
            Ok(message) => handle(message, &mut waiting, &mut version),
            Err(reply) => Some(reply),
        };
        if let Some(reply) = reply {
            writeln!(out, "{}", write(&reply, version))?;
            out.flush()?;
        }
    }
    Ok(())
}

/// A line of the session's revision as a 2025-11-25 message, or the error response owed.
fn read(line: &str, version: ProtocolVersion) -> Result<ClientMessage, ServerMessage> {
    if version == ProtocolVersion::V2025_11_25 {
        return ClientMessage::from_json(line);
    }
    let message = old::ClientMessage::from_json(line)
        .map_err(|reply| convert::upgrade(&reply).expect("error responses upgrade"))?;
    convert::upgrade(&message)
        .map_err(|e| ServerMessage::error(None, INVALID_REQUEST, e.to_string()))
}

/// A reply in the session's revision, without what it cannot carry.
fn write(reply: &ServerMessage, version: ProtocolVersion) -> String {
    if version == ProtocolVersion::V2025_11_25 {
        return serde_json::to_string(reply).expect("messages encode");
    }
    let down = convert::downgrade::<old::ServerMessage>(reply).map(|d| d.value);
    let down =
        down.unwrap_or_else(|e| old::ServerMessage::error(None, INTERNAL_ERROR, e.to_string()));
    serde_json::to_string(&down).expect("messages encode")
}

fn handle(
    message: ClientMessage,
    waiting: &mut Vec<Waiting>,
    version: &mut ProtocolVersion,
) -> Option<ServerMessage> {
    let request = match message {
        ClientMessage::Request(request) => request,
        ClientMessage::Response(answer) => return answered(answer, waiting),
        ClientMessage::Notification(_) | ClientMessage::Error(_) => return None,
    };
    let id = ClientMessage::request_id(&request)?;
    Some(match request {
        ClientRequest::Initialize(init) => {
            let ours = [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];
            *version = ProtocolVersion::negotiate(&init.params.protocol_version, &ours)?;
            let capabilities = ServerCapabilities::new().with_tools(ServerCapabilitiesTools::new());
            let server = Implementation::new("booking-server", "0.1.0");
            let result = InitializeResult::new(capabilities, version.as_str(), server);
            ServerMessage::response(id, result)
        }
        ClientRequest::Ping(_) => ServerMessage::response(id, McpResult::new()),
        ClientRequest::ListTools(_) => ServerMessage::response(id, ListToolsResult::new(tools())),
        ClientRequest::CallTool(call) => {
            let args = call.params.arguments.as_ref();
            let date = args.and_then(|a| a.get("date")?.as_str()).unwrap_or("");
            let params = match call.params.name.as_str() {
                "book_table" if date == "2026-12-24" => {
                    form::<Alternative>("2026-12-24 is full.", *version)
                }
                "book_table" => return Some(reply(id, format!("Booked a table for {date}."))),
                "survey" => form::<Survey>("A few questions", *version),
                _ => return Some(ServerMessage::error(Some(id), INVALID_PARAMS, "no tool")),
            };
            let params = match params {
                Ok(params) => params,
                // A form the session's revision cannot express is the tool's error.
                Err(e) => return Some(ServerMessage::response(id, text(e).with_is_error(true))),
            };
            let form = RequestId::from(format!("form-{id}"));
            waiting.push(Waiting(form.clone(), id, call.params.name == "survey"));
            ServerMessage::request(form.clone(), ElicitRequest::new(form, params))
        }
        _ => ServerMessage::error(Some(id), METHOD_NOT_FOUND, "not supported"),
    })
}

fn answered(answer: ResultResponse, waiting: &mut Vec<Waiting>) -> Option<ServerMessage> {
    let Waiting(_, call, survey) = waiting.remove(waiting.iter().position(|w| w.0 == answer.id)?);
    let reply = match (survey, answer.result_as::<ElicitRequest>()) {
        (_, Err(e)) => text(format!("Unreadable answer: {e}")).with_is_error(true),
        (false, Ok(r)) => match Alternative::outcome(&r) {
            Ok(ElicitOutcome::Accepted(a)) if a.check_alternative => {
                text(format!("Booked a table for {}.", a.alternative_date))
            }
            Ok(_) => text("Nothing was booked."),
            Err(e) => text(format!("Invalid answer: {e}")).with_is_error(true),
        },
        (true, Ok(r)) => match Survey::outcome(&r) {
            Ok(ElicitOutcome::Accepted(s)) => text(format!(
                "{}, {} years, {} m, subscribe: {}, {:?}, {:?}",
                s.name, s.age, s.height_m, s.subscribe, s.color, s.toppings
            )),
            Ok(_) => text("No answers."),
            Err(e) => text(format!("Invalid answer: {e}")).with_is_error(true),
        },
    };
    Some(ServerMessage::response(call, reply))
}

/// The form for the session's revision, as 2025-11-25 params.
fn form<T: Elicit>(m: &str, v: ProtocolVersion) -> Result<ElicitRequestFormParams, String> {
    let params = T::form_params(m, v).map_err(|e| e.to_string())?;
    to_typed(&params).map_err(|e| e.to_string())
}

fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::new(vec![TextContent::new(s).into()])
}

fn reply(id: RequestId, s: impl Into<String>) -> ServerMessage {
    ServerMessage::response(id, text(s))
}

fn tools() -> Vec<Tool> {
    let date = json!({"type": "object", "properties": {"date": {"type": "string", "format": "date"}}, "required": ["date"]});
    let date = ToolInputSchema::from_json(date).expect("an object schema");
    vec![
        Tool::new(date, "book_table").with_description("Books a table, or asks for another date."),
        Tool::new(ToolInputSchema::new(), "survey").with_description("Asks a few questions."),
    ]
}
