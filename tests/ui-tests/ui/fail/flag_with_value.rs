use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(not_sensitive = true)]
    token: String,
}

fn main() {}
