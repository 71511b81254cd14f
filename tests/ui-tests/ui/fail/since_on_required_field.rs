use mcp_typed::Elicit;

#[derive(Elicit)]
enum Extra {
    Meal,
    Wifi,
}

#[derive(Elicit)]
struct Form {
    // Required: older revisions could not leave it out.
    #[elicit(since = "2025-11-25")]
    nickname: String,
    #[elicit(since = "2025-11-25", min_items = 1)]
    extras: Vec<Extra>,
    // Not required: allowed.
    #[elicit(since = "2025-11-25")]
    email: Option<String>,
    #[elicit(since = "2025-11-25", default = 2)]
    guests: u8,
}

fn main() {}
