use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email")]
    agree: bool,
}

fn main() {}
