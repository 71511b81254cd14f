use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(min_revision = 2025_06_18)]
struct Form {
    #[elicit(since = 2025)]
    email: Option<String>,
    #[elicit(since)]
    phone: Option<String>,
    #[elicit(since("2025-11-25"))]
    note: Option<String>,
    #[elicit(since = "2025-11-25", since = "2026-07-28")]
    city: Option<String>,
}

fn main() {}
