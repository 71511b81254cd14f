use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = 2.5)]
    guests: u8,
    #[elicit(default = true)]
    budget: f64,
}

fn main() {}
