use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit]
    name: String,
}

fn main() {}
