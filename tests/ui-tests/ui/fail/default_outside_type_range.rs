use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = 300)]
    guests: u8,
    #[elicit(default = -1)]
    count: u32,
}

fn main() {}
