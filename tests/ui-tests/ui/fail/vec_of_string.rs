use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    tags: Vec<String>,
}

fn main() {}
