use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    big: i128,
    huge: u128,
}

fn main() {}
