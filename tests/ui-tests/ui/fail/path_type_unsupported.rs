use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    timeout: std::time::Duration,
    initial: char,
}

fn main() {}
