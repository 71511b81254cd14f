//! A stdio MCP server (2025-11-25, newline-delimited JSON-RPC): `book_table(date)` asks for
//! another date when the day is full (2026-12-24); `survey` asks a form of every primitive kind
//! and answers with the values received. Run: `cargo run -p mcp-tests --example booking-server`.

use std::io::{BufRead, Write};

use mcp_types::elicit::{ElicitOutcome, ElicitTyped, revision::V2025_11_25};
use mcp_types::v2025_11_25::*;
use mcp_types::{Elicit, ToolSchema};
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
    for line in std::io::stdin().lock().lines() {
        // A message that cannot be read gets the error response `from_json` gives.
        let reply = match ClientMessage::from_json(&line?) {
            Ok(message) => handle(message, &mut waiting),
            Err(reply) => Some(reply),
        };
        if let Some(reply) = reply {
            writeln!(out, "{}", serde_json::to_string(&reply)?)?;
            out.flush()?;
        }
    }
    Ok(())
}

fn handle(message: ClientMessage, waiting: &mut Vec<Waiting>) -> Option<ServerMessage> {
    let request = match message {
        ClientMessage::Request(request) => request,
        ClientMessage::Response(answer) => return answered(answer, waiting),
        ClientMessage::Notification(_) | ClientMessage::Error(_) => return None,
    };
    let id = ClientMessage::request_id(&request)?;
    Some(match request {
        ClientRequest::Initialize(_) => ServerMessage::response(
            id,
            InitializeResult::new(
                ServerCapabilities::new().with_tools(ServerCapabilitiesTools::new()),
                "2025-11-25",
                Implementation::new("booking-server", "0.1.0"),
            ),
        ),
        ClientRequest::Ping(_) => ServerMessage::response(id, McpResult::new()),
        ClientRequest::ListTools(_) => ServerMessage::response(id, ListToolsResult::new(tools())),
        ClientRequest::CallTool(call) => {
            let args = call.params.arguments.as_ref();
            let date = args.and_then(|a| a.get("date")?.as_str()).unwrap_or("");
            let params = match call.params.name.as_str() {
                "book_table" if date == "2026-12-24" => {
                    Alternative::typed_form_params::<V2025_11_25>("2026-12-24 is full.")
                }
                "book_table" => return Some(reply(id, format!("Booked a table for {date}."))),
                "survey" => Survey::typed_form_params::<V2025_11_25>("A few questions"),
                _ => return Some(ServerMessage::error(Some(id), INVALID_PARAMS, "no tool")),
            };
            let form = RequestId::from(format!("form-{id}"));
            waiting.push(Waiting(form.clone(), id, call.params.name == "survey"));
            let params = params.expect("the forms render for 2025-11-25");
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

fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::new(vec![TextContent::new(s).into()])
}

fn reply(id: RequestId, s: impl Into<String>) -> ServerMessage {
    ServerMessage::response(id, text(s))
}

fn tools() -> Vec<Tool> {
    let date = json!({"type": "object", "properties": {"date": {"type": "string", "format": "date"}}, "required": ["date"]});
    vec![
        Tool::new(
            ToolInputSchema::from_json(date).expect("an object schema"),
            "book_table",
        )
        .with_description("Book a table; asks for another date when the day is full."),
        Tool::new(ToolInputSchema::new(), "survey").with_description("Asks a few questions."),
    ]
}
