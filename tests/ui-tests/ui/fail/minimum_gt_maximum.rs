use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 10, maximum = 1)]
    guests: u8,
    #[elicit(minimum = 0.5, maximum = -0.5)]
    ratio: f64,
}

fn main() {}
