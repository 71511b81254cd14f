use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    name: &'static str,
}

fn main() {}
