//! The `ask` and `book` tools of the session tests (`tests/tests/session/client_session.rs`,
//! `server_rules.rs`): a form asking how many guests, and a tool reading that as arguments.

use mcp_typed::session::{Context, Refusal};
use mcp_typed::v2025_11_25 as mcp;
use mcp_typed::{Elicit, ElicitOutcome};

/// The form `ask` asks for.
#[derive(Elicit)]
pub struct Guests {
    /// How many guests?
    #[elicit(minimum = 1, maximum = 12)]
    pub count: u8,
}

/// `book`'s arguments.
#[derive(serde::Deserialize)]
struct Booking {
    guests: u8,
}

/// `ask`: asks for [`Guests`] and says `N guests`, `declined` or `cancelled`.
pub fn ask(cx: &mut Context<'_>) -> Result<mcp::ServerResult, Refusal> {
    let text = match cx.elicit::<Guests>("How many?")? {
        ElicitOutcome::Accepted(g) => format!("{} guests", g.count),
        ElicitOutcome::Declined => "declined".to_owned(),
        ElicitOutcome::Cancelled => "cancelled".to_owned(),
    };
    Ok(mcp::CallToolResult::text(text).into())
}

/// `book`: echoes its `guests` argument (`N guests`), read with `?` (arguments without a
/// number of guests are refused).
pub fn book(call: &mcp::CallToolRequest) -> Result<mcp::ServerResult, Refusal> {
    let booking: Booking = call.params.arguments_as()?;
    Ok(mcp::CallToolResult::text(format!("{} guests", booking.guests)).into())
}
