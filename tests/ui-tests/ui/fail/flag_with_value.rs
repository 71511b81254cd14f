use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(not_sensitive = true)]
    token: String,
}

fn main() {}
