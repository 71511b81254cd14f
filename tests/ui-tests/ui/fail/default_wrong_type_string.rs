use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = 5)]
    name: String,
}

fn main() {}
