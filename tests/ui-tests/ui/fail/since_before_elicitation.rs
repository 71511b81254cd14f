use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    // Every revision with forms has these fields: `since` would change nothing.
    #[elicit(since = "2025-06-18")]
    email: Option<String>,
    #[elicit(since = "2024-11-05")]
    phone: Option<String>,
}

fn main() {}
