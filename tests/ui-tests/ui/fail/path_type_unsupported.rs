use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    timeout: std::time::Duration,
    initial: char,
}

fn main() {}
