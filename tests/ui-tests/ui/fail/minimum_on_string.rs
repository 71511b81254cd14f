use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 1, maximum = 10)]
    name: String,
}

fn main() {}
