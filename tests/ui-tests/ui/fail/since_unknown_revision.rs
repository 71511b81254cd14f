use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(min_revision = "latest")]
struct Form {
    #[elicit(since = "2025-11-26")]
    email: Option<String>,
    #[elicit(since = "2025-11")]
    phone: Option<String>,
    #[elicit(since = "draft")]
    note: Option<String>,
}

fn main() {}
