use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    name: &'static str,
}

fn main() {}
