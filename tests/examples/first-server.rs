use mcp_typed::session::{Context, Handler, Info, Refusal, ServerSession};
use mcp_typed::{Elicit, ElicitOutcome, v2025_11_25 as mcp};

#[derive(Elicit)]
struct Guests {
    /// How many guests?
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

struct Booking; // the server's logic, written once for every revision
impl Handler for Booking {
    fn request(
        &mut self,
        request: &mcp::ClientRequest,
        cx: &mut Context<'_>,
    ) -> Result<mcp::ServerResult, Refusal> {
        match request {
            mcp::ClientRequest::ListTools(_) => {
                let book = mcp::Tool::new("book", mcp::ToolInputSchema::new());
                Ok(mcp::ListToolsResult::new(vec![book.with_description("Books a table")]).into())
            }
            mcp::ClientRequest::CallTool(call) if call.params.name == "book" => {
                let text = match cx.elicit::<Guests>("For how many?")? {
                    ElicitOutcome::Accepted(guests) => format!("Booked for {}.", guests.count),
                    ElicitOutcome::Declined | ElicitOutcome::Cancelled => "Not booked.".into(),
                };
                Ok(mcp::CallToolResult::text(text).into())
            }
            other => Err(Refusal::method_not_found(other.method())),
        }
    }
}

fn main() -> std::io::Result<()> {
    let tools = mcp::ServerCapabilities::new().with_tools(mcp::ServerCapabilitiesTools::new());
    let info = Info::new(mcp::Implementation::new("booking", "1.0"), tools);
    ServerSession::new(info, Booking).serve_stdio()
}
