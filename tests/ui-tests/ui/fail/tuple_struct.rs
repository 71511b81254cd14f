use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form(String, u8);

fn main() {}
