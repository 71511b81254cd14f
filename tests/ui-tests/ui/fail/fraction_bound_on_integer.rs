use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 0.5)]
    guests: u8,
}

fn main() {}
