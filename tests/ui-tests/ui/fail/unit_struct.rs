use mcp_types::Elicit;

#[derive(Elicit)]
struct Form;

fn main() {}
