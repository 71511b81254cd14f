use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = -1)]
    guests: u8,
    #[elicit(maximum = 200)]
    small: i8,
}

fn main() {}
