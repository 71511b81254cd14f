use mcp_types::Elicit;

#[derive(Elicit)]
enum Nothing {}

fn main() {}
