//! An [rmcp](https://docs.rs/rmcp) stdio server whose tool asks for a `#[derive(Elicit)]` form:
//! `book_table(date)` asks who is coming, in the revision the client negotiated, and books
//! the table with the typed answer. Run: `cargo run -p mcp-tests --example rmcp-server`.

use mcp_typed::rmcp::ElicitExt;
use mcp_typed::{Elicit, ElicitOutcome};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{Peer, RoleServer, ServiceExt, schemars, tool, tool_router};

// The form: checked by the derive at compile time, and every answer against it.
/// Who is coming
#[derive(Elicit, Debug)]
#[elicit(rename_all = "camelCase")]
pub struct Booking {
    /// Name for the reservation
    #[elicit(min_length = 1, max_length = 40)]
    name: String,
    /// How many people
    #[elicit(minimum = 1, maximum = 12)]
    guests: u8,
    /// A table outside?
    #[elicit(default = false)]
    terrace: bool,
    /// Budget per person, in euros
    #[elicit(minimum = 0)]
    budget: Option<f64>,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct BookTable {
    /// The day, as YYYY-MM-DD
    date: String,
}

#[derive(Clone)]
struct Restaurant;

#[tool_router(server_handler)]
impl Restaurant {
    #[tool(description = "Book a table; asks who is coming")]
    async fn book_table(
        &self,
        peer: Peer<RoleServer>,
        Parameters(BookTable { date }): Parameters<BookTable>,
    ) -> CallToolResult {
        let message = format!("Booking a table on {date}: who is coming?");
        let text = match peer.elicit_form::<Booking>(message).await {
            Ok(ElicitOutcome::Accepted(b)) => format!(
                "Booked {date} for {} ({} guests, terrace: {}, budget: {}).",
                b.name,
                b.guests,
                b.terrace,
                b.budget.map_or("none".to_owned(), |b| format!("{b} EUR")),
            ),
            Ok(ElicitOutcome::Declined) => "Not booked: you declined.".to_owned(),
            Ok(ElicitOutcome::Cancelled) => "Not booked: you cancelled.".to_owned(),
            Err(e) => return CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        };
        CallToolResult::success(vec![ContentBlock::text(text)])
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Restaurant.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
