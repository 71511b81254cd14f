use mcp_typed::Elicit;

#[derive(Elicit)]
enum Nothing {}

fn main() {}
