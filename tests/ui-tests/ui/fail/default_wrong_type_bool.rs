use mcp_types::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = "yes")]
    agree: bool,
}

fn main() {}
