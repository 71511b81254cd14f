use mcp_types::Elicit;

#[derive(Elicit)]
struct Form(String, u8);

fn main() {}
