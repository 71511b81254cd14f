use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(default = "yes")]
    agree: bool,
}

fn main() {}
