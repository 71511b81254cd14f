use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 1, maximum = 12, default = 20)]
    guests: u8,
    #[elicit(minimum = 0, maximum = 1, default = 1.5)]
    ratio: f64,
}

fn main() {}
