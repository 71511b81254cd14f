use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(min_revision = "2025-03-26")]
struct Form {
    email: Option<String>,
}

fn main() {}
