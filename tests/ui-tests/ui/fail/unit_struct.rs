use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form;

fn main() {}
