use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email")]
    agree: bool,
}

fn main() {}
