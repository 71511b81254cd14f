use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    name: Box<String>,
    alias: Box<str>,
}

fn main() {}
