use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit]
    name: String,
}

fn main() {}
