//! An MCP server serving 2025-06-18, 2025-11-25 and 2026-07-28 from one handler written against
//! 2025-11-25 types ([`mcp_typed::session::ServerSession`]): `book_table(date)` (2026-12-24 is
//! full: it asks for another date with a form), `survey` (a form of every primitive kind), the
//! resource `booking://menu` and the prompt `plan_dinner(guests)`.
//!
//! Run: `cargo run -p mcp-tests --example booking-server` (stdio), or `… -- --http
//! 127.0.0.1:3000` (Streamable HTTP at `/mcp`, by `support/streamable_http.rs`).

#[path = "support/streamable_http.rs"]
mod streamable_http;

use chrono::NaiveDate;
use mcp_typed::elicit::ElicitOutcome;
use mcp_typed::session::{Context, Handler, Info, Refusal, ServerSession};
use mcp_typed::{Elicit, IndexMap, ProtocolVersion, ToolSchema, v2025_11_25 as mcp};
use serde_json::json;

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

fn main() -> std::io::Result<()> {
    match std::env::args().skip_while(|a| a != "--http").nth(1) {
        Some(addr) => streamable_http::serve(addr.parse().map_err(std::io::Error::other)?, session),
        None => session().serve_stdio(),
    }
}

fn session() -> ServerSession<Booking> {
    let capabilities = mcp::ServerCapabilities::new()
        .with_tools(mcp::ServerCapabilitiesTools::new())
        .with_resources(mcp::ServerCapabilitiesResources::new())
        .with_prompts(mcp::ServerCapabilitiesPrompts::new());
    let me = mcp::Implementation::new("booking-server", "0.1.0");
    let versions = [
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];
    ServerSession::new(Info::new(me, capabilities).with_versions(versions), Booking)
}

impl streamable_http::Session for ServerSession<Booking> {
    fn receive(&mut self, message: &str) -> Vec<String> {
        ServerSession::receive(self, message)
    }
}

struct Booking;

impl Handler for Booking {
    fn request(
        &mut self,
        request: &mcp::ClientRequest,
        cx: &mut Context<'_>,
    ) -> Result<mcp::ServerResult, Refusal> {
        use mcp::ClientRequest as R;
        Ok(match request {
            R::ListTools(_) => mcp::ListToolsResult::new(tools()).into(),
            R::CallTool(call) => call_tool(&call.params, cx)?.into(),
            R::ListResources(_) => {
                let menu = mcp::Resource::new("menu", MENU).with_mime_type("text/plain");
                mcp::ListResourcesResult::new(vec![menu.with_description("Tonight's menu")]).into()
            }
            // It declares `resources`, whose methods include the templates list: none here.
            R::ListResourceTemplates(_) => mcp::ListResourceTemplatesResult::new(vec![]).into(),
            R::ReadResource(r) if r.params.uri == MENU => {
                let text = "Soup of the day 6.50\nRisotto 14.00\nTiramisu 7.25";
                let menu = mcp::TextResourceContents::new(MENU, text).with_mime_type("text/plain");
                mcp::ReadResourceResult::new(vec![menu.into()]).into()
            }
            R::ReadResource(r) => {
                return Err(Refusal::invalid_params(format!(
                    "no resource `{}`",
                    r.params.uri
                )));
            }
            R::ListPrompts(_) => {
                let guests = mcp::PromptArgument::new("guests").with_description("How many people");
                let prompt = mcp::Prompt::new("plan_dinner")
                    .with_arguments(vec![guests.with_required(true)]);
                mcp::ListPromptsResult::new(vec![prompt.with_description("Plans a dinner out.")])
                    .into()
            }
            R::GetPrompt(p) => mcp::GetPromptResult::new(vec![mcp::PromptMessage::new(
                mcp::Role::User,
                mcp::TextContent::new(prompt_text(&p.params.name, p.params.arguments.as_deref())?),
            )])
            .into(),
            other => return Err(Refusal::method_not_found(other.method())),
        })
    }
}

fn tools() -> Vec<mcp::Tool> {
    let date = json!({"type": "object", "properties": {"date": {"type": "string", "format": "date"}}, "required": ["date"]});
    let date = mcp::ToolInputSchema::from_json(date).expect("an object schema");
    vec![
        mcp::Tool::new("book_table", date)
            .with_description("Books a table, or asks for another date."),
        mcp::Tool::new("survey", mcp::ToolInputSchema::new())
            .with_description("Asks a few questions."),
    ]
}

/// `book_table`'s arguments.
#[derive(serde::Deserialize)]
struct Table {
    date: String,
}

fn call_tool(
    call: &mcp::CallToolRequestParams,
    cx: &mut Context<'_>,
) -> Result<mcp::CallToolResult, Refusal> {
    let text = match call.name.as_str() {
        "book_table" => {
            // No `date`, or not a string: `?` makes it a tool error that names it.
            let Table { date } = call.arguments_as()?;
            if date.parse::<NaiveDate>().is_err() {
                let error = format!("`date` must be a date (YYYY-MM-DD), not `{date}`.");
                return Ok(mcp::CallToolResult::error(error));
            }
            if date != FULL {
                format!("Booked a table for {date}.")
            } else {
                match cx.elicit::<Alternative>(format!("{FULL} is full."))? {
                    ElicitOutcome::Accepted(a) if a.check_alternative => {
                        format!("Booked a table for {}.", a.alternative_date)
                    }
                    _ => "Nothing was booked.".to_owned(),
                }
            }
        }
        "survey" => match cx.elicit::<Survey>("A few questions")? {
            ElicitOutcome::Accepted(s) => format!(
                "{}, {} years, {} m, subscribe: {}, {:?}, {:?}",
                s.name, s.age, s.height_m, s.subscribe, s.color, s.toppings
            ),
            _ => "No answers.".to_owned(),
        },
        name => return Err(Refusal::invalid_params(format!("no tool `{name}`"))),
    };
    Ok(mcp::CallToolResult::text(text).with_is_error(false))
}

fn prompt_text(name: &str, args: Option<&IndexMap<String, String>>) -> Result<String, Refusal> {
    match (name, args.and_then(|a| a.get("guests"))) {
        ("plan_dinner", Some(n)) => Ok(format!("Book a table for {n} and choose from {MENU}.")),
        ("plan_dinner", None) => Err(Refusal::invalid_params(
            "prompt `plan_dinner` needs the argument `guests`",
        )),
        _ => Err(Refusal::invalid_params(format!("no prompt `{name}`"))),
    }
}
