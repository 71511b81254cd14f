use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    point: (u8, u8),
}

fn main() {}
