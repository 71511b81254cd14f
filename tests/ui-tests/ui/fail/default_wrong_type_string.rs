use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = 5)]
    name: String,
}

fn main() {}
