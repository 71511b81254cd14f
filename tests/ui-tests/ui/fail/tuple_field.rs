use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    point: (u8, u8),
}

fn main() {}
