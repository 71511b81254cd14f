use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(min_length = 1)]
    age: u8,
}

fn main() {}
