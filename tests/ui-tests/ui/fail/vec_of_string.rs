use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    tags: Vec<String>,
}

fn main() {}
